// L1/Scan: exclusive prefix sum of n ints (wrapping uint arithmetic, exact) or floats: multi-level
// reduce-then-scan with a local-memory or sub-group scan, and single pass with decoupled look-back
// (tree scans per sub-tile, or 16 elements per work item scanned in registers, looking back one
// predecessor at a time or, lookback_window, a window of 32 per step; lookback_pipelined: persistent
// work groups, a few per compute unit, that load their next tile while looking back for the current one).
// Bytes per unit: 2 * n * 4 (read once, write once; the multi-level variants also re-read n).
#include <algorithm>
#include <memory>

#include "copy_bandwidth.hpp"
#include "gpu_bench.hpp"
#include "reference/scan.hpp"
#include "subgroups.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { local, subgroup, lookback, lookback_registers, lookback_window, lookback_pipelined };
const char* variant_name(Variant v) {
  static const char* names[] = {"local",           "subgroup",        "lookback", "lookback_registers",
                                "lookback_window", "lookback_pipelined"};
  return names[static_cast<int>(v)];
}

// lookback_registers, expected on the H200: copy_fraction 0.60-0.75 (the other variants: ~0.36).
// Their tiles pay ~70 barriers each (4 Blelloch trees of 16 steps), so a work group spends most
// of its time synchronising rather than keeping loads in flight; here a tile of 4096 costs ~6
// barriers, 16 local stores and loads per element for the transpose and one small raking scan,
// which leaves the kernel near memory bound. Not 0.9 (CUB-like) because one work item looks back
// serially through L2 (no sub-groups on NVIDIA OpenCL for a warp-wide look-back) and the transpose
// and look-back latencies are exposed with at most 8 groups per SM.
// lookback_window, expected on the H200: copy_fraction 0.6-0.8 if the serial walk is the limit
// (every variant measured 0.36-0.38, lookback_registers too): a late tile walks back through
// hundreds of aggregates, one dependent L2 load each, and stays resident for tens of us; 32 status
// words per step cut that ~32-fold. If it stays ~0.37 the walk was not the limit, and the bound is
// what all variants share: each tile's serial chain (ticket atomic, loads, barriers, stores)
// against the few tiles resident per SM, or load4/store4's code (vload4 may not become 128-bit
// loads). Next: Nsight Compute's stall reasons, achieved occupancy and the SASS of the loads.
// Measured (run 10): 0.58 int / 0.62 float at window 32, up from 0.37: the walk was the limit.
// window:WG (256 at size 3), expected 0.70-0.80: a wave of ~1000 resident tiles started together
// leaves the last one up to ~1000 aggregates from an inclusive prefix, 32 window steps of an L2
// round trip and 7 barriers each at window 32, 4 at 256 (the 256 status words are 2 KiB per step).
// Measured (run 11): window:256 0.48 / 0.53, below window:32 (0.58 / 0.62): the prediction
// missed. What bounds both is how fast the inclusive prefixes advance: a tile sees its nearest
// inclusive predecessor one L2 round trip (plus the window's barriers) after it was published,
// so the frontier moves at most one window per step, ~32 tiles per us, ~2 ms for 65536 tiles of
// 4096 (measured 1.65); a wider window costs more per step and meets unpublished tiles sooner.
// items:32 (tiles of 8192), expected 0.75-0.90: half the tiles for the frontier to cross, with
// 33 KiB of local memory per group (6 groups per SM) and 32 values in registers per work item.
// Measured (run 12): items:32 0.67 int / 0.635 float (items:16 0.58 / 0.62): +16% / +3%, not
// the 1.5-2x the frontier alone would give, so the cost of each look-back step counts too (the
// 256-word window, dearer per step, was slower). walk:serial, expected 0.72-0.80 at items:32: one
// work item walks the 32 words in local memory, 3 barriers per step instead of 7 and no atomics.
// Measured (run 13): walk:serial 0.45-0.64, no better. window:64 and 128 at items:32, expected
// 0.70-0.78 if the number of frontier steps bounds it (twice or four times the tiles per step),
// below 0.67 if each step's cost does (as window:256 at items:16 suggested).
// lookback_pipelined (groups_per_cu:4, window 32), expected on the H200: copy_fraction 0.72-0.85
// if memory-level parallelism is the bound: a persistent group issues the loads of its next tile
// before looking back for the current one, so loads stay in flight during the wait instead of
// only at each tile's start (window:32/items:32: 0.67 / 0.64, 4-6 tiles resident per SM, each
// waiting most of its ~18 us). No better than 0.67 if the look-back's own latency chain is the
// bound (the inclusive frontier advancing one window per L2 round trip): prefetching does not
// shorten it. items:32 here holds 64 values per work item in registers and may spill on NVIDIA.
// Measured (run 15): windows 64 / 128 at items:32 0.66 / 0.62 (int), below 32. After the kernels
// shared their tile code (run 17, 10 repetitions) window 32 at items:32 gives 0.677 int and
// 0.705 float (it was 0.671 / 0.637): code generation moves it by a few percent. Probes of the
// neighbourhood (run 18, not kept): window 16 the same (0.677 / 0.704), 24 items per work item
// (tiles of 6144) 0.54.
constexpr double kFloatMargin = 1e-5;  // float prefix sums against double, summation order differs

