// Run-wide settings from gpu_bench's own flags, read by the harness pieces that need them.
#pragma once
#include <map>
#include <string>

#include "sample_stats.hpp"

namespace gb {

struct RunOptions {
  double tolerance_scale = 1.0;     // --tolerance_scale: multiplies every case's error margin
  double min_sample_seconds = 5e-3; // --min_sample_ms: floor for one timed sample
  double warmup_max_seconds = 3.0;  // --warmup_s: longest clock-ramp warm-up before measuring
  StopRule stop;                    // --max_noise, --min_samples, --max_time, --benchmark_min_time
  bool verify_only = false;         // --verify_only: one unit per benchmark, no calibration
  bool skip_checks = false;         // --skip_checks: measure() runs no check
  std::map<std::string, int> pinned_batches;  // --batches_from: benchmark name -> batch, neither calibrated nor grown
};

RunOptions& options();

}  // namespace gb
