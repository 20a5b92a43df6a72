// L0/Enqueue: launch overhead broken down, on in-order and out-of-order queues: host cost of one
// enqueue, dispatch latency, round trip, back-to-back throughput, and frames under sync cadences.
// Items: launches (frames for sync_cadence); times are host clock except dispatch (event spans)
// and host_to_start: from the host's enqueue call to the kernel's START on one clock, the device's,
// read at the call with clGetDeviceAndHostTimer (OpenCL 2.1) where the platform has it.
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/enqueue.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Measure { host_enqueue, dispatch, host_to_start, roundtrip, back_to_back, sync_cadence };
const gb::Axis<Measure> kMeasure{"",
                                 {{Measure::host_enqueue, "host_enqueue"},
                                  {Measure::dispatch, "dispatch"},
                                  {Measure::host_to_start, "host_to_start"},
                                  {Measure::roundtrip, "roundtrip"},
                                  {Measure::back_to_back, "back_to_back"},
                                  {Measure::sync_cadence, "sync_cadence"}}};

constexpr int kStages = 4;       // small kernels per frame
constexpr int kStageSteps = 16;  // STAGE_STEPS

struct Params {
  Measure measure;
  bool out_of_order;
  int cadence;  // sync_cadence: finish after every `cadence` frames
  int size_class;
  // Units one sample may hold: at most 64 or 1024 launches in flight (host_enqueue, back_to_back:
  // a bounded queue depth, so that a deeper queue's back-pressure stays out of the time); 64 or
  // 4096 launches waited for one by one (dispatch, roundtrip: each still meets an idle queue, and
  // a sample of many spans the timer's 1 us tick, which one 7 us dispatch does not; bounded, since
  // a runtime whose dispatch span reads 0 would otherwise calibrate to a million round trips);
  // any number of frames (sync_cadence syncs itself).
  int max_batch() const {
    if (measure == Measure::sync_cadence) return 1 << 20;
    if (measure == Measure::dispatch || measure == Measure::host_to_start || measure == Measure::roundtrip)
      return size_class == 1 ? 64 : 4096;
    return size_class == 1 ? 64 : 1024;
  }
  size_t stage_items() const { return size_class == 1 ? 1024 : 16384; }
  std::string queue_name() const { return out_of_order ? "out_of_order" : "in_order"; }
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  cl::CommandQueue queue;  // the session's in-order queue, or an out-of-order one made here
  cl::Kernel empty;
  std::array<cl::Kernel, kStages> stages;
  cl::Buffer launches, out;
  std::array<cl_uint, 1 + kStages> enqueued{};  // launches the host made since the counters were zeroed

  void enqueue_empty(cl::Event* event = nullptr) {
    GB_CL(queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, event));
    ++enqueued[0];
  }
  void enqueue_frame(size_t items) {
    for (int s = 0; s < kStages; ++s) {
      GB_CL(queue.enqueueNDRangeKernel(stages[s], cl::NullRange, cl::NDRange(items)));
      ++enqueued[1 + s];
    }
  }
};

// The one program of every configuration: built by make_fixture, declared at registration.
gb::ProgramKey program() { return {"l0/enqueue.cl", "-DSTAGE_STEPS=" + std::to_string(kStageSteps)}; }

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  if (p.out_of_order) {
    cl_int err = CL_SUCCESS;
    fx->queue = cl::CommandQueue(s.context(), s.device(),
                                 CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    GB_CL(err);
  } else {
    fx->queue = s.queue();
  }
  fx->launches = gb::make_buffer((1 + kStages) * sizeof(cl_uint));
  GB_CL(fx->queue.enqueueFillBuffer(fx->launches, cl_uint(0), 0, (1 + kStages) * sizeof(cl_uint)));
  fx->out = gb::make_buffer(kStages * p.stage_items() * sizeof(float));
  GB_CL(fx->queue.enqueueFillBuffer(fx->out, cl_uchar(0xFF), 0, kStages * p.stage_items() * sizeof(float)));
  fx->empty = s.kernel(program(), "enqueue_empty");
  GB_SET_ARGS(fx->empty, fx->launches);
  for (int st = 0; st < kStages; ++st) {
    // One kernel object per stage, its arguments set once: the loop only enqueues.
    fx->stages[st] = s.kernel(program(), "enqueue_stage");
    GB_SET_ARGS(fx->stages[st], fx->out, fx->launches, static_cast<cl_uint>(st));
  }
  GB_CL(gb::finish(fx->queue));
  // Warm-up, outside any timing: first launches pay for code upload and lazy set-up.
  for (int i = 0; i < 4; ++i) fx->enqueue_empty();
  fx->enqueue_frame(p.stage_items());
  GB_CL(gb::finish(fx->queue));
  return fx;
}

