// L0/Interference: a memory-bound reference kernel measured while other work competes for the
// device or the memory (seed: the context-switch experiment, where a UI context's events slowed a
// 2-D FFT in proportion to their number). Competitors: `context`, another process with its own
// OpenCL context on the same device launching a small kernel 100 to 10000 times a second;
// `thread_context`, the same from a thread of this process with a context of its own;
// `host_copy`, a host thread streaming memcpy through buffers past the last-level cache at a share
// of its own full rate; `alone`, the baseline. Bytes: N x 4 per pass, plus 4 per work item.
//
// Why a process first: a UI is another process, and within one process two contexts share the
// runtime (PoCL's worker threads, a driver's locks), so part of the slowdown may be the runtime
// serialising its own calls; the thread variant is there for devices that admit one process only
// (a GPU in an exclusive compute mode). The process is gpu_bench started again
// (support/child_process: an OpenCL runtime does not survive a fork); it dies with this one.
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "gpu_bench.hpp"
#include "reference/interference.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Competitor { alone, context, thread_context, host_copy };
const gb::Axis<Competitor> kCompetitor{"",
                                       {{Competitor::alone, "alone"},
                                        {Competitor::context, "context"},
                                        {Competitor::thread_context, "thread_context"},
                                        {Competitor::host_copy, "host_copy"}}};

struct Params {
  Competitor competitor;
  int level;  // context: launches per second; host_copy: percent of the thread's full copy rate
  int size_class;
};

// The reference kernel's problem: N elements (a power of two; from size 2 past a GPU's L2), 16 per
// work item and pass, and passes enough for a few ms at size 3 (8 GiB read).
struct Problem {
  size_t n, items;
  unsigned passes;
  unsigned shift = 4128;  // elements each pass starts further on: 129 x 128 bytes, aligned runs
  double bytes() const { return 4.0 * n * passes + 4.0 * items; }
};
Problem problem(int size) {
  switch (size) {
    case 1: return {size_t(1) << 20, size_t(1) << 16, 8};
    case 2: return {size_t(1) << 24, size_t(1) << 20, 16};
    case 3: return {size_t(1) << 26, size_t(1) << 22, 32};
    default: return {size_t(1) << 27, size_t(1) << 23, 32};
  }
}
constexpr size_t kGroup = 256;
constexpr size_t kTickItems = 256;  // the competitor kernel's counters

gb::ProgramKey program() { return {"l0/interference.cl", ""}; }

// ---- set-up: the reference kernel, shared by every competitor ---------------------------------
struct Fixture {
  Problem pb;
  std::vector<uint32_t> input;
  std::optional<std::vector<uint32_t>> want;  // the host reference, computed at the first check
  cl::Buffer in, out;
  cl::Kernel kernel;
};

std::unique_ptr<Fixture> make_fixture(int size) {
  auto fx = std::make_unique<Fixture>();
  fx->pb = problem(size);
  fx->input = gb::random_vector<uint32_t>(fx->pb.n, 0x1f7e + size, 0, 4294967295.0);
  fx->in = gb::upload(fx->input, CL_MEM_READ_ONLY);
  fx->out = gb::make_buffer(fx->pb.items * sizeof(uint32_t));
  fx->kernel = gb::session().kernel(program(), "interference_stream");
  gb::require_work_group(fx->kernel, kGroup);
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, static_cast<cl_uint>(fx->pb.n - 1), static_cast<cl_uint>(fx->pb.passes),
              static_cast<cl_uint>(fx->pb.shift));
  return fx;
}

gb::Check verify(Fixture& fx) {
  if (!fx.want) fx.want = ref::interference_stream(fx.input, fx.pb.items, fx.pb.passes, fx.pb.shift);
  return gb::check_exact(gb::read_back<uint32_t>(fx.out, fx.pb.items), *fx.want, "reference kernel's folds");
}

// The reference kernel as a measurement: what every benchmark of the family times.
gb::Measurement reference(Fixture& fx) {
  return gb::Measurement::device([&fx](gb::Batch& b) {
           b.launch(fx.kernel, cl::NDRange(fx.pb.items), cl::NDRange(kGroup));
         })
      .work(gb::Work().bytes(fx.pb.bytes()).items(static_cast<double>(fx.pb.n) * fx.pb.passes))
      .poison(fx.out, fx.pb.items * sizeof(uint32_t));
}

