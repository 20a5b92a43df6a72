// L0/ConstantMemory: reads of a 16 KiB __constant table, uniform across a group (broadcast) or
// divergent (each work item its own word). Bytes per unit: 4 per load delivered to a work item.
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/local_memory.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kWords = 4096, kUnroll = 16, kGroupSize = 256, kGroupsPerCU = 8;
const gb::Axis<bool> kAccess{"access", {{false, "uniform"}, {true, "divergent"}}};  // divergent

struct Params {
  bool divergent;
  int size_class;
  size_t rounds() const {
    static const size_t by_class[] = {16, 128, 512, 512};
    return by_class[size_class - 1];
  }
  ref::ConstantRead layout() const { return {kWords, kUnroll, rounds(), divergent}; }
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t work_items = 0, group = 0;
  std::vector<float> table;
  cl::Kernel kernel;
  cl::Buffer in, out;
};

// The one program of a configuration: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  return {"l0/constant_memory.cl", "-DCONST_WORDS=" + std::to_string(kWords) + " -DUNROLL=" +
                                       std::to_string(kUnroll) + (p.divergent ? " -DDIVERGENT" : "")};
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->kernel = s.kernel(program_of(p), "constant_memory_read");
  fx->group = std::min({kGroupSize, s.kernel_work_group_size(fx->kernel), s.info().max_work_item_sizes[0]});
  fx->work_items = s.info().compute_units * kGroupsPerCU * fx->group;
  fx->table = gb::random_vector<float>(kWords, 31);
  fx->in = gb::upload(fx->table, CL_MEM_READ_ONLY);
  fx->out = gb::make_buffer(fx->work_items * sizeof(float));
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, static_cast<cl_uint>(p.rounds()));
  return fx;
}

gb::Check verify(const Fixture& fx, const Params& p) {
  const auto per_lid = ref::constant_read_sums(fx.table, p.layout(), fx.group);
  std::vector<float> want(fx.work_items);
  for (size_t gid = 0; gid < fx.work_items; ++gid) want[gid] = per_lid[gid % fx.group];
  // Each work item on its own, within 1e-6 of the sum of its loads' magnitudes (table in [-1, 1)).
  const double loads = static_cast<double>(p.rounds() * kUnroll);
  return gb::check_bounded(gb::read_back<float>(fx.out, fx.work_items), want, 1e-6 * loads, "constant sums");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, cl::NDRange(fx.work_items), cl::NDRange(fx.group)); };
  const double loads = static_cast<double>(fx.work_items) * p.rounds() * kUnroll;
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().bytes(loads * sizeof(float)).items(loads))
                         .poison(fx.out, fx.work_items * sizeof(float))
                         .check([&] { return verify(fx, p); }));
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  const Params p{false, size_class};
  gb::PathSet paths{"uniform and divergent lanes"};
  gb::path_if(paths, p.rounds() >= 2, "2+ rounds");
  return paths;
}

void register_constant_memory() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/ConstantMemory", code_paths);
  cl_ulong max_constant = 0;
  GB_CL(gb::session().device().getInfo(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, &max_constant));
  for (bool divergent : kAccess.all()) {
    Params p{divergent, size};
    auto name = gb::bench_name("L0/ConstantMemory/read", {kAccess.part(divergent), {"size", std::to_string(size)}});
    if (max_constant < kWords * sizeof(float))
      gb::skip_variant(name, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE below 16 KiB");
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
  }
}
GB_CASE(register_constant_memory);

}  // namespace
