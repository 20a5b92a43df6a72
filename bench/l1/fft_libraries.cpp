// L1/FFT/{clfft,vkfft} and L1/FFT2D/{clfft,vkfft}: the problems of L1/FFT and L1/FFT2D run by
// clFFT and VkFFT (OpenCL backend), built in when found at configure time. Work counted as there;
// bytes: one read and one write of the data (the libraries' own passes are not counted).
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include "fft_common.hpp"
#include "gpu_bench.hpp"

#if defined(GPU_BENCH_HAVE_CLFFT)
#include <clFFT.h>
#endif
#if defined(GPU_BENCH_HAVE_VKFFT)
#ifndef VKFFT_BACKEND
#define VKFFT_BACKEND 3  // OpenCL
#endif
#include <vkFFT.h>
#endif

namespace {

#if defined(GPU_BENCH_HAVE_CLFFT) || defined(GPU_BENCH_HAVE_VKFFT)

// ---- the libraries behind one interface -------------------------------------------------------
// Where a plan is made: the session's context and queue, or a build helper's own, which makes the
// run's plans ahead so that their programs load from the driver's cache (support/build_processes).
struct Target {
  cl::Context context;
  cl::Device device;
  cl::CommandQueue queue;
};
Target session_target() { return {gb::session().context(), gb::session().device(), gb::session().queue()}; }
cl::Buffer buffer_in(const Target& t, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(t.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  GB_CL(err);
  return b;
}

// A plan for one problem (both directions), baked outside the timed region; enqueue() puts one
// transform in -> out on the session's queue, out of place, the inverse scaled by 1/N.
class Plan {
 public:
  virtual ~Plan() = default;
  virtual void enqueue(fft::Dir dir, const cl::Buffer& in, const cl::Buffer& out) = 0;
  virtual fft::Accuracy accuracy() const = 0;
};

#if defined(GPU_BENCH_HAVE_CLFFT)
void clfft_check(clfftStatus status, const char* call) {
  if (status != CLFFT_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: clfftStatus " + std::to_string(status) +
                             (status < 0 ? std::string(" (") + gb::cl_error_name(status) + ")" : std::string()));
}
#define CLFFT(call) clfft_check(call, #call)

// clfftSetup once per process, clfftTeardown when the last plan and the process's holder are gone.
struct ClfftLibrary {
  ClfftLibrary() {
    clfftSetupData setup;
    CLFFT(clfftInitSetupData(&setup));
    CLFFT(clfftSetup(&setup));
  }
  ~ClfftLibrary() { clfftTeardown(); }
};
std::shared_ptr<ClfftLibrary> clfft_library() {
  static std::shared_ptr<ClfftLibrary> library = std::make_shared<ClfftLibrary>();
  return library;
}

class ClfftPlan : public Plan {
 public:
  ClfftPlan(const fft::Problem& p, const Target& t) : library_(clfft_library()) {
    size_t lengths[2] = {p.nx, p.ny};
    CLFFT(clfftCreateDefaultPlan(&plan_, t.context(), p.is_2d() ? CLFFT_2D : CLFFT_1D, lengths));
    CLFFT(clfftSetPlanPrecision(plan_, CLFFT_SINGLE));
    CLFFT(clfftSetLayout(plan_, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED));
    CLFFT(clfftSetResultLocation(plan_, CLFFT_OUTOFPLACE));
    CLFFT(clfftSetPlanBatchSize(plan_, p.batch));
    CLFFT(clfftSetPlanDistance(plan_, p.points_per_transform(), p.points_per_transform()));
    // Default scales: forward 1, backward 1/N.
    cl_command_queue queue = t.queue();
    CLFFT(clfftBakePlan(plan_, 1, &queue, nullptr, nullptr));
    size_t tmp_bytes = 0;
    CLFFT(clfftGetTmpBufSize(plan_, &tmp_bytes));
    if (tmp_bytes > 0) tmp_ = buffer_in(t, tmp_bytes);
  }
  ~ClfftPlan() override { clfftDestroyPlan(&plan_); }
  void enqueue(fft::Dir dir, const cl::Buffer& in, const cl::Buffer& out) override {
    cl_command_queue queue = gb::session().queue()();
    cl_mem src = in(), dst = out();
    CLFFT(clfftEnqueueTransform(plan_, dir == fft::Dir::forward ? CLFFT_FORWARD : CLFFT_BACKWARD, 1, &queue, 0,
                                nullptr, nullptr, &src, &dst, tmp_()));
  }
  fft::Accuracy accuracy() const override { return fft::Accuracy::exact_twiddles; }

 private:
  std::shared_ptr<ClfftLibrary> library_;
  clfftPlanHandle plan_ = 0;
  cl::Buffer tmp_;
};
#endif

#if defined(GPU_BENCH_HAVE_VKFFT)
// VkFFT with input and output "formatted" buffers: both directions read inputBuffer and write
// outputBuffer, and `buffer` is its scratch; twiddles on NVIDIA are native_sin/native_cos.
class VkfftPlan : public Plan {
 public:
  VkfftPlan(const fft::Problem& p, const cl::Buffer& in, const cl::Buffer& out, const Target& t)
      : device_(t.device()),
        context_(t.context()),
        scratch_(buffer_in(t, p.bytes())),
        bytes_(p.bytes()) {
    VkFFTConfiguration c = {};
    c.FFTdim = p.is_2d() ? 2 : 1;
    c.size[0] = p.nx;
    c.size[1] = p.ny;
    c.size[2] = 1;
    c.numberBatches = p.batch;
    c.device = &device_;
    c.context = &context_;
    c.normalize = 1;  // inverse scaled by 1/N
    c.isInputFormatted = 1;
    c.isOutputFormatted = 1;
    in_ = in();
    out_ = out();
    scratch_mem_ = scratch_();
    c.inputBuffer = &in_;
    c.inputBufferSize = &bytes_;
    c.outputBuffer = &out_;
    c.outputBufferSize = &bytes_;
    c.buffer = &scratch_mem_;
    c.bufferSize = &bytes_;
    const VkFFTResult r = initializeVkFFT(&app_, c);
    if (r != VKFFT_SUCCESS) throw std::runtime_error("initializeVkFFT failed: VkFFTResult " + std::to_string(r));
    initialized_ = true;
  }
  ~VkfftPlan() override {
    if (initialized_) deleteVkFFT(&app_);
  }
  void enqueue(fft::Dir dir, const cl::Buffer& in, const cl::Buffer& out) override {
    queue_ = gb::session().queue()();
    in_ = in();
    out_ = out();
    VkFFTLaunchParams launch = {};
    launch.commandQueue = &queue_;
    launch.inputBuffer = &in_;
    launch.outputBuffer = &out_;
    launch.buffer = &scratch_mem_;
    const VkFFTResult r = VkFFTAppend(&app_, dir == fft::Dir::forward ? -1 : 1, &launch);
    if (r != VKFFT_SUCCESS) throw std::runtime_error("VkFFTAppend failed: VkFFTResult " + std::to_string(r));
  }
  fft::Accuracy accuracy() const override { return fft::Accuracy::approximate_twiddles; }

 private:
  cl_device_id device_;
  cl_context context_;
  cl_command_queue queue_ = nullptr;
  cl::Buffer scratch_;
  cl_mem in_ = nullptr, out_ = nullptr, scratch_mem_ = nullptr;
  uint64_t bytes_;
  VkFFTApplication app_ = {};
  bool initialized_ = false;
};
#endif

// ---- parameters -------------------------------------------------------------------------------
enum class Library { clfft, vkfft };
const gb::Axis<Library> kLibrary{"", {{Library::clfft, "clfft"}, {Library::vkfft, "vkfft"}}};

// A plan's problem as build helpers are given it: "nx ny batch" (one plan serves both directions).
std::string plan_description(const fft::Problem& p) {
  return std::to_string(p.nx) + " " + std::to_string(p.ny) + " " + std::to_string(p.batch);
}
fft::Problem plan_problem(const std::string& description) {
  fft::Problem p;
  if (std::sscanf(description.c_str(), "%zu %zu %zu", &p.nx, &p.ny, &p.batch) != 3)
    throw std::invalid_argument("FFT plan description: " + description);
  return p;
}

struct Params {
  fft::Problem problem;
  Library library;
  int size_class;
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  fft::Input input;
  cl::Buffer in, out, round_trip;
  std::unique_ptr<Plan> plan;
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->input = fft::make_input(p.problem);
  fx->in = fft::device_input(fx->input, CL_MEM_READ_WRITE);
  fx->out = gb::make_buffer(p.problem.bytes());
  fx->round_trip = gb::make_buffer(p.problem.bytes());
#if defined(GPU_BENCH_HAVE_CLFFT)
  if (p.library == Library::clfft) fx->plan = std::make_unique<ClfftPlan>(p.problem, session_target());
#endif
#if defined(GPU_BENCH_HAVE_VKFFT)
  if (p.library == Library::vkfft) fx->plan = std::make_unique<VkfftPlan>(p.problem, fx->in, fx->out, session_target());
#endif
  return fx;
}

// The same plans made by a build helper, in its own context, and dropped.
#if defined(GPU_BENCH_HAVE_CLFFT)
const bool clfft_plans_ahead =
    gb::register_plan_maker("clfft", [](const cl::Context& c, const cl::Device& d, const std::string& description) {
      ClfftPlan(plan_problem(description), Target{c, d, cl::CommandQueue(c, d)});
    });
#endif
#if defined(GPU_BENCH_HAVE_VKFFT)
const bool vkfft_plans_ahead =
    gb::register_plan_maker("vkfft", [](const cl::Context& c, const cl::Device& d, const std::string& description) {
      const fft::Problem p = plan_problem(description);
      const Target t{c, d, cl::CommandQueue(c, d)};
      VkfftPlan(p, buffer_in(t, p.bytes()), buffer_in(t, p.bytes()), t);
    });
#endif

// ---- verification against reference/fft (Eigen), and the round trip -------------------------
gb::Check verify(Fixture& fx, const Params& p) {
  const auto output = gb::read_back<float>(fx.out, 2 * p.problem.points(), 0);
  fx.plan->enqueue(fft::opposite(p.problem.dir), fx.out, fx.round_trip);
  GB_CL(gb::finish(gb::session().queue()));
  const auto round_trip = gb::read_back<float>(fx.round_trip, 2 * p.problem.points(), 1);
  // The input must have survived the timed runs (out of place means the library may not use it).
  const auto input_after = gb::read_back<float>(fx.in, 2 * p.problem.points(), 2);
  return gb::worst({fft::check_all(p.problem, *fx.input, output, round_trip, fx.plan->accuracy()),
                    gb::check_exact(input_after, *fx.input, "input left unchanged")});
}

// ---- the benchmark ---------------------------------------------------------------------------
// The libraries return no event for their kernels: a marker before and after each recorded unit
// brackets them (first unit's START to last unit's END).
void mark(gb::Batch& b) {
  if (cl::Event* e = b.event_slot()) {
    GB_CL(b.queue().enqueueMarkerWithWaitList(nullptr, e));
    b.recorded();
  }
}

void run(benchmark::State& state, const Params& p) {
  // The fixture (buffers and a plan for both directions) is shared by a problem's forward and
  // inverse benchmarks, registered one after the other: one plan (and its compiles) per size.
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key_without({"dir"}), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) {
    mark(b);
    fx.plan->enqueue(p.problem.dir, fx.in, fx.out);
    mark(b);
  };
  gb::measure(state, fft::with_work(gb::Measurement::device(unit), p.problem, 0)
                         .poison(fx.out, p.problem.bytes())
                         .check([&] { return verify(fx, p); }));
}

// ---- registration ----------------------------------------------------------------------------
void add(const Params& p) {
  const std::string name = fft::name(kLibrary.label(p.library), p.problem, p.size_class);
  if (auto why = fft::too_large(p.problem, 4); !why.empty()) return gb::skip_variant(name, why);
  gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, [p] {
    return std::vector<gb::ProgramKey>{gb::plan_key(kLibrary.label(p.library), plan_description(p.problem))};
  });
}

void register_fft_libraries() {
  const int size = gb::session().size_class();
  std::vector<Library> libraries;
#if defined(GPU_BENCH_HAVE_CLFFT)
  libraries.push_back(Library::clfft);
#endif
#if defined(GPU_BENCH_HAVE_VKFFT)
  libraries.push_back(Library::vkfft);
#endif
  for (Library lib : libraries) {
    for (size_t n : fft::lengths_1d(size))
      for (fft::Dir dir : fft::kDir.all()) add(Params{fft::problem_1d(n, dir, size), lib, size});
    for (size_t n : fft::sizes_2d(size))
      for (fft::Dir dir : fft::kDir.all()) add(Params{fft::problem_2d(n, dir), lib, size});
  }
}
GB_CASE(register_fft_libraries);

#endif  // any library

}  // namespace
