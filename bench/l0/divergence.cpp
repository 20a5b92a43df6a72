// L0/Divergence: the cost of a branch that splits a warp. Lanes below `taken` of each 32 work items
// (warp scope) or of each 32 slices of the group (group scope) run one recurrence, the rest
// another of the same length: at taken 0 and 32 every warp is uniform, in between a warp that
// holds both runs both (about twice the time at warp scope; at group scope only the warp a
// boundary cuts). Items per unit: recurrence steps (work items * steps), the rate to compare with
// the uniform taken:0of32 and taken:32of32.
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/divergence.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kGroupSize = 256, kGroupsPerCU = 8;
const gb::Axis<bool> kScope{"", {{false, "warp"}, {true, "group"}}};  // group: lanes are slices of the group
const uint32_t kTaken[] = {0, 1, 8, 16, 24, 31, 32};                   // lanes of 32 that take the branch

struct Params {
  bool group_scope;
  uint32_t taken;
  int size_class;
  uint32_t steps() const {
    static const uint32_t by_class[] = {64, 512, 4096, 4096};
    return by_class[size_class - 1];
  }
};

std::string taken_label(uint32_t taken) { return std::to_string(taken) + "of32"; }

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t work_items = 0;
  std::vector<uint32_t> seeds;
  cl::Kernel kernel;
  cl::Buffer in, out;
};

// The one program of a scope: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) { return {"l0/divergence.cl", p.group_scope ? "-DGROUP_SCOPE" : ""}; }

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->kernel = s.kernel(program_of(p), "divergence");
  gb::require_work_group(fx->kernel, kGroupSize);
  fx->work_items = s.info().compute_units * kGroupsPerCU * kGroupSize;
  fx->seeds = gb::random_vector<uint32_t>(fx->work_items, 41, 0, 4294967295.0);
  fx->in = gb::upload(fx->seeds, CL_MEM_READ_ONLY);
  fx->out = gb::make_buffer(fx->work_items * sizeof(cl_uint));
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, static_cast<cl_uint>(p.taken), static_cast<cl_uint>(p.steps()));
  return fx;
}

// Every work item's value, exactly: a lane on the wrong path, or a path cut short, ends elsewhere.
gb::Check verify(const Fixture& fx, const Params& p) {
  const auto want = ref::divergence_results(fx.seeds, kGroupSize, p.group_scope, p.taken, p.steps());
  return gb::check_exact(gb::read_back<uint32_t>(fx.out, fx.work_items), want, "stepped values");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, cl::NDRange(fx.work_items), cl::NDRange(kGroupSize)); };
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().items(static_cast<double>(fx.work_items) * p.steps()))
                         .poison(fx.out, fx.work_items * sizeof(cl_uint))
                         .check([&] { return verify(fx, p); })
                         .counter("taken_lanes", p.taken));
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int, size_t) { return {"both branches in one warp", "uniform warps", "group scope"}; }

void register_divergence() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/Divergence", code_paths);
  for (bool group_scope : kScope.all())
    for (uint32_t taken : kTaken) {
      Params p{group_scope, taken, size};
      auto name = gb::bench_name("L0/Divergence", {kScope.part(group_scope), {"taken", taken_label(taken)},
                                                   {"size", std::to_string(size)}});
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
    }
}
GB_CASE(register_divergence);

}  // namespace
