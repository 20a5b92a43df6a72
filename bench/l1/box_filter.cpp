// L1/BoxFilter: mean over a (2r+1)^2 window with clamp-to-edge borders, on a photograph as float
// (one channel, v / 255) or RGBA8 (exact integer sums, rounded): naive window, separable two-pass,
// the passes fused over local-memory tiles, sliding (running) sums, strips of ROWS outputs down
// a column per work item from a register window (radius 1 and 3), those strips COLS columns
// wide with vector loads and stores (strip_vec, radius 1 and 3), and one pass over tiles whose
// work group walks the rows with running column sums and slides along them: loading the leaving
// rows again (tiled_slide), or keeping them in a register ring (tiled_ring, radius 15 and 31).
// Bytes per unit: 8 per pixel (4 read, 4 written: the compulsory traffic; two-pass variants also
// move their intermediate).
#include <algorithm>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "bench/tuning/box_filter.hpp"
#include "gpu_bench.hpp"
#include "images.hpp"
#include "reference/box_filter.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { naive, separable, fused, sliding, strip, strip_vec, tiled_slide, tiled_ring };
const gb::Axis<Variant> kVariant{"",
                                 {{Variant::naive, "naive"},
                                  {Variant::separable, "separable"},
                                  {Variant::fused, "fused"},
                                  {Variant::sliding, "sliding"},
                                  {Variant::strip, "strip"},
                                  {Variant::strip_vec, "strip_vec"},
                                  {Variant::tiled_slide, "tiled_slide"},
                                  {Variant::tiled_ring, "tiled_ring"}}};
const gb::Axis<bool> kType{"type", {{false, "float"}, {true, "rgba8"}}};  // rgba8

