// L2/FaceDetection: Viola-Jones with OpenCV's frontal-face Haar cascade on a photograph: grayscale,
// integral images, the cascade at every window and scale (fused, or staged with compaction). Items: windows.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <unistd.h>

#include "gpu_bench.hpp"
#include "images.hpp"
#include "reference/haar_cascade.hpp"
#include "reference/photo.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
// Debian: opencv-data ships the cascade, python3-skimage the astronaut, opencv-doc messi5.jpg.
// $GPU_BENCH_IMAGE_DIR, when set, is searched first for each file (by its base name); a copy there
// that does not load is skipped, with a line on stderr, for the Debian one.
const char* kCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml";

// Where a face is: a detection's centre within the box and its size within the range (pixels,
// in the photo as the package ships it; tiles repeat it).
struct FaceRegion {
  int cx_lo, cx_hi, cy_lo, cy_hi, size_lo, size_hi;
};
struct PhotoSpec {
  const char* name;
  const char* debian_path;
  const char* package;
  std::vector<FaceRegion> faces;
};
const std::vector<PhotoSpec>& photos() {
  static const std::vector<PhotoSpec> all = {
      // 512 x 512: Eileen Collins' face, centre near (224, 114), about 96 pixels.
      {"astronaut", "/usr/lib/python3/dist-packages/skimage/data/astronaut.png", "python3-skimage",
       {{170, 250, 70, 170, 48, 160}}},
      // 548 x 342: Messi's face, centre near (245, 111), about 37 pixels.
      {"messi", "/usr/share/doc/opencv-doc/examples/data/messi5.jpg", "opencv-doc", {{220, 270, 85, 140, 24, 80}}},
  };
  return all;
}

constexpr double kScaleFactor = 1.25;  // window grows by this per scale ("scale:1.25" in the names)
constexpr double kStep = 1.0;          // window step at scale 1, in pixels ("step:1"); max(1, round(step * scale))
constexpr int kMinNeighbors = 3;       // OpenCV's groupRectangles
constexpr double kGroupEps = 0.2;
constexpr double kMatchOverlap = 0.5;  // detections match when their intersection over union is above this
constexpr int kChunk = 32;                 // integral images: rows per work item in the column pass
constexpr size_t kResidentPerUnit = 2048;  // staged kernels: work items per compute unit (a full NVIDIA SM)

enum class Variant { fused, staged };
const gb::Axis<Variant> kVariant{"", {{Variant::fused, "fused"}, {Variant::staged, "staged"}}};

struct Params {
  Variant variant;
  size_t photo;  // index into photos()
  size_t wg;
  int size_class;
};

int tiles(int size_class) {
  static const int per_class[] = {1, 2, 8, 16};  // size 3: 4096 x 4096 for the astronaut
  return per_class[size_class - 1];
}

bool ci() {
  const char* v = std::getenv("CI");
  return v && std::strcmp(v, "true") == 0;
}

// $GPU_BENCH_IMAGE_DIR/<base name of debian_path> (when the variable is set), then debian_path.
std::vector<std::string> candidates(const std::string& debian_path) {
  std::vector<std::string> paths;
  if (const char* dir = std::getenv("GPU_BENCH_IMAGE_DIR"); dir && *dir)
    paths.push_back(std::string(dir) + "/" + debian_path.substr(debian_path.find_last_of('/') + 1));
  paths.push_back(debian_path);
  return paths;
}

// The first copy of the cascade that parses; throws naming every file tried when none does.
ref::HaarCascade load_cascade() {
  ref::HaarCascade cascade;
  const gb::FileSearch search = gb::search_file(candidates(kCascadePath), [&](const std::string& path) -> std::string {
    try {
      cascade = ref::load_haar_cascade(path);
      return "";
    } catch (const std::exception& e) {
      std::string why = e.what();  // "Haar cascade: <path>: <what>"
      const std::string prefix = "Haar cascade: " + path + ": ";
      if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
      return "not a usable Haar cascade (" + why + ")";
    }
  });
  if (search.found.empty())
    throw std::runtime_error("Haar cascade: " + search.tried() + " (Debian package opencv-data; or set GPU_BENCH_IMAGE_DIR)");
  return cascade;
}

