// L1/FFT2D: one n x n complex single-precision 2-D FFT, forward and inverse, as the seed's four
// kernels (rows, transpose, rows, transpose) and as two (rows, then columns in place of
// transposes; rows_cols_wide: more columns per work group than local memory holds at once):
// what splitting into kernels and access runs cost; rows_transposed: two launches of one row
// kernel that stores its output transposed; rows_cols_split: the column FFT as two global passes
// (n = p1 x p2, four-step along the columns) so that every access is a run of 16+ columns;
// rows_cols_multi: VkFFT's two kernels (rows, then each column in one pass, runs of 4 columns),
// several butterflies per work item. 5 n^2 log2(n^2) FLOPs; 16 n^2 bytes per pass.
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "fft_common.hpp"
#include "fft_stockham.hpp"
#include "gpu_bench.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Shape { pipeline4, rows_cols, rows_cols_wide, rows_transposed, rows_cols_split, rows_cols_multi };
const gb::Axis<Shape> kShape{"",
                            {{Shape::pipeline4, "pipeline4"},
                             {Shape::rows_cols, "rows_cols"},
                             {Shape::rows_cols_wide, "rows_cols_wide"},
                             {Shape::rows_transposed, "rows_transposed"},
                             {Shape::rows_cols_split, "rows_cols_split"},
                             {Shape::rows_cols_multi, "rows_cols_multi"}}};

// rows_cols_wide: columns per work group: kWideColumns float2 (32 bytes, one whole sector per row
// touched, as rows_cols has at 1024 x 1024, where it matches VkFFT), unless local memory holds
// more at once; the column pass's radix: the smaller of 16 and 32 that keeps the work group
// within kWideGroup work items (a column's points stay in registers
// while other pieces exchange; radix 16 needs about half the registers, so two groups per SM).
// 2048 x 2048: 4 columns in 2 pieces, radix 16, 512 work items. The sweep below tries 8 and 16
// columns (64- and 128-byte runs, radix 32) too.
constexpr size_t kWideColumns = 4, kWideGroup = 512;
fft::Knobs wide_knobs(size_t n, size_t cols = 0, int radix = 0) {
  fft::Knobs k;
  k.cols_per_group = cols ? cols : std::min(n, std::max(kWideColumns, fft::local_points() / n));
  if (radix == 0) radix = n / fft::radix_plan(n, 16).radix * k.cols_per_group <= kWideGroup ? 16 : 32;
  k.radix = radix;
  return k;
}

// rows_cols_split: the column FFT of n points as two global passes of p1 then p2 = n / p1 points
// (fft_cols with the columns interleaved: pass 1 reads points y1 + p2 n1, pass 2 twiddles and
// finishes), each work group taking cols_per_group adjacent columns, so every read and write is a
// run of that many float2 (64: 512 bytes) and a group holds only p points of each column (64 x 64
// points: 35 KiB of local memory, 4 x 64 = 256 work items at radix 16), not whole 2048-point
// columns. The 32 MiB intermediate mostly stays in a 60 MB L2: the third pass is L2 traffic.
// p1 = the larger half of log2 n (2048 = 64 x 32); columns: 64 within 256 work items.
// Its cost against rows_cols_wide: a second column pass over L2 (the second also two table loads
// and a product per point for its twiddle) and one more launch gap, for column runs of 512 bytes.
// Risk: the pass adds a third 32 MiB buffer to the working set (in, a, b, out: 128 MiB against a
// 60 MB L2), so a column pass may run nearer DRAM speed.
constexpr size_t kSplitColumns = 64, kSplitGroup = 256;
size_t split_first(size_t n) { return size_t(1) << (fft::log2_of(n) + 1) / 2; }
fft::Knobs split_knobs(size_t n, size_t first, size_t cols = 0, int radix = 0) {
  fft::Knobs k;
  k.radix = radix;
  size_t threads = 0;  // the wider of the two passes' work items per column
  for (size_t len : {first, n / first}) threads = std::max(threads, len / fft::radix_plan(len, radix).radix);
  k.cols_per_group = cols ? cols : std::max<size_t>(1, std::min(kSplitColumns, kSplitGroup / threads));
  return k;
}