// "strip_vec" -> "STRIP_VEC": the kernel file's -DONLY_<VARIANT> selector.
std::string upper(const char* name) {
  std::string s = name;
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

constexpr int kRadii[] = {1, 3, 7, 15, 31};
// Float pixels are v / 256 (v the 8-bit value): multiples of 2^-8 whose window sums (at most
// 3969 * 255 / 256) are exact in float in any order, running sums included; only the division by
// the area rounds, within 2.5 ulp in OpenCL C (3 ulp allowed; see verify).
constexpr float kFloatScale = 1.0f / 256;
constexpr size_t kFusedLocalBudget = 48 << 10;  // fused tiles are sized to fit 48 KiB
constexpr size_t kSlideColsGroup = 128, kSlideRowsGroup = 128, kSpan = 16, kSegment = 64;
// Sliding rows: outputs per work item (SPAN); a group takes kSlideRowsGroup * SPAN of a row. Size 1
// takes 2, so that its rows span two segments (the second's left halo is the first's pixels) as
// a GPU's rows of 8192 span four.
size_t slide_span(int size_class) { return size_class == 1 ? 2 : kSpan; }
const gb::WorkGroup kDefaultShape{32, 8, 1, 2};
// Strip: outputs per work item down a column (input rows read per output: (ROWS + 2r) / ROWS), the
// radii it runs (its register window holds ROWS + 2r sums and each row sums 2r + 1 loads from L1,
// so past r = 3 the sliding variant's two reads per pixel win), and the largest group it sweeps
// (the NVIDIA driver limits some kernels to 256 items).
// At radius 1, DRAM traffic stays the compulsory 8 bytes per pixel (the two halo rows of a strip
// are its neighbours' rows, hits in L1 or L2), and the SM-side cost per output drops from naive's
// 9 warp loads to (8 + 2) * 3 / 8 = 3.75 with no barriers or local memory, so the loads stay in
// flight like a copy's; the remaining gap to a copy is the 1.25x row re-reads through L1/L2 and
// the edge clamps. RGBA8 does the same loads with integer sums.
constexpr int kStripRows = 8;
constexpr int kStripMaxRadius = 3;
constexpr size_t kStripMaxGroup = 256;
// Strip_vec: each work item takes COLS adjacent columns of a strip of ROWS rows (-D COLS, ROWS,
// AHEAD): one vector load per input row plus 2r halo pixels, one vector store per output row, the
// loads AHEAD rows ahead of the sums (stores the compiler cannot prove disjoint would otherwise
// hold them back). Registered: the default (4 x 16) over 1-D groups, and at radius 1 the grid
// COLS 2, 4, 8 x ROWS 8, 16, 32 at 64x1.
// At radius 1 strip issues 3.75 scalar loads per output and strip_vec 0.84 vector loads: with
// vector loads and stores it runs as a copy with 12.5% halo rows.
constexpr int kStripVecCols = 4, kStripVecRows = 16;
constexpr int kStripVecColsSweep[] = {2, 4, 8}, kStripVecRowsSweep[] = {8, 16, 32};
const gb::WorkGroup kStripVecShape{64, 1, 1, 2};
const gb::WorkGroup kStripVecShapes[] = {{64, 1, 1, 2}, {128, 1, 1, 2}, {256, 1, 1, 2}, {0, 1, 1, 2}};
// Tiled_slide: a work group of TW / 2 + pad items (pad: r rounded up to even; one input column
// pair each, at most kTiledMaxItems: the NVIDIA driver's limit for some kernels) owns a tile of
// TW x TH outputs and walks its TH rows, loading each pair's entering and leaving rows (the
// leaving one a cache hit), so its registers do not grow with r; every kTiledBand rows the group
// sums the band's rows horizontally, kTiledSpan outputs per item, through local memory (three
// barriers: vertical sums, segment sums, outputs). Its DRAM traffic is the compulsory 8 bytes per
// pixel when neighbouring tiles' halos hit L2 (tiles beside each other run together; tiles above
// and below walk towards or away from each other), plus (2r + 1) / TH re-read rows where they do
// not.
// Swept (radius 15 and 31): TW the widest multiple of 32 that fits, TH 256, 512, 1024 (taller:
// fewer halo rows and first windows, and fewer groups at once, whose 2r + 1 rows of re-read
// columns must stay in L2; shorter: more groups to balance the SMs); and a narrow TW (smaller
// groups, more of them per SM) at the two taller heights and at two short ones, and a second
// narrow TW at two short heights (bench/tuning/box_filter.hpp). Class 1 takes three shapes, TH 32
// and 64 at the widest and 64 at the narrow TW 64, so that its 296 x 203 pixels span several tiles
// and bands, and hold tiles whose loads need no clamping, as a GPU's 8192^2 do.
// The width must be even.
constexpr size_t kTiledMaxItems = 256;
constexpr int kTiledBand = 8, kTiledSpan = 16;
// A band's horizontal step takes BAND rows x TW / SPAN segments of items; with SPAN = 2 BAND that
// is the group's TW / 2 pair items whatever the band. A longer band halves the barriers per row and
// the segment sums per output (SPAN outputs an item), at twice the local memory: it runs beside
// the default 8 at the narrow tiles, where groups still share an SM. The tiles, bands and forms
// below are measured choices (bench/tuning/box_filter.hpp).
using box_filter_tuning::Param;
using box_filter_tuning::tuned;
int tiled_long_band() { return tuned(Param::long_band); }
int tiled_narrow(int size_class) { return size_class == 1 ? 64 : tuned(Param::narrow_width); }
// The narrow tile's short heights (GPU sizes): 5-8 times the groups of TH 512 (about 28-42 per
// SM at 8192^2), which outweigh the 2r + 1 rows each group reads first.
std::vector<int> tiled_short_heights() { return {tuned(Param::short_height_a), tuned(Param::short_height_b)}; }
// A second narrow width at two short heights, band 8 only (RGBA8's band 16 would need 51 KB there).
int tiled_narrow2() { return tuned(Param::narrow2_width); }
std::vector<int> tiled_narrow2_heights() { return {tuned(Param::narrow2_height_a), tuned(Param::narrow2_height_b)}; }
// The bands a tile runs. At size 1 (CI) the long band is float's only: PoCL takes about 12 s to
// compile RGBA8's, the same code, which the GPU sizes run and verify.
std::vector<int> tiled_bands(int tile_w, int size_class, bool rgba8) {
  if (tile_w == tiled_narrow(size_class) && !(size_class == 1 && rgba8)) return {kTiledBand, tiled_long_band()};
  return {kTiledBand};
}
// Phase two's form, a tuning parameter per tile (the kernel's TS_UNROLL): 0 reads a slide's column
// pairs before its first step (the most loads in flight, and the most registers), n > 0 streams
// them n loop turns at a time (SPAN / 2: every turn unrolled; fewer registers, more groups an SM).
int tiled_unroll(bool rgba8, int radius, int tile_w, int band) {
  if (band == tiled_long_band())
    return tuned(!rgba8 ? Param::unroll_long_band
                 : radius == 31 ? Param::unroll_long_band_rgba8_r31 : Param::unroll_long_band_rgba8_r15);
  if (rgba8 && radius == 15 && tile_w == tiled_narrow2()) return tuned(Param::unroll_narrow2_rgba8_r15);
  return tuned(Param::unroll);
}
constexpr int kTiledSweepRadii[] = {15, 31};
int tiled_pad(int radius) { return (radius + 1) / 2 * 2; }
int tiled_items(int radius, int tile_w) { return tile_w / 2 + tiled_pad(radius); }
int tiled_widest(int radius) { return static_cast<int>((kTiledMaxItems - tiled_pad(radius)) * 2 / 32 * 32); }
std::vector<int> tiled_heights(int size_class) {
  return size_class == 1 ? std::vector<int>{32, 64, 128} : std::vector<int>{256, 512, 1024};
}
int tiled_default_height(int size_class) { return tiled_heights(size_class)[1]; }
// Whether some tile's loads all lie inside a w x h image (the kernel's unclamped path): columns
// x0 - pad .. x0 + TW + pad - 1, rows from RADIUS + 1 before the tile's first (in its walking
// direction) to RADIUS after its last band's end.
bool tiled_has_inner_tile(int radius, int tw, int th, int tile_band, size_t w, size_t h) {
  const long pad = tiled_pad(radius), band = tile_band;
  bool across = false, down = false;
  for (long x0 = 0; x0 < long(w); x0 += tw) across = across || (x0 >= pad && x0 + tw + pad <= long(w));
  for (long y0 = 0, j = 0; y0 < long(h); y0 += th, ++j) {
    const long rows = std::min<long>(th, long(h) - y0), span = (rows + band - 1) / band * band;
    const long ystart = j % 2 ? y0 + rows - 1 : y0, dir = j % 2 ? -1 : 1;
    const long lo = ystart - dir * (radius + 1), hi = ystart + dir * (span - 1 + radius);
    down = down || (std::min(lo, hi) >= 0 && std::max(lo, hi) < long(h));
  }
  return across && down;
}

// (TW, TH) of every registered tiled_slide configuration at a radius.
std::vector<std::pair<int, int>> tiled_tiles(int radius, int size_class) {
  const bool sweep = std::find(std::begin(kTiledSweepRadii), std::end(kTiledSweepRadii), radius) != std::end(kTiledSweepRadii);
  if (!sweep) return {{tiled_widest(radius), tiled_default_height(size_class)}};
  std::vector<std::pair<int, int>> tiles;
  const auto heights = tiled_heights(size_class);
  if (size_class == 1) {  // the paths of the GPU's sweep in three shapes (the test's run time)
    for (int th : {heights[0], heights[1]}) tiles.emplace_back(tiled_widest(radius), th);
    tiles.emplace_back(tiled_narrow(size_class), heights[1]);
    return tiles;
  }
  for (int th : heights) tiles.emplace_back(tiled_widest(radius), th);
  const auto short_heights = tiled_short_heights();
  for (int th : {short_heights[0], short_heights[1], heights[1], heights[2]})
    tiles.emplace_back(tiled_narrow(size_class), th);
  for (int th : tiled_narrow2_heights()) tiles.emplace_back(tiled_narrow2(), th);
  return tiles;
}
// Tiled_ring: a work group of TW + 2r items (one input column each, at most kTiledMaxItems) owns a
// tile of TW x TH outputs and walks its TH rows, keeping each column's last rows in a register
// ring of 2r + 1 rounded up to whole bands (kRingBand rows), so every input pixel of a tile and its
// halo is loaded once; the band's horizontal step is tiled_slide's, one column per value. Its DRAM
// traffic is tiled_slide's. Registered at radius 15 and 31 (its registers grow with r), swept: TW
// the widest multiple of 32 that fits, and 128 (fewer registers per group, so more groups per SM);
// TH 256, 512, 1024 (taller: fewer halo rows, fewer waves of groups). Class 1 takes TH 64, so that
// its 203 rows span several tiles and ring turns (at radius 15) as a GPU's 8192 do.
constexpr int kRingBand = 16;
constexpr int kRingRadii[] = {15, 31};
int ring_items(int radius, int tile_w) { return tile_w + 2 * radius; }
// The register ring's rows: 2r + 1 rounded up to whole bands (the kernel's TR_RING).
int ring_rows(int radius) { return (2 * radius + 1 + kRingBand - 1) / kRingBand * kRingBand; }
// (TW, TH) of every registered tiled_ring configuration at a radius (none outside kRingRadii).
std::vector<std::pair<int, int>> ring_tiles(int radius, int size_class) {
  if (std::find(std::begin(kRingRadii), std::end(kRingRadii), radius) == std::end(kRingRadii)) return {};
  const int widest = static_cast<int>((kTiledMaxItems - 2 * radius) / 32 * 32);
  std::vector<std::pair<int, int>> tiles;
  for (int tw : {widest, 128})
    for (int th : size_class == 1 ? std::vector<int>{64} : std::vector<int>{256, 512, 1024})
      tiles.emplace_back(tw, th);
  return tiles;
}

struct Params {
  Variant variant;
  bool rgba8;
  int radius;
  gb::WorkGroup wg;  // naive, separable, fused; sliding uses its own fixed groups
  int size_class;
  int cols = 1, rows = 1;  // strip_vec: columns and rows per work item
  int tile_w = 0, tile_h = 0;  // tiled_slide, tiled_ring: outputs per work group (wg: their items)
  int band = kTiledBand;       // tiled_slide: rows per horizontal step (its span: 2 band)
  int span() const { return 2 * band; }  // tiled_slide: outputs per item in the horizontal step

  std::string type() const { return kType.label(rgba8); }
  size_t pixel_bytes() const { return 4; }  // float, or uchar4
  size_t temp_bytes() const { return rgba8 ? 8 : 4; }  // float, or ushort4
  // Fused: outputs per work item down a column, the most of 4, 2, 1 that fits the budget.
  int fused_rows() const {
    for (int rows : {4, 2, 1})
      if (fused_local_bytes(rows) <= kFusedLocalBudget) return rows;
    return 1;
  }
  size_t fused_local_bytes(int rows) const {
    const size_t halo_w = wg.x + 2 * radius, halo_h = wg.y * rows + 2 * radius;
    return halo_h * halo_w * pixel_bytes() + halo_h * wg.x * temp_bytes();
  }
  // Tiled_slide: a band of vertical sums (per column pair: float2, or four uint of 16-bit lanes),
  // of segment sums (float, or float4; the kernel's TS_TSEGS, padded to odd) and of output pairs,
  // rows padded to 1 mod 16 pairs (TS_VSTRIDE, TS_OSTRIDE). RGBA8's widest tiles (480 and 448)
  // need 52 KB: NVIDIA's 48 KB skips them (they ran well below the narrow tiles).
  size_t tiled_local_bytes() const {
    const size_t vstride = (wg.x + 15) / 16 * 16 + 1, ostride = (tile_w / 2 + 15) / 16 * 16 + 1;
    const size_t segments = tile_w / span() + (2 * radius + span()) / span() - 1;  // TS_TSEGS
    return band * (vstride * (rgba8 ? 16 : 8) + (segments | 1) * (rgba8 ? 16 : 4) + ostride * 2 * pixel_bytes());
  }
  // Tiled_ring: a band of vertical sums (float, or two uint of 16-bit lanes) and of outputs, rows
  // padded to odd strides (the kernel's TR_VSTRIDE, TR_OSTRIDE).
  size_t ring_local_bytes() const {
    return kRingBand * ((wg.x | 1) * (rgba8 ? 8 : 4) + (size_t(tile_w) | 1) * pixel_bytes());
  }
};

// Width x height: class 1 is a multiple of 8 wide (strip_vec's vector-aligned loads and stores, as
// on a GPU's 8192) but of no larger power of two (ragged 16- and 32-wide groups), and odd high
// (ragged tiles, strips and segments); 3 is 8192^2 (256 MiB each way). A device that cannot hold
// the buffers (8 bytes a pixel in the largest, 16 in all) skips the benchmark (registration).
gb::ImageSize image_size(int size_class) {
  static const gb::ImageSize by_class[] = {{296, 203}, {2048, 2048}, {8192, 8192}, {16384, 16384}};
  return by_class[size_class - 1];
}

// Strip_vec's rows of loads in flight ahead of the row being summed: about 64 pixels' registers
// per work item (4 columns at radius 1: 10 rows, 160 bytes of row loads per item), or every row.
int strip_vec_ahead(const Params& p) {
  return std::clamp(64 / (p.cols + 2 * p.radius), 1, p.rows + 2 * p.radius);
}

// Strip_vec's build options: its knobs, and VEC_ALIGNED when every row starts on a vector boundary.
std::string strip_vec_options(const Params& p, size_t width) {
  return "-DRADIUS=" + std::to_string(p.radius) + (p.rgba8 ? " -DRGBA8" : "") + " -DONLY_STRIP_VEC -DCOLS=" + std::to_string(p.cols) +
         " -DROWS=" + std::to_string(p.rows) + " -DAHEAD=" + std::to_string(strip_vec_ahead(p)) +
         (width % p.cols == 0 ? " -DVEC_ALIGNED" : "");
}

// ---- set-up: the problem (once per type and radius, shared by every variant and shape) ----------
// The photograph, its device copy and the host reference: the same for naive, separable, fused
// and sliding, so they are made once and every variant's output is checked against them.
struct Problem {
  gb::ImageSize size{};
  bool from_file = false;
  std::vector<float> input_float;
  std::vector<uint8_t> input_rgba;
  // The input, once for each working set a variant may rotate over (support/working_sets): an
  // image above the one-copy size (8192^2: 4 copies) is timed over as many placements.
  std::vector<cl::Buffer> ins;
  std::vector<double> reference_float;
  std::vector<uint8_t> reference_rgba;
};

// How many copies of a working set (these buffers) a unit rotates over: support/working_sets's
// count, fewer where the device's memory would not hold them all (at least one).
size_t fitting_copies(const std::vector<uint64_t>& set) {
  uint64_t bytes = 0;
  for (const uint64_t b : set) bytes += b;
  size_t copies = gb::working_set_copies(bytes);
  const auto buffers = [&](size_t n) {
    std::vector<uint64_t> all;
    for (size_t i = 0; i < n; ++i) all.insert(all.end(), set.begin(), set.end());
    return all;
  };
  while (copies > 1 && !gb::memory_shortfall(buffers(copies)).empty()) --copies;
  return copies;
}

std::unique_ptr<Problem> make_problem(const Params& p) {
  auto pb = std::make_unique<Problem>();
  pb->size = image_size(p.size_class);
  const size_t w = pb->size.width, h = pb->size.height, pixels = w * h;
  gb::Image img = gb::photo(p.rgba8 ? "astronaut.png" : "camera.png", p.rgba8 ? 4 : 1, w, h, gb::Fit::tile);
  pb->from_file = img.from_file();
  if (p.rgba8) {
    pb->input_rgba = std::move(img.pixels);
    pb->reference_rgba = ref::box_filter_rgba8(pb->input_rgba, w, h, p.radius);
  } else {
    pb->input_float.resize(pixels);
    gb::parallel_for(pixels, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) pb->input_float[i] = img.pixels[i] * kFloatScale;
    });
    pb->reference_float = ref::box_filter(pb->input_float, w, h, p.radius);
  }
  const uint64_t image_bytes = pixels * p.pixel_bytes();
  const size_t copies = fitting_copies({image_bytes, image_bytes});  // in and out
  for (size_t i = 0; i < copies; ++i) pb->ins.push_back(p.rgba8 ? gb::upload(pb->input_rgba) : gb::upload(pb->input_float));
  return pb;
}