struct Params {
  Variant variant;
  bool is_int;
  int size_class;
  size_t window = 0;  // lookback_window: status words read per look-back step
  size_t items = 16;  // register variants: elements per work item (4 x SUBTILES)
  bool serial = false;  // lookback_window: one work item walks the window (else a tree sums it)
  size_t groups_per_cu = 0;  // lookback_pipelined: persistent work groups per compute unit
  std::string type() const { return is_int ? "int" : "float"; }
  std::string key() const {
    return std::string(variant_name(variant)) + type() + std::to_string(size_class) + "/" + std::to_string(window) +
           "/" + std::to_string(items) + (serial ? "/serial" : "") + "/g" + std::to_string(groups_per_cu);
  }
  // Class 1 uses small tiles (64 x 4) so that a million elements already take three levels.
  // The register variants keep 16 elements per work item at every class (class 1: 64 x 16 tiles).
  size_t work_group() const { return size_class == 1 ? 64 : 256; }
  bool in_registers() const {
    return variant == Variant::lookback_registers || variant == Variant::lookback_window ||
           variant == Variant::lookback_pipelined;
  }
  size_t subtiles() const { return in_registers() ? items / 4 : size_class == 1 ? 1 : 4; }
  bool is_lookback() const { return variant == Variant::lookback || in_registers(); }
  size_t tile() const { return work_group() * 4 * subtiles(); }
};

// Elements: class 1 is not a multiple of 4 or of the tile; 3 is 2^28 (1 GiB each way).
size_t element_count(int size_class) {
  static const size_t by_class[] = {1000003, size_t(1) << 24, size_t(1) << 28, size_t(1) << 29};
  const auto& d = gb::session().info();
  size_t n = by_class[size_class - 1];
  while (n * 4 > d.max_alloc_bytes || n * 8 > d.global_mem_bytes / 2) n /= 2;
  return n;
}

// ---- set-up: the problem (once per type), then each variant ---------------------------------
struct Level {
  size_t count;   // elements scanned at this level
  cl::Buffer sums;  // one per tile of this level (the next level's input)
};

// The problem (once per type, shared by every variant): input, its device copy, the reference.
struct Problem {
  size_t n = 0;
  std::vector<float> input_float;
  std::vector<int32_t> input_int;
  cl::Buffer in;
  std::vector<int32_t> reference_int;
  std::vector<double> reference_float;
};

std::unique_ptr<Problem> make_problem(const Params& p) {
  auto pb = std::make_unique<Problem>();
  pb->n = element_count(p.size_class);
  if (p.is_int) {
    pb->input_int = gb::random_vector<int32_t>(pb->n, 71, -1000, 1000);
    pb->in = gb::upload(pb->input_int);
    pb->reference_int = ref::exclusive_scan(pb->input_int);
  } else {
    pb->input_float = gb::random_vector<float>(pb->n, 72, 0.0, 1.0);
    pb->in = gb::upload(pb->input_float);
    pb->reference_float = ref::exclusive_scan(pb->input_float);
  }
  return pb;
}

// One variant: kernels, output, the levels' sums or the look-back status words.
struct Fixture {
  size_t n = 0, tiles = 0;
  cl::Buffer in, out, status, counter;  // in: the problem's buffer (a retained handle)
  cl::Kernel reduce, tiles_kernel, lookback;
  std::vector<Level> levels;  // multi-level: level 0 is the input
  cl_uint epoch = 0;          // look-back: changes every launch
  size_t groups = 0;          // lookback_pipelined: the persistent grid, in work groups
  gb::Calibration calibration;
  std::optional<gb::Check> check;
};

