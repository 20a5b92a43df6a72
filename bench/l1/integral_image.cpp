// L1/IntegralImage: the integral image of an 8-bit photograph (uint32 sums, wrapping) and, with
// out:sum_sq, the squared integral (uint64) face detection needs: a row scan then a column scan
// (two kernels), one fused launch of chained row bands, tiles (their sums, a scan of the sums,
// then each tile's integral from its carries: the image read twice, the output written once), or
// lookback_tiles (out:sum: one pass over tiles whose carries come by decoupled look-back up the
// tile column and along the tile row: the image read once, the output written once).
// Bytes per unit: pixels * (1 + 4 [+ 8]).
#include <algorithm>
#include <memory>
#include <optional>

#include "bench/tuning/integral_image.hpp"
#include "gpu_bench.hpp"
#include "images.hpp"
#include "reference/integral_image.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { rows_cols, fused, tiles, lookback_tiles };
const gb::Axis<Variant> kVariant{"",
                                 {{Variant::rows_cols, "rows_cols"},
                                  {Variant::fused, "fused"},
                                  {Variant::tiles, "tiles"},
                                  {Variant::lookback_tiles, "lookback_tiles"}}};
const gb::Axis<bool> kOut{"out", {{false, "sum"}, {true, "sum_sq"}}};  // squared

constexpr size_t kWorkGroup = 256;            // rows and fused kernels
// Column kernel: 32 columns x 8 segments, 256 work items: NVIDIA's driver limits this kernel to
// 256 (32 x 16 would be skipped).
constexpr size_t kCols = 32, kSegments = 8;
constexpr size_t kBand = 32;                  // fused: rows per work group
const char* const kPhoto = "camera.png";
// Tiles: the write kernel's work group of wg items takes a tile of 8 * wg columns x rows, each
// item 8 columns down the tile, 4 in each half (the reduce's group: NX = wg / 2 items of 16
// columns); the write scans its rows' 4-column totals every BATCH rows. Swept: three widths and
// three heights around the first, which runs by default (a measured choice:
// bench/tuning/integral_image.hpp).
// out:sum_sq: 4 rows a batch (its 64-bit column sums take the registers) and tiles of at most 32
// rows (a tile's sum of squares fits in uint). No wg:auto: the tile is the group.
struct TileShape {
  size_t items;
  int rows;
};
TileShape default_tile() {
  using integral_image_tuning::Param, integral_image_tuning::tuned;
  return {tuned(Param::tile_items), static_cast<int>(tuned(Param::tile_rows))};
}
std::vector<TileShape> tile_shapes(bool squared) {
  if (squared) return {default_tile(), {128, 32}};
  return {default_tile(), {64, 64}, {64, 16}, {128, 32}, {128, 64}, {32, 32}};
}
constexpr size_t kTileBatchSum = 8, kTileBatchSq = 4;
// The reduce's rows of loads in flight (REDUCE_BATCH; it keeps no per-batch table, so it can take
// more than the write): for out:sum a measured choice (bench/tuning/integral_image.hpp).
size_t reduce_batch_sum() { return integral_image_tuning::tuned(integral_image_tuning::Param::reduce_batch); }
constexpr size_t kScanCols = 32, kScanSegs = 8;  // the scan kernel's groups (SCAN_COLS x SCAN_SEGS)
// Its scans' loads in flight (SCAN_BATCH): out:sum 32, a column segment's 32 tile rows at 8192^2
// in one round trip (batches of 8 took four a pass); out:sum_sq 8 (two arrays). Segments are at
// least two of out:sum_sq's batches long (SCAN_MIN_LENGTH), so that size 1 takes the carry between
// batches.
constexpr size_t kScanBatchSum = 32, kScanBatchSq = 8, kScanMinLength = 16;