// ---- set-up: one variant and shape (kernels, outputs, launch geometry) ------------------------
// The one program of a configuration (the two-pass variants' kernels share it) for an image
// `width` wide: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p, size_t width) {
  const std::string file = "l1/box_filter.cl";
  if (p.variant == Variant::strip_vec) return {file, strip_vec_options(p, width)};
  std::string options = "-DRADIUS=" + std::to_string(p.radius) + (p.rgba8 ? " -DRGBA8" : "") + " -DONLY_" +
                        upper(kVariant.label(p.variant));
  if (p.variant == Variant::fused)
    options += " -DLX=" + std::to_string(p.wg.x) + " -DLY=" + std::to_string(p.wg.y) +
               " -DROWS=" + std::to_string(p.fused_rows());
  else if (p.variant == Variant::strip)
    options += " -DROWS=" + std::to_string(kStripRows);
  else if (p.variant == Variant::sliding)
    options += " -DSEG=" + std::to_string(kSegment) + " -DWGS=" + std::to_string(kSlideRowsGroup) +
               " -DSPAN=" + std::to_string(slide_span(p.size_class));
  else if (p.variant == Variant::tiled_slide)  // the tile's height is an argument: one build per width
    options += " -DTW=" + std::to_string(p.tile_w) + " -DBAND=" + std::to_string(p.band) +
               " -DSPAN=" + std::to_string(p.span()) +
               " -DTS_UNROLL=" + std::to_string(tiled_unroll(p.rgba8, p.radius, p.tile_w, p.band));
  else if (p.variant == Variant::tiled_ring)
    options += " -DTW=" + std::to_string(p.tile_w) + " -DBAND=" + std::to_string(kRingBand) +
               " -DSPAN=" + std::to_string(kTiledSpan);
  return {file, options};
}