gb::Check verify(Fixture& fx, const Params& p) {
  gb::DeviceWait device_wait;  // the finish and the blocking reads (support/watchdog)
  GB_CL(gb::finish(fx.queue));
  std::vector<cl_uint> got(1 + kStages);
  GB_CL(fx.queue.enqueueReadBuffer(fx.launches, CL_TRUE, 0, got.size() * sizeof(cl_uint), got.data()));
  std::vector<cl_uint> want(fx.enqueued.begin(), fx.enqueued.end());
  std::vector<gb::Check> checks{gb::check_exact(got, want, "launch counts")};
  if (p.measure == Measure::sync_cadence) {
    std::vector<float> out(kStages * p.stage_items());
    GB_CL(fx.queue.enqueueReadBuffer(fx.out, CL_TRUE, 0, out.size() * sizeof(float), out.data()));
    // The device may contract x * 0.75 + 0.5 into one fma.
    checks.push_back(gb::check_max_relative(out, ref::enqueue_stage_outputs(kStages, p.stage_items(), kStageSteps),
                                        1e-6, "stage outputs"));
  }
  return gb::worst(checks);
}

double span_seconds(const cl::Event& e, cl_profiling_info from, cl_profiling_info to) {
  cl_ulong a = 0, b = 0;
  GB_CL(e.getProfilingInfo(from, &a));
  GB_CL(e.getProfilingInfo(to, &b));
  return b > a ? (b - a) * 1e-9 : 0.0;
}

// ---- the benchmark -------------------------------------------------------------------------
// Each measure times its units itself: the enqueue calls alone (host_enqueue), an event span
// (dispatch), or the host clock to the finish; a sample's whole host time goes to the time limit.
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  // Side quantities, summed over every launch the timer made and averaged once it is done.
  double queued_to_submit = 0, submit_to_start = 0, start_to_end = 0, device_span = 0;
  double dispatched = 0, spanned = 0;  // launches behind the dispatch spans and the device span

  const gb::Timer timer = [&](int units) -> gb::Sample {
    const auto t0 = clock::now();
    switch (p.measure) {
      case Measure::host_enqueue: {  // the enqueue calls alone; the finish is outside the time
        for (int i = 0; i < units; ++i) fx.enqueue_empty();
        const auto t1 = clock::now();
        GB_CL(gb::finish(fx.queue));
        return {seconds(t0, t1), seconds(t0, clock::now())};
      }
      case Measure::dispatch: {  // each launch on an idle queue; the time is its QUEUED -> START span
        double span = 0;
        for (int i = 0; i < units; ++i) {
          cl::Event e;
          fx.enqueue_empty(&e);
          GB_CL(gb::finish(fx.queue));
          span += span_seconds(e, CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_START);
          queued_to_submit += span_seconds(e, CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT);
          submit_to_start += span_seconds(e, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START);
          start_to_end += span_seconds(e, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END);
        }
        dispatched += units;
        return {span, seconds(t0, clock::now())};
      }
      case Measure::host_to_start: {  // the device clock at the enqueue call, to the kernel's START
        double span = 0;
        for (int i = 0; i < units; ++i) {
          cl_ulong device_now = 0, host_now = 0;
          GB_CL(clGetDeviceAndHostTimer(gb::session().device()(), &device_now, &host_now));
          cl::Event e;
          fx.enqueue_empty(&e);
          GB_CL(gb::finish(fx.queue));
          cl_ulong start = 0;
          GB_CL(e.getProfilingInfo(CL_PROFILING_COMMAND_START, &start));
          span += start > device_now ? (start - device_now) * 1e-9 : 0.0;
        }
        return {span, seconds(t0, clock::now())};
      }
      case Measure::roundtrip: {
        for (int i = 0; i < units; ++i) {
          fx.enqueue_empty();
          GB_CL(gb::finish(fx.queue));
        }
        return {seconds(t0, clock::now()), 0};
      }
      case Measure::back_to_back: {  // enqueue all, finish once
        cl::Event first, last;
        for (int i = 0; i < units; ++i) fx.enqueue_empty(i == 0 ? &first : i == units - 1 ? &last : nullptr);
        GB_CL(gb::finish(fx.queue));
        const double host = seconds(t0, clock::now());
        if (!p.out_of_order && units > 1) {
          cl_ulong a = 0, b = 0;
          GB_CL(first.getProfilingInfo(CL_PROFILING_COMMAND_START, &a));
          GB_CL(last.getProfilingInfo(CL_PROFILING_COMMAND_END, &b));
          device_span += b > a ? (b - a) * 1e-9 : 0.0;
          spanned += units - 1;
        }
        return {host, 0};
      }
      case Measure::sync_cadence: {  // the same stream of frames, synchronised every `cadence`
        // Whole cadences only: `units` frames are given their share of the time of those.
        const int frames = (units + p.cadence - 1) / p.cadence * p.cadence;
        for (int f = 0; f < frames; ++f) {
          fx.enqueue_frame(p.stage_items());
          if ((f + 1) % p.cadence == 0) GB_CL(gb::finish(fx.queue));
        }
        const double host = seconds(t0, clock::now());
        return {host * units / frames, host};
      }
    }
    return {};
  };

  gb::Measurement m = gb::Measurement::timed(timer)
                          .work(gb::Work().items(1))
                          .max_batch(p.max_batch())
                          .check([&] { return verify(fx, p); });
  // The stage outputs are poisoned (the queue is idle after set-up); the launch counters count
  // from zero since set-up, as the host does, and are checked against the host's count.
  if (p.measure == Measure::sync_cadence)
    m.counter("kernels_per_frame", kStages).poison(fx.out, kStages * p.stage_items() * sizeof(float));
  else
    m.no_poison("only the launch counters are checked: they count from zero since set-up, as the host does");
  gb::measure(state, m);

  if (p.measure == Measure::dispatch && dispatched > 0) {
    state.counters["queued_to_submit_s"] = queued_to_submit / dispatched;
    state.counters["submit_to_start_s"] = submit_to_start / dispatched;
    state.counters["start_to_end_s"] = start_to_end / dispatched;
  }
  if (p.measure == Measure::back_to_back && spanned > 0)
    state.counters["device_seconds_per_kernel"] = device_span / spanned;
}