// rows_cols_multi: rows by fft_rows_multi, one row per group, `points` per work item and one
// butterfly of that radix each per pass: a measured choice (bench/tuning/fft.hpp; 16: 2048 as
// 8 x 16 x 16 in 128 work items, 4096 as 16^3 in 256, one exchange fewer than radix-8 rows of 8
// points), fewer where a row would have under 16 work items; columns by fft_cols_multi with its
// default knobs (fft::cols_multi_shape).
fft::Knobs multi_row_knobs(size_t n, size_t points = 0) {
  fft::Knobs k;
  k.points = points ? points : std::min(fft_tuning::tuned(fft_tuning::Param::rows_multi_points_2d), n / 16);
  k.radix = static_cast<int>(k.points);
  return k;
}

struct Params {
  fft::Problem problem;
  Shape shape;
  int size_class;
  fft::Knobs cols_knobs;    // the column pass of rows_cols_wide (_split, _multi); rows_transposed: fft_rows_t's knobs
  size_t split = 0;         // rows_cols_split: p1, the first column pass's length
  fft::Knobs rows_knobs{};  // rows_cols_multi: fft_rows_multi's
};

// ---- set-up (once per configuration) ----------------------------------------------------------
// rows: transforms along x of every row; pipeline4 then transposes, transforms the rows again
// (the former columns) and transposes back; rows_cols transforms the columns where they are,
// as many adjacent columns per work group as local memory holds (2048 x 2048: 2, runs of 16 bytes,
// half of each 32-byte sector); rows_cols_wide takes cols_knobs.cols_per_group adjacent columns
// (2048: 4, runs of 32 bytes) and exchanges them through local memory in turns (fft_cols PIECES).
// rows_cols_multi: in -> a by fft_rows_multi, a -> out by fft_cols_multi.
fft::Pipeline make_pipeline(const fft::Problem& p, const Params& params, const cl::Buffer& in, const cl::Buffer& out,
                            const cl::Buffer& a, const cl::Buffer& b) {
  const Shape shape = params.shape;
  const fft::Knobs& cols_knobs = params.cols_knobs;
  if (shape == Shape::pipeline4) return fft::pipeline4(p, in, out, a, b);
  const fft::Knobs k = fft::knobs_2d(p);  // one kernel per length: the table
  fft::Pipeline pl;
  if (shape == Shape::rows_cols_multi) {
    fft::Knobs kr = params.rows_knobs, kc = cols_knobs;
    kr.twiddle = kc.twiddle = k.twiddle;
    pl.stages.push_back(fft::rows_stage(p.nx, p.ny * p.batch, p.dir, kr, in, a));
    pl.stages.push_back(fft::cols_multi_stage(p.ny, p.nx, p.batch, p.dir, kc, a, out));
    return pl;
  }
  if (shape == Shape::rows_transposed) {
    // rows_transposed: fft_rows_t twice, in -> a (a = the rows' transforms, transposed: the
    // columns as rows) -> out (their transforms, transposed back). Each pass reads 16 n^2 bytes in
    // runs of a whole row and writes them in runs of `rows` float2 (fft_rows_t's group, 2048: 4
    // rows, 32 bytes: every sector whole): the same sectors in 8 lines per warp store instead of 2,
    // and a second turn of each local exchange (2 of the 4 rows at a time). Its store runs of 4
    // float2 (32 bytes) are the likely limit, and 8+ rows exceed 256 work items.
    if (p.batch != 1) throw std::logic_error("rows_transposed: one 2-D transform per run");
    fft::Knobs kt = cols_knobs;
    kt.twiddle = k.twiddle;
    pl.stages.push_back(fft::rows_transposed_stage(p.nx, p.ny * p.batch, p.dir, kt, in, a));
    pl.stages.push_back(fft::rows_transposed_stage(p.ny, p.nx * p.batch, p.dir, kt, a, out));
    return pl;
  }
  pl.stages.push_back(fft::rows_stage(p.nx, p.ny * p.batch, p.dir, k, in, a));
  if (shape == Shape::rows_cols_split) {
    // a -> b: p1-point transforms of points y1 + p2 n1 (no twiddle); b -> out: twiddled p2-point
    // transforms; both as 1-D Stockham passes over columns interleaved nx apart.
    fft::Knobs kc = cols_knobs;
    kc.twiddle = k.twiddle;
    const size_t p1 = params.split, p2 = p.ny / params.split;
    pl.stages.push_back(fft::cols_stage(p1, p2, 1, p.batch, false, p.dir, kc, a, b, p.nx));
    pl.stages.push_back(fft::cols_stage(p2, p1, p1, p.batch, true, p.dir, kc, b, out, p.nx));
    return pl;
  }
  fft::Knobs kc = shape == Shape::rows_cols_wide ? cols_knobs : k;
  kc.twiddle = k.twiddle;
  pl.stages.push_back(fft::cols_stage(p.ny, p.nx, p.nx, p.batch, false, p.dir, kc, a, out));
  return pl;
}