size_t div_up(size_t a, size_t b) { return (a + b - 1) / b; }

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->n = pb.n;
  fx->in = pb.in;
  fx->out = gb::make_buffer(fx->n * 4);
  fx->tiles = div_up(fx->n, p.tile());
  std::string options = p.is_int ? "-DTYPE=uint -DVEC=uint4" : "-DTYPE=float -DVEC=float4 -DIS_FLOAT_TYPE";
  options += " -DWG=" + std::to_string(p.work_group()) + " -DSUBTILES=" + std::to_string(p.subtiles());
  if (p.is_lookback()) {
    if (p.window) options += " -DLOOKBACK_WINDOW=" + std::to_string(p.window);
    if (p.serial) options += " -DLOOKBACK_SERIAL=1";
    fx->lookback = s.kernel("l1/scan.cl", std::string("scan_") + variant_name(p.variant), options);
    fx->status = gb::make_buffer(fx->tiles * sizeof(cl_ulong));
    // counter[0]: the next ticket; counter[1]: lookback_pipelined's finished groups. Both are
    // left 0 by every launch (by the last group), so they are set here once.
    fx->counter = gb::make_buffer(2 * sizeof(cl_uint));
    GB_CL(s.queue().enqueueFillBuffer(fx->status, cl_ulong(0), 0, fx->tiles * sizeof(cl_ulong)));
    GB_CL(s.queue().enqueueFillBuffer(fx->counter, cl_uint(0), 0, 2 * sizeof(cl_uint)));
    if (p.variant == Variant::lookback_pipelined)
      fx->groups = std::max<size_t>(1, s.info().compute_units) * p.groups_per_cu;
    auto& k = fx->lookback;
    GB_CL(k.setArg(0, fx->in));
    GB_CL(k.setArg(1, fx->out));
    GB_CL(k.setArg(2, static_cast<cl_ulong>(fx->n)));
    GB_CL(k.setArg(3, fx->status));
    GB_CL(k.setArg(4, fx->counter));
    GB_CL(k.setArg(5, static_cast<cl_uint>(fx->tiles)));
    return fx;
  }
  if (p.variant == Variant::subgroup) options += " " + gb::device_subgroup_support().build_options;
  const std::string base = std::string("scan_") + variant_name(p.variant);
  fx->reduce = s.kernel("l1/scan.cl", base + "_reduce", options);
  fx->tiles_kernel = s.kernel("l1/scan.cl", base + "_tiles", options);
  // Levels until one tile holds everything: n -> tiles -> tiles of tiles ...
  for (size_t count = fx->n; count > p.tile(); count = div_up(count, p.tile()))
    fx->levels.push_back({count, gb::make_buffer(div_up(count, p.tile()) * 4)});
  return fx;
}

// Enqueues one whole scan: reduce up the levels, scan the top in one work group, scan down.
void enqueue_scan(Fixture& fx, const Params& p, gb::Batch& b) {
  const size_t wg = p.work_group();
  if (p.is_lookback()) {
    fx.epoch = fx.epoch % ((1u << 30) - 1) + 1;  // 1 .. 2^30-1; 0 is the zero-filled status
    GB_CL(fx.lookback.setArg(6, fx.epoch));
    const size_t groups = p.variant == Variant::lookback_pipelined ? fx.groups : fx.tiles;
    b.launch(fx.lookback, cl::NDRange(groups * wg), cl::NDRange(wg));
    return;
  }
  auto& reduce = fx.reduce;
  auto& tiles = fx.tiles_kernel;
  const auto& L = fx.levels;
  for (size_t i = 0; i < L.size(); ++i) {
    GB_CL(reduce.setArg(0, i == 0 ? fx.in : L[i - 1].sums));
    GB_CL(reduce.setArg(1, static_cast<cl_ulong>(L[i].count)));
    GB_CL(reduce.setArg(2, L[i].sums));
    b.launch(reduce, cl::NDRange(div_up(L[i].count, p.tile()) * wg), cl::NDRange(wg));
  }
  // The top: one tile, no offsets (in place on the last sums, or the whole input when small).
  const cl::Buffer& top_in = L.empty() ? fx.in : L.back().sums;
  const cl::Buffer& top_out = L.empty() ? fx.out : L.back().sums;
  GB_CL(tiles.setArg(0, top_in));
  GB_CL(tiles.setArg(1, top_out));
  GB_CL(tiles.setArg(2, static_cast<cl_ulong>(L.empty() ? fx.n : div_up(L.back().count, p.tile()))));
  GB_CL(tiles.setArg(3, top_out));
  GB_CL(tiles.setArg(4, cl_uint(0)));
  b.launch(tiles, cl::NDRange(wg), cl::NDRange(wg));
  for (size_t i = L.size(); i-- > 0;) {
    GB_CL(tiles.setArg(0, i == 0 ? fx.in : L[i - 1].sums));
    GB_CL(tiles.setArg(1, i == 0 ? fx.out : L[i - 1].sums));
    GB_CL(tiles.setArg(2, static_cast<cl_ulong>(L[i].count)));
    GB_CL(tiles.setArg(3, L[i].sums));
    GB_CL(tiles.setArg(4, cl_uint(1)));
    b.launch(tiles, cl::NDRange(div_up(L[i].count, p.tile()) * wg), cl::NDRange(wg));
  }
}