// The kernel's median time alone, once per size: `alone` records its own; a competitor's benchmark
// run without it (a filter) measures it first. Every benchmark of the family shares it: keyed by
// the name without the competitor and its level.
struct Baseline {
  double seconds;
};
std::string baseline_key() { return gb::name_key_without({"", "rate", "share"}); }
double baseline_seconds(Fixture& fx) {
  return gb::cached_host<const Baseline>(baseline_key(), [&] {
           return std::make_shared<const Baseline>(Baseline{gb::median_unit_seconds(reference(fx))});
         })->seconds;
}

// ---- competitor: another context launching small kernels ------------------------------------------
// What the competitor did: launches, seconds, and its counters (each must have seen every launch).
struct Ticks {
  uint64_t launches = 0;
  double seconds = 0;
  std::vector<cl_uint> counts;
};

// Opens a context of its own on `device`, builds interference_tick, calls ready(), then launches it
// `rate` times a second, each launch waited for (an event, as a UI's frame is presented), until
// stop() says so. Returns the reason it cannot run (empty when it ran).
std::string run_ticks(const cl::Device& device, double rate, const std::function<void()>& ready,
                      const std::function<bool()>& stop, Ticks& out) {
  cl_int err = CL_SUCCESS;
  cl::Context context(device, nullptr, nullptr, nullptr, &err);
  if (err != CL_SUCCESS)  // e.g. a GPU in an exclusive compute mode: one context at a time
    return std::string("a second context cannot be opened on this device (") + gb::cl_error_name(err) + ")";
  cl::CommandQueue queue(context, device, 0, &err);
  GB_CL(err);
  cl::Program built(context, gb::kernel_source(program().file));
  if (built.build({device}) != CL_SUCCESS)
    throw std::runtime_error("build failed: " + built.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
  cl::Kernel tick(built, "interference_tick", &err);
  GB_CL(err);
  cl::Buffer counts(context, CL_MEM_READ_WRITE, kTickItems * sizeof(cl_uint), nullptr, &err);
  GB_CL(err);
  GB_SET_ARGS(tick, counts);
  GB_CL(queue.enqueueFillBuffer(counts, cl_uint(0), 0, kTickItems * sizeof(cl_uint)));
  GB_CL(queue.enqueueNDRangeKernel(tick, cl::NullRange, cl::NDRange(kTickItems)));  // code upload, not counted
  GB_CL(queue.enqueueFillBuffer(counts, cl_uint(0), 0, kTickItems * sizeof(cl_uint)));
  GB_CL(queue.finish());
  ready();

  using clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC
  const auto period = std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(1.0 / rate));
  const auto start = clock::now();
  auto next = start;
  uint64_t launches = 0;
  while (!stop()) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(next.time_since_epoch()).count();
    const timespec due{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nullptr) != 0) continue;  // a signal: look again
    GB_CL(queue.enqueueNDRangeKernel(tick, cl::NullRange, cl::NDRange(kTickItems)));
    GB_CL(queue.finish());
    ++launches;
    // A launch that came late does not make the next ones come early: the rate is at most `rate`.
    next = std::max(next + period, clock::now() - period);
  }
  out.seconds = std::chrono::duration<double>(clock::now() - start).count();
  out.launches = launches;
  out.counts.assign(kTickItems, 0);
  GB_CL(queue.enqueueReadBuffer(counts, CL_TRUE, 0, out.counts.size() * sizeof(cl_uint), out.counts.data()));
  return "";
}

// Each counter saw every launch.
gb::Check check_ticks(const Ticks& t) {
  return gb::check_exact(t.counts, std::vector<cl_uint>(kTickItems, static_cast<cl_uint>(t.launches)),
                         "competitor's counters (one per launch)");
}