// The first copy of the photo that decodes. None: an error naming the bad copies if there were
// some, else (nothing found) the generated stand-in, said on stderr; its faces check is skipped.
ref::Photo load_photo(const PhotoSpec& spec, uint64_t stand_in_seed) {
  std::optional<ref::Photo> photo;
  const gb::FileSearch search = gb::search_file(candidates(spec.debian_path), [&](const std::string& path) -> std::string {
    if (std::string problem = gb::image_file_problem(path, /*jpeg_too=*/true); !problem.empty()) return problem;
    photo = ref::decode_photo(path);
    return photo ? "" : "cannot be decoded (a corrupt or truncated PNG or JPEG)";
  });
  if (!search.found.empty()) return *photo;
  if (!search.skipped.empty())
    throw std::runtime_error(std::string(spec.name) + " photo: no usable copy: " + search.tried() + " (Debian package " +
                             spec.package + ")");
  std::fprintf(stderr, "%s: %s (Debian package %s; or set GPU_BENCH_IMAGE_DIR): a generated image stands in and "
               "the faces check is skipped (under CI=true: a failure)\n",
               spec.name, search.tried().c_str(), spec.package);
  return ref::generated_photo(512, 512, stand_in_seed);
}

// ---- the host side: photo, plan and reference, shared by the variants of one image -------------
struct HostDetection {
  ref::HaarCascade cascade;
  ref::Photo photo;
  ref::ScanPlan plan;
  std::vector<uint8_t> gray;
  ref::IntegralImages integral;
  ref::CascadeResult result;
  std::vector<ref::Detection> detections;  // grouped
  uint32_t borderline = 0;                 // windows whose result rests on float rounding
};

std::shared_ptr<const HostDetection> compute_host_detection(const Params& p) {
  auto h = std::make_shared<HostDetection>();
  h->cascade = load_cascade();
  const PhotoSpec& spec = photos()[p.photo];
  const ref::Photo photo = load_photo(spec, 7 + p.photo);
  h->photo = ref::tile_photo(photo, tiles(p.size_class), tiles(p.size_class));
  h->plan = ref::plan_scan(h->cascade, h->photo.width, h->photo.height, kScaleFactor, kStep);
  ref::require_windows(h->cascade, h->plan);
  h->gray = ref::grayscale(h->photo.rgba, h->photo.width, h->photo.height);
  h->integral = ref::integral_images(h->gray, h->photo.width, h->photo.height);
  h->result = ref::run_cascade(h->cascade, h->plan, h->integral);
  const int stages = static_cast<int>(h->cascade.stages.size());
  const size_t raw = std::count(h->result.depth.begin(), h->result.depth.end(), static_cast<uint8_t>(stages));
  if (raw > ref::kMaxRawDetections)
    throw std::runtime_error("cascade too costly: " + std::to_string(raw) + " raw detections above the limit " +
                             std::to_string(ref::kMaxRawDetections));
  h->detections = ref::group_detections(ref::raw_detections(h->plan, h->result.depth, stages), kMinNeighbors, kGroupEps);
  for (uint8_t b : h->result.borderline) h->borderline += b != ref::kNotBorderline;
  return h;
}

// Bad input (no usable cascade or photo, no window that fits, a cascade too costly: see the limits
// in reference/haar_cascade.hpp) throws before any device buffer is made; the cache keeps the
// failure, so the other variant of the image fails at once with the same message. Shared by the
// image's variants and work-group sizes.
std::shared_ptr<const HostDetection> host_detection(const Params& p) {
  return gb::cached_host<const HostDetection>(gb::name_key_without({"", "wg"}), [&] { return compute_host_detection(p); });
}

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  std::shared_ptr<const HostDetection> host;
  int stages = 0;
  cl::Buffer rgba, gray, sum, sqsum, totals, sqtotals;               // front end
  cl::Buffer scales, rects, nodes, stage_ranges, stage_thresholds;   // the cascade, laid out
  cl::Buffer depth[2], lists[2], counts;  // depth[0]: the variant's; depth[1]: the other variant's
  cl::Kernel grayscale, columns, offsets, rows, reset, fused[2];
  std::vector<cl::Kernel> staged[2];
  cl::NDRange pixels_global, columns_global, offsets_global, rows_global, fused_global, staged_global,
      reset_global;
  cl::NDRange local;
  // From the device, once verified: survivors per stage, grouped and raw detections.
  std::vector<double> survivors;
  double detections = -1, raw_detections = -1;

  void front(gb::Batch& b) const {
    b.launch(grayscale, pixels_global, cl::NDRange(256));
    b.launch(columns, columns_global, cl::NDRange(64, 1));
    b.launch(offsets, offsets_global, cl::NDRange(64));
    b.launch(rows, rows_global, local);
  }
  // The timed unit: the whole pipeline, no host sync inside. `which` 0 writes depth[0].
  void pipeline(gb::Batch& b, Variant v, int which) const {
    if (v == Variant::staged) b.launch(reset, reset_global, cl::NDRange(64));
    front(b);
    if (v == Variant::fused) {
      b.launch(fused[which], fused_global, local);
    } else {
      for (const auto& k : staged[which]) b.launch(k, staged_global, local);
    }
  }
};