// The programs make_pipeline builds, stage by stage, without building them.
std::vector<gb::ProgramKey> programs(const fft::Problem& p, const Params& params) {
  const size_t split = params.split;
  fft::Knobs k;
  k.twiddle = fft::twiddle_for(std::max(p.nx, p.ny), k.twiddle);
  fft::Knobs kc = params.shape == Shape::rows_cols ? k : params.cols_knobs;
  kc.twiddle = k.twiddle;
  switch (params.shape) {
    case Shape::rows_cols_multi: {
      fft::Knobs kr = params.rows_knobs;
      kr.twiddle = k.twiddle;
      return {fft::rows_program(p.nx, p.dir, kr), fft::cols_multi_program(p.ny, p.nx, p.dir, kc)};
    }
    case Shape::rows_transposed:
      return {fft::rows_transposed_program(p.nx, p.ny * p.batch, p.dir, kc),
              fft::rows_transposed_program(p.ny, p.nx * p.batch, p.dir, kc)};
    case Shape::rows_cols_split:
      return {fft::rows_program(p.nx, p.dir, k), fft::cols_program(split, p.ny / split, 1, false, p.dir, kc, p.nx),
              fft::cols_program(p.ny / split, split, split, true, p.dir, kc, p.nx)};
    case Shape::pipeline4:
      return fft::pipeline4_programs(p);
    default:
      return {fft::rows_program(p.nx, p.dir, k), fft::cols_program(p.ny, p.nx, p.nx, false, p.dir, kc)};
  }
}

// The buffers one transform writes (b: the split and four-kernel pipelines' second scratch).
struct WorkingSet {
  cl::Buffer out, a, b;
  fft::Pipeline pipeline;  // timed: in -> out
};

// Copies of the working set (out, a, b) a unit rotates over: one while it may stay in L2, several
// above (2048^2: 8), so that a time is not one allocation's placement (support/working_sets).
size_t working_sets(const fft::Problem& p) {
  size_t copies = gb::working_set_copies(3 * p.bytes());
  while (copies > 1 && !fft::too_large(p, 2 + 3 * static_cast<int>(copies)).empty()) --copies;
  return copies;
}