// lookback_tiles: tiles of cols x rows, a group of wg items (4 columns of rows / (wg / (cols / 4))
// rows each). A tile's pixels wait in local memory (16 KiB at 512 x 32 and 256 x 64, about 40 KiB
// in all: 4 or 5 groups an SM; larger tiles pass the 48 KiB a group may have). Tall tiles keep the
// walk up short: it goes back over the tile rows started while the tiles above were still looking
// back, at 4 bytes a column each. Wide ones keep the walk along short: it goes back over up to a
// whole tile row, at 8 bytes a row a tile. Words read per step of a walk: VWIN tile rows up, HWIN
// tiles to the left (a whole 512-wide tile row at 8192^2; at size 1, 4, so that a walk there can
// take more than one step). The default run's shape is a measured choice
// (bench/tuning/integral_image.hpp); the others run with --all_sweeps. Not registered: 256 x 64
// and 256 x 32 in 256 items (they would be their sweep's default shape; 0.632 and 0.522 of copy on
// the H200), and the short tiles 128 x 32 and 256 x 16 in 128 (0.518, 0.498).
struct LookbackShape {
  size_t cols;
  int rows;
  size_t items;
};
const std::vector<LookbackShape> kLookbackShapes = {
    {256, 64, 128}, {256, 32, 128}, {128, 128, 128}, {128, 64, 128}, {512, 32, 128},
    {512, 32, 256}, {256, 64, 64}, {256, 32, 64}, {128, 64, 64}};
bool is_default_lookback(const LookbackShape& t) {
  using integral_image_tuning::Param;
  using integral_image_tuning::tuned;
  return t.cols == tuned(Param::lookback_cols) && static_cast<size_t>(t.rows) == tuned(Param::lookback_rows) &&
         t.items == tuned(Param::lookback_items);
}
constexpr size_t kLookbackUp = 4;
size_t lookback_left(int size_class) { return size_class == 1 ? 4 : 16; }
constexpr cl_uint kColumnWordLimit = 1u << 24;  // column words carry 24 bits of value (integral_image.cl)

struct Params {
  Variant variant;
  bool squared;
  int size_class;
  gb::WorkGroup wg{};  // tiles: the write's items (the reduce's: half); lookback_tiles: the group
  int rows = 0;        // tiles: TR; lookback_tiles: TILE_ROWS
  size_t cols = 0;     // lookback_tiles: TILE_COLS

  size_t tile_cols() const { return 8 * wg.x; }
  size_t reduce_items() const { return wg.x / 2; }
  size_t tile_rows() const { return static_cast<size_t>(rows); }
  size_t batch() const { return squared ? kTileBatchSq : kTileBatchSum; }
  size_t reduce_batch() const { return std::min<size_t>(squared ? kTileBatchSq : reduce_batch_sum(), tile_rows()); }
  size_t scan_batch() const { return squared ? kScanBatchSq : kScanBatchSum; }
  // The larger of the reduce and write kernels' local arrays (integral_image.cl's declarations).
  size_t tile_local_bytes() const {
    const size_t nx = reduce_items(), wx = wg.x, tr = tile_rows(), b = batch(), parts = nx >= tr ? nx / tr : 1;
    const size_t reduce = (squared ? 2 : 1) * 4 * (tr * (nx + 1) + parts * tr + tr);
    const size_t wstride = wx / b * (2 * b + 1), write = (squared ? 12 : 4) * (2 * b * wstride + wx + b);
    return std::max(reduce, write);
  }
  // lookback_tiles' local arrays (integral_image_lookback_tiles' declarations).
  size_t lookback_local_bytes() const {
    const size_t groups = cols / 4, spr = wg.x / tile_rows();
    return 4 * (tile_rows() * groups + tile_rows() * (groups + spr) + (wg.x / groups) * cols + 2 * wg.x + tile_rows() + 1);
  }
};

// Width x height: class 1 is wider than a row chunk (WG x 4 = 1024 pixels: the carry crosses a
// chunk boundary, as in a GPU's rows of 8192) and odd-sized (a partial chunk, a partial vector,
// ragged bands, segments and column groups); 3 is 8192^2. A device that cannot hold the buffers
// (8 bytes a pixel in the largest, 13 in all) skips the benchmark (registration).
gb::ImageSize image_size(int size_class) {
  static const gb::ImageSize by_class[] = {{1283, 277}, {4096, 4096}, {8192, 8192}, {16384, 16384}};
  return by_class[size_class - 1];
}