// The one program of every kernel of a work-group size: built by make_fixture, declared at
// registration.
gb::ProgramKey program_of(size_t wg) {
  std::string o = "-DWG=" + std::to_string(wg) + " -DCHUNK=" + std::to_string(kChunk);
  // Where the device can, a correctly rounded sqrt takes one source of rounding differences away.
  cl_device_fp_config fp = 0;
  GB_CL(gb::session().device().getInfo(CL_DEVICE_SINGLE_FP_CONFIG, &fp));
  if (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) o += " -cl-fp32-correctly-rounded-divide-sqrt";
  return {"l2/face_detection.cl", o};
}

// The device layout of the cascade (see kernels/l2/face_detection.cl).
void upload_cascade(Fixture& fx, const HostDetection& h) {
  std::vector<cl_int> scales;
  std::vector<cl_int4> rects;
  for (const auto& s : h.plan.scales) {
    scales.insert(scales.end(), {static_cast<cl_int>(s.first_window), s.nx, s.step, s.norm.tl, s.norm.w, s.norm.hs,
                                 s.norm_area, 0});
    for (const auto& r : s.rects) {
      cl_int4 e;
      e.s[0] = r.tl;
      e.s[1] = r.w;
      e.s[2] = r.hs;
      std::memcpy(&e.s[3], &r.weight, sizeof(float));
      rects.push_back(e);
    }
  }
  std::vector<cl_float4> nodes;
  for (const auto& n : h.cascade.nodes) nodes.push_back({{n.threshold, n.left, n.right, 0.0f}});
  std::vector<cl_int2> ranges;
  std::vector<float> thresholds;
  for (const auto& s : h.cascade.stages) {
    ranges.push_back({{s.first, s.count}});
    thresholds.push_back(s.threshold);
  }
  fx.scales = gb::upload(scales, CL_MEM_READ_ONLY);
  fx.rects = gb::upload(rects, CL_MEM_READ_ONLY);
  fx.nodes = gb::upload(nodes, CL_MEM_READ_ONLY);
  fx.stage_ranges = gb::upload(ranges, CL_MEM_READ_ONLY);
  fx.stage_thresholds = gb::upload(thresholds, CL_MEM_READ_ONLY);
}