struct Fixture {
  fft::Input input;
  cl::Buffer in, round_trip;
  std::vector<WorkingSet> sets;
  gb::Rotation rotation{1};
  fft::Pipeline back;  // opposite direction, sets[0].out -> round_trip (verification only)
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->input = fft::make_input(p.problem);
  fx->in = fft::device_input(fx->input, CL_MEM_READ_ONLY);
  fx->round_trip = gb::make_buffer(p.problem.bytes());
  fx->sets.resize(working_sets(p.problem));
  fx->rotation = gb::Rotation(fx->sets.size());
  for (WorkingSet& s : fx->sets) {
    for (cl::Buffer* buf : {&s.out, &s.a, &s.b}) *buf = gb::make_buffer(p.problem.bytes());
    s.pipeline = make_pipeline(p.problem, p, fx->in, s.out, s.a, s.b);
  }
  const WorkingSet& first = fx->sets[0];
  fft::Problem back = p.problem;
  back.dir = fft::opposite(p.problem.dir);
  fx->back = make_pipeline(back, p, first.out, fx->round_trip, first.a, first.b);
  first.pipeline.require_work_groups();
  return fx;
}

// ---- verification against reference/fft (Eigen, row then column transforms), and the round trip;
// every other copy that ran holds the same bits as the first.
gb::Check verify(const Fixture& fx, const Params& p) {
  const WorkingSet& first = fx.sets[0];
  const auto output = gb::read_back<float>(first.out, 2 * p.problem.points(), 0);
  fx.back.run_once();
  const auto round_trip = gb::read_back<float>(fx.round_trip, 2 * p.problem.points(), 1);
  const gb::Check transform = fft::check_all(p.problem, *fx.input, output, round_trip,
                                             fft::accuracy_of(fft::twiddle_for(p.problem.nx, fft::Twiddle::automatic)));
  std::vector<cl::Buffer> outs;
  for (size_t i = 0; i < fx.rotation.used(); ++i) outs.push_back(fx.sets[i].out);
  return gb::worst({transform, gb::check_copies_identical(outs, p.problem.bytes(), "outputs of the working sets")});
}

// ---- the benchmark ---------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { fx.sets[fx.rotation.next()].pipeline.enqueue(b); };
  gb::Measurement m = fft::with_work(gb::Measurement::device(unit), p.problem, fx.sets[0].pipeline.passes())
                          .counter("working_sets", static_cast<double>(fx.sets.size()))
                          .check([&] { return verify(fx, p); });
  for (const WorkingSet& s : fx.sets) m.poison(s.out, p.problem.bytes());
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
// A kernel whose own work-group limit is too small (a 1024-item column group may need more
// registers than there are) is found when it is built, at run time, and skipped then.
void add(const std::string& name, const Params& p) {
  std::string why = fft::too_large(p.problem, 5);
  if (why.empty() && p.shape == Shape::rows_cols_wide) {
    const size_t wg = p.problem.ny / fft::radix_plan(p.problem.ny, p.cols_knobs.radix).radix * p.cols_knobs.cols_per_group;
    if (wg > gb::session().info().max_work_group_size) why = "work group above CL_DEVICE_MAX_WORK_GROUP_SIZE";
  }
  if (why.empty() && p.shape == Shape::rows_cols_split) {
    // Each column pass: p / radix work items per column; p columns' points in local memory.
    for (size_t len : {p.split, p.problem.ny / p.split}) {
      const size_t wg = len / fft::radix_plan(len, p.cols_knobs.radix).radix * p.cols_knobs.cols_per_group;
      if (wg > gb::session().info().max_work_group_size) why = "work group above CL_DEVICE_MAX_WORK_GROUP_SIZE";
      if (p.cols_knobs.cols_per_group > fft::local_points() / len) why = "columns above what local memory holds";
    }
  }
  if (why.empty() && p.shape == Shape::rows_cols_multi) {
    why = fft::rows_pieces_shortfall(p.problem.nx, p.rows_knobs);
    if (why.empty() && fft::rows_threads(p.problem.nx, p.rows_knobs) > fft::pieces_group_limit())
      why = "row work group above " + std::to_string(fft::pieces_group_limit());
    if (why.empty()) why = fft::cols_multi_shortfall(p.problem.ny, p.problem.nx, p.cols_knobs);
  }
  if (!why.empty()) return gb::skip_variant(name, why);
  // The round trip (verification) runs the opposite direction's pipeline.
  gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, [p] {
    fft::Problem back = p.problem;
    back.dir = fft::opposite(p.problem.dir);
    auto keys = programs(p.problem, p);
    for (auto& key : programs(back, p)) keys.push_back(key);
    return keys;
  });
}