// ---- set-up: the problem (once per size, shared by every variant and output) ------------------
struct Problem {
  gb::ImageSize size{};
  bool from_file = false;
  std::vector<uint8_t> image;
  cl::Buffer in;
  std::vector<uint32_t> reference;
  std::optional<std::vector<uint64_t>> reference_sq;  // made by the first out:sum_sq check
};

std::unique_ptr<Problem> make_problem(int size_class) {
  auto pb = std::make_unique<Problem>();
  pb->size = image_size(size_class);
  const size_t w = pb->size.width, h = pb->size.height;
  gb::Image img = gb::photo(kPhoto, 1, w, h, gb::Fit::tile);
  pb->from_file = img.from_file();
  pb->image = std::move(img.pixels);
  pb->in = gb::upload(pb->image);
  pb->reference = ref::integral_image(pb->image, w, h);
  return pb;
}

// ---- set-up: one variant and output -----------------------------------------------------------
struct Fixture {
  size_t bands = 0;
  cl::Buffer in, sum, sq, bottom, bottom_sq, flags, counter;  // in: the problem's (a retained handle)
  cl::Kernel rows, cols, fused;
  cl_uint epoch = 0;
  // Tiles: per tile its column sums (ushort; of the squares uint), scanned into colabove (uint;
  // ulong), and its row sums and total (and of the squares), scanned in place.
  size_t ntx = 0, nty = 0, scan_groups = 0;
  cl::Buffer colsum, colabove, rowsum, tilesum, colsum2, colabove2, rowsum2, tilesum2;
  cl::Kernel reduce, scan, write;
  // lookback_tiles: column words (tile rows x padded width), row words (tile columns x padded height).
  cl::Buffer vstat, hstat;
  cl::Kernel lookback;
};

// lookback_tiles' byte moves and sums as PRMT and DP4A (inline PTX; DP4A from sm_61).
bool ptx_bytes() { return gb::session().info().nv_compute_capability >= 61; }

// The one program of a configuration (rows_cols' and fused's kernels; tiles: its three, with its
// shape's knobs; lookback_tiles: its one): built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  if (p.variant == Variant::lookback_tiles)
    return {"l1/integral_image.cl", "-DLOOKBACK_TILES -DWG=" + std::to_string(p.wg.x) + " -DTILE_COLS=" +
                                        std::to_string(p.cols) + " -DTILE_ROWS=" + std::to_string(p.rows) +
                                        " -DVWIN=" + std::to_string(kLookbackUp) + " -DHWIN=" +
                                        std::to_string(lookback_left(p.size_class)) + (ptx_bytes() ? " -DPTX_BYTES" : "")};
  if (p.variant == Variant::tiles)
    return {"l1/integral_image.cl", "-DTILES -DNX=" + std::to_string(p.reduce_items()) + " -DTR=" + std::to_string(p.rows) +
                                        " -DBATCH=" + std::to_string(p.batch()) + " -DREDUCE_BATCH=" + std::to_string(p.reduce_batch()) +
                                        " -DSCAN_BATCH=" + std::to_string(p.scan_batch()) + " -DSCAN_MIN_LENGTH=" + std::to_string(kScanMinLength) +
                                        (p.squared ? " -DSQUARED" : "")};
  return {"l1/integral_image.cl", "-DWG=" + std::to_string(kWorkGroup) + " -DCOLS=" + std::to_string(kCols) +
                                      " -DSEGS=" + std::to_string(kSegments) + " -DBAND=" + std::to_string(kBand) +
                                      (p.squared ? " -DSQUARED" : "")};
}

