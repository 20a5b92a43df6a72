// L1/Scan: exclusive prefix sum of n ints (wrapping uint arithmetic, exact) or floats: multi-level
// reduce-then-scan with a local-memory or sub-group scan, and single pass with decoupled look-back
// (tree scans per sub-tile, or 16 elements per work item scanned in registers, looking back one
// predecessor at a time or, lookback_window, a window of 32 per step; lookback_pipelined: persistent
// work groups, a few per compute unit, that load their next tile while looking back for the current one).
// Bytes per unit: 2 * n * 4 (read once, write once; the multi-level variants also re-read n).
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/scan.hpp"
#include "subgroups.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { local, subgroup, lookback, lookback_registers, lookback_window, lookback_pipelined };
const gb::Axis<Variant> kVariant{"",
                                 {{Variant::local, "local"},
                                  {Variant::subgroup, "subgroup"},
                                  {Variant::lookback, "lookback"},
                                  {Variant::lookback_registers, "lookback_registers"},
                                  {Variant::lookback_window, "lookback_window"},
                                  {Variant::lookback_pipelined, "lookback_pipelined"}}};
const gb::Axis<bool> kType{"type", {{true, "int"}, {false, "float"}}};  // is_int

// What bounds the scan, in the order the variants uncovered it: first the look-back, one work
// item walking back a dependent L2 load per predecessor; then that walk, shortened by a window of
// predecessors read by the whole group per step, with larger tiles (window:32/items:32); then the
// loads themselves: vload4 compiles to four 32-bit loads, a VEC pointer to one. Wider windows, one
// work item walking the window, and persistent groups prefetching their next tile stay registered
// so the comparison can be re-run on other devices.
// Float inputs are multiples of 1/16 in [1/16, 15/16]: positive, and exactly summable while
// n * 15 <= 2^24 (all of size 1), so there every prefix must be exact (see verify).
constexpr double kFloatQuantum = 1.0 / 16;
constexpr int64_t kFloatLevels = 15;

struct Params {
  Variant variant;
  bool is_int;
  int size_class;
  size_t window = 0;  // lookback_window: status words read per look-back step
  size_t items = 16;  // register variants: elements per work item (4 x SUBTILES)
  bool serial = false;  // lookback_window: one work item walks the window (else a tree sums it)
  size_t groups_per_cu = 0;  // lookback_pipelined: persistent work groups per compute unit
  std::string type() const { return kType.label(is_int); }
  // Class 1 uses small tiles (64 x 4 x 2) so that a million elements already take three levels,
  // with two sub-tiles (their running sum carried as on a GPU's four). The register variants keep
  // 16 elements per work item at every class (class 1: 64 x 16 tiles).
  size_t work_group() const { return size_class == 1 ? 64 : 256; }
  bool in_registers() const {
    return variant == Variant::lookback_registers || variant == Variant::lookback_window ||
           variant == Variant::lookback_pipelined;
  }
  size_t subtiles() const { return in_registers() ? items / 4 : size_class == 1 ? 2 : 4; }
  bool is_lookback() const { return variant == Variant::lookback || in_registers(); }
  size_t tile() const { return work_group() * 4 * subtiles(); }
};

// Elements: class 1 is not a multiple of 4 or of the tile; 3 is 2^28 (1 GiB each way).
// A device that cannot hold input and output skips the benchmark (registration).
size_t element_count(int size_class) {
  static const size_t by_class[] = {1000003, size_t(1) << 24, size_t(1) << 28, size_t(1) << 29};
  return by_class[size_class - 1];
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
    pb->input_float = gb::random_multiples<float>(pb->n, 72, 1, kFloatLevels, kFloatQuantum);
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
};

size_t div_up(size_t a, size_t b) { return (a + b - 1) / b; }