// The transforms (nx x ny) of a size class: n x n, and at size 1 (CI) 1024 x 512 and 64 x 2048,
// whose rows and columns take the plans of a GPU's 512 .. 2048 (dft4 and radix-32 passes, 3+
// passes, 2048-point rows in local memory in turns) on at most half a million points.
std::vector<std::pair<size_t, size_t>> extents(int size) {
  std::vector<std::pair<size_t, size_t>> all;
  for (size_t n : fft::sizes_2d(size)) all.emplace_back(n, n);
  if (size == 1) all.insert(all.end(), {{1024, 512}, {64, 2048}});
  return all;
}

// Every configuration of a size class, named.
std::vector<std::pair<std::string, Params>> configs(int size) {
  std::vector<std::pair<std::string, Params>> all;
  auto add = [&](const std::string& name, const Params& p) { all.emplace_back(name, p); };
  for (const auto& [nx, ny] : extents(size))
    for (Shape shape : kShape.all())
      for (fft::Dir dir : fft::kDir.all()) {
        // Size 1's thin transforms run forward only: each forward check runs the inverse too (the
        // round trip), whose kernels the inverse n x n names check against the reference.
        if (nx != ny && dir == fft::Dir::inverse) continue;
        Params p{fft::Problem{nx, ny, 1, dir}, shape, size, shape == Shape::rows_cols_wide ? wide_knobs(ny) : fft::Knobs{}};
        if (shape == Shape::rows_cols_split) {
          p.split = split_first(ny);
          p.cols_knobs = split_knobs(ny, p.split);
        }
        if (shape == Shape::rows_cols_multi) p.rows_knobs = multi_row_knobs(nx);
        add(fft::name(kShape.label(shape), p.problem, size), p);
      }

  // The column blocking of rows_cols_wide at 2048^2 (1024^2 at size 2): columns per work group (from what
  // local memory holds at once up to 1024-item groups) and the column pass's radix.
  // At size 1 (CI) the sweeps run on thin transforms whose swept dimension is 1024 points long:
  // the plans a GPU's sweeps take (radix-32 and dft4 first passes), on 1/16 of 1024 x 1024.
  const size_t n = size == 1 ? 1024 : std::min<size_t>(2048, fft::sizes_2d(size).back());
  auto swept = [&](bool columns) {
    return size != 1 ? fft::problem_2d(n, fft::Dir::forward)
                     : columns ? fft::Problem{64, n, 1, fft::Dir::forward} : fft::Problem{n, 64, 1, fft::Dir::forward};
  };
  for (int radix : {16, 32})
    for (size_t cols = std::max<size_t>(1, fft::local_points() / n); cols <= n; cols *= 2) {
      const fft::Knobs k = wide_knobs(n, cols, radix);
      if (n / fft::radix_plan(n, radix).radix * cols > 1024) break;  // no GPU runs larger groups
      Params p{swept(true), Shape::rows_cols_wide, size, k};
      add(fft::name("rows_cols_wide", p.problem, size, {{"cols", std::to_string(cols)}, {"radix", std::to_string(radix)}}),
          p);
    }

  // rows_transposed's blocking at the sweep size: rows per work group (the store's run length in
  // float2) and radix, up to 256 work items (NVIDIA's driver limit for these register-heavy kernels).
  for (int radix : {16, 32})
    for (size_t rows = 2; rows <= 16 && n / fft::radix_plan(n, radix).radix * rows <= 256; rows *= 2) {
      fft::Knobs k;
      k.radix = radix;
      k.rows_per_group = rows;
      Params p{swept(false), Shape::rows_transposed, size, k};
      add(fft::name("rows_transposed", p.problem, size, {{"rows", std::to_string(rows)}, {"radix", std::to_string(radix)}}),
          p);
    }

  // rows_cols_split at the sweep size: columns per group (the run length: 128 to 512 bytes), the
  // split's order (p1 x p2: which pass carries the twiddle) and radix 8 for the 64-point pass
  // (8 x 8, half the registers per work item, twice the work items: 32 columns in 256).
  struct SplitSweep {
    size_t first, cols;
    int radix;
  };
  const size_t p1 = split_first(n);
  for (const SplitSweep& sw : {SplitSweep{p1, 16, 0}, SplitSweep{p1, 32, 0}, SplitSweep{n / p1, 64, 0},
                               SplitSweep{p1, 32, 8}}) {  // the default (p1, 64 columns) is rows_cols_split
    Params p{swept(true), Shape::rows_cols_split, size, split_knobs(n, sw.first, sw.cols, sw.radix)};
    p.split = sw.first;
    add(fft::name("rows_cols_split", p.problem, size,
                  {{"split", std::to_string(sw.first) + "x" + std::to_string(n / sw.first)},
                   {"cols", std::to_string(sw.cols)},
                   {"radix", sw.radix ? std::to_string(sw.radix) : std::string("auto")}}),
        p);
  }

  // rows_cols_multi at the sweep size: rows of 8 points per work item (VkFFT's: radix 8, 2048 in
  // 256 work items), and the column kernel's blocking: 16 points per work item (VkFFT's: 4 x 128
  // work items), radix 16 (one exchange fewer) and 8 columns (64-byte runs, 8 x 64 work items).
  // At size 1 on 512 x 1024 (rows of 512: the dft2 and dft8 first passes of a GPU's 512 and 2048),
  // VkFFT's columns on 256 x 2048 (a GPU's 2048-point columns, one butterfly per turn).
  struct MultiSweep {
    size_t row_points, cols, points;
    int radix;
    size_t size1_nx, size1_ny;
  };
  for (const MultiSweep& sw : {MultiSweep{8, 4, 32, 8, 512, 1024}, MultiSweep{16, 4, 16, 8, 256, 2048},
                               MultiSweep{16, 4, 32, 16, 512, 1024}, MultiSweep{16, 8, 32, 8, 512, 1024}}) {
    // the default (16, 4, 32, 8) is rows_cols_multi
    fft::Knobs kc;
    kc.cols_per_group = sw.cols;
    kc.points = sw.points;
    kc.radix = sw.radix;
    const fft::Problem problem =
        size == 1 ? fft::Problem{sw.size1_nx, sw.size1_ny, 1, fft::Dir::forward} : fft::problem_2d(n, fft::Dir::forward);
    Params p{problem, Shape::rows_cols_multi, size, kc};
    p.rows_knobs = multi_row_knobs(p.problem.nx, sw.row_points);
    add(fft::name("rows_cols_multi", p.problem, size,
                  {{"row_points", std::to_string(sw.row_points)},
                   {"cols", std::to_string(sw.cols)},
                   {"points", std::to_string(sw.points)},
                   {"radix", std::to_string(sw.radix)}}),
        p);
  }
  return all;
}

// The paths of the programs every configuration of a size class builds (both directions).
gb::PathSet code_paths(int size, size_t) {
  gb::PathSet paths;
  for (const auto& [name, p] : configs(size)) {
    fft::Problem back = p.problem;
    back.dir = fft::opposite(p.problem.dir);
    for (const fft::Problem* problem : {&p.problem, static_cast<const fft::Problem*>(&back)})
      for (const auto& key : programs(*problem, p)) fft::add_program_paths(paths, key);
  }
  return paths;
}

void register_fft2d() {
  gb::declare_paths("L1/FFT2D", code_paths);
  for (const auto& [name, p] : configs(gb::session().size_class())) add(name, p);
}
GB_CASE(register_fft2d);

}  // namespace
