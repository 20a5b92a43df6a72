// Run-wide settings from gpu_bench's own flags, read by the harness pieces that need them.
#pragma once

namespace gb {

struct RunOptions {
  double tolerance_scale = 1.0;     // --tolerance_scale: multiplies every case's error margin
  double min_sample_seconds = 2e-3; // --min_sample_ms: floor for one timed batch
  double warmup_max_seconds = 3.0;  // --warmup_s: longest clock-ramp warm-up before measuring
};

RunOptions& options();

}  // namespace gb
