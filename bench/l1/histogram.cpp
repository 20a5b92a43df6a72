// L1/Histogram: 256-bin histogram of an 8-bit image with global atomics per pixel, or private
// histograms in local memory (one, 8 interleaved copies, one per warp of 32, or one per lane of a
// warp: 32 or 16 copies interleaved word by word) merged at the end;
// on a photograph, uniform noise, and a flat image where every atomic collides. Bytes per unit:
// one per pixel.
#include <memory>

#include "bench/tuning/histogram.hpp"
#include "gpu_bench.hpp"
#include "images.hpp"
#include "reference/histogram.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { global, local, local_replicated, local_warp, local_lanes, local_lanes16 };
enum class Input { photo, noise, flat };
const gb::Axis<Variant> kVariant{"",
                                 {{Variant::global, "global"},
                                  {Variant::local, "local"},
                                  {Variant::local_replicated, "local_replicated"},
                                  {Variant::local_warp, "local_warp"},
                                  {Variant::local_lanes, "local_lanes"},
                                  {Variant::local_lanes16, "local_lanes16"}}};
const gb::Axis<Input> kInput{"input", {{Input::photo, "photo"}, {Input::noise, "noise"}, {Input::flat, "flat"}}};

constexpr size_t kWorkGroup = 256;
constexpr size_t kGroupsPerComputeUnit = 8;
constexpr int kReplicas = 8;         // local_replicated: copies of the 256 bins per work group
constexpr size_t kWarp = 32;         // local_warp: work items per private histogram
// local_warp: on noise the limit is the shared-memory atomic rate, not DRAM: 16 atomics per uint4.
// Per-warp copies take away the contention between the 8 warps of a group on the same bin words,
// but not the bank conflicts of 32 random bins within one warp (about 3-4 lanes per bank); photo
// and flat (warp-aggregated same-address atomics) stay near local.
// local_lanes: the limit is within the warp (a warp's random bins hit ~3.5 lanes per bank at
// worst); one copy per lane puts the warp's 32 atomics in 32 banks (local_lanes16: 2-way at most).
// local_lanes16 counts one uint4 while the next is in flight (pipelined()): it already holds 64
// warps an SM (32 registers), so only loads kept in flight while it counts can hide more latency.
// 32 KiB per group: kLaneGroupsPerComputeUnit groups fit in an SM's 228 KiB (1 KiB reserved per
// group), so the grid is one full wave; that group count caps local_lanes on every input.
constexpr size_t kLaneGroupsPerComputeUnit = 6;
constexpr uint8_t kFlatValue = 77;   // the one value of the flat image
const char* const kPhoto = "camera.png";  // scikit-image's 512 x 512 gray photograph

struct Params {
  Variant variant;
  Input input;
  int size_class;
};

// Size 1 launches at most 16 groups whatever the device (as 2 compute units would): every work
// item then takes 2+ trips of the paired loads, and some the odd uint4 after them, on any CI machine.
constexpr size_t kSize1Groups = 16;

// Width x height: class 1 is odd-sized (the per-pixel tail runs); 3 is 16384^2 (256 MiB). A device
// that cannot hold the buffers (1 byte a pixel in the largest, 2 in all) skips the benchmark.
gb::ImageSize image_size(int size_class) {
  static const gb::ImageSize by_class[] = {{701, 499}, {4096, 4096}, {16384, 16384}, {32768, 32768}};
  return by_class[size_class - 1];
}

// ---- set-up: the problem (once per input, shared by every variant) ----------------------------
struct Problem {
  size_t pixels = 0;
  bool from_file = false;
  std::vector<uint8_t> image;
  cl::Buffer in;
  std::vector<uint32_t> reference;
};

std::unique_ptr<Problem> make_problem(const Params& p) {
  auto pb = std::make_unique<Problem>();
  const gb::ImageSize size = image_size(p.size_class);
  pb->pixels = size.width * size.height;
  switch (p.input) {
    case Input::photo: {
      gb::Image img = gb::photo(kPhoto, 1, size.width, size.height, gb::Fit::tile);
      pb->from_file = img.from_file();
      pb->image = std::move(img.pixels);
      break;
    }
    case Input::noise:
      pb->image = gb::random_vector<uint8_t>(pb->pixels, 81, 0, 255);
      break;
    case Input::flat:
      pb->image.assign(pb->pixels, kFlatValue);
      break;
  }
  pb->in = gb::upload(pb->image);
  pb->reference = ref::histogram256(pb->image);
  return pb;
}

// Work groups: one per 16 * kWorkGroup pixels, at most `limit` (size 1: kSize1Groups).
size_t group_count(size_t pixels, int size_class, size_t limit) {
  if (size_class == 1) limit = kSize1Groups;
  return std::max<size_t>(1, std::min((pixels / 16 + kWorkGroup - 1) / kWorkGroup, limit));
}

// Whether a variant counts with its loads pipelined (the kernel's PIPELINED, a measured choice:
// bench/tuning/histogram.hpp; 32-bit indices: n / 16 plus the grid must fit in 32 bits).
bool pipelined(const Params& p, size_t pixels, size_t grid) {
  using histogram_tuning::Param;
  const bool chosen = histogram_tuning::tuned(p.variant == Variant::local_lanes16 ? Param::lanes16_pipelined : Param::others_pipelined);
  return chosen && pixels / 16 + grid < (size_t(1) << 32);
}

// The groups a variant launches at a size class on a device of `compute_units`.
size_t groups_of(const Params& p, size_t pixels, size_t compute_units) {
  return group_count(pixels, p.size_class,
                     compute_units * (p.variant == Variant::local_lanes ? kLaneGroupsPerComputeUnit : kGroupsPerComputeUnit));
}

