// L1/GEMM: C = A*B, row-major, float (and double with cl_khr_fp64), by a naive, a local-memory
// tiled, a register-blocked and a warp-tiled kernel over work-group shapes, for float also by the
// warp-tiled kernel fed by asynchronous copies (cp.async on NVIDIA from sm_80) from a transposed
// A, and for double by warp-wide matrix-multiply-accumulate (FP64 tensor cores on NVIDIA from
// sm_80, fed by asynchronous copies of A and B as they are) over grids of warps. FLOPs per unit
// 2*m*n*k.
#include "gemm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "bench/tuning/gemm.hpp"
#include "reference/gemm.hpp"

// ---- shared with gemm_clblast.cpp: problems, operands, verification ---------------------------
namespace gemm {

std::vector<Shape> problems(int size_class) {
  switch (size_class) {
    case 1:  // PoCL in CI: a few seconds per benchmark
      return {{256, 256, 256}, {197, 131, 75}, {96, 200, 136}};
    case 2:
      return {{512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {1000, 1500, 777},
              {2048, 96, 1500}};
    case 3:  // a GPU's default: 1024, 4096 and 8192, the squares the CLBlast comparison uses
      return {{1024, 1024, 1024}, {4096, 4096, 4096}, {8192, 8192, 8192}, {3001, 4003, 5005},
              {8192, 520, 4100}};
    default:
      return {{8192, 8192, 8192}, {16384, 16384, 16384}, {10001, 9003, 8005},
              {16384, 1040, 16388}};
  }
}

Shape sweep_problem(int size_class) {
  static const size_t side[] = {256, 1024, 4096, 8192};
  const size_t s = side[std::clamp(size_class, 1, 4) - 1];
  return {s, s, s};
}

template <>
const char* type_name<float>() {
  return "float";
}
template <>
const char* type_name<double>() {
  return "double";
}

std::string bench_name(const std::string& variant, const char* type, const Shape& s,
                       const std::string& wg, int size_class, const std::string& group_key) {
  const std::string base = gb::bench_name("L1/GEMM", {{"", variant},
                                                      {"type", type},
                                                      {"m", std::to_string(s.m)},
                                                      {"n", std::to_string(s.n)},
                                                      {"k", std::to_string(s.k)}});
  return base + (wg.empty() ? "" : "/" + group_key + ":" + wg) + "/size:" + std::to_string(size_class);
}

static size_t padded(size_t cols) { return gb::round_up(cols, kAlign); }

std::optional<std::string> too_big(const Shape& s, size_t element_bytes, uint64_t extra_bytes) {
  const uint64_t a = s.m * padded(s.k) * element_bytes, b = s.k * padded(s.n) * element_bytes,
                 c = s.m * padded(s.n) * element_bytes;
  std::vector<uint64_t> buffers{a, b, c};
  if (extra_bytes > 0) buffers.push_back(extra_bytes);
  if (auto why = gb::memory_shortfall(buffers); !why.empty()) return why;
  return std::nullopt;
}

gb::Work work(const Shape& s, size_t element_bytes) {
  const double m = s.m, n = s.n, k = s.k;
  return gb::Work().bytes((m * k + k * n + m * n) * element_bytes).flops(2 * m * n * k);
}

// Rows x ld, random in [-1, 1) up to `cols`, zeros beyond.
template <typename T>
static std::vector<T> padded_random(size_t rows, size_t cols, size_t ld, uint64_t seed) {
  std::vector<T> v = gb::random_vector<T>(rows * ld, seed);
  for (size_t r = 0; r < rows; ++r)
    std::fill(v.begin() + r * ld + cols, v.begin() + (r + 1) * ld, T(0));
  return v;
}

template <typename T>
Fixture<T>& fixture(const Shape& s) {
  return gb::cached_fixture<Fixture<T>>(gb::name_key_without({"", "wg"}), [&] {
    auto fx = std::make_unique<Fixture<T>>();
    fx->s = s;
    fx->lda = padded(s.k);
    fx->ldb = padded(s.n);
    fx->ldc = padded(s.n);
    fx->a = padded_random<T>(s.m, s.k, fx->lda, 101);
    fx->b = padded_random<T>(s.k, s.n, fx->ldb, 102);
    fx->da = gb::upload(fx->a, CL_MEM_READ_ONLY);
    fx->db = gb::upload(fx->b, CL_MEM_READ_ONLY);
    fx->dc = gb::make_buffer(fx->c_bytes());
    return fx;
  });
}

template <typename T>
gb::Check verify(const Fixture<T>& fx) {
  const Shape& s = fx.s;
  const std::vector<T> c = gb::download<T>(fx.dc, s.m * fx.ldc);
  const ref::MatrixRef<T> a{fx.a.data(), s.m, s.k, fx.lda}, b{fx.b.data(), s.k, s.n, fx.ldb},
      cm{c.data(), s.m, s.n, fx.ldc};
  // Rounding errors of a length-k dot product grow like sqrt(k) eps in practice (k eps at
  // worst); 16x leaves room for any summation order, while a lost tile or a wrong edge gives
  // errors of order sqrt(tile/k) or more.
  const double margin = 16 * std::numeric_limits<T>::epsilon() * std::sqrt(static_cast<double>(s.k));
  std::vector<gb::Check> checks;

  if (!fx.expected) {
    auto e = std::make_shared<typename Fixture<T>::Expected>();
    e->x = gb::random_vector<double>(s.n, 103);
    e->a_b_x = ref::matvec(a, ref::matvec(b, e->x));
    e->where = ref::sample_entries(s.m, s.n, 2048, 104);
    ref::gemm_entries(a, b, e->where, e->want, e->scale);
    if (std::max({s.m, s.n, s.k}) <= kFullCheck) {
      e->full = ref::gemm_full(a, b);
      e->full_scale = ref::gemm_full_abs(a, b);
    }
    fx.expected = e;
  }
  const auto& expected = *fx.expected;
  checks.push_back(gb::check_relative(ref::matvec(cm, expected.x), expected.a_b_x, margin,
                                      "Freivalds: C x against A (B x)"));

  double worst = 0;
  for (size_t i = 0; i < expected.where.size(); ++i) {
    const auto& at = expected.where[i];
    const double got = c[at.row * fx.ldc + at.col];
    const double err = std::abs(got - expected.want[i]) / expected.scale[i];
    if (!std::isfinite(err)) worst = INFINITY;
    worst = std::max(worst, err);
  }
  checks.push_back({worst, gb::scaled_margin(margin), "sampled entries (error / sum |a||b|)"});

  if (std::max({s.m, s.n, s.k}) <= kFullCheck) {
    std::vector<T> dense(s.m * s.n);
    for (size_t r = 0; r < s.m; ++r)
      std::copy_n(c.begin() + r * fx.ldc, s.n, dense.begin() + r * s.n);
    const auto& scale = expected.full_scale;
    checks.push_back(gb::check_bounded(dense, expected.full, [&](size_t i) { return margin * scale[i]; },
                                       "every entry of C against Eigen's A*B (error / sum |a||b|)"));
  }
  return gb::worst(checks);
}

template Fixture<float>& fixture(const Shape&);
template Fixture<double>& fixture(const Shape&);
template gb::Check verify(const Fixture<float>&);
template gb::Check verify(const Fixture<double>&);

}  // namespace gemm

namespace {

using gemm::Shape;

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { naive, tiled, regblock, warptile, warptile_async, mma };
const gb::Axis<Variant> kVariant{"", {{Variant::naive, "naive"},
                                      {Variant::tiled, "tiled"},
                                      {Variant::regblock, "regblock"},
                                      {Variant::warptile, "warptile"},
                                      {Variant::warptile_async, "warptile_async"},
                                      {Variant::mma, "mma"}}};

const gb::WorkGroup kDefaultShape{16, 16, 1, 2};
constexpr size_t kTiledTileK = 16;
// Register-blocked: each work item computes kWpt x kWpt of C (WPT_M = WPT_N), loading
// vector_width-wide vectors; the work group of WG_X x WG_Y makes a (WG_Y*kWpt) x (WG_X*kWpt)
// block: 16x16 gives 128x128. K advances by max_tile_k per step, less where local memory is
// short. Vectors, K steps, groups and bands per type are measured choices (bench/tuning/gemm.hpp).
using gemm_tuning::Param;
using gemm_tuning::tuned;
constexpr size_t kWpt = 8;
template <typename T>
size_t vector_width() { return tuned(sizeof(T) == 8 ? Param::regblock_vw_double : Param::regblock_vw_float); }
template <typename T>
size_t max_tile_k() { return tuned(sizeof(T) == 8 ? Param::regblock_tile_k_double : Param::regblock_tile_k_float); }
std::vector<size_t> regblock_tile_ks() { return {max_tile_k<double>(), max_tile_k<float>()}; }  // code paths
// Beside the default 16x16, the problems without a sweep also run the register-blocked float
// kernel in the group the sweep found fastest.
gb::WorkGroup regblock_float_shape() { return {tuned(Param::regblock_float_wg_x), tuned(Param::regblock_float_wg_y), 1, 2}; }

// Warp-tiled: regblock's blocks and vectors (kWpt x kWpt per work item, vector_width<T>()), each
// warp of kWarpLanes work items a lanes_m x lanes_n lane grid over a compact warp tile, blocks run
// in bands of group_m block rows. Lanes filled lane_ilv rows at a time make cheaper local reads.
struct WarptileKnobs {
  size_t lanes_m, lanes_n;  // the lane grid
  size_t lane_ilv;          // lane rows filled together (LANE_ILV)
  size_t max_tile_k;        // K per step, less where local memory is short
  size_t group_m;           // block rows per band of the block order
  gb::WorkGroup shape;      // the group the GPUs prefer, run beside the default 16x16
};
constexpr size_t kLanesM = 4, kLanesN = 8;
template <typename T>
WarptileKnobs warptile_knobs() {
  const bool dbl = sizeof(T) == 8;
  return {kLanesM,
          kLanesN,
          tuned(Param::warptile_lane_ilv),
          tuned(dbl ? Param::warptile_tile_k_double : Param::warptile_tile_k_float),
          tuned(dbl ? Param::warptile_group_m_double : Param::warptile_group_m_float),
          {tuned(dbl ? Param::warptile_wg_x_double : Param::warptile_wg_x_float),
           tuned(dbl ? Param::warptile_wg_y_double : Param::warptile_wg_y_float), 1, 2}};
}
constexpr size_t kWarpLanes = 32;
bool is_warptile(Variant v) { return v == Variant::warptile || v == Variant::warptile_async; }

// warptile_async (float only): warptile's float knobs, blocks and groups, its tiles copied into
// STAGES local buffers by cp.async (NVIDIA from sm_80: PTX ISA 7.0) or by each work item's own
// loads and stores elsewhere, from A transposed by a first kernel (gemm_transpose_a, part of each
// unit: 0.5% of the work at 8192^3). K per stage: warptile's float step. Stages: the most up to
// kAsyncMaxStages that fit in local memory (a 128x64 block's stage is 12 KiB: 4 fill NVIDIA's
// 48 KiB; the 16x16 group's 128x128, 16 KiB, takes 3), at least 2.
size_t async_tile_k() { return warptile_knobs<float>().max_tile_k; }
constexpr size_t kAsyncMaxStages = 4, kAsyncMinStages = 2;
// Block rows per band (measured); at size 1, 3: CI's problems then make several bands and a
// shorter last one.
size_t async_group_m(int size_class) { return size_class == 1 ? 3 : tuned(Param::async_group_m); }
constexpr size_t kTransposeTile = 32, kTransposeRows = 8;  // gemm_transpose_a's tile and group
bool async_copies() { return gb::session().info().nv_compute_capability >= 80; }
size_t async_local_bytes(const gb::WorkGroup& wg, size_t stages) {
  return stages * async_tile_k() * (wg.y + wg.x) * kWpt * sizeof(float);
}
size_t async_stages(const gb::WorkGroup& wg) {
  for (size_t st = kAsyncMaxStages; st >= kAsyncMinStages; --st)
    if (async_local_bytes(wg, st) <= gb::session().info().local_mem_bytes) return st;
  return 0;
}
// A transposed: K rows rounded up to a whole step (zeros, so that the kernel's copies need no
// bounds check along K) of M columns padded like every row.
size_t at_rows(const Shape& s) { return gb::round_up(s.k, async_tile_k()); }
size_t at_ld(const Shape& s) { return gb::round_up(s.m, gemm::kAlign); }

// mma (double): each warp computes kMmaTilesM x kMmaTilesN 8x8 sub-tiles of C (a 64x32 warp
// tile, 64 accumulators per work item); a group is a grid of warps (its work-group shape: the
// sweep's axis), 2x4 by default (128x128 blocks, 256 work items). K per step 8, copied into 3
// local buffers (2 where 3 do not fit): three steps of a 128x128 block fill NVIDIA's 48 KiB. The
// PTX instruction and the bands are measured choices (bench/tuning/gemm.hpp).
constexpr size_t kMmaTilesM = 8, kMmaTilesN = 4, kMmaTileK = 8;
struct MmaWarps {
  size_t m, n;
  std::string label() const { return std::to_string(m) + "x" + std::to_string(n); }
  size_t block_m() const { return m * kMmaTilesM * 8; }  // the group's block of C
  size_t block_n() const { return n * kMmaTilesN * 8; }
  size_t items() const { return 32 * m * n; }
};
// Block rows per band (measured) on a GPU's sizes; 3 at size 1, so that CI's problems make several
// bands and a shorter last one.
size_t mma_group_m(int size_class) { return size_class == 1 ? 3 : tuned(Param::mma_group_m); }
constexpr MmaWarps kMmaDefault{2, 4};

struct Params {
  Variant variant;
  Shape shape;
  gb::WorkGroup wg;
  size_t tile_k;  // tiled and regblock: K per step
  int size_class;
  MmaWarps warps{0, 0};  // mma: the grid of warps (wg is its 1-D group)
  size_t stages = 0;     // warptile_async and mma: local buffers of the pipeline
};

// The mma kernel's local memory (kernels/l1/gemm.cl: `stages` steps of As[BM][K], Bs[K][BN]).
size_t mma_local_bytes(const MmaWarps& w, size_t stages) {
  return stages * (w.block_m() * kMmaTileK + kMmaTileK * w.block_n()) * sizeof(double);
}
// Its stages: 3 where they fit, else 2 (0: none fit). At size 1 the local memory counted is at most
// NVIDIA's 48 KiB, so that CI's grids take the stage counts an H100's or H200's take (PoCL has 1 MiB).
constexpr size_t kNvidiaLocalBytes = 48 * 1024;
size_t mma_stages(const MmaWarps& w, int size_class) {
  size_t local = gb::session().info().local_mem_bytes;
  if (size_class == 1) local = std::min(local, kNvidiaLocalBytes);
  for (size_t st = 3; st >= 2; --st)
    if (mma_local_bytes(w, st) <= local) return st;
  return 0;
}
// A last wave of groups that fills at most half the device runs split along K: its blocks' K
// steps in `parts` ranges, one group each, then gemm_mma_reduce adds the ranges into C (8192^3
// on 132 SMs: 4096 blocks are 31 waves and 4 blocks, which would take a 32nd block's time on 4
// SMs). A wave is mma_groups_per_cu groups on each compute unit; at size 1 six, so that CI's
// problems split both with and without whole waves before. Each range holds at least
// kMmaMinSplitSteps steps.
constexpr size_t kMmaMinSplitSteps = 4, kMmaSize1Wave = 6;
struct MmaSplit {
  size_t whole = 0, split = 0, parts = 1;  // blocks in the first launch; blocks split, and into how many
};
MmaSplit mma_split(const Shape& s, const MmaWarps& w, int size_class, size_t compute_units) {
  const size_t blocks = ((s.m + w.block_m() - 1) / w.block_m()) * ((s.n + w.block_n() - 1) / w.block_n());
  const size_t wave = size_class == 1 ? kMmaSize1Wave : compute_units * tuned(Param::mma_groups_per_cu);
  const size_t last = blocks % wave, steps = (s.k + kMmaTileK - 1) / kMmaTileK;
  const size_t parts = last == 0 ? 1 : std::min(wave / last, steps / kMmaMinSplitSteps);
  if (parts < 2) return {blocks, 0, 1};
  return {blocks - last, last, parts};
}

// NVIDIA's FP64 mma.sync needs sm_80 (m8n8k4; m16n8k4 sm_90); elsewhere the kernel's FMA path runs.
// The table's rows of the instruction: 0 (FMAs), 8 (m8n8k4) or 16 (m16n8k4).
bool mma_on_tensor_cores() { return tuned(Param::mma_ptx_rows) != 0; }
std::string mma_ptx_options() {
  const size_t rows = tuned(Param::mma_ptx_rows);
  return rows == 0 ? "" : rows == 8 ? " -DPTX_MMA -DPTX_MMA_M8" : " -DPTX_MMA";
}

// Local memory of the tiled, register-blocked and warp-tiled kernels (as kernels/l1/gemm.cl
// declares it; warptile's tiles are regblock's).
size_t tiled_local_bytes(const gb::WorkGroup& wg, size_t tile_k, size_t element) {
  return (wg.y * (tile_k + 1) + tile_k * wg.x) * element;
}
template <typename T>
size_t regblock_local_bytes(const gb::WorkGroup& wg, size_t tile_k) {
  return 2 * tile_k * ((wg.y * kWpt + vector_width<T>()) + wg.x * kWpt) * sizeof(T);
}

// Why the warp-tiled kernel cannot take a group: its warps must tile the block (the kernel's
// #error), at warps of kWarpLanes work items for the speed it is written for.
template <typename T>
std::optional<std::string> warptile_misfit(const gb::WorkGroup& wg) {
  static_assert(kLanesM * kLanesN == kWarpLanes, "a lane grid is one warp");
  const WarptileKnobs kn = warptile_knobs<T>();
  if (kn.lanes_m % kn.lane_ilv != 0) return "the lane grid is no whole number of interleaves (LANE_ILV)";
  if (wg.y % kn.lanes_m != 0 || wg.x % kn.lanes_n != 0)
    return "the group is no whole number of " + std::to_string(kWarpLanes) + "-item warps of " +
           std::to_string(kn.lanes_m) + "x" + std::to_string(kn.lanes_n) + " lanes (WG_Y must be a multiple of " +
           std::to_string(kn.lanes_m) + ", WG_X of " + std::to_string(kn.lanes_n) + ")";
  return std::nullopt;
}

// The longest K step (from `longest` down to the vector width) whose tiles fit in local memory;
// 0 if none does.
template <typename T>
size_t regblock_tile_k(const gb::WorkGroup& wg, size_t longest) {
  const size_t local = gb::session().info().local_mem_bytes;
  for (size_t tk = longest; tk >= vector_width<T>(); tk /= 2)
    if (regblock_local_bytes<T>(wg, tk) <= local) return tk;
  return 0;
}

// ---- set-up (once per variant and problem; operands shared, see gemm::fixture) ----------------
// The program of a variant, with its tile knobs: built by set_up (kernel gemm_<variant>),
// declared at registration.
template <typename T>
gb::ProgramKey program_of(const Params& p) {
  std::string options = std::string("-DTYPE=") + gemm::type_name<T>();
  switch (p.variant) {
    case Variant::naive:
      options += " -DONLY_NAIVE";
      break;
    case Variant::tiled:
      options += " -DONLY_TILED -DTILE_X=" + std::to_string(p.wg.x) + " -DTILE_Y=" + std::to_string(p.wg.y) +
                 " -DTILE_K=" + std::to_string(p.tile_k);
      break;
    case Variant::regblock:
      options += " -DONLY_REGBLOCK -DWG_X=" + std::to_string(p.wg.x) + " -DWG_Y=" + std::to_string(p.wg.y) +
                 " -DWPT_M=" + std::to_string(kWpt) + " -DWPT_N=" + std::to_string(kWpt) +
                 " -DVW=" + std::to_string(vector_width<T>()) + " -DRB_TILE_K=" + std::to_string(p.tile_k);
      break;
    case Variant::warptile:
    case Variant::warptile_async: {
      const WarptileKnobs kn = warptile_knobs<T>();
      options += std::string(p.variant == Variant::warptile ? " -DONLY_WARPTILE" : " -DONLY_WARPTILE_ASYNC") +
                 " -DWG_X=" + std::to_string(p.wg.x) + " -DWG_Y=" + std::to_string(p.wg.y) +
                 " -DWPT_M=" + std::to_string(kWpt) + " -DWPT_N=" + std::to_string(kWpt) +
                 " -DVW=" + std::to_string(vector_width<T>()) + " -DWT_TILE_K=" + std::to_string(p.tile_k) +
                 " -DLANES_M=" + std::to_string(kn.lanes_m) + " -DLANES_N=" + std::to_string(kn.lanes_n) +
                 " -DLANE_ILV=" + std::to_string(kn.lane_ilv) + " -DGROUP_M=" +
                 std::to_string(p.variant == Variant::warptile_async ? async_group_m(p.size_class) : kn.group_m);
      if (p.variant == Variant::warptile_async) {
        options += " -DSTAGES=" + std::to_string(p.stages) + " -DTRANSPOSE_ROWS=" + std::to_string(kTransposeRows);
        if (async_copies()) options += " -DPTX_ASYNC";
      }
      break;
    }
    case Variant::mma:
      options += " -DONLY_MMA -DMMA_WARPS_M=" + std::to_string(p.warps.m) + " -DMMA_WARPS_N=" +
                 std::to_string(p.warps.n) + " -DMMA_TM=" + std::to_string(kMmaTilesM) +
                 " -DMMA_TN=" + std::to_string(kMmaTilesN) +  " -DMMA_TILE_K=" + std::to_string(kMmaTileK) +
                 " -DMMA_GROUP_M=" + std::to_string(mma_group_m(p.size_class)) +
                 " -DMMA_STAGES=" + std::to_string(p.stages) + mma_ptx_options();
      if (async_copies()) options += " -DPTX_ASYNC";
      break;
  }
  return {"l1/gemm.cl", options};
}

template <typename T>
void set_up(gemm::Run& run, gemm::Fixture<T>& fx, const Params& p) {
  const Shape& sh = p.shape;
  // The kernel's own work-group limit (NVIDIA reports 256 for some builds) is known once it is
  // built: above it the benchmark is skipped, and the run keeps no kernel it cannot launch.
  cl::Kernel kernel = gb::session().kernel(program_of<T>(p), std::string("gemm_") + kVariant.label(p.variant));
  gb::require_work_group(kernel, p.wg.size());
  run.kernel = kernel;
  MmaSplit sp;
  if (p.variant == Variant::mma) {
    sp = mma_split(sh, p.warps, p.size_class, gb::session().info().compute_units);
    run.global = cl::NDRange(std::max<size_t>(sp.whole, 1) * p.wg.x);
    run.skip_kernel = sp.whole == 0;
  } else if (p.variant == Variant::regblock || is_warptile(p.variant)) {
    const size_t tile_m = p.wg.y * kWpt, tile_n = p.wg.x * kWpt;
    run.global = cl::NDRange((sh.n + tile_n - 1) / tile_n * p.wg.x, (sh.m + tile_m - 1) / tile_m * p.wg.y);
  } else {
    run.global = gb::padded_global(sh.n, sh.m, 1, p.wg);
  }
  run.local = p.wg.local();
  auto& k = run.kernel;
  GB_SET_ARGS(k, static_cast<cl_int>(sh.m), static_cast<cl_int>(sh.n), static_cast<cl_int>(sh.k), fx.da,
              static_cast<cl_int>(fx.lda), fx.db, static_cast<cl_int>(fx.ldb), fx.dc, static_cast<cl_int>(fx.ldc));
  if (p.variant == Variant::mma) {
    GB_SET_ARGS_FROM(k, 9, cl_int{0}, cl_int{1}, fx.dc);  // whole blocks from the first; `partial` unused
    if (sp.split > 0) {
      const size_t block = p.warps.block_m() * p.warps.block_n();
      run.partial_bytes = sp.split * sp.parts * block * sizeof(double);
      run.partial = gb::make_buffer(run.partial_bytes);
      const auto first = static_cast<cl_int>(sp.whole), parts = static_cast<cl_int>(sp.parts);
      run.split = gb::session().kernel(program_of<double>(p), "gemm_mma");
      run.split_global = cl::NDRange(sp.split * sp.parts * p.wg.x);
      GB_SET_ARGS(run.split, static_cast<cl_int>(sh.m), static_cast<cl_int>(sh.n), static_cast<cl_int>(sh.k), fx.da,
                  static_cast<cl_int>(fx.lda), fx.db, static_cast<cl_int>(fx.ldb), fx.dc,
                  static_cast<cl_int>(fx.ldc), first, parts, run.partial);
      run.reduce = gb::session().kernel(program_of<double>(p), "gemm_mma_reduce");
      run.reduce_global = cl::NDRange(sp.split * block / 2);
      size_t local = 256;  // a power of two: divides a block's pairs (at least 64 x 128 / 2)
      while (local > 1 && local > gb::session().kernel_work_group_size(run.reduce)) local /= 2;
      run.reduce_local = cl::NDRange(local);
      GB_SET_ARGS(run.reduce, static_cast<cl_int>(sh.m), static_cast<cl_int>(sh.n), fx.dc,
                  static_cast<cl_int>(fx.ldc), first, parts, run.partial);
    }
  }
  if (p.variant == Variant::warptile_async) {  // the GEMM reads At, written by the transpose first
    const size_t rows = at_rows(sh), ld = at_ld(sh);
    if (!fx.at()) fx.at = gb::make_buffer(rows * ld * sizeof(T));
    run.pre = gb::session().kernel(program_of<T>(p), "gemm_transpose_a");
    run.pre_global = cl::NDRange(gb::round_up(ld, kTransposeTile), gb::round_up(rows, kTransposeTile) / kTransposeTile * kTransposeRows);
    run.pre_local = cl::NDRange(kTransposeTile, kTransposeRows);
    GB_SET_ARGS(run.pre, static_cast<cl_int>(sh.m), static_cast<cl_int>(sh.k), fx.da, static_cast<cl_int>(fx.lda),
                fx.at, static_cast<cl_int>(ld), static_cast<cl_int>(rows));
    GB_SET_ARGS_FROM(k, 3, fx.at, static_cast<cl_int>(ld));  // in place of A
  }
}

// ---- the benchmark -------------------------------------------------------------------------
template <typename T>
void run(benchmark::State& state, const Params& p) {
  auto& fx = gemm::fixture<T>(p.shape);
  auto& r = fx.runs[gb::name_key()];
  if (!r.kernel()) set_up(r, fx, p);
  auto m = gb::Measurement::device([&](gb::Batch& b) {
             if (r.pre()) b.launch(r.pre, r.pre_global, r.pre_local);
             if (!r.skip_kernel) b.launch(r.kernel, r.global, r.local);
             if (r.split()) {
               b.launch(r.split, r.split_global, r.local);
               b.launch(r.reduce, r.reduce_global, r.reduce_local);
             }
           })
               .work(gemm::work(p.shape, sizeof(T)))
               .poison(fx.dc, fx.c_bytes())
               .check([&] { return gemm::verify(fx); });
  if (p.variant == Variant::mma) {
    m.counter("tensor_cores", mma_on_tensor_cores() ? 1 : 0);
    m.counter("async_copies", async_copies() ? 1 : 0);
    m.counter("stages", static_cast<double>(p.stages));
    const MmaSplit sp = mma_split(p.shape, p.warps, p.size_class, gb::session().info().compute_units);
    m.counter("split_blocks", static_cast<double>(sp.split));  // the last wave's blocks split along K
    m.counter("split_parts", static_cast<double>(sp.parts));
    if (r.partial()) m.poison(r.partial, r.partial_bytes);  // a range left unwritten reaches C as NaN
  }
  if (p.variant == Variant::warptile_async) {
    // At poisoned too: an element the transpose leaves unwritten (its zero padding included)
    // reaches C as NaN.
    m.poison(fx.at, at_rows(p.shape) * at_ld(p.shape) * sizeof(T));
    m.counter("async_copies", async_copies() ? 1 : 0);
  }
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
// The seed's sweep, (N,1) ... (1,N) for N = 64 ... 1024, at one problem per size class (at size 1
// only N = 64, to keep PoCL quick). Register-blocked and warp-tiled kernels hold 64 accumulators
// per work item, so their sweep stops at 256 work items (a GPU's register file allows no more).
std::vector<gb::WorkGroup> sweep(Variant v, int size_class) {
  const auto& d = gb::session().info();
  const size_t lo = 64;
  const size_t hi = size_class == 1 ? 64 : v == Variant::regblock || is_warptile(v) ? 256 : 1024;
  gb::SweepLimits limits{std::min(hi, d.max_work_group_size),
                         {d.max_work_item_sizes[0], d.max_work_item_sizes[1], 1}, lo};
  auto shapes = gb::work_group_shapes(2, limits, v == Variant::naive);
  auto is_default = [](const gb::WorkGroup& w) {
    return w.x == kDefaultShape.x && w.y == kDefaultShape.y;
  };
  if (std::none_of(shapes.begin(), shapes.end(), is_default))
    shapes.insert(shapes.begin(), kDefaultShape);
  return shapes;
}

// The groups a variant runs on a problem: the default 16x16 (and the driver's choice for naive),
// the group the GPUs prefer for register-blocked float and warp-tiled (either staging), or the
// whole sweep.
template <typename T>
std::vector<gb::WorkGroup> shapes_of(Variant v, const Shape& s, int size_class) {
  if (s == gemm::sweep_problem(size_class)) return sweep(v, size_class);
  std::vector<gb::WorkGroup> shapes = {kDefaultShape};
  if (v == Variant::naive) shapes.push_back({0, 1, 1, 2});
  if (v == Variant::regblock && sizeof(T) == 4 && size_class > 1) shapes.push_back(regblock_float_shape());
  if (is_warptile(v) && size_class > 1 && warptile_knobs<T>().shape.label() != kDefaultShape.label())
    shapes.push_back(warptile_knobs<T>().shape);
  return shapes;
}

template <typename T>
void register_type(int size_class) {
  const auto& d = gb::session().info();
  const char* type = gemm::type_name<T>();
  for (const Shape& s : gemm::problems(size_class)) {
    if (auto why = gemm::too_big(s, sizeof(T))) {
      gb::skip_variant(gemm::bench_name("*", type, s, "", size_class), *why);
      continue;
    }
    for (Variant v : kVariant.all()) {
      if (v == Variant::mma) continue;  // register_mma
      if (v == Variant::warptile_async && sizeof(T) != sizeof(float)) continue;  // float only
      for (const auto& wg : shapes_of<T>(v, s, size_class)) {
        const std::string name = gemm::bench_name(kVariant.label(v), type, s, wg.label(), size_class);
        size_t tile_k = 0, stages = 0;
        if (v == Variant::warptile_async) {
          if (auto why = warptile_misfit<float>(wg)) {
            gb::skip_variant(name, *why);
            continue;
          }
          if (auto why = gemm::too_big(s, sizeof(float), at_rows(s) * at_ld(s) * sizeof(float))) {
            gb::skip_variant(name, *why + " (A transposed included)");
            continue;
          }
          tile_k = async_tile_k();
          stages = async_stages(wg);
          if (stages == 0) {
            gb::skip_variant(name, "its " + std::to_string(kAsyncMinStages) + " stages of tiles exceed the device's local memory");
            continue;
          }
        } else if (v == Variant::tiled) {
          tile_k = kTiledTileK;
          if (tiled_local_bytes(wg, tile_k, sizeof(T)) > d.local_mem_bytes) {
            gb::skip_variant(name, "its tiles exceed the device's local memory");
            continue;
          }
        } else if (v == Variant::regblock || v == Variant::warptile) {
          if (auto why = v == Variant::warptile ? warptile_misfit<T>(wg) : std::nullopt) {
            gb::skip_variant(name, *why);
            continue;
          }
          tile_k = regblock_tile_k<T>(wg, v == Variant::warptile ? warptile_knobs<T>().max_tile_k : max_tile_k<T>());
          if (tile_k == 0) {
            gb::skip_variant(name, "its tiles exceed the device's local memory");
            continue;
          }
        }
        if (wg.size() > d.max_work_group_size) {
          gb::skip_variant(name, "work group larger than the device's maximum");
          continue;
        }
        Params p{v, s, wg, tile_k, size_class};
        p.stages = stages;
        // The naive kernel runs by default on the square problems up to 4096^3 only: on 8192^3 and
        // the odd shapes one unit takes about a second on a GPU (--all_sweeps runs them).
        const bool slow = v == Variant::naive && !(s.m == s.n && s.n == s.k && s.m <= 4096);
        gb::add_benchmark(name, [p](benchmark::State& st) { run<T>(st, p); },
                          [p] { return std::vector<gb::ProgramKey>{program_of<T>(p)}; },
                          slow ? gb::DefaultRun::no : gb::DefaultRun::yes);
      }
    }
  }
}

// The warp grids mma runs on a problem: the sweep's on the sweep problem (grids of 4 and 8 warps,
// 8x1 left out: its 32-column B tile is fewer double2s than work items), the default elsewhere.
std::vector<MmaWarps> mma_grids(const Shape& s, int size_class) {
  if (!(s == gemm::sweep_problem(size_class))) return {kMmaDefault};
  return {{1, 4}, {2, 2}, {4, 1}, {1, 8}, {2, 4}, {4, 2}};
}

void register_mma(int size_class) {
  const auto& d = gb::session().info();
  const char* type = gemm::type_name<double>();
  for (const Shape& s : gemm::problems(size_class)) {
    if (gemm::too_big(s, sizeof(double))) continue;  // register_type's skip covers every variant
    for (const MmaWarps& w : mma_grids(s, size_class)) {
      const std::string name = gemm::bench_name("mma", type, s, w.label(), size_class, "warps");
      const size_t stages = mma_stages(w, size_class);
      if (stages == 0) {
        gb::skip_variant(name, "its 2 stages of tiles exceed the device's local memory");
        continue;
      }
      if (w.items() > d.max_work_group_size) {
        gb::skip_variant(name, "work group larger than the device's maximum");
        continue;
      }
      Params p{Variant::mma, s, gb::WorkGroup{w.items(), 1, 1, 1}, kMmaTileK, size_class, w, stages};
      gb::add_benchmark(name, [p](benchmark::State& st) { run<double>(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of<double>(p)}; });
    }
  }
}

// mma: its edge and K-loop paths over the grids it runs on each problem.
void mma_paths(gb::PathSet& paths, int size_class, size_t compute_units) {
  for (const Shape& s : gemm::problems(size_class)) {
    for (const MmaWarps& w : mma_grids(s, size_class)) {
      const size_t stages = mma_stages(w, size_class);
      if (stages == 0) continue;
      const size_t bm = w.block_m(), bn = w.block_n();
      gb::path_if(paths, s.m % bm != 0 || s.n % bn != 0, "mma: partial blocks at the edges");
      gb::path_if(paths, s.m >= bm && s.n >= bn, "mma: whole blocks");
      gb::path_if(paths, stages == 3, "mma: 3 stages");
      gb::path_if(paths, stages == 2, "mma: 2 stages");
      gb::path_if(paths, s.k > stages * kMmaTileK, "mma: more K steps than stages (buffers reused)");
      gb::path_if(paths, s.k % kMmaTileK != 0, "mma: partial last K step");
      const size_t blocks_m = (s.m + bm - 1) / bm, group_m = mma_group_m(size_class);
      gb::path_if(paths, blocks_m > group_m, "mma: 2+ bands of block rows");
      gb::path_if(paths, blocks_m % group_m != 0, "mma: a last band of fewer than group_m block rows");
      const MmaSplit sp = mma_split(s, w, size_class, compute_units);
      gb::path_if(paths, sp.split > 0 && sp.whole > 0, "mma: whole waves, then the last one split along K");
      gb::path_if(paths, sp.split > 0 && sp.whole == 0, "mma: every block split along K (less than a wave)");
    }
  }
}

// Warp-tiled: the edge, K-loop and band paths over every group it runs on each problem (the
// sweep's small blocks make several bands of block rows at size 1).
template <typename T>
void warptile_paths(gb::PathSet& paths, int size_class) {
  const WarptileKnobs kn = warptile_knobs<T>();
  for (const Shape& s : gemm::problems(size_class)) {
    for (const auto& wg : shapes_of<T>(Variant::warptile, s, size_class)) {
      const size_t tk = regblock_tile_k<T>(wg, kn.max_tile_k);
      if (warptile_misfit<T>(wg) || wg.size() > gb::session().info().max_work_group_size || tk == 0) continue;
      const size_t tile_m = wg.y * kWpt, tile_n = wg.x * kWpt, blocks_m = (s.m + tile_m - 1) / tile_m;
      gb::path_if(paths, s.m % tile_m != 0 || s.n % tile_n != 0, "warptile: partial blocks at the edges");
      gb::path_if(paths, s.m >= tile_m && s.n >= tile_n, "warptile: whole blocks");
      gb::path_if(paths, s.k > 2 * tk, "warptile: 3+ K steps (double-buffered loads)");
      gb::path_if(paths, s.k % tk != 0, "warptile: partial last K step");
      gb::path_if(paths, blocks_m > kn.group_m, "warptile: 2+ bands of block rows");
      gb::path_if(paths, blocks_m % kn.group_m != 0, "warptile: a last band of fewer than group_m block rows");
    }
  }
}

// warptile_async: warptile's edge, K-step and band paths over every group it runs on each
// problem, the pipeline's reuse of its buffers, and A transposed into padded rows.
void warptile_async_paths(gb::PathSet& paths, int size_class) {
  for (const Shape& s : gemm::problems(size_class)) {
    for (const auto& wg : shapes_of<float>(Variant::warptile_async, s, size_class)) {
      const size_t stages = async_stages(wg);
      if (warptile_misfit<float>(wg) || wg.size() > gb::session().info().max_work_group_size || stages == 0) continue;
      const size_t tile_m = wg.y * kWpt, tile_n = wg.x * kWpt, blocks_m = (s.m + tile_m - 1) / tile_m;
      const size_t steps = (s.k + async_tile_k() - 1) / async_tile_k();
      gb::path_if(paths, s.m % tile_m != 0 || s.n % tile_n != 0, "warptile_async: partial blocks at the edges");
      gb::path_if(paths, s.m >= tile_m && s.n >= tile_n, "warptile_async: whole blocks");
      gb::path_if(paths, steps > stages, "warptile_async: more K steps than stages (buffers reused)");
      gb::path_if(paths, s.k % async_tile_k() != 0, "warptile_async: partial last K step (A's zero rows, B's rows skipped)");
      gb::path_if(paths, s.m % gemm::kAlign != 0, "warptile_async: A transposed into padded rows (m not a multiple of 4)");
      gb::path_if(paths, blocks_m > async_group_m(size_class), "warptile_async: 2+ bands of block rows");
      gb::path_if(paths, blocks_m % async_group_m(size_class) != 0,
                  "warptile_async: a last band of fewer than group_m block rows");
    }
  }
}

// The edge and K-loop paths of the kernels over the problems of a size class, at the default
// 16x16 group (regblock: 128x128 blocks, K steps of each type's max_tile_k), and warptile's.
gb::PathSet code_paths(int size_class, size_t compute_units) {
  gb::PathSet paths;
  warptile_paths<float>(paths, size_class);
  warptile_async_paths(paths, size_class);
  if (gb::session().info().has_fp64()) {
    warptile_paths<double>(paths, size_class);
    mma_paths(paths, size_class, compute_units);
  }
  const size_t rb = kDefaultShape.x * kWpt;
  for (const Shape& s : gemm::problems(size_class)) {
    gb::path_if(paths, s.m % kDefaultShape.y != 0 || s.n % kDefaultShape.x != 0, "naive and tiled: partial tiles at the edges");
    gb::path_if(paths, s.m % kDefaultShape.y == 0 && s.n % kDefaultShape.x == 0, "naive and tiled: whole tiles");
    gb::path_if(paths, s.k > kTiledTileK, "tiled: 2+ K steps");
    gb::path_if(paths, s.k % kTiledTileK != 0, "tiled: partial last K step");
    gb::path_if(paths, s.m % rb != 0 || s.n % rb != 0, "regblock: partial blocks at the edges");
    gb::path_if(paths, s.m >= rb && s.n >= rb, "regblock: whole blocks");
    for (size_t tk : regblock_tile_ks()) {
      gb::path_if(paths, s.k > 2 * tk, "regblock: 3+ K steps (double-buffered loads)");
      gb::path_if(paths, s.k % tk != 0, "regblock: partial last K step");
    }
    gb::path_if(paths, s.k % gemm::kAlign != 0 || s.n % gemm::kAlign != 0, "padded rows (k or n not a multiple of 4)");
  }
  return paths;
}

void register_gemm() {
  const int size = gb::session().size_class();
  gb::declare_paths("L1/GEMM", code_paths);
  for (const char* v : {"tiled", "regblock"})
    gb::skip_variant(std::string("L1/GEMM/") + v + "/*/wg:auto",
                     "the work group is the tile, fixed at build time: no driver's choice");
  register_type<float>(size);
  if (gb::session().info().has_fp64()) {
    register_type<double>(size);
    register_mma(size);
  } else
    gb::skip_variant("L1/GEMM/*/type:double", "the device has no cl_khr_fp64");
}
GB_CASE(register_gemm);

}  // namespace