// One working set: an input copy (the problem's buffer, a retained handle) and what the unit writes.
struct WorkingSet {
  cl::Buffer in, tmp, out;  // tmp: the two-pass variants' intermediate
};

struct Fixture {
  std::vector<WorkingSet> sets;
  gb::Rotation rotation{1};
  cl::Kernel first, second;  // second: the second pass of the two-pass variants
  cl::NDRange global1, local1, global2, local2;

  // Points the kernels at working set i (their other arguments stay as make_fixture set them).
  void bind(size_t i) {
    const WorkingSet& set = sets[i];
    GB_SET_ARGS(first, set.in, second() ? set.tmp : set.out);
    if (second()) GB_SET_ARGS(second, set.tmp, set.out);
  }
};

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const size_t w = pb.size.width, h = pb.size.height, pixels = w * h;
  const gb::ProgramKey program = program_of(p, w);
  switch (p.variant) {
    case Variant::naive:
      fx->first = s.kernel(program, "box_filter_naive");
      fx->global1 = gb::padded_global(w, h, 1, p.wg);
      fx->local1 = p.wg.local();
      break;
    case Variant::separable:
      fx->first = s.kernel(program, "box_filter_rows");
      fx->second = s.kernel(program, "box_filter_cols");
      fx->global1 = fx->global2 = gb::padded_global(w, h, 1, p.wg);
      fx->local1 = fx->local2 = p.wg.local();
      break;
    case Variant::fused: {
      const int rows = p.fused_rows();
      fx->first = s.kernel(program, "box_filter_fused");
      const size_t tile_h = p.wg.y * rows;
      fx->global1 = cl::NDRange(gb::round_up(w, p.wg.x), (h + tile_h - 1) / tile_h * p.wg.y);
      fx->local1 = p.wg.local();
      break;
    }
    case Variant::strip: {
      fx->first = s.kernel(program, "box_filter_strip");
      fx->global1 = gb::padded_global(w, (h + kStripRows - 1) / kStripRows, 1, p.wg);
      fx->local1 = p.wg.local();
      break;
    }
    case Variant::strip_vec: {
      fx->first = s.kernel(program, "box_filter_strip_vec");
      fx->global1 = gb::padded_global((w + p.cols - 1) / p.cols, (h + p.rows - 1) / p.rows, 1, p.wg);
      fx->local1 = p.wg.local();
      break;
    }
    case Variant::tiled_slide:
    case Variant::tiled_ring: {
      const bool ring = p.variant == Variant::tiled_ring;
      if (!ring && w % 2 != 0) throw std::runtime_error("tiled_slide needs an even width (aligned pixel pairs)");
      fx->first = s.kernel(program, ring ? "box_filter_tiled_ring" : "box_filter_tiled_slide");
      const size_t tw = p.tile_w, th = p.tile_h;
      fx->global1 = cl::NDRange((w + tw - 1) / tw * p.wg.x, (h + th - 1) / th);
      fx->local1 = p.wg.local();
      break;
    }
    case Variant::sliding: {
      fx->first = s.kernel(program, "box_filter_slide_cols");
      fx->second = s.kernel(program, "box_filter_slide_rows");
      fx->global1 = cl::NDRange(gb::round_up(w, kSlideColsGroup), (h + kSegment - 1) / kSegment);
      fx->local1 = cl::NDRange(kSlideColsGroup, 1);
      const size_t segment = kSlideRowsGroup * slide_span(p.size_class);
      fx->global2 = cl::NDRange((w + segment - 1) / segment * kSlideRowsGroup, h);
      fx->local2 = cl::NDRange(kSlideRowsGroup, 1);
      break;
    }
  }
  // Each kernel's own work-group limit is known now that it is built (NVIDIA reports 256 for some).
  const bool sliding = p.variant == Variant::sliding;
  gb::require_work_group(fx->first, sliding ? kSlideColsGroup : p.wg.size());
  if (fx->second()) gb::require_work_group(fx->second, sliding ? kSlideRowsGroup : p.wg.size());
  const bool two_pass = p.variant == Variant::separable || sliding;
  std::vector<uint64_t> set{pixels * p.pixel_bytes(), pixels * p.pixel_bytes()};  // in and out
  if (two_pass) set.push_back(pixels * p.temp_bytes());
  fx->sets.resize(std::min(pb.ins.size(), fitting_copies(set)));
  fx->rotation = gb::Rotation(fx->sets.size());
  for (size_t i = 0; i < fx->sets.size(); ++i) {
    WorkingSet& set = fx->sets[i];
    set.in = pb.ins[i];
    set.out = gb::make_buffer(pixels * p.pixel_bytes());
    if (two_pass) set.tmp = gb::make_buffer(pixels * p.temp_bytes());
  }
  fx->bind(0);
  GB_SET_ARGS_FROM(fx->first, 2, static_cast<cl_uint>(w), static_cast<cl_uint>(h));
  if (two_pass) GB_SET_ARGS_FROM(fx->second, 2, static_cast<cl_uint>(w), static_cast<cl_uint>(h));
  if (p.tile_h != 0) GB_SET_ARGS_FROM(fx->first, 4, static_cast<cl_uint>(p.tile_h));  // the tiled variants
  return fx;
}

