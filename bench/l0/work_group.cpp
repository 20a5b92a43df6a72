// L0/WorkGroup: Arm's work-group guidance (issue #15), one variant per question:
//   edges        a ragged image's edge by a bounds check, by non-uniform groups, or on the host
//   reqd_size    the same kernel with and without reqd_work_group_size, over 2-D shapes
//   scale_add    a small kernel indexed in 1-D or 2-D; 1-D over sizes 4..256 (non-powers of two too)
//   barrier      many barriers and local-memory exchanges per item, over work-group sizes
//   live_values  LIVE values kept alive per item: throughput, private memory, the kernel's limit
//   thread_limit cl_arm_thread_limit_hint 64, 128, 256 (Arm Mali only)
// Bytes per unit: stencil 8 per pixel (one read, one write: neighbours come from cache); a * x + y
// 12 per element. Integer ops: barrier 1 exchange per item and round; live_values 2 per value step.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "device_fit.hpp"
#include "gpu_bench.hpp"
#include "reference/work_group.hpp"
#include "sampling.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr const char* kFile = "l0/work_group.cl";

// The stencil's image per size class: odd sides, ragged against every shape swept (size 3: 1 GiB).
struct Image {
  int width, height;
  size_t pixels() const { return static_cast<size_t>(width) * height; }
};
constexpr Image kStencilImage[] = {{509, 251}, {2045, 1021}, {16381, 16363}, {23167, 23159}};
// a * x + y: width a multiple of 256, height of 16, and no factor 3, 5, 7, 11 or 13 in the
// product, so that 1-D sizes such as 12, 20 or 96 leave a partial last group while powers of two
// (up to 256) and 16x16 divide it.
constexpr Image kScaleAddImage[] = {{1024, 272}, {4096, 1088}, {16384, 8192}, {16384, 16384}};
// Barrier kernel: items (odd, no factor 3 or 5: every swept size leaves a partial group), rounds.
constexpr size_t kBarrierItems[] = {16381, 262139, 16777213, 67108859};
constexpr int kBarrierRounds[] = {4, 16, 32, 64};
// Live values: items and value steps per item (steps / LIVE repeats of the loop).
constexpr size_t kLiveItems[] = {size_t(1) << 14, size_t(1) << 18, size_t(1) << 21, size_t(1) << 22};
constexpr int kLiveSteps[] = {256, 2048, 8192, 16384};
constexpr size_t kLiveGroup = 64;  // Arm: the smallest size every kernel can run on Mali
constexpr uint32_t kLiveMultiplier = 0x2545F491u;
constexpr float kScale = 0.75f;  // a of a * x + y: exact on the inputs' multiples of 2^-8

gb::WorkGroup wg2(size_t x, size_t y) { return {x, y, 1, 2}; }
gb::WorkGroup wg1(size_t x) { return {x, 1, 1, 1}; }
const gb::WorkGroup kEdgeShape = wg2(16, 16);
const gb::WorkGroup kHintShape = wg2(8, 8);  // at most the smallest hint (64): else not honoured

// The shapes swept per size class. Size 1 keeps a few (PoCL compiles a kernel per local size);
// the others sweep Arm's range, 4..64 items in multiples of 4, and 96..256.
std::vector<gb::WorkGroup> reqd_shapes(int size_class) {
  if (size_class == 1) return {wg2(16, 16)};
  return {wg2(4, 4), wg2(8, 4), wg2(8, 8), wg2(16, 4), wg2(16, 8), wg2(32, 4), wg2(16, 16), wg2(32, 8), wg2(64, 4)};
}
std::vector<gb::WorkGroup> scale_add_sizes(int size_class) {
  std::vector<gb::WorkGroup> s;
  if (size_class == 1) {
    s = {wg1(12), wg1(256)};
  } else {
    for (size_t n = 4; n <= 64; n += 4) s.push_back(wg1(n));
    for (size_t n : {96, 128, 192, 256}) s.push_back(wg1(n));
  }
  s.push_back({0, 1, 1, 1});  // the driver's choice
  return s;
}
std::vector<gb::WorkGroup> barrier_sizes(int size_class) {
  if (size_class == 1) return {wg1(12), wg1(256)};
  std::vector<gb::WorkGroup> s;
  for (size_t n : {4, 8, 12, 16, 20, 24, 32, 48, 64, 96, 128, 192, 256}) s.push_back(wg1(n));
  return s;
}
// Values kept alive per work item (size 1: the ends and the middle of the range).
std::vector<int> live_counts(int size_class) {
  if (size_class == 1) return {4, 32, 128};
  return {4, 8, 16, 32, 64, 128};
}

