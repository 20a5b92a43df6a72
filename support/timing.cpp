// Batches, calibration and the sampler.
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cl_error.hpp"
#include "options.hpp"
#include "registry.hpp"
#include "session.hpp"

namespace gb {

void Batch::launch(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local) {
  GB_CL(queue_.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, event_slot()));
  if (recording()) recorded();
}

void Batch::recorded() {
  if (!have_first_) {
    first_ = scratch_;
    have_first_ = true;
  }
  last_ = scratch_;
}

double Batch::device_seconds() const {
  if (!have_first_) throw std::logic_error("a batch enqueued no command with an event");
  cl_ulong start = 0, end = 0;
  GB_CL(first_.getProfilingInfo(CL_PROFILING_COMMAND_START, &start));
  GB_CL(last_.getProfilingInfo(CL_PROFILING_COMMAND_END, &end));
  return end > start ? (end - start) * 1e-9 : 0.0;
}

BatchTime run_batch(const Unit& unit, int units) {
  auto& queue = session().queue();
  Batch batch(queue, units);
  auto t0 = std::chrono::steady_clock::now();
  for (int u = 0; u < units; ++u) {
    batch.begin_unit(u);
    unit(batch);
  }
  GB_CL(queue.finish());
  auto t1 = std::chrono::steady_clock::now();
  return {batch.device_seconds(), std::chrono::duration<double>(t1 - t0).count()};
}

double min_sample_seconds() {
  double timer = 1000.0 * static_cast<double>(session().info().timer_resolution_ns) * 1e-9;
  return std::max(timer, options().min_sample_seconds);
}

static int next_power_of_two(double x) {
  int p = 1;
  while (p < x && p < (1 << 20)) p <<= 1;
  return p;
}

Calibration calibrate(const Unit& unit) {
  const double target = min_sample_seconds();
  run_batch(unit, 1);  // first use: lazy allocation, code upload, caches
  run_batch(unit, 1);
  Calibration c;
  c.unit_seconds = run_batch(unit, 1).device_seconds;
  c.units = next_power_of_two(target / std::max(c.unit_seconds, 1e-9));
  // One unit alone may look slower than in a batch (launch gaps): confirm on a real batch.
  for (int tries = 0; tries < 6; ++tries) {
    double t = run_batch(unit, c.units).device_seconds;
    c.unit_seconds = t / c.units;
    if (t >= target || c.units >= (1 << 20)) break;
    c.units = std::min(next_power_of_two(c.units * target / std::max(t, 1e-9)), c.units * 64);
  }
  return c;
}

void Sampler::sample(const Unit& unit) {
  BatchTime t = run_batch(unit, calibration_.units);
  state_.SetIterationTime(t.device_seconds);
  device_total_ += t.device_seconds;
  host_total_ += t.host_seconds;
  ++samples_;
}

void Sampler::report(const Work& w) {
  const double units = static_cast<double>(calibration_.units) * state_.iterations();
  if (w.bytes > 0) state_.SetBytesProcessed(static_cast<int64_t>(w.bytes * units));
  if (w.items > 0) state_.SetItemsProcessed(static_cast<int64_t>(w.items * units));
  if (w.flops > 0)
    state_.counters["flop_per_second"] = benchmark::Counter(w.flops * units, benchmark::Counter::kIsRate);
  state_.counters["batch"] = calibration_.units;
  if (samples_ == 0 || device_total_ <= 0) return;
  state_.counters["unit_seconds"] = device_total_ / (samples_ * calibration_.units);
  const double ratio = host_total_ / device_total_;
  state_.counters["host_over_device"] = ratio;
  // The host clock brackets the device work, so a ratio below 1 means a broken timer; far above 1
  // means launch overhead or syncs dominate what the device clock shows.
  if (ratio < 0.95 || ratio > 3.0)
    std::fprintf(stderr, "warning: %s: host time is %.2fx device time\n", current_benchmark_name().c_str(), ratio);
}

}  // namespace gb