std::unique_ptr<Fixture> make_tiles(const Params& p, const Problem& pb, std::unique_ptr<Fixture> fx) {
  auto& s = gb::session();
  const size_t w = pb.size.width, h = pb.size.height;
  const size_t ntx = (w + p.tile_cols() - 1) / p.tile_cols(), nty = (h + p.tile_rows() - 1) / p.tile_rows();
  auto squares = [&](size_t n, size_t bytes) { return gb::make_buffer((p.squared ? n : 1) * bytes); };  // unused: 1
  fx->ntx = ntx;
  fx->nty = nty;
  fx->colsum = gb::make_buffer(nty * w * sizeof(cl_ushort));
  fx->colabove = gb::make_buffer(nty * w * sizeof(cl_uint));
  fx->rowsum = gb::make_buffer(h * ntx * sizeof(cl_uint));
  fx->tilesum = gb::make_buffer(nty * ntx * sizeof(cl_uint));
  fx->colsum2 = squares(nty * w, sizeof(cl_uint));
  fx->colabove2 = squares(nty * w, sizeof(cl_ulong));
  fx->rowsum2 = squares(h * ntx, sizeof(cl_ulong));
  fx->tilesum2 = squares(nty * ntx, sizeof(cl_ulong));
  const size_t col_groups = (w + kScanCols - 1) / kScanCols, tile_groups = (ntx + kScanCols - 1) / kScanCols;
  fx->scan_groups = col_groups + tile_groups + (h + kScanCols * kScanSegs - 1) / (kScanCols * kScanSegs);
  const gb::ProgramKey program = program_of(p);
  fx->reduce = s.kernel(program, "integral_image_tiles_reduce");
  fx->scan = s.kernel(program, "integral_image_tiles_scan");
  fx->write = s.kernel(program, "integral_image_tiles_write");
  gb::require_work_group(fx->reduce, p.reduce_items());
  gb::require_work_group(fx->scan, kScanCols * kScanSegs);
  gb::require_work_group(fx->write, p.wg.size());
  auto& r = fx->reduce;
  GB_SET_ARGS(r, fx->in, static_cast<cl_uint>(w), static_cast<cl_uint>(h), fx->colsum, fx->rowsum, fx->tilesum,
              fx->colsum2, fx->rowsum2, fx->tilesum2);
  auto& c = fx->scan;
  GB_SET_ARGS(c, fx->colsum, fx->colabove, fx->rowsum, fx->tilesum, fx->colsum2, fx->colabove2, fx->rowsum2,
              fx->tilesum2, static_cast<cl_uint>(w), static_cast<cl_uint>(h), static_cast<cl_uint>(ntx),
              static_cast<cl_uint>(nty), static_cast<cl_uint>(col_groups), static_cast<cl_uint>(tile_groups));
  auto& k = fx->write;
  GB_SET_ARGS(k, fx->in, static_cast<cl_uint>(w), static_cast<cl_uint>(h), fx->colabove, fx->rowsum, fx->tilesum,
              fx->colabove2, fx->rowsum2, fx->tilesum2, fx->sum, fx->sq);
  return fx;
}