// `context`: another process (gpu_bench started again). The child finds the parent's device by its
// number and name, says "ready", ticks until the parent's SIGTERM, then writes "done <launches>
// <seconds> <counters...>"; "unsupported: <why>" where it cannot (a device that a second process
// does not see or cannot open: a GPU in an exclusive compute mode).
int context_child(const std::vector<std::string>& args) {
  if (args.size() != 3) throw std::invalid_argument("interference_context: DEVICE_NUMBER DEVICE_LABEL RATE");
  const size_t number = std::stoul(args[0]);
  const double rate = std::stod(args[2]);
  prctl(PR_SET_TIMERSLACK, 1UL);  // the default 50 us of slack is half the period at 10000/s
  const auto devices = gb::enumerate_devices();
  auto unsupported = [](const std::string& why) {
    std::printf("unsupported: %s\n", why.c_str());
    std::fflush(stdout);
    return 0;
  };
  if (number < 1 || number > devices.size() || gb::device_label(devices[number - 1].info) != args[1])
    return unsupported("a second process does not see " + args[1] + " as device " + args[0] +
                       " while this one holds it (it sees " + std::to_string(devices.size()) + " devices" +
                       (number >= 1 && number <= devices.size() ? ", number " + args[0] + " being " +
                                                                      gb::device_label(devices[number - 1].info)
                                                                : std::string()) +
                       "; an exclusive compute mode, or a machine that lends the GPU to one process)");
  Ticks t;
  const std::string why = run_ticks(
      devices[number - 1].device, rate, [] { std::printf("ready\n"), std::fflush(stdout); },
      [] { return gb::child_stop_requested(); }, t);
  if (!why.empty()) return unsupported(why);
  std::printf("done %llu %.9f", static_cast<unsigned long long>(t.launches), t.seconds);
  for (cl_uint c : t.counts) std::printf(" %u", c);
  std::printf("\n");
  std::fflush(stdout);
  return 0;
}
GB_CHILD_ENTRY("interference_context", context_child);

// The parent's side: starts the child (and waits for "ready") and stops it, keeping what it did.
class ProcessCompetitor {
 public:
  explicit ProcessCompetitor(int rate) : rate_(rate) {}
  void start() {
    const size_t number = gb::device_number(gb::session().device());
    if (number == 0) throw std::runtime_error("the session's device is not in the device list");
    child_.emplace("interference_context", std::vector<std::string>{std::to_string(number),
                                                                    gb::device_label(gb::session().info()),
                                                                    std::to_string(rate_)});
    const std::string line = child_->read_line(120);  // a cold compiler takes seconds on PoCL
    if (line.rfind("unsupported: ", 0) == 0) throw gb::Unsupported(line.substr(13));
    if (line != "ready") throw std::runtime_error("competitor process: " + line);
  }
  void stop() {
    const int code = child_->stop();
    if (code != 0) throw std::runtime_error("the competitor process exited with code " + std::to_string(code));
    std::istringstream done(child_->read_line(5));
    std::string word;
    unsigned long long launches = 0;
    done >> word >> launches >> ticks_.seconds;
    if (word != "done") throw std::runtime_error("competitor process: " + done.str());
    ticks_.launches = launches;
    ticks_.counts.clear();
    for (cl_uint c; done >> c;) ticks_.counts.push_back(c);
  }
  const Ticks& ticks() const { return ticks_; }

 private:
  int rate_;
  std::optional<gb::ChildProcess> child_;
  Ticks ticks_;
};

// `thread_context`: a thread of this process with a context of its own: the same ticks without a
// second process (where a GPU's exclusive compute mode allows one process only), and with the
// runtime shared between the two contexts.
class ThreadCompetitor {
 public:
  explicit ThreadCompetitor(int rate) : rate_(rate) {}
  ~ThreadCompetitor() { halt(); }
  void start() {
    stop_ = false;
    ready_ = false;
    thread_ = std::thread([this] {
      try {
        why_not_ = run_ticks(gb::session().device(), rate_, [this] { signal_ready(); },
                             [this] { return stop_.load(std::memory_order_relaxed); }, ticks_);
      } catch (...) {
        failure_ = std::current_exception();
      }
      signal_ready();  // also when it ended early
    });
    std::unique_lock<std::mutex> lock(mutex_);
    ready_cv_.wait(lock, [this] { return ready_; });
    if (failure_ || !why_not_.empty()) {
      halt();
      if (failure_) std::rethrow_exception(failure_);
      throw gb::Unsupported(why_not_);
    }
  }
  void stop() {
    halt();
    if (failure_) std::rethrow_exception(failure_);
  }
  const Ticks& ticks() const { return ticks_; }

 private:
  void signal_ready() {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_ = true;
    ready_cv_.notify_all();
  }
  void halt() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int rate_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable ready_cv_;
  bool ready_ = false;
  std::string why_not_;          // written by the thread before it signals or ends
  std::exception_ptr failure_;
  Ticks ticks_;
  std::thread thread_;
};

