// The harness's one entry point for a case body. A case says what one unit of work is, how much
// work it does (by name), which outputs to poison and how to check them; the harness calibrates
// the batch, samples until the noise target or the time limit, poisons before the benchmark's
// first run, verifies after the timed region, and sets every counter.
//
//   gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(k, global, local); })
//                          .work(gb::Work().bytes(2.0 * n * 4))
//                          .poison(out, n * 4)
//                          .check([&] { return verify(fx, p); }));
//
// The time reported (real_time, in the console and the JSON) is the median time of one unit.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl.hpp"
#include "host_timing.hpp"
#include "timing.hpp"
#include "verify.hpp"

namespace gb {

// Work of one unit, by name; the harness turns it into rates per second of unit time.
class Work {
 public:
  Work& bytes(double v) { bytes_ = v; return *this; }  // moved to or from memory
  Work& flops(double v) { flops_ = v; return *this; }  // arithmetic operations
  Work& items(double v) { items_ = v; return *this; }  // elements, pixels, transforms...
  double bytes() const { return bytes_; }
  double flops() const { return flops_; }
  double items() const { return items_; }

 private:
  double bytes_ = 0, flops_ = 0, items_ = 0;
};

// The time of K units on one clock: `seconds` is what is reported; `host_seconds` brackets the
// same work on the host clock (0 when it is the same clock).
struct Sample {
  double seconds = 0;
  double host_seconds = 0;
};
using Timer = std::function<Sample(int units)>;

struct Result;
class Measurement;
Result measure(benchmark::State& state, const Measurement& m);

class Measurement {
 public:
  // K units enqueued back to back and synced once; the time is the first event's START to the
  // last event's END (event profiling).
  static Measurement device(Unit unit);
  // K repetitions run by `work`, which returns once they are complete; steady-clock time.
  static Measurement host(HostWork work);
  // The case times K units itself (an event span, a part of the host work).
  static Measurement timed(Timer timer);

  Measurement& work(const Work& w) { work_ = w; return *this; }
  // Filled with 0xFF bytes (NaN, -1) before the benchmark's first run, so an output the kernel
  // never writes fails the check. Per benchmark: variants sharing an output buffer each poison it
  // before their own first run. A Measurement with a check must name its poison or say, with
  // no_poison, why it has none; otherwise the benchmark fails before it runs.
  Measurement& poison(const cl::Buffer& buffer, size_t bytes);
  Measurement& poison(std::function<void()> fill);
  // Why the check needs no poison from the harness (it runs its own launch on outputs it resets,
  // or poisons them itself).
  Measurement& no_poison(const std::string& why) { no_poison_ = why; return *this; }
  // Why measure() refuses this measurement: a check with neither poison nor no_poison ("" if none).
  std::string missing_poison() const;
  // Run once per benchmark, after its first measurement and outside the timed region.
  Measurement& check(std::function<Check()> fn) { check_ = std::move(fn); return *this; }
  // A property of the configuration (passes, work-group size), reported as is.
  Measurement& counter(const std::string& name, double value);
  // An amount per unit reported per second of unit time (images_per_second).
  Measurement& rate(const std::string& name, double per_unit);
  // Reports copy_fraction: the declared bytes per second over the device's copy bandwidth
  // (support/copy_bandwidth), the yardstick of memory-bound cases.
  Measurement& copy_fraction() { copy_fraction_ = true; return *this; }
  // The metric a dashboard or gate follows (a rate's counter name, or "real_time"); by default
  // flop_per_second, else bytes_per_second, else items_per_second, else the first rate, else time.
  Measurement& primary(const std::string& metric) { primary_ = metric; return *this; }
  // Units that may be batched at most (host work that cannot repeat more often).
  Measurement& max_batch(int units) { max_batch_ = units; return *this; }
  // Work that runs beside the measured units (a competitor: another process submitting kernels,
  // a host thread streaming memory). `start` runs after the poison and before calibration, so the
  // batch is calibrated under the same conditions; `stop` once sampling ends, before the check and
  // the environment's device probe, and on every way out (an exception, a stop signal), where an
  // exception of its own is dropped. Both are the case's; the harness only says when.
  Measurement& while_running(std::function<void()> start, std::function<void()> stop) {
    start_beside_ = std::move(start);
    stop_beside_ = std::move(stop);
    return *this;
  }

 private:
  friend Result measure(benchmark::State& state, const Measurement& m);
  friend double median_unit_seconds(const Measurement& m);
  Timer timer_;
  bool device_clock_ = false;
  Work work_;
  std::vector<std::function<void()>> poison_;
  std::string no_poison_;
  std::function<Check()> check_;
  std::vector<std::pair<std::string, double>> counters_, rates_;
  int max_batch_ = 1 << 20;
  bool copy_fraction_ = false;
  std::string primary_;
  std::function<void()> start_beside_, stop_beside_;
};

// What a benchmark's counters mean to result tools: its primary metric and its metric counters
// (rates, copy_fraction); every other counter (batch, samples, noise, margin, passes...) describes
// the measurement or the configuration and is not gated. Recorded by measure(), per benchmark name.
struct MetricKinds {
  std::string primary;               // a counter name, or "real_time" (lower is better)
  std::vector<std::string> metrics;  // higher is better
};
const MetricKinds* metric_kinds(const std::string& benchmark_name);

// What the harness measured, for counters a case derives itself.
struct Result {
  double unit_seconds = 0;  // the median time of one unit
  double noise = 0;         // relative interquartile range of the samples
  int samples = 0;          // the timer's last `samples` calls (calibration runs come before them)
  int batch = 1;            // units per sample
};

Result measure(benchmark::State& state, const Measurement& m);

// The median time of one unit of `m`, calibrated and sampled as measure() does (its poison and
// while_running included; no counters, no check): the baseline a case compares its benchmarks
// with, measured in the same process (L0/Interference: the kernel alone, for the slowdown of the
// kernel beside a competitor). A case caches it; it is not a benchmark of its own.
double median_unit_seconds(const Measurement& m);

// The batch measure() samples first: the smallest batch of units (batch_at_least, within
// `max_batch`) whose sample lasts at least `target` seconds; with `check_batch` (device clocks)
// and units under 100 us, a quarter of it instead, twice at most and no shorter than `floor`
// seconds, where that quarter runs faster per unit: the larger batch then times gaps between its
// units, not the units. The first run pays for lazy allocation, code upload and cold caches and
// is not used.
int calibrate(const Timer& timer, double target, double floor, int max_batch, bool check_batch);

// Thrown where a device cannot run a registered variant after all (a kernel's work-group limit,
// known once it is built): the benchmark is skipped with the reason, not failed.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Throws Unsupported when `work_group` items exceed the kernel's CL_KERNEL_WORK_GROUP_SIZE.
void require_work_group(const cl::Kernel& kernel, size_t work_group);
// As require_work_group, but accepts `work_group` where it is the kernel's compile-time size (the
// product of CL_KERNEL_COMPILE_WORK_GROUP_SIZE, from reqd_work_group_size: the compiler fitted the
// kernel's registers to it) within CL_DEVICE_MAX_WORK_GROUP_SIZE, whatever CL_KERNEL_WORK_GROUP_SIZE
// says. For drivers that report less than such kernels run at (NVIDIA's 580 reports 256 for every
// kernel with local memory and a barrier): a case uses it only where launches at that size were
// measured to run, and says where.
void require_compiled_work_group(const cl::Kernel& kernel, size_t work_group);

// Thrown when SIGINT/SIGTERM/SIGHUP asked the run to stop: the benchmark is abandoned.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace gb