// Program keys: the variants are build options of one file.
gb::ProgramKey program(const std::string& options) { return {kFile, options}; }

// How this device runs non-uniform work groups: the build option, or why it cannot.
struct NonUniform {
  std::string option, why_not;
};
NonUniform non_uniform_support() {
  const auto& s = gb::session();
  const std::string& v = s.info().opencl_version;  // "OpenCL 3.0 ..."
  const int major = v.size() > 7 ? v[7] - '0' : 1;
  if (major >= 3) {
    cl_bool supported = CL_FALSE;
    if (s.device().getInfo(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, &supported) != CL_SUCCESS || !supported)
      return {"", "OpenCL 3.0 device without CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT"};
    std::vector<cl_name_version> versions;
    int best = 0;
    if (s.device().getInfo(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &versions) == CL_SUCCESS)
      for (const auto& c : versions) best = std::max(best, static_cast<int>(CL_VERSION_MAJOR(c.version)));
    if (best >= 3) return {"-cl-std=CL3.0", ""};
    if (best == 2) return {"-cl-std=CL2.0", ""};
    return {"", "non-uniform work groups need OpenCL C 2.0 or 3.0, and the device lists neither"};
  }
  if (major == 2) return {"-cl-std=CL2.0", ""};
  if (s.info().has_extension("cl_arm_non_uniform_work_group_size")) return {"-cl-arm-non-uniform-work-group-size", ""};
  return {"", "OpenCL 1.x device without cl_arm_non_uniform_work_group_size (non-uniform groups need OpenCL 2.0+)"};
}

// Warns (stderr) where a kernel allows fewer than 128 items per group: Arm reads that as a kernel
// too complex for the device (registers). Returns the limit.
size_t checked_work_group_limit(const cl::Kernel& kernel, const std::string& what) {
  const size_t limit = gb::session().kernel_work_group_size(kernel);
  if (limit < 128)
    std::fprintf(stderr, "warning: %s: CL_KERNEL_WORK_GROUP_SIZE is %zu, below 128 (register pressure)\n",
                 what.c_str(), limit);
  return limit;
}

// ---- the stencil problem (edges, reqd_size, thread_limit) ---------------------------------------
struct StencilProblem {
  Image image{};
  std::vector<float> input;  // multiples of 2^-8 in [-1, 1]: every stencil value exact in float
  cl::Buffer in;
  std::vector<float> want;   // the reference, made at the first check
};

// Shared by every stencil variant (edges, reqd_size, thread_limit) and shape.
StencilProblem& stencil_problem(int size_class) {
  return gb::cached_problem<StencilProblem>(gb::name_key_without({"", "edge", "attribute", "hint", "wg"}), [&] {
    auto pb = std::make_unique<StencilProblem>();
    pb->image = kStencilImage[size_class - 1];
    pb->input = gb::random_multiples<float>(pb->image.pixels(), 151, -256, 256, 0x1p-8);
    pb->in = gb::upload(pb->input, CL_MEM_READ_ONLY);
    return pb;
  });
}

const std::vector<float>& stencil_reference(StencilProblem& pb) {
  if (pb.want.empty()) pb.want = ref::stencil5(pb.input, pb.image.width, pb.image.height);
  return pb.want;
}

enum class Edge { padded, nonuniform, host };
const gb::Axis<Edge> kEdge{"edge", {{Edge::padded, "padded"}, {Edge::nonuniform, "nonuniform"}, {Edge::host, "host"}}};

struct StencilParams {
  std::string variant;  // edges, reqd_size, thread_limit
  Edge edge = Edge::padded;
  bool reqd = false;
  int hint = 0;         // arm_thread_limit_hint, 0: none
  gb::WorkGroup wg;
  int size_class;
  std::string options;  // build options (non-uniform: the -cl-std this device needs)
};