// The arguments every cascade kernel starts with (CASCADE_ARGS); returns the next index.
cl_uint set_cascade_args(cl::Kernel& k, const Fixture& fx, const HostDetection& h) {
  return GB_SET_ARGS(k, fx.sum, fx.sqsum, fx.scales, static_cast<cl_int>(h.plan.scales.size()), fx.rects, fx.nodes,
                     static_cast<cl_int>(h.cascade.nodes.size()), fx.stage_ranges, fx.stage_thresholds,
                     static_cast<cl_int>(h.cascade.stages.size()), static_cast<cl_int>(h.plan.stride),
                     static_cast<cl_uint>(h.plan.windows));
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->host = host_detection(p);
  const HostDetection& h = *fx->host;
  const int width = h.photo.width, height = h.photo.height, chunks = (height + kChunk - 1) / kChunk;
  const size_t pixels = static_cast<size_t>(width) * height, integral = static_cast<size_t>(width + 1) * (height + 1);
  fx->stages = static_cast<int>(h.cascade.stages.size());

  fx->rgba = gb::upload(h.photo.rgba, CL_MEM_READ_ONLY);
  fx->gray = gb::make_buffer(pixels);
  fx->sum = gb::make_buffer(integral * sizeof(cl_uint));
  fx->sqsum = gb::make_buffer(integral * sizeof(cl_ulong));
  fx->totals = gb::make_buffer(static_cast<size_t>(chunks) * width * sizeof(cl_uint));
  fx->sqtotals = gb::make_buffer(static_cast<size_t>(chunks) * width * sizeof(cl_ulong));
  upload_cascade(*fx, h);
  for (auto& d : fx->depth) d = gb::make_buffer(h.plan.windows);
  for (auto& l : fx->lists) l = gb::make_buffer(static_cast<size_t>(h.plan.windows) * sizeof(cl_uint2));
  fx->counts = gb::make_buffer((fx->stages + 1) * sizeof(cl_uint));

  const gb::ProgramKey program = program_of(p.wg);
  auto kernel = [&](const char* name) { return s.kernel(program, name); };
  fx->grayscale = kernel("face_detection_grayscale");
  GB_SET_ARGS(fx->grayscale, fx->rgba, fx->gray, static_cast<cl_uint>(pixels));
  fx->columns = kernel("face_detection_integral_columns");
  fx->offsets = kernel("face_detection_integral_offsets");
  GB_SET_ARGS(fx->columns, fx->gray, fx->sum, fx->sqsum, fx->totals, fx->sqtotals, width, height);
  GB_SET_ARGS(fx->offsets, fx->sum, fx->sqsum, fx->totals, fx->sqtotals, width, height);
  fx->rows = kernel("face_detection_integral_rows");
  GB_SET_ARGS(fx->rows, fx->sum, fx->sqsum, fx->totals, fx->sqtotals, width);
  fx->reset = kernel("face_detection_reset");
  GB_SET_ARGS(fx->reset, fx->counts, static_cast<cl_int>(fx->stages + 1));

  for (int which = 0; which < 2; ++which) {
    fx->fused[which] = kernel("face_detection_fused");
    const cl_uint a = set_cascade_args(fx->fused[which], *fx, h);
    GB_SET_ARGS_FROM(fx->fused[which], a, fx->depth[which]);
    for (int st = 0; st < fx->stages; ++st) {
      cl::Kernel k = kernel("face_detection_stage");
      // the stage, the survivors of stage st - 1 (unused by stage 0) and those of stage st
      GB_SET_ARGS_FROM(k, set_cascade_args(k, *fx, h), static_cast<cl_int>(st), fx->lists[st & 1],
                       fx->lists[(st + 1) & 1], fx->counts, fx->depth[which]);
      fx->staged[which].push_back(k);
    }
  }

  const size_t wg = p.wg;
  fx->local = cl::NDRange(wg);
  fx->pixels_global = cl::NDRange(gb::round_up(pixels, 256));
  fx->columns_global = cl::NDRange(gb::round_up(width, 64), chunks);
  fx->offsets_global = cl::NDRange(gb::round_up(width + 1, 64));
  fx->rows_global = cl::NDRange(static_cast<size_t>(height) * wg);
  fx->fused_global = cl::NDRange(gb::round_up(h.plan.windows, wg));
  const size_t resident = gb::round_up(s.info().compute_units * kResidentPerUnit, wg);
  fx->staged_global = cl::NDRange(std::min(gb::round_up(h.plan.windows, wg), resident));
  fx->reset_global = cl::NDRange(gb::round_up(fx->stages + 1, 64));
  // The variant's work group against the limits of the kernels that take it, known now they are built.
  gb::require_work_group(fx->rows, wg);
  gb::require_work_group(fx->fused[0], wg);
  for (const auto& k : fx->staged[0]) gb::require_work_group(k, wg);
  return fx;
}

// ---- verification ------------------------------------------------------------------------------
// Each stage of the pipeline against the host: gray, integral and squared integral exactly; the
// cascade's survivors stage by stage (excusing only windows that the host marks as decided within
// float rounding); the staged variant's compaction counts and final list; the other variant's
// survivors; the grouped detections; and, on a real photo, the faces where they are.
gb::Check exact_count(size_t bad, size_t total, const std::string& what) {
  return {total ? static_cast<double>(bad) / total : 0.0, 0, what};
}

size_t unmatched(const std::vector<ref::Detection>& a, const std::vector<ref::Detection>& b) {
  return ref::unmatched(a, b, kMatchOverlap);
}

