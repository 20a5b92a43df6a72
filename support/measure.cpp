// The measurement engine: calibration, sampling to the stopping rule, poison, check, counters.
#include "measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>

#include "interrupt.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "registry.hpp"
#include "sample_stats.hpp"
#include "buffers.hpp"
#include "copy_bandwidth.hpp"
#include "environment.hpp"
#include "fleet_link.hpp"
#include "session.hpp"

namespace gb {

Measurement Measurement::device(Unit unit) {
  Measurement m;
  m.device_clock_ = true;
  // The lead of each batch is three times the previous batch's enqueue time per unit, times this
  // batch's units: the runtime pushes the gated units to the device more slowly than they were
  // enqueued, and a lead of once the enqueue time let the device catch up with it in a share of
  // the batches of launch-bound units (2-D FFTs of 256^2 on the H200: 5-25% noise, times up to
  // 40% long; with 3x, 0.01-0.1% and the back-to-back time).
  constexpr double kLeadOverEnqueue = 3;
  auto enqueue_per_unit = std::make_shared<double>(0);
  m.timer_ = [unit = std::move(unit), enqueue_per_unit](int units) {
    const BatchTime t = run_batch(unit, units, kLeadOverEnqueue * *enqueue_per_unit * units);
    *enqueue_per_unit = t.enqueue_seconds / units;
    return Sample{t.device_seconds, t.host_seconds};
  };
  return m;
}

Measurement Measurement::host(HostWork work) {
  Measurement m;
  m.timer_ = [work = std::move(work)](int units) {
    return Sample{host_seconds([&] { work(units); }), 0};
  };
  return m;
}

Measurement Measurement::timed(Timer timer) {
  Measurement m;
  m.timer_ = std::move(timer);
  return m;
}

Measurement& Measurement::poison(const cl::Buffer& buffer, size_t bytes) {
  poison_.push_back([buffer, bytes] { gb::poison(buffer, bytes); });
  return *this;
}

Measurement& Measurement::poison(std::function<void()> fill) {
  poison_.push_back(std::move(fill));
  return *this;
}

std::string Measurement::missing_poison() const {
  if (!check_ || !poison_.empty() || !no_poison_.empty()) return "";
  return "the measurement has a check but declares no poison (.poison(buffer, bytes), or .no_poison(\"why\") "
         "where the check needs none)";
}

Measurement& Measurement::counter(const std::string& name, double value) {
  counters_.emplace_back(name, value);
  return *this;
}

Measurement& Measurement::rate(const std::string& name, double per_unit) {
  rates_.emplace_back(name, per_unit);
  return *this;
}

void require_work_group(const cl::Kernel& kernel, size_t work_group) {
  const size_t limit = session().kernel_work_group_size(kernel);
  if (work_group > limit)
    throw Unsupported("work group of " + std::to_string(work_group) +
                      " above this kernel's CL_KERNEL_WORK_GROUP_SIZE of " + std::to_string(limit));
}

void require_compiled_work_group(const cl::Kernel& kernel, size_t work_group) {
  size_t compiled[3] = {0, 0, 0};
  GB_CL(clGetKernelWorkGroupInfo(kernel(), session().device()(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled,
                                 compiled, nullptr));
  if (work_group == compiled[0] * compiled[1] * compiled[2] && work_group <= session().info().max_work_group_size) return;
  require_work_group(kernel, work_group);
}

namespace {

// A batch times its units only while its time per unit is the time per unit of a quarter of it,
// within this share. Past some 2000 queued commands NVIDIA's runtime leaves the device gaps between
// short units, whatever the lead: on the H200, 2-D FFTs in four kernels of 3.5 us ran 13.8 us a
// unit at 384 units, 16-19 us at 768-1280 and 21-26 us at 3072-4096, so two processes that calibrated or grew to different batches disagreed by 8-109%.
constexpr double kBatchSlack = 0.02;
// Units this short are checked: the gaps were of a few microseconds a command. Longer ones are
// not, where one sample against one would only add the noise of a CPU device (PoCL).
constexpr double kShortUnitSeconds = 100e-6;
// Whether a batch of `units` that took `seconds` runs no slower per unit (within kBatchSlack) than
// a quarter of it, timed now into `quarter_seconds`. A slower batch is confirmed on the median of
// three samples of each, the statistic sampling reports: one against one cut a 2-D FFT's batch 4x
// on the H200 and read it 4-8% slow, and the faster of two kept a batch whose gaps came and went
// in most of its samples.
bool times_its_units(const Timer& timer, int units, double seconds, double& quarter_seconds) {
  const int quarter = units / 4;
  quarter_seconds = timer(quarter).seconds;
  if (seconds / units <= (1 + kBatchSlack) * quarter_seconds / quarter) return true;
  auto median3 = [](double a, double b, double c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); };
  seconds = median3(seconds, timer(units).seconds, timer(units).seconds);
  quarter_seconds = median3(quarter_seconds, timer(quarter).seconds, timer(quarter).seconds);
  return seconds / units <= (1 + kBatchSlack) * quarter_seconds / quarter;
}
}  // namespace

int calibrate(const Timer& timer, double target, double floor, int max_batch, bool check_batch) {
  const double first = timer(1).seconds;
  if (first >= 4 * target) return 1;  // long units: one warm-up is enough
  double unit = timer(1).seconds;
  if (unit >= target) return 1;
  int units = batch_at_least(target / std::max(unit, 1e-9), max_batch);
  double seconds = 0;  // of a batch of `units`, 0 until timed
  // One unit alone may look slower or faster than in a batch (launch gaps): confirm on a batch.
  for (int tries = 0; tries < 6 && units < max_batch; ++tries) {
    seconds = timer(units).seconds;
    if (seconds >= target) break;
    units = std::min(batch_at_least(units * target / std::max(seconds, 1e-9), max_batch), units * 64);
    seconds = 0;
  }
  for (int steps = 0; check_batch && unit < kShortUnitSeconds && steps < 2 && units >= 8; ++steps) {
    if (seconds == 0) seconds = timer(units).seconds;
    double quarter_seconds = 0;
    if (times_its_units(timer, units, seconds, quarter_seconds) || quarter_seconds < floor) break;
    units /= 4;
    seconds = quarter_seconds;
  }
  return units;
}

namespace {

// What the harness keeps per benchmark across Google Benchmark's repetitions.
struct Record {
  bool poisoned = false;
  int batch = 0;  // 0: not calibrated yet
  bool pinned = false;  // the batch came from --batches_from: not grown either
  std::optional<Check> check;
};
std::map<std::string, Record>& records() {
  static std::map<std::string, Record> all;
  return all;
}

// The samples of one run: per-unit times until the stopping rule says done.
struct Sampled {
  SampleStats stats;
  double reported_seconds = 0, host_seconds = 0, wall_seconds = 0;
  int batch = 1;  // the batch of the samples kept (the calibrated one, or grown: StopRule::grow)
};

// Device-clock runs that miss the noise target early grow their batch (StopRule::grow): on the
// H200 that took six such benchmarks (CAS contention, strided triads, box filters, frame syncs)
// from 1.0-5% to 0.1-0.75% noise with 4x the units per sample; host-clock runs did not quiet
// that way, so they keep their batch. A grown batch slower per unit (kBatchSlack) than the
// batch it grew from is not timing its units: the run keeps the smaller one's samples and stops.
Sampled sample(const Timer& timer, int batch, const StopRule& rule, bool may_grow = false, int max_batch = 1) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto wall = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  Sampled out;
  std::vector<double> per_unit;
  int growths = 0;
  SampleStats before_growth;  // of the batch before the last growth
  for (size_t next_check = 1;;) {
    if (stop_requested()) throw Interrupted();
    const Sample s = timer(batch);
    per_unit.push_back(std::max(s.seconds, 1e-12) / batch);
    out.reported_seconds += s.seconds;
    out.host_seconds += s.host_seconds;
    // Time spent sampling is wall time (host overheads included), so that the limit holds for
    // host-side cases too; an explicit --benchmark_min_time counts the reported clock, as Google
    // Benchmark counts manual time.
    const double spent = rule.fixed_time > 0 ? out.reported_seconds : wall();
    if (per_unit.size() < next_check && spent < rule.max_time) continue;
    // Sorting every sample would be quadratic for microsecond units: re-evaluate after every
    // sample at first, then after every 1/32 more.
    next_check = per_unit.size() + std::max<size_t>(1, per_unit.size() / 32);
    out.stats = summarize(per_unit);
    if (!rule.done(out.stats, spent)) continue;
    if (growths > 0 && out.stats.median > (1 + kBatchSlack) * before_growth.median) {
      out.stats = before_growth;  // the grown batch timed gaps between its units
      batch /= StopRule::kGrowthFactor;
      break;
    }
    const double sample_wall = wall() / static_cast<double>(per_unit.size());
    if (!may_grow || !rule.grow(out.stats, batch, max_batch, growths, spent, sample_wall)) break;
    before_growth = out.stats;
    batch *= StopRule::kGrowthFactor;  // the samples so far are dropped: one batch size per estimate
    ++growths;
    per_unit.clear();
    next_check = 1;
  }
  out.batch = batch;
  out.wall_seconds = wall();
  return out;
}

// --verify_only: one unit, timed once.
Sampled sample_once(const Timer& timer) {
  const auto start = std::chrono::steady_clock::now();
  const Sample s = timer(1);
  Sampled out;
  out.stats = summarize({std::max(s.seconds, 1e-12)});
  out.reported_seconds = s.seconds;
  out.host_seconds = s.host_seconds;
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// A line on stderr that keeps the progress line intact.
__attribute__((format(printf, 1, 2))) void warn(const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  progress().note(line);
}

// No program is built ahead while a benchmark samples: a compiler on other cores skews host
// clocks, and the driver's build stalls the submission of launch-bound batches.
struct BuildPause {
  bool on = true;
  BuildPause() { session().pause_builds(); }
  ~BuildPause() { release(); }
  void release() {
    if (on) session().resume_builds();
    on = false;
  }
};

// A measurement's while_running work: started on construction, stopped by stop() or, on the way
// out of an exception or a stop signal, by the destructor (which drops the stop's own exception:
// one is already on its way).
class Beside {
 public:
  Beside(const std::function<void()>& start, const std::function<void()>& stop) : stop_(stop) {
    if (start) start();
    running_ = static_cast<bool>(stop);
  }
  ~Beside() {
    try {
      stop();
    } catch (const std::exception& e) {
      warn("warning: %s: stopping the work beside the measurement: %s", current_benchmark_name().c_str(), e.what());
    }
  }
  Beside(const Beside&) = delete;
  Beside& operator=(const Beside&) = delete;
  void stop() {
    if (!running_) return;
    running_ = false;
    stop_();
  }

 private:
  const std::function<void()>& stop_;
  bool running_ = false;
};

std::map<std::string, MetricKinds>& metric_kinds_by_name() {
  static std::map<std::string, MetricKinds> kinds;
  return kinds;
}

}  // namespace

const MetricKinds* metric_kinds(const std::string& benchmark_name) {
  auto it = metric_kinds_by_name().find(benchmark_name);
  return it == metric_kinds_by_name().end() ? nullptr : &it->second;
}

Result measure(benchmark::State& state, const Measurement& m) {
  const std::string& name = current_benchmark_name();
  // Poison is structural: a check with no poison would pass on an output a previous variant (or
  // run) left correct in a shared buffer.
  if (const std::string why = m.missing_poison(); !why.empty()) throw std::logic_error(why);
  Record& record = records()[name];
  const StopRule& rule = options().stop;
  using clock = std::chrono::steady_clock;
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  const double setup_seconds =
      std::chrono::duration<double>(clock::now().time_since_epoch()).count() - current_benchmark_started();

  BuildPause pause;
  EnvironmentWatch environment;  // warms an idle device again; watches the host while it samples
  const auto calibration_start = clock::now();
  if (!record.poisoned) {
    for (const auto& fill : m.poison_) fill();
    record.poisoned = true;
  }
  Beside beside(m.start_beside_, m.stop_beside_);
  // --verify_only: one unit, so that a simulator runs each kernel once (and kernels that keep
  // state across launches, such as a look-back's tickets, see one launch).
  if (record.batch == 0 && !options().verify_only) {
    if (const auto pinned = options().pinned_batches.find(name); pinned != options().pinned_batches.end()) {
      record.batch = std::min(pinned->second, m.max_batch_);
      record.pinned = true;
    }
  }
  if (record.batch == 0)
    record.batch = options().verify_only ? 1 : calibrate(m.timer_, min_sample_seconds(), timer_floor_seconds(), m.max_batch_, m.device_clock_);
  const int calibrated_batch = record.batch;
  const double calibration_seconds = seconds_since(calibration_start);

  fleet_wait_to_sample(name);  // under gpu_bench_mpi --fleet=concurrent: every rank samples at once
  Sampled run;
  for (auto _ : state) {  // one Google Benchmark iteration holds every sample
    run = options().verify_only ? sample_once(m.timer_)
                                : sample(m.timer_, calibrated_batch, rule, m.device_clock_ && !record.pinned, m.max_batch_);
    run.stats.median *= fleet_test_slow_factor();
    state.SetIterationTime(run.stats.median);
  }
  const int batch = record.batch = run.batch;  // repetitions start from the grown batch
  beside.stop();
  const SampleStats& stats = run.stats;
  const auto environment_counters = environment.finish(name);

  pause.release();
  const auto check_start = clock::now();
  const double read_back_before = read_back_seconds();
  if (!record.check && m.check_ && !options().skip_checks) record.check = m.check_();
  if (std::getenv("GPU_BENCH_PHASES"))
    warn("phases %s: setup %.3f s, calibration %.3f s, sampling %.3f s (%zu x %d), check %.3f s (read-back %.3f s)",
         name.c_str(), setup_seconds, calibration_seconds, run.wall_seconds, stats.n, batch, seconds_since(check_start),
         read_back_seconds() - read_back_before);

  // Per unit: Google Benchmark divides by the one iteration's time, the median unit time.
  const Work& w = m.work_;
  if (w.bytes() > 0) state.SetBytesProcessed(static_cast<int64_t>(std::llround(w.bytes())));
  if (w.items() > 0) state.SetItemsProcessed(static_cast<int64_t>(std::llround(w.items())));
  using benchmark::Counter;
  if (w.flops() > 0) state.counters["flop_per_second"] = Counter(w.flops(), Counter::kIsRate);
  for (const auto& [key, per_unit_amount] : m.rates_) state.counters[key] = Counter(per_unit_amount, Counter::kIsRate);
  for (const auto& [key, value] : m.counters_) state.counters[key] = value;
  if (m.copy_fraction_) state.counters["copy_fraction"] = gb::copy_fraction(w.bytes(), stats.median);
  MetricKinds kinds;
  if (w.flops() > 0) kinds.metrics.push_back("flop_per_second");
  if (w.bytes() > 0) kinds.metrics.push_back("bytes_per_second");
  if (w.items() > 0) kinds.metrics.push_back("items_per_second");
  for (const auto& rate : m.rates_) kinds.metrics.push_back(rate.first);
  kinds.primary = !m.primary_.empty() ? m.primary_ : kinds.metrics.empty() ? "real_time" : kinds.metrics.front();
  if (m.copy_fraction_) kinds.metrics.push_back("copy_fraction");
  metric_kinds_by_name()[name] = kinds;
  for (const auto& [key, value] : environment_counters) state.counters[key] = value;
  state.counters["batch"] = batch;
  state.counters["samples"] = static_cast<double>(stats.n);
  state.counters["noise"] = std::isfinite(stats.noise) ? stats.noise : 1.0;
  const bool converged = rule.fixed_time > 0 || rule.converged(stats);
  state.counters["converged"] = converged ? 1 : 0;
  if (!converged && !options().verify_only)
    warn("warning: %s: noise %.2f%% above --max_noise %.2f%% after %.2f s (%zu samples)", name.c_str(),
         100 * stats.noise, 100 * rule.max_noise, run.wall_seconds, stats.n);
  if (m.device_clock_ && run.reported_seconds > 0) {
    const double ratio = run.host_seconds / run.reported_seconds;
    state.counters["host_over_device"] = ratio;
    // The host clock brackets the device work, so a ratio below 1 means a broken timer; far above
    // 1 means launch overhead or syncs dominate what the device clock shows.
    if (ratio < 0.95 || ratio > 3.0) warn("warning: %s: host time is %.2fx device time", name.c_str(), ratio);
  }
  if (record.check) report_check(state, *record.check);
  fleet_send_result(name, kinds.primary, stats.median, stats.noise, w.bytes());
  return Result{stats.median, stats.noise, static_cast<int>(stats.n), batch};
}

double median_unit_seconds(const Measurement& m) {
  BuildPause pause;
  EnvironmentWatch environment;  // warms an idle device again first
  for (const auto& fill : m.poison_) fill();
  Beside beside(m.start_beside_, m.stop_beside_);
  const int batch = calibrate(m.timer_, min_sample_seconds(), timer_floor_seconds(), m.max_batch_, m.device_clock_);
  const double median = sample(m.timer_, batch, options().stop).stats.median;
  beside.stop();
  return median;
}

}  // namespace gb