std::unique_ptr<Fixture> make_lookback(const Params& p, const Problem& pb, std::unique_ptr<Fixture> fx) {
  auto& s = gb::session();
  const size_t w = pb.size.width, h = pb.size.height;
  fx->ntx = (w + p.cols - 1) / p.cols;
  fx->nty = (h + p.tile_rows() - 1) / p.tile_rows();
  const size_t vwords = fx->nty * fx->ntx * p.cols, hwords = fx->ntx * fx->nty * p.tile_rows();
  fx->vstat = gb::make_buffer(vwords * sizeof(cl_uint));
  fx->hstat = gb::make_buffer(hwords * sizeof(cl_ulong));
  fx->counter = gb::make_buffer(sizeof(cl_uint));  // left 0 by every launch (by the last ticket)
  GB_CL(s.queue().enqueueFillBuffer(fx->vstat, cl_uint(0), 0, vwords * sizeof(cl_uint)));
  GB_CL(s.queue().enqueueFillBuffer(fx->hstat, cl_ulong(0), 0, hwords * sizeof(cl_ulong)));
  GB_CL(s.queue().enqueueFillBuffer(fx->counter, cl_uint(0), 0, sizeof(cl_uint)));
  fx->lookback = s.kernel(program_of(p), "integral_image_lookback_tiles");
  gb::require_work_group(fx->lookback, p.wg.size());
  GB_SET_ARGS(fx->lookback, fx->in, static_cast<cl_uint>(w), static_cast<cl_uint>(h), fx->sum, fx->vstat, fx->hstat,
              fx->counter, static_cast<cl_uint>(fx->ntx), static_cast<cl_uint>(fx->ntx * fx->nty));
  return fx;
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const size_t w = pb.size.width, h = pb.size.height, pixels = w * h;
  fx->in = pb.in;
  fx->sum = gb::make_buffer(pixels * sizeof(cl_uint));
  fx->sq = gb::make_buffer(p.squared ? pixels * sizeof(cl_ulong) : sizeof(cl_ulong));
  const gb::ProgramKey program = program_of(p);
  if (p.variant == Variant::tiles) return make_tiles(p, pb, std::move(fx));
  if (p.variant == Variant::lookback_tiles) return make_lookback(p, pb, std::move(fx));
  if (p.variant == Variant::rows_cols) {
    fx->rows = s.kernel(program, "integral_image_rows");
    fx->cols = s.kernel(program, "integral_image_cols");
    gb::require_work_group(fx->rows, kWorkGroup);
    gb::require_work_group(fx->cols, kCols * kSegments);
    GB_SET_ARGS(fx->rows, fx->in, static_cast<cl_uint>(w), fx->sum, fx->sq);
    GB_SET_ARGS(fx->cols, fx->sum, fx->sq, static_cast<cl_uint>(w), static_cast<cl_uint>(h));
    return fx;
  }
  fx->bands = (h + kBand - 1) / kBand;
  fx->bottom = gb::make_buffer(fx->bands * w * sizeof(cl_uint));
  fx->bottom_sq = gb::make_buffer(p.squared ? fx->bands * w * sizeof(cl_ulong) : sizeof(cl_ulong));
  fx->flags = gb::make_buffer(fx->bands * sizeof(cl_uint));
  fx->counter = gb::make_buffer(sizeof(cl_uint));
  GB_CL(s.queue().enqueueFillBuffer(fx->flags, cl_uint(0), 0, fx->bands * sizeof(cl_uint)));
  GB_CL(s.queue().enqueueFillBuffer(fx->counter, cl_uint(0), 0, sizeof(cl_uint)));
  fx->fused = s.kernel(program, "integral_image_fused");
  gb::require_work_group(fx->fused, kWorkGroup);
  auto& k = fx->fused;
  GB_SET_ARGS(k, fx->in, static_cast<cl_uint>(w), static_cast<cl_uint>(h), fx->sum, fx->sq, fx->bottom, fx->bottom_sq,
              fx->flags, fx->counter, static_cast<cl_uint>(fx->bands));
  return fx;
}

void enqueue(Fixture& fx, const Problem& pb, const Params& p, gb::Batch& b) {
  const size_t w = pb.size.width, h = pb.size.height;
  if (p.variant == Variant::tiles) {
    const size_t nx = p.reduce_items();
    b.launch(fx.reduce, cl::NDRange(fx.ntx * nx, fx.nty), cl::NDRange(nx, 1));
    b.launch(fx.scan, cl::NDRange(fx.scan_groups * kScanCols, kScanSegs), cl::NDRange(kScanCols, kScanSegs));
    b.launch(fx.write, cl::NDRange(fx.ntx * p.wg.x, fx.nty), cl::NDRange(p.wg.x, 1));
    return;
  }
  if (p.variant == Variant::lookback_tiles) {
    fx.epoch = fx.epoch % 127 + 1;  // 1 .. 127 (7 bits in the column words); 0 is the zero-filled status
    GB_SET_ARGS_FROM(fx.lookback, 9, fx.epoch);
    b.launch(fx.lookback, cl::NDRange(fx.ntx * fx.nty * p.wg.x), cl::NDRange(p.wg.x));
    return;
  }
  if (p.variant == Variant::rows_cols) {
    b.launch(fx.rows, cl::NDRange(h * kWorkGroup), cl::NDRange(kWorkGroup));
    b.launch(fx.cols, cl::NDRange(gb::round_up(w, kCols), kSegments), cl::NDRange(kCols, kSegments));
    return;
  }
  fx.epoch = fx.epoch == 0xffffffffu ? 1 : fx.epoch + 1;  // flags start at 0, never an epoch
  GB_SET_ARGS_FROM(fx.fused, 10, fx.epoch);
  b.launch(fx.fused, cl::NDRange(fx.bands * kWorkGroup), cl::NDRange(kWorkGroup));
}

