// L0/Latency and L0/CacheBandwidth: dependent-load latency over a random single cycle and read
// bandwidth by working set (1 KiB to past the last-level cache). Latency: one load per step;
// bandwidth: bytes read per unit (LOADS elements per work item, plus one float written each).
#include <algorithm>
#include <memory>

#include "bytes_label.hpp"
#include "gpu_bench.hpp"
#include "reference/memory_hierarchy.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kLineBytes = 128;  // chase granularity: NVIDIA's L1 line (4 x 32 B L2 sectors)
constexpr size_t kLineWords = kLineBytes / sizeof(cl_uint);
constexpr size_t kGroupSize = 256;   // memory_hierarchy_read's work group
constexpr size_t kGroupsPerCU = 8;   // 2048 work items per compute unit: a full NVIDIA SM
constexpr size_t kElementBytes = 16; // float4 loads

// Working sets: 1 KiB (latency) or 4 KiB (bandwidth), doubling up to 64 MiB (size 2), 256 MiB
// (size 3: past a 60 MB L2, so the last points are DRAM) or 1 GiB (size 4); size 1 (PoCL in
// CI) quadruples up to 4 MiB.
std::vector<size_t> working_sets(size_t first, int size_class) {
  static const size_t last_by_class[] = {4u << 20, 64u << 20, 256u << 20, size_t(1) << 30};
  std::vector<size_t> sets;
  for (size_t ws = first; ws <= last_by_class[size_class - 1]; ws *= size_class == 1 ? 4 : 2)
    sets.push_back(ws);
  return sets;
}

// Chase steps per kernel: at least 256 passes over a small cycle, so the cold misses of each
// kernel's first pass (a compute unit's L1 starts cold in every kernel) weigh little; plus 8, so
// that the walk never ends where it started: whole passes over the cycle would end at node 0
// whatever their number, and a kernel taking fewer steps would still match.
uint32_t chase_steps(size_t nodes, int size_class) {
  const size_t lo = size_class == 1 ? 4096 : 65536, hi = size_class == 1 ? 32768 : 262144;
  return static_cast<uint32_t>(std::clamp<size_t>(256 * nodes, lo, hi) / 8 * 8 + 8);
}

// Loads per work item in the bandwidth kernel: a unit of ~4 GB at size 3.
int read_loads(int size_class) {
  static const int by_class[] = {64, 256, 1024, 1024};
  return by_class[size_class - 1];
}

// The programs of the two kernels, built by make_chase and make_read, declared at registration.
gb::ProgramKey chase_program() { return {"l0/memory_hierarchy.cl", ""}; }
gb::ProgramKey read_program(int size_class) {
  return {"l0/memory_hierarchy.cl", "-DTYPE=float4 -DWIDTH=4 -DLOADS=" + std::to_string(read_loads(size_class))};
}

// ---- pointer chase ----------------------------------------------------------------------------
struct ChaseFixture {
  size_t nodes = 0;
  uint32_t steps = 0;
  std::vector<uint32_t> next;  // node -> node (a single cycle)
  cl::Kernel kernel;
  cl::Buffer chain, last;
};

std::unique_ptr<ChaseFixture> make_chase(size_t ws, int size_class) {
  auto fx = std::make_unique<ChaseFixture>();
  fx->nodes = ws / kLineBytes;
  fx->steps = chase_steps(fx->nodes, size_class);
  fx->next = ref::sattolo_cycle(fx->nodes, 0x5A77010 + ws);
  // One node per line: word 0 of line i holds the word index of line next[i]; the rest of the
  // line is random filler that is never read.
  auto chain = gb::random_vector<uint32_t>(ws / sizeof(uint32_t), 7, 0, 0x7FFFFFFF);
  for (size_t i = 0; i < fx->nodes; ++i) chain[i * kLineWords] = static_cast<uint32_t>(fx->next[i] * kLineWords);
  fx->chain = gb::upload(chain, CL_MEM_READ_ONLY);
  fx->last = gb::make_buffer(sizeof(cl_uint));
  fx->kernel = gb::session().kernel(chase_program(), "memory_hierarchy_chase");
  GB_SET_ARGS(fx->kernel, fx->chain, fx->last, static_cast<cl_uint>(fx->steps));
  return fx;
}

// The word index the last step lands on, against the host's walk of the same cycle.
gb::Check verify_chase(const ChaseFixture& fx) {
  const uint32_t want = ref::chase(fx.next, 0, fx.steps) * kLineWords;
  return gb::check_exact(gb::read_back<uint32_t>(fx.last, 1), std::vector<uint32_t>{want}, "chase end");
}

void run_chase(benchmark::State& state, size_t ws, int size_class) {
  auto& fx = gb::cached_fixture<ChaseFixture>(gb::name_key(), [&] { return make_chase(ws, size_class); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, cl::NDRange(1), cl::NDRange(1)); };
  const gb::Result r = gb::measure(state, gb::Measurement::device(unit)
                                              .work(gb::Work().items(fx.steps))  // items: dependent loads
                                              .poison(fx.last, sizeof(cl_uint))
                                              .check([&] { return verify_chase(fx); })
                                              .counter("working_set_bytes", static_cast<double>(ws)));
  const double step_seconds = r.unit_seconds / fx.steps;
  state.counters["latency_ns"] = step_seconds * 1e9;
  // Cycles at CL_DEVICE_MAX_CLOCK_FREQUENCY: the clock the device may be below at the time.
  state.counters["latency_cycles"] = step_seconds * gb::session().info().max_clock_mhz * 1e6;
}