gb::Check verify(Fixture& fx, const Params& p) {
  const HostDetection& h = *fx.host;
  const size_t pixels = h.gray.size(), windows = h.plan.windows;
  std::vector<gb::Check> checks;
  checks.push_back(gb::check_exact(gb::read_back<uint8_t>(fx.gray, pixels), h.gray, "grayscale"));
  checks.push_back(gb::check_exact(gb::read_back<uint32_t>(fx.sum, h.integral.sum.size()), h.integral.sum, "integral image"));
  checks.push_back(gb::check_exact(gb::read_back<uint64_t>(fx.sqsum, h.integral.sqsum.size()), h.integral.sqsum,
                                   "squared integral image"));

  const auto depth = gb::download<uint8_t>(fx.depth[0], windows);
  const auto stages = ref::compare_stages(h.result, depth, fx.stages);
  std::string per_stage;
  for (int st = 0; st < fx.stages; ++st)
    if (stages.mismatches[st]) per_stage += " stage " + std::to_string(st) + ": " + std::to_string(stages.mismatches[st]);
  checks.push_back(exact_count(stages.total_mismatches, windows,
                               "windows surviving other stages than on the host (" + std::to_string(stages.total_excused) +
                                   " more excused as float rounding)" + per_stage));
  fx.survivors.assign(fx.stages, 0);
  for (uint8_t d : depth)
    for (int st = 0; st < d && st < fx.stages; ++st) fx.survivors[st] += 1;

  if (p.variant == Variant::staged) {
    // Compaction: each stage's count is its survivors, and the last list holds the detections.
    const auto counts = gb::download<uint32_t>(fx.counts, fx.stages + 1);
    size_t bad = 0;
    for (int st = 0; st < fx.stages; ++st) bad += counts[st + 1] != fx.survivors[st];
    checks.push_back(exact_count(bad, fx.stages, "compaction counts against the survivors"));
    const uint32_t last = std::min<uint32_t>(counts[fx.stages], windows);
    const auto list = gb::download<cl_uint2>(fx.lists[fx.stages & 1], last);
    std::set<uint32_t> listed;
    for (const auto& e : list) listed.insert(e.s[0]);
    size_t wrong = listed.size() != last;
    for (uint32_t id : listed) wrong += id >= windows || depth[id] != fx.stages;
    checks.push_back(exact_count(wrong, std::max<size_t>(1, last), "final survivor list"));
  }

  // The other variant, once, into depth[1]: the same survivors up to float rounding.
  const Variant other = p.variant == Variant::fused ? Variant::staged : Variant::fused;
  gb::run_batch([&](gb::Batch& b) { fx.pipeline(b, other, 1); }, 1);
  const auto other_depth = gb::download<uint8_t>(fx.depth[1], windows);
  size_t differ = 0;
  for (size_t i = 0; i < windows; ++i)
    differ += other_depth[i] != depth[i] && h.result.borderline[i] == ref::kNotBorderline;
  checks.push_back(exact_count(differ, windows, std::string("windows where ") + kVariant.label(other) + " differs"));

  // A device that passes far more windows than the host must not make the grouping below costly.
  const size_t device_raw = std::count(depth.begin(), depth.end(), static_cast<uint8_t>(fx.stages));
  if (device_raw > ref::kMaxRawDetections) {
    checks.push_back({1.0, 0, std::to_string(device_raw) + " raw detections on the device, above the limit " +
                                  std::to_string(ref::kMaxRawDetections) + " (grouping skipped)"});
    return gb::worst(checks);
  }
  const auto raw = ref::raw_detections(h.plan, depth, fx.stages);
  const auto grouped = ref::group_detections(raw, kMinNeighbors, kGroupEps);
  const size_t missing = unmatched(h.detections, grouped) + unmatched(grouped, h.detections);
  checks.push_back(exact_count(missing, std::max<size_t>(1, h.detections.size()),
                               "detections unmatched between device and host"));
  fx.detections = static_cast<double>(grouped.size());
  fx.raw_detections = static_cast<double>(raw.size());

  // Faces where they are, in every tile.
  const PhotoSpec& spec = photos()[p.photo];
  if (h.photo.real) {
    const int n = tiles(p.size_class), tile_w = h.photo.width / n, tile_h = h.photo.height / n;
    size_t expected = 0, found = 0;
    for (int ty = 0; ty < n; ++ty)
      for (int tx = 0; tx < n; ++tx)
        for (const auto& f : spec.faces) {
          ++expected;
          bool hit = false;
          for (const auto& d : grouped) {
            const int cx = d.x + d.w / 2 - tx * tile_w, cy = d.y + d.h / 2 - ty * tile_h;
            hit = hit || (cx >= f.cx_lo && cx <= f.cx_hi && cy >= f.cy_lo && cy <= f.cy_hi && d.w >= f.size_lo &&
                          d.w <= f.size_hi);
          }
          found += hit;
        }
    checks.push_back(exact_count(expected - found, expected, "faces not found where they are"));
  } else if (ci()) {
    checks.push_back({1.0, 0, std::string("photo missing under CI=true: ") + spec.debian_path + " (Debian " +
                                  spec.package + ")"});
  } else {
    std::fprintf(stderr, "%s: stand-in image: the faces check is skipped\n", gb::current_benchmark_name().c_str());
  }
  return gb::worst(checks);
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const HostDetection& h = *fx.host;
  const size_t lists = static_cast<size_t>(h.plan.windows) * sizeof(cl_uint2);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { fx.pipeline(b, p.variant, 0); })
                         .work(gb::Work().items(static_cast<double>(h.plan.windows)))  // windows evaluated
                         .rate("images_per_second", 1.0)
                         .poison(fx.gray, h.gray.size())
                         .poison(fx.sum, h.integral.sum.size() * sizeof(cl_uint))
                         .poison(fx.sqsum, h.integral.sqsum.size() * sizeof(cl_ulong))
                         .poison(fx.depth[0], h.plan.windows)
                         .poison(fx.lists[0], lists)
                         .poison(fx.lists[1], lists)
                         .check([&] { return verify(fx, p); })
                         .counter("windows", static_cast<double>(h.plan.windows))
                         .counter("scales", static_cast<double>(h.plan.scales.size()))
                         .counter("borderline_windows", h.borderline)
                         .counter("real_photo", h.photo.real ? 1 : 0));
  // Counted on the device by the verification; detections from the reference where this fixture
  // was not the one verified.
  for (int st = 0; st < fx.stages && st < static_cast<int>(fx.survivors.size()); ++st) {
    char name[16];
    std::snprintf(name, sizeof name, "stage%02d", st);
    state.counters[name] = fx.survivors[st];
  }
  state.counters["detections"] = fx.detections >= 0 ? fx.detections : static_cast<double>(h.detections.size());
  if (fx.raw_detections >= 0) state.counters["raw_detections"] = fx.raw_detections;
}

