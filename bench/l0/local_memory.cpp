// L0/LocalMemory: local (shared) memory read bandwidth, float/float2/float4, and a bank-conflict
// sweep of the stride between lanes (1 to 32 floats). Bytes per unit: every load, rounds *
// UNROLL elements per work item (the copy-in and one float written per work item are left out).
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/local_memory.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kGroupSize = 256;
constexpr size_t kGroupsPerCU = 8;
constexpr size_t kWarp = 32, kUnroll = 16, kRotate = 4;  // the kernel's defaults, passed explicitly

struct Params {
  int width;  // floats per element
  int stride;
  int size_class;
  std::string type() const { return width == 1 ? "float" : "float" + std::to_string(width); }
  // Round r reads start position r % kRotate: size 1's 17 rounds are no whole number of
  // rotations, so a lane's sum is no multiple of any fewer rounds' (fewer rounds scaled up fail).
  size_t rounds() const {
    static const size_t by_class[] = {17, 256, 1024, 1024};
    return by_class[size_class - 1];
  }
  ref::LocalRead layout() const {
    return {static_cast<size_t>(width), static_cast<size_t>(stride), kWarp, kUnroll, kRotate, rounds()};
  }
  size_t local_bytes() const { return ref::local_read_elements(layout()) * width * sizeof(float); }
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t work_items = 0, group = 0;
  std::vector<float> input;
  cl::Kernel kernel;
  cl::Buffer in, out;
};

// The one program of a configuration: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  return {"l0/local_memory.cl", "-DTYPE=" + p.type() + " -DWIDTH=" + std::to_string(p.width) +
                                    " -DSTRIDE=" + std::to_string(p.stride) + " -DWARP=" + std::to_string(kWarp) +
                                    " -DUNROLL=" + std::to_string(kUnroll) + " -DROTATE=" + std::to_string(kRotate)};
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const auto l = p.layout();
  fx->kernel = s.kernel(program_of(p), "local_memory_read");
  fx->group = std::min({kGroupSize, s.kernel_work_group_size(fx->kernel), s.info().max_work_item_sizes[0]});
  fx->work_items = s.info().compute_units * kGroupsPerCU * fx->group;
  fx->input = gb::random_vector<float>(ref::local_read_elements(l) * p.width, 21);
  fx->in = gb::upload(fx->input, CL_MEM_READ_ONLY);
  fx->out = gb::make_buffer(fx->work_items * sizeof(float));
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, static_cast<cl_uint>(l.rounds));
  return fx;
}

gb::Check verify(const Fixture& fx, const Params& p) {
  const auto lanes = ref::local_read_lane_sums(fx.input, p.layout());
  std::vector<float> want(fx.work_items);
  for (size_t gid = 0; gid < fx.work_items; ++gid) want[gid] = lanes[(gid % fx.group) % kWarp];
  // The kernel's float additions, replayed in the same order: equal up to denormal flushing. Each
  // work item on its own, within 1e-6 of the sum of its loads' magnitudes (inputs in [-1, 1)).
  const double loads = static_cast<double>(p.rounds() * kUnroll * p.width);
  return gb::check_bounded(gb::read_back<float>(fx.out, fx.work_items), want, 1e-6 * loads, "lane sums");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, cl::NDRange(fx.work_items), cl::NDRange(fx.group)); };
  const double loads = static_cast<double>(fx.work_items) * p.rounds() * kUnroll;
  auto m = gb::Measurement::device(unit)
               .work(gb::Work().bytes(loads * p.width * sizeof(float)).items(loads))
               .poison(fx.out, fx.work_items * sizeof(float))
               .check([&] { return verify(fx, p); });
  if (p.width == 1) m.counter("conflict_ways", std::min(p.stride, 32));  // 32 banks of 4 B
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  const Params p{1, 1, size_class};
  gb::PathSet paths;
  gb::path_if(paths, p.rounds() >= kRotate, "every start position (rounds >= ROTATE)");
  gb::path_if(paths, p.rounds() >= 2, "2+ rounds");
  return paths;
}

void register_local_memory() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/LocalMemory", code_paths);
  std::vector<Params> all;
  for (int stride : {1, 2, 4, 8, 16, 32}) all.push_back({1, stride, size});
  all.push_back({2, 1, size});
  all.push_back({4, 1, size});
  for (const Params& p : all) {
    auto name = gb::bench_name("L0/LocalMemory/read", {{"type", p.type()},
                                                        {"stride", std::to_string(p.stride)},
                                                        {"size", std::to_string(size)}});
    if (p.local_bytes() > gb::session().info().local_mem_bytes)
      gb::skip_variant(name, "needs " + std::to_string(p.local_bytes()) + " bytes of local memory");
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
  }
}
GB_CASE(register_local_memory);

}  // namespace