// The one program of a configuration (its look-back kernel, or its reduce and tiles kernels):
// built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  std::string options = p.is_int ? "-DTYPE=uint -DVEC=uint4" : "-DTYPE=float -DVEC=float4 -DIS_FLOAT_TYPE";
  options += " -DWG=" + std::to_string(p.work_group()) + " -DSUBTILES=" + std::to_string(p.subtiles());
  if (p.is_lookback()) {
    if (p.window) options += " -DLOOKBACK_WINDOW=" + std::to_string(p.window);
    if (p.serial) options += " -DLOOKBACK_SERIAL=1";
  } else if (p.variant == Variant::subgroup) {
    options += " " + gb::device_subgroup_support().build_options;
  }
  return {"l1/scan.cl", options};
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->n = pb.n;
  fx->in = pb.in;
  fx->out = gb::make_buffer(fx->n * 4);
  fx->tiles = div_up(fx->n, p.tile());
  const gb::ProgramKey program = program_of(p);
  if (p.is_lookback()) {
    fx->lookback = s.kernel(program, std::string("scan_") + kVariant.label(p.variant));
    gb::require_work_group(fx->lookback, p.work_group());
    fx->status = gb::make_buffer(fx->tiles * sizeof(cl_ulong));
    // counter[0]: the next ticket; counter[1]: lookback_pipelined's finished groups. Both are
    // left 0 by every launch (by the last group), so they are set here once.
    fx->counter = gb::make_buffer(2 * sizeof(cl_uint));
    GB_CL(s.queue().enqueueFillBuffer(fx->status, cl_ulong(0), 0, fx->tiles * sizeof(cl_ulong)));
    GB_CL(s.queue().enqueueFillBuffer(fx->counter, cl_uint(0), 0, 2 * sizeof(cl_uint)));
    if (p.variant == Variant::lookback_pipelined)
      fx->groups = std::max<size_t>(1, s.info().compute_units) * p.groups_per_cu;
    auto& k = fx->lookback;
    GB_SET_ARGS(k, fx->in, fx->out, static_cast<cl_ulong>(fx->n), fx->status, fx->counter,
                static_cast<cl_uint>(fx->tiles));
    return fx;
  }
  const std::string base = std::string("scan_") + kVariant.label(p.variant);
  fx->reduce = s.kernel(program, base + "_reduce");
  fx->tiles_kernel = s.kernel(program, base + "_tiles");
  gb::require_work_group(fx->reduce, p.work_group());
  gb::require_work_group(fx->tiles_kernel, p.work_group());
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
    GB_SET_ARGS_FROM(fx.lookback, 6, fx.epoch);
    const size_t groups = p.variant == Variant::lookback_pipelined ? fx.groups : fx.tiles;
    b.launch(fx.lookback, cl::NDRange(groups * wg), cl::NDRange(wg));
    return;
  }
  auto& reduce = fx.reduce;
  auto& tiles = fx.tiles_kernel;
  const auto& L = fx.levels;
  for (size_t i = 0; i < L.size(); ++i) {
    GB_SET_ARGS(reduce, i == 0 ? fx.in : L[i - 1].sums, static_cast<cl_ulong>(L[i].count), L[i].sums);
    b.launch(reduce, cl::NDRange(div_up(L[i].count, p.tile()) * wg), cl::NDRange(wg));
  }
  // The top: one tile, no offsets (in place on the last sums, or the whole input when small).
  const cl::Buffer& top_in = L.empty() ? fx.in : L.back().sums;
  const cl::Buffer& top_out = L.empty() ? fx.out : L.back().sums;
  GB_SET_ARGS(tiles, top_in, top_out, static_cast<cl_ulong>(L.empty() ? fx.n : div_up(L.back().count, p.tile())),
              top_out, cl_uint(0));
  b.launch(tiles, cl::NDRange(wg), cl::NDRange(wg));
  for (size_t i = L.size(); i-- > 0;) {
    GB_SET_ARGS(tiles, i == 0 ? fx.in : L[i - 1].sums, i == 0 ? fx.out : L[i - 1].sums,
                static_cast<cl_ulong>(L[i].count), L[i].sums, cl_uint(1));
    b.launch(tiles, cl::NDRange(div_up(L[i].count, p.tile()) * wg), cl::NDRange(wg));
  }
}

// ---- verification against reference/scan ------------------------------------------------------
// Every prefix on its own: a wrong or dropped element shows in the prefixes after it however many
// others are right. Float prefix i is a sum of i positive inputs (so sum |x| is the prefix itself)
// through at most `depth` additions (a tile's own tree or raking scan, at most 4 tiles' worth, then
// a chain over the tiles before it, or the levels' sums): within gamma_depth * prefix, and exact
// where every partial sum is representable (all of size 1).
gb::Check verify(const Fixture& fx, const Problem& pb, const Params& p) {
  if (p.is_int) return gb::check_exact(gb::read_back<int32_t>(fx.out, fx.n), pb.reference_int, "int prefix sums");
  const double depth = static_cast<double>(fx.tiles + 4 * p.tile()), u = gb::unit_roundoff<float>();
  const auto& want = pb.reference_float;
  return gb::check_bounded(gb::read_back<float>(fx.out, fx.n), want,
                           [&](size_t i) { return gb::sum_error_bound(depth, want[i], u, kFloatQuantum); },
                           "float prefix sums");
}

