// Clock ramp-up: a GPU may double its speed a few hundred ms into a run. A FLOP-heavy workload is
// grown until a sample takes ~2 ms, sized to ~20 ms, and repeated; throughput is steady once the
// samples stay within a few percent. The normal run's warm-up uses the same detection.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "program_cache.hpp"

namespace gb {

struct RampSample {
  double t_seconds;        // host time since the ramp began, at the sample's end
  size_t work_groups;
  double sample_seconds;   // device time
  double flop_per_second;
};

struct RampResult {
  std::vector<RampSample> samples;    // the x10 growth from one work group, then the sized run
  size_t sized_from = 0;              // index of the first sample at the ~20 ms size
  std::optional<size_t> steady_from;  // index of the first sample of the steady run
  double steady_after_seconds = 0;    // host time when throughput became steady
  double steady_flop_per_second = 0;
};

// The first index from which every rate stays within `tolerance` of the median of the last
// `window` rates; nullopt while fewer than `window` rates exist or the tail itself varies more.
std::optional<size_t> steady_index(const std::vector<double>& rates, double tolerance = 0.03,
                                   size_t window = 5);

// Runs on the session's device. With stop_when_steady, ends as soon as the tail is steady and
// has lasted min(0.5 s, seconds / 2), so a clock that holds a low step for a while before
// boosting is not taken for the steady one (the warm-up); otherwise runs for `seconds` (the
// --clock_ramp diagnostic). With print, every sample is printed as it is taken.
RampResult run_clock_ramp(double seconds, bool stop_when_steady, bool print);
ProgramKey clock_ramp_program();  // the warm-up's (first in the programs built ahead)
// The same workload at `groups` work groups, `samples` times: the highest rate (FLOP/s), the
// short probe of the device's state between benchmarks (support/environment).
double probe_flop_per_second(size_t groups, int samples);

// [[t, flop/s], ...] for the JSON context.
std::string ramp_timeline_json(const RampResult& r);

}  // namespace gb