std::string stencil_options(const StencilParams& p, const std::string& non_uniform_option) {
  std::string o;
  if (p.edge == Edge::padded) o = "-DBOUNDS_CHECK";
  if (p.edge == Edge::nonuniform) o = non_uniform_option;
  if (p.reqd) o += " -DREQD_X=" + std::to_string(p.wg.x) + " -DREQD_Y=" + std::to_string(p.wg.y);
  if (p.hint) o += " -DTHREAD_HINT=" + std::to_string(p.hint);
  return o;
}

struct StencilFixture {
  cl::Kernel kernel;
  cl::Buffer out;
  cl::NDRange global, local;
  int inner_width = 0, inner_height = 0;  // the largest multiples of the shape: the device's share (host edge)
  std::vector<float> host_edge;           // edge:host: the host's pixels, right strip then bottom rows
};

std::unique_ptr<StencilFixture> make_stencil(const StencilParams& p, const StencilProblem& pb) {
  auto fx = std::make_unique<StencilFixture>();
  const Image im = pb.image;
  fx->kernel = gb::session().kernel(program(p.options), "work_group_stencil");
  gb::require_work_group(fx->kernel, p.wg.size());
  fx->out = gb::make_buffer(im.pixels() * sizeof(float));
  fx->local = p.wg.local();
  fx->inner_width = static_cast<int>(im.width / p.wg.x * p.wg.x);
  fx->inner_height = static_cast<int>(im.height / p.wg.y * p.wg.y);
  switch (p.edge) {
    case Edge::padded: fx->global = gb::padded_global(im.width, im.height, 1, p.wg); break;
    case Edge::nonuniform: fx->global = cl::NDRange(im.width, im.height); break;
    case Edge::host:
      fx->global = cl::NDRange(fx->inner_width, fx->inner_height);
      fx->host_edge.resize(im.pixels() - static_cast<size_t>(fx->inner_width) * fx->inner_height);
      break;
  }
  GB_SET_ARGS(fx->kernel, pb.in, fx->out, static_cast<cl_int>(im.width), static_cast<cl_int>(im.height));
  return fx;
}

// The host's share of edge:host, as an application would compute it: the kernel's arithmetic on
// the pixels right of inner_width (rows above inner_height), then every pixel of the rows below.
void stencil_on_host(const std::vector<float>& in, Image im, int inner_width, int inner_height, float* edge) {
  auto at = [&](int x, int y) {
    const float* row = &in[static_cast<size_t>(y) * im.width];
    const float l = row[std::max(x - 1, 0)], r = row[std::min(x + 1, im.width - 1)];
    const float u = in[static_cast<size_t>(std::max(y - 1, 0)) * im.width + x];
    const float d = in[static_cast<size_t>(std::min(y + 1, im.height - 1)) * im.width + x];
    return 0.5f * row[x] + 0.125f * ((l + r) + (u + d));
  };
  for (int y = 0; y < inner_height; ++y)
    for (int x = inner_width; x < im.width; ++x) *edge++ = at(x, y);
  for (int y = inner_height; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) *edge++ = at(x, y);
}

gb::Check verify_stencil(const StencilFixture& fx, const StencilParams& p, StencilProblem& pb) {
  const Image im = pb.image;
  const auto& want = stencil_reference(pb);
  auto device = gb::read_back<float>(fx.out, im.pixels());
  if (p.edge != Edge::host) return gb::check_exact(device, want, "stencil pixels");
  std::vector<float> got(device.begin(), device.end());  // the device's interior, the host's edge
  const float* edge = fx.host_edge.data();
  for (int y = 0; y < im.height; ++y)
    for (int x = y < fx.inner_height ? fx.inner_width : 0; x < im.width; ++x) got[static_cast<size_t>(y) * im.width + x] = *edge++;
  return gb::check_exact(got, want, "stencil pixels (device interior, host edge)");
}