// ---- registration ----------------------------------------------------------------------------
// Work groups 64, 128 and 256 (128 alone at size 1, for CI's time).
// The integral image's chunks (columns: CHUNK = 32 rows; rows: WG = 128 columns per step) on the
// photographs (astronaut 512 x 512, messi 548 x 342) tiled tiles(size) times each way; the cascade
// runs every stage on every window at every scale at every size.
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths{"cascade: every stage, window and scale"};
  for (const auto& [w, h] : {std::pair<size_t, size_t>{512, 512}, {548, 342}}) {
    const size_t width = w * tiles(size_class), height = h * tiles(size_class);
    gb::path_if(paths, height > 32, "integral columns: 2+ row chunks");
    gb::path_if(paths, height % 32 != 0, "integral columns: partial last chunk");
    gb::path_if(paths, width + 1 > 128, "integral rows: 2+ steps of 128 (carry)");
    gb::path_if(paths, (width + 1) % 128 != 0, "integral rows: partial last step");
  }
  return paths;
}

void register_face_detection() {
  auto& s = gb::session();
  gb::declare_paths("L2/FaceDetection", code_paths);
  const int size = s.size_class();
  if (!ci()) {
    const auto paths = candidates(kCascadePath);
    if (std::none_of(paths.begin(), paths.end(), [](const std::string& path) { return access(path.c_str(), F_OK) == 0; })) {
      gb::skip_variant("L2/FaceDetection", std::string("no Haar cascade at ") + kCascadePath + " (Debian package opencv-data)");
      return;
    }
  }
  // The device's limits here; a kernel's own, lower limit skips its variants when they run.
  const size_t max_wg = std::min(s.info().max_work_group_size, s.info().max_work_item_sizes[0]);
  std::vector<size_t> sizes = size > 1 ? std::vector<size_t>{64, 128, 256} : std::vector<size_t>{128};
  for (size_t photo = 0; photo < photos().size(); ++photo)
    for (Variant v : kVariant.all())
      for (size_t wg : sizes) {
        const std::string name = gb::bench_name("L2/FaceDetection", {kVariant.part(v),
                                                                     {"image", photos()[photo].name},
                                                                     {"scale", "1.25"},
                                                                     {"step", "1"},
                                                                     {"wg", std::to_string(wg)},
                                                                     {"size", std::to_string(size)}});
        if (wg > max_wg) {
          gb::skip_variant(name, "work group above the device's limit of " + std::to_string(max_wg));
          continue;
        }
        Params p{v, photo, wg, size};
        gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                          [wg] { return std::vector<gb::ProgramKey>{program_of(wg)}; });
      }
}
GB_CASE(register_face_detection);

}  // namespace