// ---- competitor: a host thread streaming memory ---------------------------------------------------
// Source and destination each as large as the last-level cache (so together they stream from
// memory; at least 32 MiB, at most 1 GiB), copied 1 MiB at a time; the thread's full rate is
// measured once, copying as fast as it can for 0.2 s before any benchmark of the family uses it.
constexpr size_t kChunk = size_t(1) << 20;
struct HostBuffers {
  std::vector<uint32_t> src, dst;
  double full_rate = 0;  // bytes per second
  size_t bytes() const { return src.size() * sizeof(uint32_t); }
};
size_t host_buffer_bytes() {
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
  const size_t bytes = std::clamp<size_t>(llc > 0 ? static_cast<size_t>(llc) : 0, size_t(32) << 20, size_t(1) << 30);
  return (bytes + kChunk - 1) / kChunk * kChunk;
}
std::shared_ptr<HostBuffers> host_buffers() {  // shared by every share of host_copy
  const size_t bytes = host_buffer_bytes();
  return gb::cached_host<HostBuffers>(gb::name_key_without({"share"}), [&] {
    auto b = std::make_shared<HostBuffers>();
    b->src = gb::random_vector<uint32_t>(bytes / sizeof(uint32_t), 0x5eed, 0, 4294967295.0);
    b->dst = gb::random_vector<uint32_t>(bytes / sizeof(uint32_t), 0xd57, 0, 4294967295.0);
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    size_t copied = 0;
    char* dst = reinterpret_cast<char*>(b->dst.data());
    const char* src = reinterpret_cast<const char*>(b->src.data());
    while (clock::now() - start < std::chrono::milliseconds(200)) {
      std::memcpy(dst + copied % bytes, src + copied % bytes, kChunk);
      copied += kChunk;
    }
    b->full_rate = static_cast<double>(copied) / std::chrono::duration<double>(clock::now() - start).count();
    return b;
  });
}

class HostCopyCompetitor {
 public:
  HostCopyCompetitor(std::shared_ptr<HostBuffers> buffers, int percent) : b_(std::move(buffers)), percent_(percent) {}
  ~HostCopyCompetitor() { halt(); }
  void start() {
    std::memset(b_->dst.data(), 0xFF, b_->bytes());  // a chunk the thread never copied shows
    stop_ = false;
    copied_ = 0;
    started_ = clock::now();
    thread_ = std::thread([this] { copy(); });
  }
  void stop() {
    halt();
    seconds_ = std::chrono::duration<double>(clock::now() - started_).count();
  }
  double bytes_per_second() const { return seconds_ > 0 ? static_cast<double>(copied_) / seconds_ : 0; }
  double share() const { return bytes_per_second() / b_->full_rate; }
  // Every chunk the thread copied (all of them once it went round) equals its source.
  gb::Check check() const {
    const size_t chunks = std::min(copied_ / kChunk, b_->bytes() / kChunk);
    const auto* dst = reinterpret_cast<const char*>(b_->dst.data());
    const auto* src = reinterpret_cast<const char*>(b_->src.data());
    std::vector<int> equal(chunks);
    for (size_t k = 0; k < chunks; ++k) equal[k] = std::memcmp(dst + k * kChunk, src + k * kChunk, kChunk) == 0;
    return gb::check_exact(equal, std::vector<int>(chunks, 1), "host copy's chunks against their source");
  }

 private:
  using clock = std::chrono::steady_clock;
  void copy() {
    const size_t bytes = b_->bytes();
    char* dst = reinterpret_cast<char*>(b_->dst.data());
    const char* src = reinterpret_cast<const char*>(b_->src.data());
    const double rate = b_->full_rate * percent_ / 100.0;
    size_t copied = 0;
    while (!stop_.load(std::memory_order_relaxed)) {
      std::memcpy(dst + copied % bytes, src + copied % bytes, kChunk);
      copied += kChunk;
      if (percent_ < 100)  // paced: chunk k starts no earlier than k chunks at `rate`
        std::this_thread::sleep_until(started_ + std::chrono::duration_cast<clock::duration>(
                                                     std::chrono::duration<double>(copied / rate)));
    }
    copied_ = copied;
  }
  void halt() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  std::shared_ptr<HostBuffers> b_;
  int percent_;
  std::atomic<bool> stop_{false};
  size_t copied_ = 0;  // written by the thread before it ends, read after the join
  clock::time_point started_;
  double seconds_ = 0;
  std::thread thread_;
};