void run_stencil(benchmark::State& state, const StencilParams& p) {
  auto& pb = stencil_problem(p.size_class);
  auto& fx = gb::cached_fixture<StencilFixture>(gb::name_key(), [&] { return make_stencil(p, pb); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); };
  const double pixels = static_cast<double>(pb.image.pixels());
  // edge:host: a unit is the interior kernel (device time) and then the host's edge (host time),
  // one after the other; an application overlapping the two would see at most the larger.
  const gb::Timer device_then_host = [&](int units) {
    const gb::BatchTime t = gb::run_batch(unit, units);
    const double host = gb::host_seconds([&] {
      for (int i = 0; i < units; ++i)
        stencil_on_host(pb.input, pb.image, fx.inner_width, fx.inner_height, fx.host_edge.data());
    });
    return gb::Sample{t.device_seconds + host, t.host_seconds + host};
  };
  auto m = p.edge == Edge::host ? gb::Measurement::timed(device_then_host) : gb::Measurement::device(unit);
  m.work(gb::Work().bytes(8 * pixels).items(pixels))
      .poison(fx.out, pb.image.pixels() * sizeof(float))
      .check([&] { return verify_stencil(fx, p, pb); })
      .counter("width", pb.image.width)
      .counter("height", pb.image.height)
      .counter("edge_pixels", pixels - static_cast<double>(fx.inner_width) * fx.inner_height)  // edge:host: the host's
      .copy_fraction();
  if (p.edge == Edge::host)
    m.poison([&fx] { std::fill(fx.host_edge.begin(), fx.host_edge.end(), NAN); });
  gb::measure(state, m);
}

// ---- scale_add: 1-D and 2-D indexing, 1-D work-group sizes -------------------------------------
struct ScaleAddProblem {
  Image image{};
  std::vector<float> x, y, want;  // multiples of 2^-8 in [-1, 1]: a * x + y exact
  cl::Buffer dx, dy;
};

// Shared by both indexings and every size.
ScaleAddProblem& scale_add_problem(int size_class) {
  return gb::cached_problem<ScaleAddProblem>(gb::name_key_without({"dims", "wg"}), [&] {
    auto pb = std::make_unique<ScaleAddProblem>();
    pb->image = kScaleAddImage[size_class - 1];
    pb->x = gb::random_multiples<float>(pb->image.pixels(), 152, -256, 256, 0x1p-8);
    pb->y = gb::random_multiples<float>(pb->image.pixels(), 153, -256, 256, 0x1p-8);
    pb->dx = gb::upload(pb->x, CL_MEM_READ_ONLY);
    pb->dy = gb::upload(pb->y, CL_MEM_READ_ONLY);
    return pb;
  });
}

struct ScaleAddParams {
  int dims;
  gb::WorkGroup wg;
  int size_class;
  gb::ProgramKey program() const { return ::program(dims == 2 ? "-DDIMS=2" : ""); }
};

struct KernelFixture {
  cl::Kernel kernel;
  cl::Buffer out;
  cl::NDRange global, local;
};

void run_scale_add(benchmark::State& state, const ScaleAddParams& p) {
  auto& pb = scale_add_problem(p.size_class);
  auto& fx = gb::cached_fixture<KernelFixture>(gb::name_key(), [&] {
    auto f = std::make_unique<KernelFixture>();
    f->kernel = gb::session().kernel(p.program(), "work_group_scale_add");
    if (!p.wg.is_auto()) gb::require_work_group(f->kernel, p.wg.size());
    f->out = gb::make_buffer(pb.image.pixels() * sizeof(float));
    f->global = p.dims == 2 ? gb::padded_global(pb.image.width, pb.image.height, 1, p.wg)
                            : gb::padded_global(pb.image.pixels(), 1, 1, p.wg);
    f->local = p.wg.local();
    GB_SET_ARGS(f->kernel, pb.dx, pb.dy, f->out, kScale, static_cast<cl_int>(pb.image.width),
                static_cast<cl_int>(pb.image.height));
    return f;
  });
  const double n = static_cast<double>(pb.image.pixels());
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().bytes(12 * n).items(n))
                         .poison(fx.out, pb.image.pixels() * sizeof(float))
                         .check([&] {
                           if (pb.want.empty()) pb.want = ref::scale_add(kScale, pb.x, pb.y);
                           return gb::check_exact(gb::read_back<float>(fx.out, pb.image.pixels()), pb.want, "a * x + y");
                         })
                         .copy_fraction());
}