// ---- verification against reference/integral_image: bit-exact ---------------------------------
gb::Check verify(const Fixture& fx, Problem& pb, const Params& p) {
  const size_t w = pb.size.width, h = pb.size.height;
  std::vector<gb::Check> checks{gb::check_exact(gb::read_back<uint32_t>(fx.sum, w * h), pb.reference, "integral image")};
  if (p.squared) {
    if (!pb.reference_sq) pb.reference_sq = ref::squared_integral_image(pb.image, w, h);
    checks.push_back(gb::check_exact(gb::read_back<uint64_t>(fx.sq, w * h), *pb.reference_sq, "squared integral image"));
  }
  return gb::worst(checks);
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"", "out", "rows", "wg"}), [&] { return make_problem(p.size_class); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const size_t pixels = pb.size.width * pb.size.height;
  auto m = gb::Measurement::device([&](gb::Batch& b) { enqueue(fx, pb, p, b); })
               .work(gb::Work().bytes(static_cast<double>(pixels) * (1 + 4 + (p.squared ? 8 : 0)))
                         .items(static_cast<double>(pixels)))
               .poison(fx.sum, pixels * sizeof(cl_uint))
               .check([&] { return verify(fx, pb, p); })
               .counter("width", static_cast<double>(pb.size.width))
               .counter("height", static_cast<double>(pb.size.height))
               .counter("photo_from_file", pb.from_file ? 1 : 0)
               .copy_fraction();
  if (p.squared) m.poison(fx.sq, pixels * sizeof(cl_ulong));
  if (p.variant == Variant::lookback_tiles) m.counter("inline_ptx", ptx_bytes() ? 1 : 0);
  gb::measure(state, m);
}

// ---- code paths ------------------------------------------------------------------------------
// Every tile shape registered (tiles): the write's NX items, TR rows.
std::vector<Params> tile_configs(bool squared, int size_class) {
  std::vector<Params> configs;
  for (const TileShape& t : tile_shapes(squared))
    configs.push_back(Params{Variant::tiles, squared, size_class, gb::WorkGroup{t.items, 1, 1, 1}, t.rows});
  return configs;
}

