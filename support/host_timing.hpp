// Host-clock measurement, for quantities that are host costs: enqueue overhead, transfers as an
// application sees them (copy or map, then synchronised), program builds.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>

#include "timing.hpp"

namespace gb {

// Runs `reps` repetitions of some work and returns once it is complete (synchronised).
using HostWork = std::function<void(int reps)>;

// Steady-clock seconds around fn().
double host_seconds(const std::function<void()>& fn);

// The smallest power of two of repetitions whose run takes at least target_seconds on the host
// clock, found after two warm-up runs of one repetition; at most max_reps.
struct HostCalibration {
  int reps = 1;
  double rep_seconds = 0;
};
HostCalibration calibrate_host(const HostWork& work, double target_seconds, int max_reps = 1 << 20);

// The measurement of one benchmark run on the host clock: each iteration's manual time is the
// host time of that iteration's work, so the time reported equals the time the work took.
class HostSampler {
 public:
  HostSampler(benchmark::State& state, int reps) : state_(state), reps_(reps) {}
  // Times one run of `reps` repetitions and reports it as the iteration's time.
  void sample(const HostWork& work);
  // The caller timed the iteration's work itself (a part of the iteration, or a span read from
  // event profiling): seconds for `reps` repetitions. Never below 1 ns (a zero would make
  // Google Benchmark grow the iteration count without bound).
  void record(double seconds);
  // Rates per second of recorded time, the repetitions per iteration ("batch") and the time of
  // one repetition ("unit_seconds"), as the device-clock Sampler reports them.
  void report(const Work& per_rep);
  double mean_rep_seconds() const;

 private:
  benchmark::State& state_;
  int reps_;
  double total_ = 0;
  int samples_ = 0;
};

}  // namespace gb