// ---- barrier: exchanges in local memory, over work-group sizes -------------------------------------
struct BarrierProblem {
  size_t items = 0;
  int rounds = 0;
  std::vector<uint32_t> input;  // the padded grid: items + 256
  cl::Buffer in;
};

// Shared by every size.
BarrierProblem& barrier_problem(int size_class) {
  return gb::cached_problem<BarrierProblem>(gb::name_key_without({"wg"}), [&] {
    auto pb = std::make_unique<BarrierProblem>();
    pb->items = kBarrierItems[size_class - 1];
    pb->rounds = kBarrierRounds[size_class - 1];
    pb->input = gb::random_vector<uint32_t>(pb->items + 256, 154, 0, 4294967295.0);
    pb->in = gb::upload(pb->input, CL_MEM_READ_ONLY);
    return pb;
  });
}

void run_barrier(benchmark::State& state, const gb::WorkGroup& wg, int size_class) {
  auto& pb = barrier_problem(size_class);
  auto& fx = gb::cached_fixture<KernelFixture>(gb::name_key(), [&] {
    auto f = std::make_unique<KernelFixture>();
    f->kernel = gb::session().kernel(program(""), "work_group_exchange");
    gb::require_work_group(f->kernel, wg.size());
    f->out = gb::make_buffer(pb.items * sizeof(uint32_t));
    f->global = gb::padded_global(pb.items, 1, 1, wg);
    f->local = wg.local();
    GB_SET_ARGS(f->kernel, pb.in, f->out, cl::Local(wg.size() * sizeof(cl_uint)), static_cast<cl_uint>(pb.items),
                static_cast<cl_int>(pb.rounds));
    return f;
  });
  const double items = static_cast<double>(pb.items);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().items(items))
                         .rate("exchanges_per_second", items * pb.rounds)
                         .poison(fx.out, pb.items * sizeof(uint32_t))
                         .check([&] {
                           return gb::check_exact(gb::read_back<uint32_t>(fx.out, pb.items),
                                                  ref::barrier_exchange(pb.input, pb.items, wg.size(), pb.rounds),
                                                  "values after the exchange rounds");
                         })
                         .counter("rounds", pb.rounds)
                         .counter("barriers_per_item", 2.0 * pb.rounds));
}

// ---- live_values: register pressure ---------------------------------------------------------------
gb::ProgramKey live_program(int live) { return program("-DLIVE=" + std::to_string(live)); }
int live_repeats(int live, int size_class) { return kLiveSteps[size_class - 1] / live; }

struct LiveFixture : KernelFixture {
  size_t limit = 0, private_bytes = 0;
};

gb::Check verify_live(const LiveFixture& fx, size_t items, int live, int repeats) {
  const auto all = gb::download<uint32_t>(fx.out, items);
  for (uint32_t v : all)  // the result's top bit is clear: a set one is the poison, never written
    if (v >> 31) return {INFINITY, 0, "live chains (an output left unwritten)"};
  const auto gids = gb::sample_indices(items, 4096);  // a replay costs steps x LIVE per item
  std::vector<uint32_t> got, want;
  for (uint32_t g : gids) {
    got.push_back(all[g]);
    want.push_back(ref::live_chain(g, live, repeats, kLiveMultiplier));
  }
  return gb::check_exact(got, want, "live chains of sampled work items");
}

void run_live(benchmark::State& state, int live, int size_class) {
  const size_t items = kLiveItems[size_class - 1];
  const int repeats = live_repeats(live, size_class);
  auto& fx = gb::cached_fixture<LiveFixture>(gb::name_key(), [&] {
    auto f = std::make_unique<LiveFixture>();
    f->kernel = gb::session().kernel(live_program(live), "work_group_live");
    f->limit = checked_work_group_limit(f->kernel, gb::current_benchmark_name());
    cl_ulong private_bytes = 0;
    GB_CL(f->kernel.getWorkGroupInfo(gb::session().device(), CL_KERNEL_PRIVATE_MEM_SIZE, &private_bytes));
    f->private_bytes = private_bytes;
    gb::require_work_group(f->kernel, kLiveGroup);
    f->out = gb::make_buffer(items * sizeof(uint32_t));
    f->global = cl::NDRange(items);
    f->local = cl::NDRange(kLiveGroup);
    GB_SET_ARGS(f->kernel, f->out, static_cast<cl_uint>(kLiveMultiplier), static_cast<cl_int>(repeats));
    return f;
  });
  const double ops = 2.0 * live * repeats * static_cast<double>(items);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .rate("iop_per_second", ops)
                         .poison(fx.out, items * sizeof(uint32_t))
                         .check([&] { return verify_live(fx, items, live, repeats); })
                         .counter("kernel_work_group_size", static_cast<double>(fx.limit))
                         .counter("private_mem_bytes", static_cast<double>(fx.private_bytes))
                         .counter("wg_limit_below_128", fx.limit < 128 ? 1 : 0));
}