// ---- registration ----------------------------------------------------------------------------
// Why clGetDeviceAndHostTimer cannot serve here, or "" where it can (NVIDIA's and PoCL's OpenCL
// answer CL_INVALID_OPERATION).
std::string device_and_host_timer_missing() {
  cl_ulong device_now = 0, host_now = 0;
  const cl_int err = clGetDeviceAndHostTimer(gb::session().device()(), &device_now, &host_now);
  if (err != CL_SUCCESS) return std::string("clGetDeviceAndHostTimer answers ") + gb::cl_error_name(err) + " on this platform";
  return device_now ? "" : "clGetDeviceAndHostTimer reads a device clock of 0";
}

bool out_of_order_supported() {
  cl_command_queue_properties props = 0;  // CL_DEVICE_QUEUE_ON_HOST_PROPERTIES in OpenCL 2.0+
  if (clGetDeviceInfo(gb::session().device()(), CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, nullptr) != CL_SUCCESS)
    return false;
  return (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

gb::PathSet code_paths(int, size_t) { return {"host-side launches: no kernel loop or tail"}; }

void register_enqueue() {
  gb::declare_paths("L0/Enqueue", code_paths);
  const int size = gb::session().size_class();
  const bool ooo = out_of_order_supported();
  const std::string no_timer = device_and_host_timer_missing();
  std::vector<Params> all;
  for (bool out_of_order : {false, true}) {
    for (Measure m : {Measure::host_enqueue, Measure::dispatch, Measure::host_to_start, Measure::roundtrip,
                      Measure::back_to_back})
      all.push_back({m, out_of_order, 0, size});
    for (int cadence : {1, 10, 100}) all.push_back({Measure::sync_cadence, out_of_order, cadence, size});
  }
  for (const Params& p : all) {
    const std::string name =
        p.measure == Measure::sync_cadence
            ? gb::bench_name("L0/Enqueue/sync_cadence", {{"every", std::to_string(p.cadence)},
                                                          {"queue", p.queue_name()},
                                                          {"size", std::to_string(size)}})
            : gb::bench_name("L0/Enqueue", {kMeasure.part(p.measure), {"queue", p.queue_name()}, {"size", std::to_string(size)}});
    if (p.out_of_order && !ooo)
      gb::skip_variant(name, "no out-of-order host queues (CL_DEVICE_QUEUE_PROPERTIES)");
    else if (p.measure == Measure::host_to_start && !no_timer.empty())
      gb::skip_variant(name, no_timer);
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [] { return std::vector<gb::ProgramKey>{program()}; });
  }
}
GB_HOST_TIMED_CASE(register_enqueue);

}  // namespace
