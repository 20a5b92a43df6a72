// The Stockham kernels of kernels/l1/fft.cl as pipelines of stages, for bench/l1/fft.cpp and
// fft2d.cpp: radix plans, build options, twiddle tables, work-group shapes, and the stages
// (rows: short transforms in one pass; cols: one pass of a global Stockham FFT; transpose).
#pragma once
#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/tuning/fft.hpp"
#include "fft_common.hpp"
#include "gpu_bench.hpp"

namespace fft {

// automatic: chosen per transform length by twiddle_for() (never passed to a kernel, nor named).
enum class Twiddle { sincos = 0, native = 1, table = 2, automatic = 3 };
inline const gb::Axis<Twiddle> kTwiddle{
    "twiddle", {{Twiddle::sincos, "sincos"}, {Twiddle::native, "native"}, {Twiddle::table, "table"}}};
inline Accuracy accuracy_of(Twiddle t) {
  return t == Twiddle::native ? Accuracy::approximate_twiddles : Accuracy::exact_twiddles;
}

// Tuning knobs of our kernels; defaults aim at NVIDIA's Hopper GPUs (see docs of each below).
struct Knobs {
  int radix = 0;                         // radix of all passes but the first (4..32); 0: auto
  size_t rows_per_group = 0;             // fft_rows: transforms per work group; 0: kRowsGroupTarget
  Twiddle twiddle = Twiddle::automatic;  // see twiddle_for()
  size_t cols_per_group = 0;             // fft_cols: adjacent columns per work group; 0: what fits
  size_t passes = 0;                     // global passes of a long transform; 0: the fewest (global_passes)
  size_t pieces = 0;                     // fft_rows: turns through local memory per exchange (rows_pieces)
  size_t points = 0;                     // fft_rows_multi, fft_cols_multi: points per work item; 0: auto
};

// Local memory a work group may use, whatever the device offers beyond it: NVIDIA's 48 KiB, so
// that the same problem runs the same kernels (and names) on every device.
constexpr size_t kLocalBytes = 48 * 1024;
// Work-group size the default rows-per-group aims at: several transforms per group for short ones.
constexpr size_t kRowsGroupTarget = 256;
// Fewest adjacent columns a global pass takes: 4 float2 = one 32-byte memory sector.
constexpr size_t kMinColumns = 4;

inline size_t padded(size_t points) { return points + points / 16; }  // LDS_PAD = 1
inline size_t log2_of(size_t n) {
  size_t l = 0;
  while ((size_t(1) << l) < n) ++l;
  return l;
}
// Points `bytes` of local memory hold: the largest power of two that fits (padded).
inline size_t points_in(size_t bytes) {
  size_t p = 1;
  while (padded(2 * p) * 8 <= bytes) p *= 2;
  return p;
}
// Points a work group holds in local memory.
inline size_t local_points() {
  return points_in(std::min<size_t>(kLocalBytes, gb::session().info().local_mem_bytes));
}
// The fewest local-memory turns (Knobs::pieces) that take a transform of n points through
// kLocalBytes in one fft_rows pass (1 where it fits): what names ask for, whatever the device.
inline size_t fewest_pieces(size_t n) { return std::max<size_t>(1, n / points_in(kLocalBytes)); }

// N = first * radix^(passes - 1), first in [2, radix]; radix lowered for tiny N. Radix 0 (auto):
// 16 or 32, whichever needs fewer passes (each pass but the last is a local-memory exchange),
// 16 on a tie (half the registers): 1024 = 32 x 32, 4096 = 16 x 16 x 16. This is the plan of the
// global passes (fft_cols); fft_rows uses rows_radix_plan() below.
struct RadixPlan {
  int radix, first, passes;
};
inline RadixPlan radix_plan(size_t n, int radix);
inline RadixPlan auto_radix_plan(size_t n) {
  const RadixPlan r16 = radix_plan(n, 16), r32 = radix_plan(n, 32);
  return r32.passes < r16.passes ? r32 : r16;
}
inline RadixPlan radix_plan(size_t n, int radix) {
  if (radix == 0) return auto_radix_plan(n);
  while (radix > 2 && n < size_t(2) * radix) radix /= 2;
  const size_t lr = log2_of(radix), ln = log2_of(n);
  const size_t rest = ln % lr;
  RadixPlan plan{radix, rest == 0 ? radix : 1 << rest, static_cast<int>((ln - (rest == 0 ? lr : rest)) / lr + 1)};
  return plan;
}

// fft_rows, radix 0 (auto): by work items per transform, N / radix. Rule: of 16 and 32, the radix
// that gives 64..128 work items per transform (2 to 4 warps: few enough that a transform's
// barriers stay cheap, enough to hide latency with the smaller radix's registers); 16 where both
// do (2048: 128 or 64 items), the fewest passes (radix_plan's auto) where neither does (256 -> 16,
// 512 -> 32).
inline RadixPlan rows_radix_plan(size_t n, int radix) {
  if (radix != 0) return radix_plan(n, radix);
  auto in_range = [n](int r) {
    const size_t items = n / radix_plan(n, r).radix;
    return items >= 64 && items <= 128;
  };
  if (in_range(16)) return radix_plan(n, 16);
  if (in_range(32)) return radix_plan(n, 32);
  return auto_radix_plan(n);
}
// A transform in pieces is one work group; its widest: NVIDIA's driver (580) reports
// CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel with local memory and a barrier, whatever its
// registers, yet runs them at their reqd_work_group_size, which Pipeline::require_work_groups
// trusts up to here (gb::require_compiled_work_group): 512 items ran and verified, while fft_rows
// of 16384 at 1024 (radix 16) failed at launch.
constexpr size_t kPiecesGroupLimit = 512;
inline size_t pieces_group_limit() {
  return std::min(kPiecesGroupLimit, gb::session().info().max_work_group_size);
}
// fft_rows_multi's points per work item by default: four radix-8 butterflies per pass (64 registers
// of points, so that 512 work items fit NVIDIA's 128 registers each).
constexpr size_t kMultiPoints = 32;
constexpr int kMultiRadix = 8;

// The shortest transform held in local memory that fft_rows_multi takes by default (a measured
// choice: bench/tuning/fft.hpp).
inline size_t rows_multi_from() { return fft_tuning::tuned(fft_tuning::Param::rows_multi_from); }
// Points per work item of fft_rows_multi, or 0: fft_rows, one butterfly of the radix per work item
// and pass. Knobs::points where set; a transform in pieces with radix 0: kMultiPoints where
// n / kMultiPoints work items fit a group (pieces_group_limit: 16384 in 512, 8192 in 256); one
// held in local memory in one turn with no knob set: kMultiPoints from rows_multi_from() points on
// (fewer registers than fft_rows' one butterfly of 16 or 32 points: at 4096, 93 against 125).
inline std::string multi_plan_shortfall(size_t n, const RadixPlan& plan, size_t points, size_t pieces);
inline size_t rows_points(size_t n, const Knobs& k) {
  if (k.points != 0) return k.points;
  if (k.pieces == 0)
    return k.radix == 0 && k.rows_per_group == 0 && n >= rows_multi_from() && n <= local_points() &&
                   n / kMultiPoints <= pieces_group_limit() &&
                   multi_plan_shortfall(n, radix_plan(n, kMultiRadix), kMultiPoints, 1).empty()
               ? kMultiPoints
               : 0;
  if (k.pieces == 1) return 0;
  return k.radix == 0 && n / kMultiPoints <= pieces_group_limit() ? kMultiPoints : 0;
}
// fft_rows's plan for these knobs: rows_radix_plan(); fft_rows_multi's (rows_points) radix 8 unless
// set; in pieces (Knobs::pieces > 1) with radix 0 otherwise radix 64 (16384 where 512 work items
// are not allowed: 64 x 64 x 4 in 256; radix 16 there, 1024 work items, failed at launch on NVIDIA).
inline RadixPlan rows_plan(size_t n, const Knobs& k) {
  if (rows_points(n, k) != 0) return radix_plan(n, k.radix ? k.radix : kMultiRadix);
  if (k.pieces > 1 && k.radix == 0) return radix_plan(n, 64);
  return rows_radix_plan(n, k.radix);
}
// Work items per fft_rows transform: n / points, or n / radix.
inline size_t rows_threads(size_t n, const Knobs& k) {
  const size_t points = rows_points(n, k);
  return n / (points ? points : static_cast<size_t>(rows_plan(n, k).radix));
}

// Exact power-of-two scale as an OpenCL float literal: 1/n for the inverse, 1 forward.
inline std::string scale_literal(Dir dir, size_t n) {
  return dir == Dir::forward ? std::string("1.0f") : "0x1p-" + std::to_string(log2_of(n)) + "f";
}

inline std::string options(size_t n, const RadixPlan& plan, Dir dir, Twiddle tw) {
  if (tw == Twiddle::automatic) throw std::logic_error("fft: twiddle mode not resolved (twiddle_for)");
  return "-DN=" + std::to_string(n) + " -DRADIX=" + std::to_string(plan.radix) +
         " -DFIRST_RADIX=" + std::to_string(plan.first) + " -DPASSES=" + std::to_string(plan.passes) +
         " -DSIGN=" + (dir == Dir::forward ? "-1" : "1") + " -DSCALE=" + scale_literal(dir, n) +
         " -DTWIDDLE=" + std::to_string(static_cast<int>(tw));
}

// exp(+2 pi i m / n), m < n, as float2 from double.
inline cl::Buffer local_table(size_t n) {
  std::vector<float> t(2 * n);
  for (size_t m = 0; m < n; ++m) {
    const double a = 2.0 * M_PI * static_cast<double>(m) / static_cast<double>(n);
    t[2 * m] = static_cast<float>(std::cos(a));
    t[2 * m + 1] = static_cast<float>(std::sin(a));
  }
  return gb::upload(t, CL_MEM_READ_ONLY);
}
// Two-level table of exp(+2 pi i e / period): fine entries e < 2^split, then coarse e = h << split.
inline unsigned global_split(size_t period) { return static_cast<unsigned>((log2_of(period) + 1) / 2); }
inline cl::Buffer global_table(size_t period) {
  const size_t fine = size_t(1) << global_split(period), coarse = period / fine;
  std::vector<float> t(2 * (fine + coarse));
  auto put = [&](size_t slot, size_t e) {
    const double a = 2.0 * M_PI * static_cast<double>(e) / static_cast<double>(period);
    t[2 * slot] = static_cast<float>(std::cos(a));
    t[2 * slot + 1] = static_cast<float>(std::sin(a));
  };
  for (size_t e = 0; e < fine; ++e) put(e, e);
  for (size_t h = 0; h < coarse; ++h) put(fine + h, h * fine);
  return gb::upload(t, CL_MEM_READ_ONLY);
}

// One kernel launch of a pipeline, with the buffers its arguments hold.
struct Stage {
  cl::Kernel kernel;
  cl::NDRange global, local;
  std::vector<cl::Buffer> tables;
  bool compiled_size_trusted = false;  // one transform (or column block) per group: kPiecesGroupLimit
  size_t work_group() const { return local[0] * local[1] * local[2]; }
};

struct Pipeline {
  std::vector<Stage> stages;
  int passes() const { return static_cast<int>(stages.size()); }
  void enqueue(gb::Batch& b) const {
    for (const auto& s : stages) b.launch(s.kernel, s.global, s.local);
  }
  void run_once() const {  // outside the timed region: verification
    auto& q = gb::session().queue();
    for (const auto& s : stages) GB_CL(q.enqueueNDRangeKernel(s.kernel, cl::NullRange, s.global, s.local));
    GB_CL(gb::finish(q));
  }
  // Throws gb::Unsupported when a stage's work group is above its kernel's limit (a stage that
  // trusts its compiled size: at most that, see kPiecesGroupLimit).
  void require_work_groups() const {
    for (const auto& s : stages)
      s.compiled_size_trusted ? gb::require_compiled_work_group(s.kernel, s.work_group())
                              : gb::require_work_group(s.kernel, s.work_group());
  }
};

// fft_rows's local-memory turns per exchange (PIECES): Knobs::pieces, 0 meaning the current
// behaviour, 1 (the transform fits; a longer one takes global passes). pieces > 1: one transform
// per group, n / pieces points in local memory at once, the rest waiting in registers; pieces a
// power of two up to the radix (a turn moves a block of radix / pieces registers of each work
// item). Throws where the knob cannot be met; rows_pieces_shortfall() says why first.
// fft_rows_multi (rows_points, in pieces or in one) also needs the radix and the first radix to
// divide the points, as many butterflies per work item in each pass as pieces, a radix of at least
// pieces, and work items in multiples of 16 (multi_plan_shortfall, fft_cols_multi's too).
inline std::string multi_plan_shortfall(size_t n, const RadixPlan& plan, size_t points, size_t pieces) {
  const size_t radix = static_cast<size_t>(plan.radix), first = static_cast<size_t>(plan.first);
  if (points % radix || points % first || n % points || points / radix < pieces || points / first < pieces ||
      (plan.passes > 2 && radix < pieces) || pieces & (pieces - 1) || points > 64 || (n / points) % 16)
    return "points " + std::to_string(points) + ", radix " + std::to_string(radix) + " (first " + std::to_string(first) +
           "), pieces " + std::to_string(pieces) + ": no plan of several butterflies per work item";
  return {};
}
inline std::string rows_pieces_shortfall(size_t n, const Knobs& k) {
  if (k.pieces == 0 && k.points == 0) return {};
  const RadixPlan plan = rows_plan(n, k);
  const size_t radix = static_cast<size_t>(plan.radix), points = rows_points(n, k);
  if (points != 0) {
    const size_t pieces = std::max<size_t>(1, k.pieces);
    if (std::string why = multi_plan_shortfall(n, plan, points, pieces); !why.empty()) return why;
    if (n / pieces > local_points())
      return std::to_string(n / pieces) + " points per piece: above local memory (" + std::to_string(local_points()) + ")";
    return {};
  }
  if (k.pieces & (k.pieces - 1) || k.pieces > radix)
    return "pieces " + std::to_string(k.pieces) + ": not a power of two up to the radix " + std::to_string(radix);
  if (k.passes != 0) return "pieces (one pass) and passes (global passes) both set";
  if (n / k.pieces > local_points())
    return std::to_string(n / k.pieces) + " points per piece: above local memory (" + std::to_string(local_points()) + ")";
  return {};
}
inline size_t rows_pieces(size_t n, const Knobs& k) {
  if (const std::string why = rows_pieces_shortfall(n, k); !why.empty())
    throw std::logic_error("fft_rows: n=" + std::to_string(n) + ": " + why);
  return std::max<size_t>(1, k.pieces);
}

// Transforms per fft_rows work group: the knob, else kRowsGroupTarget work items, within local
// memory; one where the transform goes through local memory in pieces.
inline size_t rows_per_group(size_t n, const Knobs& k) {
  if (k.pieces > 1 || rows_points(n, k) != 0) return 1;
  const RadixPlan plan = rows_plan(n, k);
  size_t rows = k.rows_per_group ? k.rows_per_group : std::max<size_t>(1, kRowsGroupTarget / (n / plan.radix));
  while (rows > 1 && rows * padded(n) * 8 > kLocalBytes) rows /= 2;
  return rows;
}

// The program of fft_rows (twiddle mode resolved). No register cap: reqd_work_group_size already
// holds NVIDIA's compiler to 65536 / group size (64 registers at 1024 work items, 104 at 512).
inline gb::ProgramKey rows_program(size_t n, Dir dir, const Knobs& k) {
  const size_t pieces = rows_pieces(n, k);
  if (const size_t points = rows_points(n, k))
    return {"l1/fft.cl", options(n, rows_plan(n, k), dir, k.twiddle) + " -DPOINTS=" + std::to_string(points) +
                             " -DPIECES=" + std::to_string(pieces) + " -DBUILD_ROWS_MULTI"};
  return {"l1/fft.cl", options(n, rows_plan(n, k), dir, k.twiddle) + " -DROWS_PER_GROUP=" +
                           std::to_string(rows_per_group(n, k)) + " -DCOLS_PER_GROUP=1 -DBUILD_ROWS" +
                           (pieces > 1 ? " -DPIECES=" + std::to_string(pieces) : std::string())};
}

// fft_rows: `transforms` contiguous length-n transforms, in -> out.
// fft_rows_multi where rows_points() says so (same arguments).
inline Stage rows_stage(size_t n, size_t transforms, Dir dir, const Knobs& k, const cl::Buffer& in,
                        const cl::Buffer& out) {
  const size_t rows = rows_per_group(n, k), threads = rows_threads(n, k);
  Stage s;
  s.kernel = gb::session().kernel(rows_program(n, dir, k), rows_points(n, k) ? "fft_rows_multi" : "fft_rows");
  s.tables.push_back(local_table(n));
  GB_SET_ARGS(s.kernel, in, out, s.tables[0], static_cast<cl_uint>(transforms));
  s.local = cl::NDRange(threads * rows);
  s.global = cl::NDRange(gb::round_up(transforms, rows) / rows * threads * rows);
  s.compiled_size_trusted = (k.pieces > 1 || rows_points(n, k) != 0) && s.work_group() <= kPiecesGroupLimit;
  return s;
}

// fft_cols_multi: the columns of p points of `batch` arrays `width` wide, each in one pass through
// local memory (VkFFT's column kernel): cols adjacent columns per group (default kMinColumns:
// 32-byte runs), `points` per work item (default cols_multi_points(), a measured choice:
// bench/tuning/fft.hpp; but at least 16 work items per column, and doubled while the group is above
// pieces_group_limit: 2048 in 4 x 64 work items, 4096 in 4 x 128; fewer points give a work item
// half the butterflies to overlap and to share one pass's twiddle loads), the radix-8 plan
// unless set (small butterflies keep the registers of 512 work items), and the fewest turns of the
// exchange (pieces) that fit kLocalBytes (2048: 2, 4096: 4).
inline size_t cols_multi_points() { return fft_tuning::tuned(fft_tuning::Param::cols_multi_points); }
struct ColsMultiShape {
  RadixPlan plan;
  size_t cols, points, pieces;
  size_t group(size_t p) const { return cols * p / points; }
};
// Local bytes of fft_cols_multi's exchange (M_SPAN): `piece` points of `cols` columns, one float2 per
// column after every 2^sh points, sh that of the first exchange.
inline size_t cols_multi_local_bytes(size_t piece, size_t cols, const RadixPlan& plan) {
  const size_t sh = std::min<size_t>(4, std::max<size_t>(2, log2_of(static_cast<size_t>(plan.first))));
  return (cols * ((piece - 1) + ((piece - 1) >> sh)) + cols) * 8;
}
inline ColsMultiShape cols_multi_shape(size_t p, const Knobs& k) {
  ColsMultiShape c{radix_plan(p, k.radix ? k.radix : kMultiRadix), k.cols_per_group ? k.cols_per_group : kMinColumns,
                   k.points ? k.points : std::max<size_t>(1, std::min(cols_multi_points(), p / 16)), 1};
  while (k.points == 0 && c.points < 64 && c.group(p) > pieces_group_limit()) c.points *= 2;
  while (c.pieces < c.points / static_cast<size_t>(c.plan.radix) &&
         cols_multi_local_bytes(p / c.pieces, c.cols, c.plan) > kLocalBytes)
    c.pieces *= 2;
  return c;
}
// Why fft_cols_multi cannot take these columns with these knobs (empty: it can).
inline std::string cols_multi_shortfall(size_t p, size_t width, const Knobs& k) {
  const ColsMultiShape c = cols_multi_shape(p, k);
  if (std::string why = multi_plan_shortfall(p, c.plan, c.points, c.pieces); !why.empty()) return why;
  if (c.plan.radix < 4 || (p / c.points) % static_cast<size_t>(c.plan.radix))
    return "radix " + std::to_string(c.plan.radix) + ": below 4 or not dividing the work items of a column";
  const size_t local = std::min<size_t>(kLocalBytes, gb::session().info().local_mem_bytes);
  if (cols_multi_local_bytes(p / c.pieces, c.cols, c.plan) > local)
    return std::to_string(c.cols) + " columns of " + std::to_string(p / c.pieces) + " points: above local memory";
  if (width % c.cols) return "width " + std::to_string(width) + ": not a multiple of " + std::to_string(c.cols) + " columns";
  if (c.group(p) > pieces_group_limit()) return "work group above " + std::to_string(pieces_group_limit());
  return {};
}
inline gb::ProgramKey cols_multi_program(size_t p, size_t width, Dir dir, const Knobs& k) {
  const ColsMultiShape c = cols_multi_shape(p, k);
  return {"l1/fft.cl", options(p, c.plan, dir, k.twiddle) + " -DPOINTS=" + std::to_string(c.points) + " -DPIECES=" +
                           std::to_string(c.pieces) + " -DCOLS_PER_GROUP=" + std::to_string(c.cols) +
                           " -DWIDTH=" + std::to_string(width) + " -DBUILD_COLS_MULTI"};
}
inline Stage cols_multi_stage(size_t p, size_t width, size_t batch, Dir dir, const Knobs& k, const cl::Buffer& in,
                              const cl::Buffer& out) {
  const ColsMultiShape c = cols_multi_shape(p, k);
  Stage s;
  s.kernel = gb::session().kernel(cols_multi_program(p, width, dir, k), "fft_cols_multi");
  s.tables.push_back(local_table(p));
  GB_SET_ARGS(s.kernel, in, out, s.tables[0]);
  s.local = cl::NDRange(c.group(p), 1);
  s.global = cl::NDRange(width / c.cols * c.group(p), batch);
  s.compiled_size_trusted = c.group(p) <= kPiecesGroupLimit;
  return s;
}

// fft_cols: one global Stockham pass of p points per column over batch members of stride * p
// points: columns j < stride, twiddled (1-D passes after the first) or not (2-D columns).
// interleave > 1: `interleave` transforms whose points lie interleave apart (the columns of a 2-D
// array that wide, split into global passes): stride and ns count points of one transform, the
// kernel's column index is then block * interleave + x, adjacent x adjacent in memory.
struct ColsShape {
  RadixPlan plan;
  size_t stride, ns, cols, pieces, threads;
  bool contiguous;
};
inline ColsShape cols_shape(size_t p, size_t stride_points, size_t ns_points, const Knobs& k, size_t interleave) {
  ColsShape c{radix_plan(p, k.radix), stride_points * interleave, ns_points * interleave, 0, 0, 0, false};
  // Runs of `cols` points: within a column block of the input (stride) and of the output (ns).
  // By default as many columns as local memory holds; k.cols_per_group asks for more (or fewer),
  // local memory then holding them in `pieces` turns.
  c.contiguous = c.ns == 1;
  const size_t fit = local_points() / p;
  c.cols = k.cols_per_group ? k.cols_per_group : std::min({c.stride, fit, c.ns > 1 ? c.ns : c.stride});
  c.pieces = fit == 0 ? 0 : std::max<size_t>(1, c.cols / fit);
  c.threads = p / c.plan.radix;
  if (c.cols == 0 || c.pieces == 0 || c.stride % c.cols != 0 || (c.ns > 1 && c.ns < c.cols) || c.cols % c.pieces != 0 ||
      (interleave & (interleave - 1)))
    throw std::logic_error("fft_cols: no column blocking for p=" + std::to_string(p) + " stride=" + std::to_string(c.stride) +
                           " cols=" + std::to_string(c.cols));
  return c;
}

// The knobs of a 1-D transform's global pass (pipeline_1d): at least cols_long_passes() columns
// a group (longer runs), in turns through local memory where fewer fit, while the group stays
// within the 256 work items NVIDIA compiles fft_cols for. (2-D columns keep what fits: at
// 1024^2, 8 columns in two turns were 17% slower than 4.)
inline Knobs long_pass_knobs(size_t p, size_t stride_points, size_t ns_points, Knobs k) {
  if (k.cols_per_group) return k;
  const ColsShape c = cols_shape(p, stride_points, ns_points, k, 1);
  const size_t wide = fft_tuning::tuned(fft_tuning::Param::cols_long_passes);
  if (c.cols < wide && (c.contiguous || wide <= c.ns) && c.stride % wide == 0 &&
      p / static_cast<size_t>(c.plan.radix) * wide <= 256)
    k.cols_per_group = wide;
  return k;
}

// The program of fft_cols (arguments as cols_stage's).
inline gb::ProgramKey cols_program(size_t p, size_t stride_points, size_t ns_points, bool twiddled, Dir dir,
                                   const Knobs& k, size_t interleave = 1) {
  const ColsShape c = cols_shape(p, stride_points, ns_points, k, interleave);
  // NVIDIA's compiler sizes fft_cols for 256 work items (CL_KERNEL_WORK_GROUP_SIZE 256); wider
  // groups need the register budget capped to 65536 / group size.
  const size_t group = c.threads * c.cols;
  std::string nv_registers;
  if (group > 256 && gb::session().info().has_extension("cl_nv_compiler_options"))
    nv_registers = " -cl-nv-maxrregcount=" + std::to_string(65536 / group);
  return {"l1/fft.cl",
          options(p, c.plan, dir, k.twiddle) + " -DBUILD_COLS -DROWS_PER_GROUP=1 -DCOLS_PER_GROUP=" + std::to_string(c.cols) +
              " -DPIECES=" + std::to_string(c.pieces) + " -DGLOBAL_TWIDDLE=" + (twiddled ? "1" : "0") +
              " -DSTORE_CONTIGUOUS=" + (c.contiguous ? "1" : "0") +
              (interleave > 1 ? " -DINTERLEAVE_LOG2=" + std::to_string(log2_of(interleave)) : std::string()) + nv_registers};
}

inline Stage cols_stage(size_t p, size_t stride_points, size_t ns_points, size_t batch, bool twiddled, Dir dir,
                        const Knobs& k, const cl::Buffer& in, const cl::Buffer& out, size_t interleave = 1) {
  const ColsShape c = cols_shape(p, stride_points, ns_points, k, interleave);
  const size_t stride = c.stride, ns = c.ns, cols = c.cols, threads = c.threads;
  Stage s;
  s.kernel = gb::session().kernel(cols_program(p, stride_points, ns_points, twiddled, dir, k, interleave), "fft_cols");
  const size_t period = ns_points * p;  // of the inter-pass twiddle: within one transform
  s.tables.push_back(local_table(p));
  s.tables.push_back(twiddled && k.twiddle == Twiddle::table ? global_table(period) : s.tables[0]);
  GB_SET_ARGS(s.kernel, in, out, s.tables[0], s.tables[1], static_cast<cl_uint>(stride), static_cast<cl_uint>(ns),
              static_cast<cl_uint>(log2_of(period)), static_cast<cl_uint>(global_split(period)));
  s.local = cl::NDRange(threads * cols, 1);
  s.global = cl::NDRange(stride / cols * threads * cols, batch);
  return s;
}

// fft_rows_t: `transforms` contiguous length-n transforms, point k of transform y written to
// out[k * transforms + y] (the transpose fused into the store; 2-D: two launches). Radix 32 by
// default (the fewest work items per row, so the most rows per group: runs of rows float2 in the
// store), rows = kRowsTGroup / (n / radix) up to 16 (2048: 4 rows, 32-byte runs; 1024: 8; 256,
// 512: 16), local memory holding rows / pieces of them at once (2048: 2 turns of 2 rows, 34 KiB).
constexpr size_t kRowsTGroup = 256;  // NVIDIA sizes register-heavy FFT kernels for 256 work items
struct RowsTShape {
  RadixPlan plan;
  size_t rows, pieces;
};
inline RowsTShape rows_t_shape(size_t n, size_t transforms, const Knobs& k) {
  RowsTShape s{radix_plan(n, k.radix ? k.radix : 32), 0, 1};
  const size_t threads = n / s.plan.radix;
  s.rows = k.rows_per_group ? k.rows_per_group : std::max<size_t>(1, std::min<size_t>(16, kRowsTGroup / threads));
  s.rows = std::min(s.rows, transforms);
  while (s.pieces < s.rows && s.rows / s.pieces * padded(n) * 8 > kLocalBytes) s.pieces *= 2;
  if (s.rows > 16 || s.rows & (s.rows - 1) || s.pieces > static_cast<size_t>(s.plan.radix) ||
      s.rows / s.pieces * padded(n) * 8 > kLocalBytes)
    throw std::logic_error("fft_rows_t: no row blocking for n=" + std::to_string(n) + " rows=" + std::to_string(s.rows));
  return s;
}
inline gb::ProgramKey rows_transposed_program(size_t n, size_t transforms, Dir dir, const Knobs& k) {
  const RowsTShape sh = rows_t_shape(n, transforms, k);
  const size_t group = n / sh.plan.radix * sh.rows;
  std::string nv_registers;
  if (group > 256 && gb::session().info().has_extension("cl_nv_compiler_options"))
    nv_registers = " -cl-nv-maxrregcount=" + std::to_string(65536 / group);
  return {"l1/fft.cl", options(n, sh.plan, dir, k.twiddle) + " -DROWS_T=1 -DROWS_PER_GROUP=" +
                           std::to_string(sh.rows) + " -DPIECES=" + std::to_string(sh.pieces) + nv_registers};
}
inline Stage rows_transposed_stage(size_t n, size_t transforms, Dir dir, const Knobs& k, const cl::Buffer& in,
                                   const cl::Buffer& out) {
  const RowsTShape sh = rows_t_shape(n, transforms, k);
  const size_t group = n / sh.plan.radix * sh.rows;
  Stage s;
  s.kernel = gb::session().kernel(rows_transposed_program(n, transforms, dir, k), "fft_rows_t");
  s.tables.push_back(local_table(n));
  GB_SET_ARGS(s.kernel, in, out, s.tables[0], static_cast<cl_uint>(transforms));
  s.local = cl::NDRange(group);
  s.global = cl::NDRange(gb::round_up(transforms, sh.rows) / sh.rows * group);
  return s;
}

// fft_transpose: batch images of height x width -> width x height.
constexpr size_t kTile = 32, kTileRows = 8;
inline gb::ProgramKey transpose_program() {
  return {"l1/fft.cl", "-DBUILD_TRANSPOSE -DTILE=" + std::to_string(kTile) + " -DTILE_ROWS=" + std::to_string(kTileRows)};
}
inline Stage transpose_stage(size_t width, size_t height, size_t batch, const cl::Buffer& in,
                             const cl::Buffer& out) {
  Stage s;
  s.kernel = gb::session().kernel(transpose_program(), "fft_transpose");
  GB_SET_ARGS(s.kernel, in, out, static_cast<cl_uint>(width), static_cast<cl_uint>(height));
  s.local = cl::NDRange(kTile, kTileRows, 1);
  s.global = cl::NDRange(gb::round_up(width, kTile), gb::round_up(height, kTile) / kTile * kTileRows, batch);
  return s;
}

// The lengths of the global passes of a 1-D transform of n points: one pass while n fits in a
// work group's local memory, else as few passes as keep kMinColumns columns per work group, with
// lengths as equal as possible (every read and write then comes in runs of >= 32 bytes).
// `passes` > 0 asks for that many instead (a sweep point: what one more pass over memory costs).
inline std::vector<size_t> global_passes(size_t n, size_t passes = 0) {
  const size_t in_local = local_points();
  if (n <= in_local && passes == 0) return {n};
  const size_t max_len = std::max<size_t>(64, in_local / kMinColumns);
  const size_t ln = log2_of(n), lmax = log2_of(max_len);
  const size_t count = passes ? passes : (ln + lmax - 1) / lmax;
  std::vector<size_t> lens;
  size_t left = ln;
  for (size_t i = 0; i < count; ++i) {
    const size_t l = (left + (count - i) - 1) / (count - i);  // ceil: larger passes first
    lens.push_back(size_t(1) << l);
    left -= l;
  }
  return lens;
}
// The global passes the knobs plan: one (fft_rows, through local memory in pieces) where
// Knobs::pieces is set, whatever the length; else as above.
inline std::vector<size_t> global_passes(size_t n, const Knobs& k) {
  if (k.pieces > 0) return {n};
  return global_passes(n, k.passes);
}

// Twiddle::automatic for a transform of n points: native_cos/native_sin where the transform takes
// several global passes (the table costs two dependent loads and a complex product per point for
// the inter-pass twiddle), the table where it runs in one kernel (there radix 16 with the table
// is as fast as native and keeps the exact margin). Native twiddles are checked against the
// approximate-twiddle margin (6e-7 per log2 N; a wrong twiddle or index still gives ~1).
inline Twiddle twiddle_for(size_t n, Twiddle t) {
  if (t != Twiddle::automatic) return t;
  return global_passes(n).size() > 1 ? Twiddle::native : Twiddle::table;
}
// The same for the knobs' plan: a transform taken in one pass in pieces is one kernel (the table).
inline Twiddle twiddle_for(size_t n, const Knobs& k) {
  if (k.twiddle != Twiddle::automatic) return k.twiddle;
  return global_passes(n, k).size() > 1 ? Twiddle::native : Twiddle::table;
}

// The largest work group pipeline_1d launches for this problem (without building kernels).
inline size_t largest_work_group(const Problem& p, const Knobs& k) {
  const auto lens = global_passes(p.nx, k);
  if (lens.size() == 1) return rows_threads(p.nx, k) * rows_per_group(p.nx, k);
  size_t wg = 0;
  for (size_t len : lens) wg = std::max(wg, len / radix_plan(len, k.radix).radix * std::min(p.nx / len, local_points() / len));  // an upper bound
  return wg;
}

// A batched 1-D transform in -> out: fft_rows when it fits in local memory (or Knobs::pieces
// takes it through local memory in pieces), else global passes
// in -> (out | tmp) -> ... -> out, the last one writing out and none writing in.
inline Pipeline pipeline_1d(const Problem& p, Knobs k, const cl::Buffer& in, const cl::Buffer& out,
                            const cl::Buffer& tmp) {
  k.twiddle = twiddle_for(p.nx, k);
  Pipeline pl;
  const auto lens = global_passes(p.nx, k);
  if (lens.size() == 1) {
    pl.stages.push_back(rows_stage(p.nx, p.batch, p.dir, k, in, out));
    return pl;
  }
  size_t ns = 1;
  const cl::Buffer* src = &in;
  for (size_t i = 0; i < lens.size(); ++i) {
    const cl::Buffer* dst = (lens.size() - 1 - i) % 2 == 0 ? &out : &tmp;
    pl.stages.push_back(cols_stage(lens[i], p.nx / lens[i], ns, p.batch, ns > 1, p.dir,
                                   long_pass_knobs(lens[i], p.nx / lens[i], ns, k), *src, *dst));
    ns *= lens[i];
    src = dst;
  }
  return pl;
}

// The seed's 2-D FFT as four kernels (L1/FFT2D's pipeline4): rows of in -> a, transpose a -> b,
// rows of b (the former columns) -> a, transpose a -> out; one twiddle mode for both lengths.
// Timed as batched units by fft2d.cpp and as frames synchronised every few by fft2d_frames.cpp.
inline Knobs knobs_2d(const Problem& p) {
  Knobs k;
  k.twiddle = twiddle_for(std::max(p.nx, p.ny), k.twiddle);
  return k;
}
inline Pipeline pipeline4(const Problem& p, const cl::Buffer& in, const cl::Buffer& out, const cl::Buffer& a,
                          const cl::Buffer& b) {
  const Knobs k = knobs_2d(p);
  Pipeline pl;
  pl.stages.push_back(rows_stage(p.nx, p.ny * p.batch, p.dir, k, in, a));
  pl.stages.push_back(transpose_stage(p.nx, p.ny, p.batch, a, b));
  pl.stages.push_back(rows_stage(p.ny, p.nx * p.batch, p.dir, k, b, a));
  pl.stages.push_back(transpose_stage(p.ny, p.nx, p.batch, a, out));
  return pl;
}
inline std::vector<gb::ProgramKey> pipeline4_programs(const Problem& p) {
  const Knobs k = knobs_2d(p);
  return {rows_program(p.nx, p.dir, k), transpose_program(), rows_program(p.ny, p.dir, k)};
}

// The code paths a program of fft.cl compiles (read from its build options): per kernel (rows,
// cols, rows_t, rows_multi, cols_multi, transpose), the DFT sizes of its first and later passes,
// several first-pass butterflies per work item, 3+ radix passes, transforms or columns per group,
// local-memory turns (PIECES; fft_rows: a transform above local memory, the rotated and relabelling
// exchanges), the inter-pass twiddle, the contiguous store, interleaved columns, the twiddle source.
inline void add_program_paths(gb::PathSet& paths, const gb::ProgramKey& key) {
  std::map<std::string, long> d;
  size_t at = 0;
  while ((at = key.options.find("-D", at)) != std::string::npos) {
    const size_t eq = key.options.find('=', at), end = key.options.find(' ', at);
    if (eq != std::string::npos && eq < end) d[key.options.substr(at + 2, eq - at - 2)] = std::atol(key.options.c_str() + eq + 1);
    at += 2;
  }
  if (d.count("TILE")) return paths.insert("transpose: tiles"), void();
  const bool multi = d.count("POINTS") > 0;  // fft_rows_multi, or with columns fft_cols_multi
  const std::string kind = d.count("ROWS_T")           ? "rows_t"
                           : d.count("GLOBAL_TWIDDLE") ? "cols"
                           : multi                     ? (d.count("COLS_PER_GROUP") ? "cols_multi" : "rows_multi")
                                                       : "rows";
  static const char* twiddles[] = {"sincos", "native", "table"};
  paths.insert(kind + ": dft" + std::to_string(d["FIRST_RADIX"]) + " first pass");
  paths.insert(kind + ": dft" + std::to_string(d["RADIX"]) + " passes");
  if (d["FIRST_RADIX"] < d["RADIX"] && !multi) paths.insert(kind + ": 2+ first-pass butterflies per work item");
  if (multi) {
    // Twiddles shared by a work item's butterflies (sub-transforms up to the work items), or not;
    // a turn of the exchange taking one butterfly of each work item, or several.
    const long threads = d["N"] / d["POINTS"];
    long s = d["FIRST_RADIX"];
    for (long pass = 1; pass < d["PASSES"]; ++pass, s *= d["RADIX"])
      paths.insert(kind + (s <= threads ? ": twiddles shared by the butterflies of a work item" : ": twiddles per butterfly"));
    s = 1;
    for (long pass = 0; pass + 1 < d["PASSES"]; ++pass) {  // the passes before an exchange
      const long radix = pass == 0 ? d["FIRST_RADIX"] : d["RADIX"];
      paths.insert(kind + (d["POINTS"] / radix / d["PIECES"] > 1 ? ": 2+ butterflies per turn" : ": one butterfly per turn"));
      if (kind == "rows_multi" && s > 1 && s < 16) paths.insert("rows_multi: an exchange padded by 2 per 16 points");
      s *= radix;
    }
  }
  if (d["PASSES"] >= 3) paths.insert(kind + ": 3+ radix passes");
  if (d["TWIDDLE"] >= 0 && d["TWIDDLE"] <= 2) paths.insert(kind + ": twiddles from " + twiddles[d["TWIDDLE"]]);
  if (d["ROWS_PER_GROUP"] > 1) paths.insert(kind + ": 2+ transforms per group");
  if (d["COLS_PER_GROUP"] > 1 && kind == "cols") paths.insert("cols: 2+ columns per group");
  if (d["PIECES"] > 1) paths.insert(kind + ": local memory in 2+ turns (PIECES)");
  if (kind == "rows" && padded(static_cast<size_t>(d["N"])) * 8 > kLocalBytes)
    paths.insert("rows: transform above local memory (in registers, PIECES turns)");
  if (kind == "rows" && d["PIECES"] > 1 && d["FIRST_RADIX"] * d["PIECES"] > d["RADIX"])
    paths.insert("rows: pieces: first exchange rotated (FIRST_RADIX > RADIX / PIECES)");
  if (kind == "rows" && d["PIECES"] > 1 && d["PASSES"] >= 4)
    paths.insert("rows: pieces: butterflies relabelled by a middle exchange (4+ radix passes)");
  if (d["GLOBAL_TWIDDLE"] == 1) paths.insert("cols: inter-pass twiddle");
  if (kind == "cols") paths.insert(d["STORE_CONTIGUOUS"] == 1 ? "cols: contiguous store" : "cols: strided store");
  if (kind == "cols" && d["PIECES"] > 1)
    paths.insert(d["STORE_CONTIGUOUS"] == 1 ? "cols: contiguous store in turns" : "cols: strided store in turns");
  if (d["INTERLEAVE_LOG2"] > 0) paths.insert("cols: interleaved columns");
}

// The programs pipeline_1d builds, without building them.
inline std::vector<gb::ProgramKey> programs_1d(const Problem& p, Knobs k) {
  k.twiddle = twiddle_for(p.nx, k);
  const auto lens = global_passes(p.nx, k);
  if (lens.size() == 1) return {rows_program(p.nx, p.dir, k)};
  std::vector<gb::ProgramKey> keys;
  size_t ns = 1;
  for (size_t len : lens) {
    keys.push_back(cols_program(len, p.nx / len, ns, ns > 1, p.dir, long_pass_knobs(len, p.nx / len, ns, k)));
    ns *= len;
  }
  return keys;
}

}  // namespace fft
