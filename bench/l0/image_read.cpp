// L0/ImageRead: RGBA float image (texture) reads through a nearest sampler, with a 2-D work-group
// shape sweep. Bytes per unit: the whole image (16 B a pixel) plus one float written per work item.
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/image_read.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kItems = 8;  // pixels summed per work item
constexpr size_t kPixelBytes = 16;

// Square image side: 256 MiB at size 3 (past a 60 MB L2). A device whose image or memory
// limits it exceeds skips the benchmark (registration).
size_t image_side(int size_class) {
  static const size_t by_class[] = {512, 2048, 4096, 8192};
  return by_class[size_class - 1];
}

// Why the device cannot hold the image and the column sums (empty if it can).
std::string shortfall(int size_class) {
  const uint64_t side = image_side(size_class);
  const std::string image = gb::image_shortfall(side, side);
  return !image.empty() ? image : gb::memory_shortfall({side * side * kPixelBytes, side * side / kItems * sizeof(float)});
}

struct Params {
  gb::WorkGroup wg;
  int size_class;
};

// ---- set-up (once per size: the work-group shapes of a sweep share the image) ----------------
struct Fixture {
  size_t width = 0, rows = 0;
  std::vector<float> pixels;
  std::vector<double> want;  // column sums
  cl::Kernel kernel;
  cl::Image2D image;
  cl::Buffer sums;
};

// The one program of every shape and size: built by make_fixture, declared at registration.
gb::ProgramKey program() { return {"l0/image_read.cl", "-DITEMS=" + std::to_string(kItems)}; }

std::unique_ptr<Fixture> make_fixture(int size_class) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const size_t side = image_side(size_class);
  fx->width = side;
  fx->rows = side / kItems;
  fx->pixels = gb::random_vector<float>(side * side * 4, 41);
  fx->want = ref::image_column_sums(fx->pixels, fx->width, fx->rows, kItems);
  cl_int err = CL_SUCCESS;
  fx->image = cl::Image2D(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          cl::ImageFormat(CL_RGBA, CL_FLOAT), side, side, 0, fx->pixels.data(), &err);
  GB_CL(err);
  fx->sums = gb::make_buffer(fx->width * fx->rows * sizeof(float));
  fx->kernel = s.kernel(program(), "image_read_rgba_float");
  GB_SET_ARGS(fx->kernel, fx->image, fx->sums, static_cast<cl_int>(fx->width), static_cast<cl_int>(fx->rows));
  return fx;
}

// ---- verification against reference/image_read -----------------------------------------------
// Each sum on its own: kItems RGBA pixels in [-1, 1), 4 kItems terms as many additions deep.
gb::Check verify(const Fixture& fx) {
  const double terms = 4.0 * kItems;
  return gb::check_bounded(gb::read_back<float>(fx.sums, fx.width * fx.rows), fx.want,
                           gb::sum_error_bound(terms, terms, gb::unit_roundoff<float>()), "image column sums");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key_without({"wg"}), [&] { return make_fixture(p.size_class); });
  gb::require_work_group(fx.kernel, p.wg.size());
  const cl::NDRange global = gb::padded_global(fx.width, fx.rows, 1, p.wg), local = p.wg.local();
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, global, local); };
  const size_t outputs = fx.width * fx.rows;
  const double pixels = static_cast<double>(fx.width) * fx.rows * kItems;
  // Each shape poisons the shared sums before its first run and checks them after it.
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().bytes(pixels * kPixelBytes + outputs * sizeof(float)).items(pixels))
                         .poison(fx.sums, outputs * sizeof(float))
                         .check([&] { return verify(fx); })
                         .counter("image_bytes", pixels * kPixelBytes));
}

// ---- registration ----------------------------------------------------------------------------
// The edge guard: a shape that does not divide the image leaves work items past it.
gb::PathSet code_paths(int size_class, size_t) {
  const size_t side = image_side(size_class), rows = side / kItems;
  gb::PathSet paths{"kItems rows per work item"};
  gb::path_if(paths, side % 16 == 0 && rows % 16 == 0, "whole 16x16 groups");
  return paths;
}

void register_image_read() {
  auto& s = gb::session();
  const int size = s.size_class();
  gb::declare_paths("L0/ImageRead", code_paths);
  const std::string sz = std::to_string(size);
  const gb::WorkGroup fixed{16, 16, 1, 2};
  auto name = [&](const std::string& wg) {
    return gb::bench_name("L0/ImageRead", {{"", "nearest"}, {"type", "rgba_float"}, {"wg", wg}, {"size", sz}});
  };
  if (!s.info().images) {
    gb::skip_variant(name("*"), "no image support (CL_DEVICE_IMAGE_SUPPORT is false)");
    return;
  }
  const gb::ProgramList programs = [] { return std::vector<gb::ProgramKey>{program()}; };
  if (const std::string why = shortfall(size); !why.empty()) {
    gb::skip_variant(name("*"), why);
    return;
  }
  gb::add_benchmark(name(fixed.label()), [p = Params{fixed, size}](benchmark::State& st) { run(st, p); }, programs);
  // The seed's shape question on a 2-D access pattern: every (N/y, y) shape for N = 64 (size 1)
  // or 64..max (larger sizes), plus the driver's choice. Max is the device's limit: a shape above
  // the kernel's own limit skips at run time.
  const size_t max_size = s.info().max_work_group_size;
  gb::SweepLimits limits{size == 1 ? std::min<size_t>(64, max_size) : max_size,
                         {s.info().max_work_item_sizes[0], s.info().max_work_item_sizes[1], 1}, 64};
  for (const auto& wg : gb::work_group_shapes(2, limits))
    if (wg.label() != fixed.label())
      gb::add_benchmark(name(wg.label()),
                      [p = Params{wg, size}](benchmark::State& st) { run(st, p); }, programs);
}
GB_CASE(register_image_read);

}  // namespace