// The paths of integral_image.cl's kernels at a size class (every variant and output).
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  const gb::ImageSize is = image_size(size_class);
  const size_t w = is.width, h = is.height, chunk = kWorkGroup * 4, length = (h + kSegments - 1) / kSegments;
  gb::path_if(paths, w > chunk, "row chunks: 2+ per row (carry across chunks)");
  gb::path_if(paths, w % chunk != 0, "row chunks: partial last chunk");
  gb::path_if(paths, w % 4 != 0, "partial vector at the row's end");
  gb::path_if(paths, w % kCols != 0, "columns: partial column group");
  gb::path_if(paths, length > 1, "columns: segments of 2+ rows");
  gb::path_if(paths, h % length != 0 || (h + length - 1) / length < kSegments, "columns: partial or empty last segment");
  gb::path_if(paths, h > kBand, "fused: 2+ bands (waits on the band above)");
  gb::path_if(paths, h % kBand != 0, "fused: partial last band");
  gb::path_if(paths, true, "tiles: 16-aligned rows (one 16-byte load, vector loads and stores of sums)");
  gb::path_if(paths, w % 16 != 0, "tiles: rows not 16-aligned (vload16)");
  gb::path_if(paths, w % 4 != 0, "tiles: rows not 4-aligned (scalar loads and stores of sums)");
  gb::path_if(paths, w % 16 != 0, "tiles: a partial 16-pixel segment at the row's end");
  gb::path_if(paths, true, "tiles write: 4-aligned rows (one 4-byte load)");
  gb::path_if(paths, w % 4 != 0, "tiles write: rows not 4-aligned (vload4)");
  gb::path_if(paths, w % 4 != 0, "tiles write: a partial 4-pixel group at the row's end");
  for (bool squared : kOut.all())
    for (const Params& p : tile_configs(squared, size_class)) {
      const size_t tc = p.tile_cols(), tr = p.tile_rows(), ntx = (w + tc - 1) / tc, nty = (h + tr - 1) / tr;
      // The scan's segments down a column (integral_image_tiles_scan's length): their entries.
      const size_t batch = p.scan_batch(), length = std::max(kScanMinLength, (nty + kScanSegs - 1) / kScanSegs);
      bool multi_batch = ntx > batch, partial_batch = ntx % batch != 0;
      for (size_t s = 0; s < kScanSegs; ++s) {
        const size_t n = std::min(nty, (s + 1) * length) - std::min(nty, s * length);
        multi_batch = multi_batch || n > batch;
        partial_batch = partial_batch || n % batch != 0;
      }
      gb::path_if(paths, ntx > 1, "tiles: 2+ tile columns (corner and row offsets from the left)");
      gb::path_if(paths, nty > 1, "tiles: 2+ tile rows (column carries from above)");
      gb::path_if(paths, w % tc != 0, "tiles: partial last tile column");
      gb::path_if(paths, h % tr != 0, "tiles: partial last tile row");
      gb::path_if(paths, tr > p.batch(), "tiles write: 2+ batches a tile (the next batch loaded ahead)");
      gb::path_if(paths, h % tr != 0 && h % tr <= tr - p.batch(), "tiles write: the image ends before a tile's last batch");
      gb::path_if(paths, w % kScanCols != 0 || ntx % kScanCols != 0, "tiles scan: partial column group");
      gb::path_if(paths, std::min(length, nty) > 1, "tiles scan: segments of 2+ tile rows");
      gb::path_if(paths, nty % length != 0 || (nty + length - 1) / length < kScanSegs,
                  "tiles scan: partial or empty last segment");
      gb::path_if(paths, ntx > 1, "tiles scan: row offsets over 2+ tiles");
      gb::path_if(paths, multi_batch, "tiles scan: 2+ batches in one scan");
      gb::path_if(paths, partial_batch, "tiles scan: a partial batch");
      gb::path_if(paths, h > kScanCols * kScanSegs, "tiles scan: 2+ groups of rows");
    }
  for (const LookbackShape& t : kLookbackShapes) {
    const size_t tc = t.cols, tr = static_cast<size_t>(t.rows), rp = tr / (t.items / (tc / 4));
    const size_t ntx = (w + tc - 1) / tc, nty = (h + tr - 1) / tr;
    gb::path_if(paths, nty > 1, "lookback_tiles: 2+ tile rows (the walk up)");
    gb::path_if(paths, ntx > 1, "lookback_tiles: 2+ tile columns (the walk along)");
    gb::path_if(paths, nty - 1 > kLookbackUp, "lookback_tiles: more tile rows above than a step up reads");
    gb::path_if(paths, ntx - 1 > lookback_left(size_class), "lookback_tiles: more tiles to the left than a step along reads");
    gb::path_if(paths, t.items < tc, "lookback_tiles: 2+ columns an item walks up");
    gb::path_if(paths, w % tc != 0, "lookback_tiles: partial last tile column");
    gb::path_if(paths, tc - w % tc >= 4 && w % tc != 0, "lookback_tiles: 4-column groups past the image's right edge");
    gb::path_if(paths, h % tr != 0 && h % tr % rp != 0, "lookback_tiles: an item's rows partly past the image's bottom");
    gb::path_if(paths, h % tr != 0 && tr - h % tr >= rp, "lookback_tiles: an item's rows wholly past the image's bottom");
  }
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
void register_tiles(bool squared, int size, const std::string& shortfall) {
  const auto& d = gb::session().info();
  for (const Params& p : tile_configs(squared, size)) {
    const std::string name = gb::bench_name("L1/IntegralImage", {kVariant.part(p.variant), kOut.part(squared),
                                                                 {"rows", std::to_string(p.rows)},
                                                                 {"wg", p.wg.label()},
                                                                 {"size", std::to_string(size)}});
    if (!shortfall.empty())
      gb::skip_variant(name, shortfall);
    else if (std::max(p.wg.size(), kScanCols * kScanSegs) > d.max_work_group_size || p.wg.x > d.max_work_item_sizes[0] ||
             p.wg.y > d.max_work_item_sizes[1])
      gb::skip_variant(name, "work group larger than the device allows");
    else if (p.tile_local_bytes() > d.local_mem_bytes)
      gb::skip_variant(name, "needs " + std::to_string(p.tile_local_bytes()) + " bytes of local memory");
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
  }
}