// COUNT_IMAGE's paths at a size class, over the group counts of every variant.
gb::PathSet code_paths(int size_class, size_t compute_units) {
  gb::PathSet paths;
  const gb::ImageSize is = image_size(size_class);
  const size_t n = is.width * is.height, n16 = n / 16;
  for (size_t per_unit : {kGroupsPerComputeUnit, kLaneGroupsPerComputeUnit}) {
    const size_t stride = group_count(n, size_class, compute_units * per_unit) * kWorkGroup;
    // Work item 0 takes the most trips of the paired loads: i = 2k stride while i + stride < n16.
    const size_t trips = n16 > stride ? (n16 - stride - 1) / (2 * stride) + 1 : 0;
    gb::path_if(paths, trips >= 2, "paired uint4 loads, 2+ trips");
    gb::path_if(paths, n16 % (2 * stride) != 0, "odd uint4 after the paired loads");
  }
  const Params lanes16{Variant::local_lanes16, Input::noise, size_class};
  const size_t stride = groups_of(lanes16, n, compute_units) * kWorkGroup;
  // Work item 0 takes the most trips of the pipelined loads: ceil(n16 / stride).
  gb::path_if(paths, pipelined(lanes16, n, stride) && n16 > stride, "pipelined uint4 loads, 2+ trips");
  gb::path_if(paths, n % 16 != 0, "per-pixel tail (n % 16)");
  return paths;
}

// ---- set-up: one variant ----------------------------------------------------------------------
struct Fixture {
  size_t groups = 0;
  cl::Buffer in, bins[2];  // in: the problem's buffer (a retained handle)
  int parity = 0;  // bins[parity] is counted into by the next launch, bins[1 - parity] cleared
  cl::Kernel kernel;
};

// The program of a variant: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  const size_t pixels = image_size(p.size_class).width * image_size(p.size_class).height;
  std::string options = "-DWG=" + std::to_string(kWorkGroup) +
                        " -DREPLICAS=" + std::to_string(p.variant == Variant::local_replicated ? kReplicas : 1);
  if (p.variant == Variant::local_warp) options += " -DWARP=" + std::to_string(kWarp);
  if (p.variant == Variant::local_lanes || p.variant == Variant::local_lanes16)
    options += std::string(" -DLANES=") + (p.variant == Variant::local_lanes ? "32" : "16");
  if (pipelined(p, pixels, groups_of(p, pixels, gb::session().info().compute_units) * kWorkGroup)) options += " -DPIPELINED";
  return {"l1/histogram.cl", options};
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->in = pb.in;
  for (auto& b : fx->bins) {
    b = gb::make_buffer(256 * sizeof(cl_uint));
    GB_CL(s.queue().enqueueFillBuffer(b, cl_uint(0), 0, 256 * sizeof(cl_uint)));
  }
  const char* entry = p.variant == Variant::global ? "histogram_global" : "histogram_local";
  if (p.variant == Variant::local_warp) entry = "histogram_local_warp";
  if (p.variant == Variant::local_lanes || p.variant == Variant::local_lanes16) entry = "histogram_local_lanes";
  fx->kernel = s.kernel(program_of(p), entry);
  gb::require_work_group(fx->kernel, kWorkGroup);
  fx->groups = groups_of(p, pb.pixels, s.info().compute_units);
  GB_SET_ARGS(fx->kernel, fx->in, static_cast<cl_ulong>(pb.pixels));
  return fx;
}

void launch(Fixture& fx, gb::Batch& b) {
  GB_SET_ARGS_FROM(fx.kernel, 2, fx.bins[fx.parity], fx.bins[1 - fx.parity]);
  b.launch(fx.kernel, cl::NDRange(fx.groups * kWorkGroup), cl::NDRange(kWorkGroup));
  fx.parity = 1 - fx.parity;
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({""}), [&] { return make_problem(p); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const double pixels = static_cast<double>(pb.pixels);
  auto m = gb::Measurement::device([&](gb::Batch& b) { launch(fx, b); })
               .work(gb::Work().bytes(pixels).items(pixels))
               // The buffer the next launch must clear is poisoned; the one it counts into is clear already.
               .poison([&] { gb::poison(fx.bins[1 - fx.parity], 256 * sizeof(cl_uint)); })
               .check([&] {  // counts, of the last launch: bit-exact
                 return gb::check_exact(gb::read_back<uint32_t>(fx.bins[1 - fx.parity], 256), pb.reference,
                                        std::string("histogram of ") + kInput.label(p.input));
               })
               .counter("pixels", pixels)
               .copy_fraction();
  if (p.input == Input::photo) m.counter("photo_from_file", pb.from_file ? 1 : 0);
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
void register_histogram() {
  const int size = gb::session().size_class();
  gb::declare_paths("L1/Histogram", code_paths);
  const std::string shortfall = gb::image_buffers_shortfall(image_size(size), 1, 2);
  for (Input in : kInput.all())  // the problem outer: variants share it
    for (Variant v : kVariant.all()) {
      Params p{v, in, size};
      const std::string name =
          gb::bench_name("L1/Histogram", {kVariant.part(v), kInput.part(in), {"size", std::to_string(size)}});
      if (!shortfall.empty())
        gb::skip_variant(name, shortfall);
      else if (kWorkGroup > gb::session().info().max_work_group_size)
        gb::skip_variant(name, "needs work groups of " + std::to_string(kWorkGroup));
      else
        gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                          [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
    }
}
GB_CASE(register_histogram);

}  // namespace