// ---- the benchmark ---------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  // One fixture (the reference kernel and its buffers) for the whole family.
  auto& fx = gb::cached_problem<Fixture>(gb::name_key_without({"", "rate", "share"}),
                                         [&] { return make_fixture(p.size_class); });
  const double baseline = p.competitor == Competitor::alone ? 0 : baseline_seconds(fx);
  std::optional<ProcessCompetitor> context;
  std::optional<ThreadCompetitor> thread_context;
  std::optional<HostCopyCompetitor> host_copy;
  gb::Measurement m = reference(fx);
  if (p.competitor == Competitor::context) {
    context.emplace(p.level);
    m.while_running([&] { context->start(); }, [&] { context->stop(); });
  } else if (p.competitor == Competitor::thread_context) {
    thread_context.emplace(p.level);
    m.while_running([&] { thread_context->start(); }, [&] { thread_context->stop(); });
  } else if (p.competitor == Competitor::host_copy) {
    host_copy.emplace(host_buffers(), p.level);
    m.while_running([&] { host_copy->start(); }, [&] { host_copy->stop(); });
  }
  m.check([&] {
    if (context) return gb::worst({verify(fx), check_ticks(context->ticks())});
    if (thread_context) return gb::worst({verify(fx), check_ticks(thread_context->ticks())});
    if (host_copy) return gb::worst({verify(fx), host_copy->check()});
    return verify(fx);
  });
  const gb::Result r = gb::measure(state, m);

  const double base = p.competitor == Competitor::alone
                          ? gb::cached_host<const Baseline>(baseline_key(), [&] {
                              return std::make_shared<const Baseline>(Baseline{r.unit_seconds});
                            })->seconds
                          : baseline;
  state.counters["slowdown"] = r.unit_seconds / base;
  state.counters["baseline_seconds"] = base;
  const Ticks* ticks = context ? &context->ticks() : thread_context ? &thread_context->ticks() : nullptr;
  if (ticks) state.counters["competitor_launch_rate"] = ticks->seconds > 0 ? ticks->launches / ticks->seconds : 0;
  if (host_copy) {
    state.counters["competitor_copy_rate"] = host_copy->bytes_per_second();
    state.counters["competitor_share"] = host_copy->share();
  }
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int size, size_t) {
  const Problem pb = problem(size);
  gb::PathSet paths{"tick: one launch of " + std::to_string(kTickItems) + " counters"};
  gb::path_if(paths, pb.n % pb.items == 0, "stream: every work item the same number of steps");
  gb::path_if(paths, pb.n % pb.items != 0, "stream: a ragged last step");
  gb::path_if(paths, pb.passes > 1, "stream: 2+ passes");
  return paths;
}

void register_interference() {
  gb::declare_paths("L0/Interference", code_paths);
  const int size = gb::session().size_class();
  struct Point {
    Competitor competitor;
    int level;
    bool by_default;
  };
  // `alone` first: it records the baseline the others compare with. By default one point of the
  // context curve (the rest, and the host's memory traffic, with a filter: about 1 s each).
  const Point points[] = {{Competitor::alone, 0, true},
                          {Competitor::context, 100, false},
                          {Competitor::context, 1000, true},
                          {Competitor::context, 10000, false},
                          {Competitor::thread_context, 100, false},
                          {Competitor::thread_context, 1000, true},
                          {Competitor::thread_context, 10000, false},
                          {Competitor::host_copy, 25, false},
                          {Competitor::host_copy, 50, false},
                          {Competitor::host_copy, 100, false}};
  for (const Point& pt : points) {
    std::vector<std::pair<std::string, std::string>> axes{kCompetitor.part(pt.competitor)};
    if (pt.competitor == Competitor::context || pt.competitor == Competitor::thread_context)
      axes.emplace_back("rate", std::to_string(pt.level));
    if (pt.competitor == Competitor::host_copy) axes.emplace_back("share", std::to_string(pt.level));
    axes.emplace_back("size", std::to_string(size));
    const Params p{pt.competitor, pt.level, size};
    gb::add_benchmark(gb::bench_name("L0/Interference", axes), [p](benchmark::State& st) { run(st, p); },
                      [] { return std::vector<gb::ProgramKey>{program()}; },
                      pt.by_default ? gb::DefaultRun::yes : gb::DefaultRun::no);
  }
}
GB_CASE(register_interference);

}  // namespace
