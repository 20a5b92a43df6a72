// Statistics of a benchmark's samples and the rule that stops sampling. Pure functions, so the
// policy is unit-tested apart from any device.
#pragma once
#include <cstddef>
#include <vector>

namespace gb {

// The estimate is the median of the per-unit sample times; its noise is the relative
// interquartile range of the samples, (q3 - q1) / median: robust to a few preempted samples, and
// deliberately the spread of single samples rather than the standard error of the median, which
// shrinks with n and would hide the drift that makes two runs disagree.
struct SampleStats {
  size_t n = 0;
  double median = 0;
  double q1 = 0, q3 = 0;  // quartiles, linear interpolation between order statistics
  double noise = 0;       // (q3 - q1) / median; +inf below 3 samples
};
SampleStats summarize(std::vector<double> samples);

// The batch (units per sample) for a sample of at least `units` units: the smallest of 1, 2, 3,
// then 4, 5, 6, 7 times a power of two, at least `units` (at most `cap`). Steps of at most 1.25x
// keep a sample within about 1.25x --min_sample_ms (powers of two averaged 1.44x: sampling time).
int batch_at_least(double units, int cap);

// When to stop sampling one benchmark run.
struct StopRule {
  double max_noise = 0.005;  // --max_noise (a fraction)
  int min_samples = 10;      // --min_samples
  double max_time = 1.0;     // --max_time: seconds spent sampling (device clock, or host where longer)
  double fixed_time = 0;     // > 0: an explicit --benchmark_min_time, sample until this long instead
  int max_samples = 1 << 20;

  // Whether sampling is finished after `spent` seconds with these statistics: the noise target
  // met with --min_samples; or the time limit (with 3 samples, or 1 when one sample takes more
  // than half the limit); or the noise above 4x the target at --min_samples, or still above twice
  // the target after 3x --min_samples.
  bool done(const SampleStats& s, double spent) const;
  // Whether the estimate met the noise target (the flag when it did not).
  bool converged(const SampleStats& s) const { return s.noise <= max_noise; }

  // Whether a run that done() ended short of the noise target restarts with kGrowthFactor x
  // `batch` units (within `max_batch`), its samples so far dropped: at most kMaxGrowths times
  // (`growths` so far), never for an explicit --benchmark_min_time, and only while the time
  // limit leaves room for --min_samples of the longer samples, each kGrowthFactor x
  // `sample_seconds` (the wall time of one sample so far: the enqueue and the batch's lead take
  // several times the device time of launch-bound units). Where the spread comes from the units
  // themselves, a sample of more units averages it out (measure() asks this for device-clock
  // samples only: host-clock spread is the host's).
  static constexpr int kGrowthFactor = 4, kMaxGrowths = 2;
  bool grow(const SampleStats& s, int batch, int max_batch, int growths, double spent, double sample_seconds) const;
};

}  // namespace gb