// The paths of scan.cl's kernels over every variant at a size class.
gb::PathSet code_paths(int size_class, size_t compute_units) {
  gb::PathSet paths;
  const size_t n = element_count(size_class);
  gb::path_if(paths, n % 4 != 0, "partial vector run (n % 4)");
  for (Variant v : {Variant::local, Variant::lookback, Variant::lookback_registers, Variant::lookback_window,
                    Variant::lookback_pipelined}) {
    Params p{v, false, size_class};
    if (v == Variant::lookback_window) p.window = 32;
    const std::string name = kVariant.label(v);
    const size_t tile = p.tile(), tiles = div_up(n, tile);
    gb::path_if(paths, n % tile != 0, name + ": partial last tile");
    gb::path_if(paths, p.subtiles() > 1 && !p.in_registers(), name + ": running sum across sub-tiles");
    if (!p.is_lookback()) {
      size_t levels = 1;
      for (size_t count = n; count > tile; count = div_up(count, tile)) ++levels;
      gb::path_if(paths, levels >= 2, name + ": 2+ levels");
      gb::path_if(paths, levels >= 3, name + ": 3+ levels (sums of sums)");
      continue;
    }
    gb::path_if(paths, tiles >= 3, name + ": look-back past one predecessor");
    if (p.in_registers()) gb::path_if(paths, p.work_group() / std::min<size_t>(p.work_group(), 32) > 1, name + ": raking segments of 2+");
    if (v == Variant::lookback_window) gb::path_if(paths, tiles > p.window + 1, name + ": look-back over 2+ windows");
    if (v == Variant::lookback_pipelined) {
      const size_t groups = std::max<size_t>(1, compute_units) * 8;
      gb::path_if(paths, tiles > groups, name + ": groups take 2+ tiles (prefetch)");
    }
  }
  return paths;
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"", "window", "items", "walk", "groups_per_cu"}),
                                         [&] { return make_problem(p); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const double n = static_cast<double>(fx.n);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { enqueue_scan(fx, p, b); })
                         .work(gb::Work().bytes(2.0 * 4 * n).flops(n).items(n))
                         .poison(fx.out, fx.n * 4)
                         .check([&] { return verify(fx, pb, p); })
                         .counter("elements", n)
                         .counter("levels", static_cast<double>(fx.levels.size() + 1))
                         .copy_fraction());
}

// ---- registration ----------------------------------------------------------------------------
void register_scan() {
  const int size = gb::session().size_class();
  gb::declare_paths("L1/Scan", code_paths);
  const auto& d = gb::session().info();
  const auto& sub = gb::device_subgroup_support();
  const uint64_t bytes = element_count(size) * 4;
  const std::string shortfall = gb::memory_shortfall({bytes, bytes});  // input, output; tile sums are small
  for (bool is_int : kType.all())  // the problem outer: variants share it
    for (Variant v : kVariant.all()) {
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
          name = gb::bench_name("L1/Scan", {kVariant.part(v), kType.part(is_int),
                                            {"groups_per_cu", std::to_string(w.groups_per_cu)},
                                            {"items", std::to_string(w.items)}, {"size", std::to_string(size)}});
        else if (w.window)
          name = gb::bench_name("L1/Scan", {kVariant.part(v), kType.part(is_int), {"window", std::to_string(w.window)},
                                            {"items", std::to_string(w.items)}, {"walk", w.serial ? "serial" : "tree"},
                                            {"size", std::to_string(size)}});
        else
          name = gb::bench_name("L1/Scan", {kVariant.part(v), kType.part(is_int), {"size", std::to_string(size)}});
        if (!shortfall.empty())
          gb::skip_variant(name, shortfall);
        else if (v == Variant::subgroup && !sub.available)
          gb::skip_variant(name, sub.reason);
        else if (p.is_lookback() && !d.has_extension("cl_khr_int64_base_atomics"))
          gb::skip_variant(name, "no cl_khr_int64_base_atomics for the tile status words");
        else if (p.work_group() > d.max_work_group_size)
          gb::skip_variant(name, "needs work groups of " + std::to_string(p.work_group()));
        else
          gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                            [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
      }
    }
}
GB_CASE(register_scan);

}  // namespace