// lookback_tiles (out:sum only): its tuned shape in the default run, the others with --all_sweeps.
void register_lookback(int size, const std::string& shortfall) {
  if (std::none_of(kLookbackShapes.begin(), kLookbackShapes.end(), is_default_lookback))
    throw std::logic_error("bench/tuning/integral_image.hpp names no lookback_tiles shape of the case");
  const auto& d = gb::session().info();
  const gb::ImageSize is = image_size(size);
  for (const LookbackShape& t : kLookbackShapes) {
    Params p{Variant::lookback_tiles, false, size, gb::WorkGroup{t.items, 1, 1, 1}, t.rows};
    p.cols = t.cols;
    const std::string name = gb::bench_name("L1/IntegralImage", {kVariant.part(p.variant), kOut.part(false),
                                                                 {"cols", std::to_string(t.cols)},
                                                                 {"rows", std::to_string(t.rows)},
                                                                 {"wg", p.wg.label()},
                                                                 {"size", std::to_string(size)}});
    if (!shortfall.empty())
      gb::skip_variant(name, shortfall);
    else if (!d.has_extension("cl_khr_int64_base_atomics"))
      gb::skip_variant(name, "no cl_khr_int64_base_atomics for the row words");
    else if (p.wg.x > d.max_work_group_size || p.wg.x > d.max_work_item_sizes[0])
      gb::skip_variant(name, "work group larger than the device allows");
    else if (p.lookback_local_bytes() > d.local_mem_bytes)
      gb::skip_variant(name, "needs " + std::to_string(p.lookback_local_bytes()) + " bytes of local memory");
    else if (255 * is.height >= kColumnWordLimit || (is.width + t.cols) * (is.height + t.rows) >= (size_t(1) << 32))
      gb::skip_variant(name, "column sums past the 24 bits of a column word, or status words past 32-bit indices");
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; },
                        is_default_lookback(t) ? gb::DefaultRun::yes : gb::DefaultRun::no);
  }
}

void register_integral_image() {
  const int size = gb::session().size_class();
  gb::declare_paths("L1/IntegralImage", code_paths);
  const auto& d = gb::session().info();
  const std::string shortfall = gb::image_buffers_shortfall(image_size(size), 8, 13);
  for (Variant v : kVariant.all())
    for (bool squared : kOut.all()) {
      if (v == Variant::tiles) {
        register_tiles(squared, size, shortfall);
        continue;
      }
      if (v == Variant::lookback_tiles) {
        if (!squared) register_lookback(size, shortfall);
        continue;
      }
      Params p{v, squared, size};
      const std::string name =
          gb::bench_name("L1/IntegralImage", {kVariant.part(v), kOut.part(squared), {"size", std::to_string(size)}});
      if (!shortfall.empty())
        gb::skip_variant(name, shortfall);
      else if (std::max(kWorkGroup, kCols * kSegments) > d.max_work_group_size)
        gb::skip_variant(name, "needs work groups of " + std::to_string(kCols * kSegments));
      else if (v == Variant::fused && squared && !d.has_extension("cl_khr_int64_base_atomics"))
        gb::skip_variant(name, "no cl_khr_int64_base_atomics to publish the squared bottom rows");
      else
        gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                          [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
    }
}
GB_CASE(register_integral_image);

}  // namespace