// ---- verification against reference/scan ------------------------------------------------------
gb::Check verify(const Fixture& fx, const Problem& pb, const Params& p) {
  if (p.is_int) return gb::check_exact(gb::download<int32_t>(fx.out, fx.n), pb.reference_int, "int prefix sums");
  return gb::check_relative(gb::download<float>(fx.out, fx.n), pb.reference_float, kFloatMargin, "float prefix sums");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>("scan/" + p.type() + "/" + std::to_string(p.size_class),
                                         [&] { return make_problem(p); });
  auto& fx = gb::cached_fixture<Fixture>(p.key(), [&] { return make_fixture(p, pb); });
  const gb::Unit unit = [&](gb::Batch& b) { enqueue_scan(fx, p, b); };
  if (fx.calibration.unit_seconds == 0) fx.calibration = gb::calibrate(unit);
  if (!fx.check) gb::poison(fx.out, fx.n * 4);

  gb::Sampler sampler(state, fx.calibration);
  for (auto _ : state) sampler.sample(unit);

  if (!fx.check) fx.check = verify(fx, pb, p);
  const double bytes = 2.0 * 4 * fx.n;
  sampler.report({bytes, static_cast<double>(fx.n), static_cast<double>(fx.n)});
  gb::report_copy_fraction(state, bytes);
  state.counters["elements"] = static_cast<double>(fx.n);
  state.counters["levels"] = static_cast<double>(fx.levels.size() + 1);
  gb::report_check(state, *fx.check);
}

// ---- registration ----------------------------------------------------------------------------
void register_scan() {
  const int size = gb::session().size_class();
  const auto& d = gb::session().info();
  const auto& sub = gb::device_subgroup_support();
  for (bool is_int : {true, false})  // the problem outer: variants share it
    for (Variant v : {Variant::local, Variant::subgroup, Variant::lookback, Variant::lookback_registers,
                      Variant::lookback_window, Variant::lookback_pipelined}) {
      Params base{v, is_int, size};
      // lookback_window: a window of 32 status words (a warp's worth) and of the whole work group,
      // 16 elements per work item; 32 elements (tiles twice as long) at window 32; the window
      // summed by a tree or walked by one work item.
      // lookback_pipelined: window 32 and tree walk, 16 elements per work item at 2, 4 and 8
      // persistent groups per compute unit; 32 elements (two arrays of 32 in registers) at 4.
      struct Walk {
        size_t window, items;
        bool serial;
        size_t groups_per_cu = 0;
      };
      std::vector<Walk> walks = {{0, 16, false}};
      if (v == Variant::lookback_window)
        walks = {{32, 16, false}, {base.work_group(), 16, false}, {32, 32, false}, {32, 16, true}, {32, 32, true},
                 {64, 32, false}, {128, 32, false}};
      if (v == Variant::lookback_pipelined)
        walks = {{32, 16, false, 2}, {32, 16, false, 4}, {32, 16, false, 8}, {32, 32, false, 4}};
      for (const Walk& w : walks) {
        if (w.window > base.work_group()) continue;  // the window is read by the work group's items
        Params p = base;
        p.window = w.window;
        p.items = w.items;
        p.serial = w.serial;
        p.groups_per_cu = w.groups_per_cu;
        std::string name;
        if (w.groups_per_cu)
          name = gb::bench_name("L1/Scan", {{"", variant_name(v)}, {"type", p.type()},
                                            {"groups_per_cu", std::to_string(w.groups_per_cu)},
                                            {"items", std::to_string(w.items)}, {"size", std::to_string(size)}});
        else if (w.window)
          name = gb::bench_name("L1/Scan", {{"", variant_name(v)}, {"type", p.type()}, {"window", std::to_string(w.window)},
                                            {"items", std::to_string(w.items)}, {"walk", w.serial ? "serial" : "tree"},
                                            {"size", std::to_string(size)}});
        else
          name = gb::bench_name("L1/Scan", {{"", variant_name(v)}, {"type", p.type()}, {"size", std::to_string(size)}});
        if (v == Variant::subgroup && !sub.available)
          gb::skip_variant(name, sub.reason);
        else if (p.is_lookback() && !d.has_extension("cl_khr_int64_base_atomics"))
          gb::skip_variant(name, "no cl_khr_int64_base_atomics for the tile status words");
        else if (p.work_group() > d.max_work_group_size)
          gb::skip_variant(name, "needs work groups of " + std::to_string(p.work_group()));
        else
          gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); });
      }
    }
}
GB_CASE(register_scan);

}  // namespace