// ---- read bandwidth by working set ------------------------------------------------------------
struct ReadFixture {
  ref::WorkingSetRead layout{};
  size_t work_items = 0;
  std::vector<float> input;
  cl::Kernel kernel;
  cl::Buffer in, sums;
  cl::NDRange global, local;
};

std::unique_ptr<ReadFixture> make_read(size_t ws, int size_class) {
  auto& s = gb::session();
  auto fx = std::make_unique<ReadFixture>();
  const int loads = read_loads(size_class);
  fx->kernel = s.kernel(read_program(size_class), "memory_hierarchy_read");
  const size_t group = std::min({kGroupSize, s.kernel_work_group_size(fx->kernel), s.info().max_work_item_sizes[0]});
  const size_t groups = s.info().compute_units * kGroupsPerCU;
  fx->work_items = groups * group;
  const size_t elements = ws / kElementBytes;
  fx->layout = {4, elements, group, (elements / groups) / 32 * 32, static_cast<size_t>(loads)};
  fx->input = gb::random_vector<float>(ws / sizeof(float), 11);
  fx->in = gb::upload(fx->input, CL_MEM_READ_ONLY);
  fx->sums = gb::make_buffer(fx->work_items * sizeof(float));
  GB_SET_ARGS(fx->kernel, fx->in, fx->sums, static_cast<cl_uint>(elements - 1), static_cast<cl_uint>(fx->layout.seg));
  fx->global = cl::NDRange(fx->work_items);
  fx->local = cl::NDRange(group);
  return fx;
}

// Every work item's sum on a small device; an even sample of at most 4096 of them on a large one.
gb::Check verify_read(const ReadFixture& fx) {
  auto sums = gb::download<float>(fx.sums, fx.work_items);
  const size_t step = std::max<size_t>(1, fx.work_items / 4096);
  std::vector<float> got;
  std::vector<double> want;
  for (size_t gid = 0; gid < fx.work_items; gid += step) {
    got.push_back(sums[gid]);
    want.push_back(ref::working_set_read_sum(fx.input, fx.layout, gid));
  }
  // Each sum on its own: per lane `loads` multiply-adds of values in [-1, 1) with weights below 1
  // (a multiply and an add rounded per step, fused or not), then the 4 lanes added.
  const double terms = 4.0 * fx.layout.loads;
  return gb::check_bounded(got, want, gb::sum_error_bound(2.0 * fx.layout.loads + 2, terms, gb::unit_roundoff<float>()),
                           "working-set read sums");
}

void run_read(benchmark::State& state, size_t ws, int size_class) {
  auto& fx = gb::cached_fixture<ReadFixture>(gb::name_key(), [&] { return make_read(ws, size_class); });
  const double loads = static_cast<double>(fx.work_items) * fx.layout.loads;
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().bytes(loads * kElementBytes + fx.work_items * sizeof(float)).items(loads))
                         .poison(fx.sums, fx.work_items * sizeof(float))
                         .check([&] { return verify_read(fx); })
                         .counter("working_set_bytes", static_cast<double>(ws)));
}

// ---- registration ----------------------------------------------------------------------------
// The chase's unrolled loop, and where the read kernel's walks fall, over the working sets of a
// size class (groups of 256, 8 per compute unit).
gb::PathSet code_paths(int size_class, size_t compute_units) {
  gb::PathSet paths;
  for (size_t ws : working_sets(1024, size_class)) {
    const size_t nodes = ws / kLineBytes, steps = chase_steps(nodes, size_class);
    gb::path_if(paths, steps / 8 >= 2, "chase: 8 steps per trip, 2+ trips");
    gb::path_if(paths, steps % nodes != 0, "chase: ends off the start node");
  }
  const size_t groups = compute_units * kGroupsPerCU, loads = read_loads(size_class);
  for (size_t ws : working_sets(4096, size_class)) {
    const size_t elements = ws / kElementBytes, seg = (elements / groups) / 32 * 32;
    const size_t last = (groups - 1) * seg + kGroupSize - 1 + (loads - 1) * kGroupSize;
    gb::path_if(paths, seg == 0, "read: every group from the start (segments below 32)");
    gb::path_if(paths, seg > 0, "read: a segment per group");
    gb::path_if(paths, last >= elements, "read: walks wrap around the working set");
  }
  return paths;
}

void register_memory_hierarchy() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/MemoryHierarchy", code_paths);
  for (size_t ws : working_sets(1024, size)) {
    auto name = gb::bench_name("L0/MemoryHierarchy/pointer_chase", {{"ws", gb::bytes_label(ws)}, {"size", std::to_string(size)}});
    if (auto why = gb::memory_shortfall({ws}); !why.empty())  // the working set is in the name: skipped, never shrunk
      gb::skip_variant(name, why);
    else
      gb::add_benchmark(name, [ws, size](benchmark::State& st) { run_chase(st, ws, size); },
                        [] { return std::vector<gb::ProgramKey>{chase_program()}; });
  }
  for (size_t ws : working_sets(4096, size)) {
    auto name = gb::bench_name("L0/MemoryHierarchy/read", {{"type", "float4"}, {"ws", gb::bytes_label(ws)}, {"size", std::to_string(size)}});
    if (auto why = gb::memory_shortfall({ws}); !why.empty())
      gb::skip_variant(name, why);
    else
      gb::add_benchmark(name, [ws, size](benchmark::State& st) { run_read(st, ws, size); },
                        [size] { return std::vector<gb::ProgramKey>{read_program(size)}; });
  }
}
GB_CASE(register_memory_hierarchy);

}  // namespace