// ---- verification against reference/box_filter (the problem's) ------------------------------
// Every pixel on its own: the window sum is exact (see kFloatScale), the division by the area
// within 2.5 ulp, so each output is within 3 ulp of the exact mean (6 u |want| >= 3 ulp); a
// dropped or repeated tap moves a pixel by at least 2^-8 / AREA of its value. Every other working
// set that ran holds the same bits as the first.
gb::Check verify(const Fixture& fx, const Problem& pb, const Params& p) {
  const size_t pixels = pb.size.width * pb.size.height;
  const cl::Buffer& out = fx.sets[0].out;
  const auto& want = pb.reference_float;
  const double u = gb::unit_roundoff<float>();
  const gb::Check filter =
      p.rgba8 ? gb::check_exact(gb::read_back<uint8_t>(out, pixels * 4), pb.reference_rgba, "RGBA8 box filter")  // integer sums, the same rounding
              : gb::check_bounded(gb::read_back<float>(out, pixels), want,
                                  [&](size_t i) { return 6 * u * std::abs(want[i]); }, "float box filter");
  std::vector<cl::Buffer> outs;
  for (size_t i = 0; i < fx.rotation.used(); ++i) outs.push_back(fx.sets[i].out);
  return gb::worst({filter, gb::check_copies_identical(outs, pixels * p.pixel_bytes(), "outputs of the working sets")});
}