// ---- code paths ------------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  const Image st = kStencilImage[size_class - 1];
  for (const auto& wg : reqd_shapes(size_class)) {
    gb::path_if(paths, st.width % wg.x != 0, "stencil: a partial group at the right edge");
    gb::path_if(paths, st.height % wg.y != 0, "stencil: a partial group at the bottom edge");
  }
  const bool ragged = st.width % kEdgeShape.x != 0 && st.height % kEdgeShape.y != 0;
  gb::path_if(paths, ragged, "edges: the host's right strip and bottom rows");
  gb::path_if(paths, ragged && non_uniform_support().why_not.empty(),
              "edges: non-uniform groups at both edges and the corner");
  const Image sa = kScaleAddImage[size_class - 1];
  for (const auto& wg : scale_add_sizes(size_class))
    gb::path_if(paths, !wg.is_auto() && sa.pixels() % wg.x != 0, "scale_add: a partial last group (1-D)");
  gb::path_if(paths, sa.width % 16 == 0 && sa.height % 16 == 0, "scale_add: whole 16x16 groups (2-D)");
  for (const auto& wg : barrier_sizes(size_class))
    gb::path_if(paths, kBarrierItems[size_class - 1] % wg.x != 0, "barrier: a partial last group (padding items take part)");
  gb::path_if(paths, kBarrierRounds[size_class - 1] >= 2, "barrier: 2+ rounds");
  for (int live : live_counts(size_class)) gb::path_if(paths, live_repeats(live, size_class) >= 2, "live_values: 2+ repeats of the loop");
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
// Shapes outside the default set's (the driver's choice and 256 items) run with --all_sweeps or a filter.
gb::DefaultRun by_default(const gb::WorkGroup& wg) {
  return wg.is_auto() || wg.size() == 256 ? gb::DefaultRun::yes : gb::DefaultRun::no;
}

std::string device_limit_problem(const gb::WorkGroup& wg) {
  const auto& d = gb::session().info();
  if (wg.size() > d.max_work_group_size || wg.x > d.max_work_item_sizes[0] || wg.y > d.max_work_item_sizes[1])
    return "work group above the device's limit of " + std::to_string(d.max_work_group_size);
  return "";
}

// The problems' buffers (bytes) per variant: a problem that does not fit is skipped, never shrunk.
std::string stencil_shortfall(int size_class) {
  const uint64_t bytes = kStencilImage[size_class - 1].pixels() * sizeof(float);
  return gb::memory_shortfall({bytes, bytes});
}

void add_stencil(const std::string& name, const StencilParams& p, gb::DefaultRun by_default_run) {
  if (auto why = device_limit_problem(p.wg); !why.empty()) return gb::skip_variant(name, why);
  if (auto why = stencil_shortfall(p.size_class); !why.empty()) return gb::skip_variant(name, why);
  gb::add_benchmark(name, [p](benchmark::State& st) { run_stencil(st, p); },
                    [p] { return std::vector<gb::ProgramKey>{program(p.options)}; }, by_default_run);
}