// The paths of box_filter.cl's kernels over every registered configuration at a size class.
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  const gb::ImageSize is = image_size(size_class);
  const size_t w = is.width, h = is.height;
  gb::path_if(paths, true, "clamped borders");
  // The 2-D kernels at the 32x8 default (every radius) and the radius-1 sweep's shapes.
  for (const size_t wx : {size_t(32), size_t(16)}) gb::path_if(paths, w % wx != 0, "2-D kernels: partial groups at the right edge");
  gb::path_if(paths, h % 8 != 0, "2-D kernels: partial groups at the bottom");
  for (const int rows : {4, 2, 1}) gb::path_if(paths, h % (8 * rows) != 0, "fused: partial tiles at the bottom");
  gb::path_if(paths, w % 32 != 0, "fused: partial tiles at the right edge");
  gb::path_if(paths, h % kStripRows != 0, "strip: partial strips at the bottom");
  gb::path_if(paths, h > kSegment, "sliding columns: 2+ row segments");
  gb::path_if(paths, h % kSegment != 0, "sliding columns: partial last segment");
  const size_t segw = kSlideRowsGroup * slide_span(size_class);
  gb::path_if(paths, w > segw, "sliding rows: 2+ segments per row");
  gb::path_if(paths, w % segw != 0, "sliding rows: partial last segment");
  for (const int cols : kStripVecColsSweep) {
    gb::path_if(paths, w % cols == 0, "strip_vec: vector-aligned loads and stores");
    gb::path_if(paths, w % cols != 0, "strip_vec: element-aligned vloadn/vstoren, edge strips at the right");
    gb::path_if(paths, w / cols >= 1, "strip_vec: interior strips");
  }
  for (const int rows : kStripVecRowsSweep) gb::path_if(paths, h % rows != 0, "strip_vec: edge strips at the bottom");
  for (const int radius : kRadii)
    for (const auto& [tw, th] : tiled_tiles(radius, size_class))
      for (const bool rgba8 : {false, true})
        for (const int band : tiled_bands(tw, size_class, rgba8)) {
          const size_t last = h % th == 0 ? th : h % th;  // the bottom tiles' rows
          gb::path_if(paths, w > size_t(tw), "tiled_slide: 2+ tiles across");
          gb::path_if(paths, w % tw != 0, "tiled_slide: partial tiles at the right edge");
          gb::path_if(paths, h > size_t(th), "tiled_slide: 2+ tile rows, walking down and up");
          gb::path_if(paths, h % th != 0, "tiled_slide: partial tiles at the bottom");
          gb::path_if(paths, std::min<size_t>(th, h) > size_t(band), "tiled_slide: 2+ bands");
          gb::path_if(paths, last % band != 0, "tiled_slide: a partial last band");
          gb::path_if(paths, band == tiled_long_band(), "tiled_slide: bands of 16 rows (span 32)");
          const bool streamed = tiled_unroll(rgba8, radius, tw, band) > 0;  // the form is chosen per type
          gb::path_if(paths, streamed, "tiled_slide: phase two's column pairs streamed");
          gb::path_if(paths, !streamed, "tiled_slide: phase two's column pairs read up front");
          gb::path_if(paths, tiled_has_inner_tile(radius, tw, th, band, w, h), "tiled_slide: tiles wholly inside (unclamped loads)");
          gb::path_if(paths, true, "tiled_slide: tiles at the borders (clamped loads)");
        }
  for (const int radius : kRadii)
    for (const auto& [tw, th] : ring_tiles(radius, size_class)) {
      const size_t last = h % th == 0 ? th : h % th;  // the bottom tiles' rows
      const int ring = ring_rows(radius);
      gb::path_if(paths, w > size_t(tw), "tiled_ring: 2+ tiles across");
      gb::path_if(paths, w % tw != 0, "tiled_ring: partial tiles at the right edge");
      gb::path_if(paths, h > size_t(th), "tiled_ring: 2+ tile rows, walking down and up");
      gb::path_if(paths, h % th != 0, "tiled_ring: partial tiles at the bottom");
      gb::path_if(paths, std::min<size_t>(th, h) > size_t(ring), "tiled_ring: 2+ turns of the register ring");
      gb::path_if(paths, th % ring != 0 || last % ring != 0, "tiled_ring: a ring turn cut short");
      gb::path_if(paths, last % kRingBand != 0, "tiled_ring: a partial last band");
    }
  return paths;
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"", "cols", "rows", "tile", "band", "wg"}), [&] { return make_problem(p); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const gb::Unit unit = [&](gb::Batch& b) {
    if (fx.sets.size() > 1) fx.bind(fx.rotation.next());
    b.launch(fx.first, fx.global1, fx.local1);
    if (fx.second()) b.launch(fx.second, fx.global2, fx.local2);
  };
  const size_t pixels = pb.size.width * pb.size.height;
  auto m = gb::Measurement::device(unit)
               .work(gb::Work().bytes(2.0 * pixels * p.pixel_bytes()).items(static_cast<double>(pixels)))
               .check([&] { return verify(fx, pb, p); })
               .counter("width", static_cast<double>(pb.size.width))
               .counter("height", static_cast<double>(pb.size.height))
               .counter("photo_from_file", pb.from_file ? 1 : 0)
               .counter("working_sets", static_cast<double>(fx.sets.size()))
               .copy_fraction();
  for (const WorkingSet& set : fx.sets) m.poison(set.out, pixels * p.pixel_bytes());
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
// The 2-D kernels sweep work-group shapes at radius 1 (every shape of 64 items to the device's limit
// at least 4 wide; class 1: four), and use 32x8 at the larger radii. Fused tiles need a fixed shape
// (no auto). A shape above a kernel's own limit is skipped once the kernel is built, at run time.
std::vector<gb::WorkGroup> swept_shapes(int size, const gb::SweepLimits& limits) {
  std::vector<gb::WorkGroup> shapes;
  if (size == 1) {
    for (auto [x, y] : {std::pair<size_t, size_t>{32, 8}, {16, 4}, {8, 16}})
      if (x * y <= limits.max_size) shapes.push_back({x, y, 1, 2});
    shapes.push_back({0, 1, 1, 2});
    return shapes;
  }
  for (const auto& wg : gb::work_group_shapes(2, limits))
    if (wg.is_auto() || wg.x >= 4) shapes.push_back(wg);
  return shapes;
}

// Strip_vec: the default knobs over kStripVecShapes, and at radius 1 the COLS x ROWS grid at the
// default group; at the larger radii the default alone.
std::vector<std::tuple<int, int, gb::WorkGroup>> strip_vec_configs(int radius) {
  std::vector<std::tuple<int, int, gb::WorkGroup>> configs;
  if (radius != 1) return {{kStripVecCols, kStripVecRows, kStripVecShape}};
  for (const auto& wg : kStripVecShapes) configs.emplace_back(kStripVecCols, kStripVecRows, wg);
  for (int cols : kStripVecColsSweep)
    for (int rows : kStripVecRowsSweep)
      if (cols != kStripVecCols || rows != kStripVecRows) configs.emplace_back(cols, rows, kStripVecShape);
  return configs;
}

// A tiled variant's name: its tile, and its band where not the default (tiled_slide's longer band).
std::vector<std::pair<std::string, std::string>> tiled_name_parts(const Params& p) {
  std::vector<std::pair<std::string, std::string>> parts{kVariant.part(p.variant),
                                                         kType.part(p.rgba8),
                                                         {"radius", std::to_string(p.radius)},
                                                         {"size", std::to_string(p.size_class)},
                                                         {"tile", std::to_string(p.tile_w) + "x" + std::to_string(p.tile_h)},
                                                         {"wg", p.wg.label()}};
  if (p.band != kTiledBand) parts.push_back({"band", std::to_string(p.band)});
  return parts;
}

void register_box_filter() {
  auto& s = gb::session();
  gb::declare_paths("L1/BoxFilter", code_paths);
  const auto& d = s.info();
  const int size = s.size_class();
  const gb::SweepLimits limits{d.max_work_group_size, {d.max_work_item_sizes[0], d.max_work_item_sizes[1], 1}, 64};
  const auto sweep = swept_shapes(size, limits);
  const std::string shortfall = gb::image_buffers_shortfall(image_size(size), 8, 16);
  // Problem (type, radius) outer, variant and shape inner: each problem's benchmarks run in a row.
  for (bool rgba8 : kType.all())
    for (int radius : kRadii)
      for (Variant v : kVariant.all()) {
        std::vector<Params> configs;
        if (v == Variant::strip_vec) {
          for (const auto& [cols, rows, wg] : strip_vec_configs(radius)) {
            Params p{v, rgba8, radius, wg, size};
            p.cols = cols;
            p.rows = rows;
            configs.push_back(p);
          }
        } else if (v == Variant::tiled_slide || v == Variant::tiled_ring) {
          const bool ring = v == Variant::tiled_ring;
          for (const auto& [tw, th] : ring ? ring_tiles(radius, size) : tiled_tiles(radius, size)) {
            Params p{v, rgba8, radius, {size_t(ring ? ring_items(radius, tw) : tiled_items(radius, tw)), 1, 1, 1}, size};
            p.tile_w = tw;
            p.tile_h = th;
            for (const int band : ring ? std::vector<int>{kTiledBand} : tiled_bands(tw, size, rgba8)) {
              p.band = band;
              configs.push_back(p);
            }
          }
        } else {
          std::vector<gb::WorkGroup> shapes{kDefaultShape};
          if (v == Variant::sliding) shapes = {{kSlideRowsGroup, 1, 1, 1}};
          else if (radius == 1) shapes = sweep;
          if (v == Variant::strip && radius == 1) {
            shapes.clear();
            for (const auto& wg : sweep)
              if (wg.size() <= kStripMaxGroup) shapes.push_back(wg);
          }
          for (const auto& wg : shapes) configs.push_back(Params{v, rgba8, radius, wg, size});
        }
        for (const Params& p : configs) {
          const gb::WorkGroup& wg = p.wg;
          if (v == Variant::fused && wg.is_auto()) continue;
          const std::string name =
              v == Variant::strip_vec
                  ? gb::bench_name("L1/BoxFilter", {kVariant.part(v),
                                                    kType.part(rgba8),
                                                    {"radius", std::to_string(radius)},
                                                    {"size", std::to_string(size)},
                                                    {"cols", std::to_string(p.cols)},
                                                    {"rows", std::to_string(p.rows)},
                                                    {"wg", wg.label()}})
              : v == Variant::tiled_slide || v == Variant::tiled_ring
                  ? gb::bench_name("L1/BoxFilter", tiled_name_parts(p))
                  : gb::bench_name("L1/BoxFilter", {kVariant.part(v),
                                                    kType.part(rgba8),
                                                    {"radius", std::to_string(radius)},
                                                    {"size", std::to_string(size)},
                                                    {"wg", wg.label()}});
          const size_t local_bytes = v == Variant::fused         ? p.fused_local_bytes(p.fused_rows())
                                     : v == Variant::tiled_slide ? p.tiled_local_bytes()
                                     : v == Variant::tiled_ring  ? p.ring_local_bytes()
                                                                 : 0;
          const bool strip_like = v == Variant::strip || v == Variant::strip_vec;
          if (!shortfall.empty())
            gb::skip_variant(name, shortfall);
          else if (strip_like && radius > kStripMaxRadius)
            gb::skip_variant(name, std::string(kVariant.label(v)) + "'s register window is for small radii (<= " +
                                       std::to_string(kStripMaxRadius) + "); the sliding variant serves the larger ones");
          else if (wg.size() > d.max_work_group_size || std::max(kSlideColsGroup, kSlideRowsGroup) > d.max_work_group_size)
            gb::skip_variant(name, "work group larger than the device allows");
          else if (local_bytes > d.local_mem_bytes)
            gb::skip_variant(name, "needs " + std::to_string(local_bytes) + " bytes of local memory");
          else
            gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, [p] {
              return std::vector<gb::ProgramKey>{program_of(p, image_size(p.size_class).width)};
            });
        }
      }
}
GB_CASE(register_box_filter);

}  // namespace