void register_work_group() {
  const int size = gb::session().size_class();
  const std::string size_label = std::to_string(size);
  gb::declare_paths("L0/WorkGroup", code_paths);
  auto name = [&](const std::string& variant, const std::string& type,
                  std::vector<std::pair<std::string, std::string>> axes, const gb::WorkGroup& wg) {
    axes.insert(axes.begin(), {{"", variant}, {"type", type}});
    axes.push_back({"wg", wg.label()});
    axes.push_back({"size", size_label});
    return gb::bench_name("L0/WorkGroup", axes);
  };

  // 1. Edges: the bounds check, non-uniform groups, the host.
  const NonUniform non_uniform = non_uniform_support();
  for (Edge e : kEdge.all()) {
    StencilParams p{"edges", e, false, 0, kEdgeShape, size, ""};
    p.options = stencil_options(p, non_uniform.option);
    const std::string n = name("edges", "float", {kEdge.part(e)}, kEdgeShape);
    if (e == Edge::nonuniform && !non_uniform.why_not.empty())
      gb::skip_variant(n, non_uniform.why_not);
    else
      add_stencil(n, p, gb::DefaultRun::yes);
  }
  // 2. reqd_work_group_size off and on, over 2-D shapes (edges padded).
  for (const auto& wg : reqd_shapes(size))
    for (bool reqd : {false, true}) {
      StencilParams p{"reqd_size", Edge::padded, reqd, 0, wg, size, ""};
      p.options = stencil_options(p, "");
      add_stencil(name("reqd_size", "float", {{"attribute", reqd ? "on" : "off"}}, wg), p, by_default(wg));
    }
  // 3, 4. a * x + y: 1-D over sizes (256 and the driver's choice beside 2-D), 2-D at 16x16.
  std::vector<ScaleAddParams> scale_adds;
  for (const auto& wg : scale_add_sizes(size)) scale_adds.push_back({1, wg, size});
  scale_adds.push_back({2, wg2(16, 16), size});
  for (const auto& p : scale_adds) {
    const std::string n = name("scale_add", "float", {{"dims", std::to_string(p.dims)}}, p.wg);
    const uint64_t bytes = kScaleAddImage[size - 1].pixels() * sizeof(float);
    if (auto why = gb::memory_shortfall({bytes, bytes, bytes}); !why.empty()) {
      gb::skip_variant(n, why);
      continue;
    }
    if (auto why = device_limit_problem(p.wg); !why.empty()) {
      gb::skip_variant(n, why);
      continue;
    }
    gb::add_benchmark(n, [p](benchmark::State& st) { run_scale_add(st, p); },
                      [p] { return std::vector<gb::ProgramKey>{p.program()}; }, by_default(p.wg));
  }
  // 4. The barrier kernel over sizes.
  for (const auto& wg : barrier_sizes(size)) {
    const std::string n = name("barrier", "uint", {}, wg);
    const uint64_t bytes = (kBarrierItems[size - 1] + 256) * sizeof(uint32_t);
    if (auto why = gb::memory_shortfall({bytes, bytes}); !why.empty()) {
      gb::skip_variant(n, why);
      continue;
    }
    if (auto why = device_limit_problem(wg); !why.empty()) {
      gb::skip_variant(n, why);
      continue;
    }
    gb::add_benchmark(n, [wg, size](benchmark::State& st) { run_barrier(st, wg, size); },
                      [] { return std::vector<gb::ProgramKey>{program("")}; }, by_default(wg));
  }
  // 5. Live values (each its own configuration: kept in the default run).
  for (int live : live_counts(size))
    gb::add_benchmark(name("live_values", "uint", {{"live", std::to_string(live)}}, wg1(kLiveGroup)),
                      [live, size](benchmark::State& st) { run_live(st, live, size); },
                      [live] { return std::vector<gb::ProgramKey>{live_program(live)}; });
  // 6. cl_arm_thread_limit_hint (edges padded, 8x8).
  const bool hint_supported = gb::session().info().has_extension("cl_arm_thread_limit_hint");
  for (int hint : {64, 128, 256}) {
    StencilParams p{"thread_limit", Edge::padded, false, hint, kHintShape, size, ""};
    p.options = stencil_options(p, "");
    const std::string n = name("thread_limit", "float", {{"hint", std::to_string(hint)}}, kHintShape);
    if (!hint_supported)
      gb::skip_variant(n, "no cl_arm_thread_limit_hint (an Arm Mali extension)");
    else
      add_stencil(n, p, gb::DefaultRun::yes);
  }
}
GB_CASE(register_work_group);

}  // namespace
