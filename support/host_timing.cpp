// Host-clock calibration and sampling.
#include "host_timing.hpp"

#include <algorithm>
#include <chrono>

namespace gb {

double host_seconds(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

HostCalibration calibrate_host(const HostWork& work, double target_seconds, int max_reps) {
  work(1);  // first use: lazy allocation, pinning, caches
  work(1);
  HostCalibration c;
  for (;;) {
    const int reps = c.reps;
    const double t = host_seconds([&] { work(reps); });
    c.rep_seconds = t / reps;
    if (t >= target_seconds || c.reps >= max_reps) break;
    // Grow towards the target in one or two steps, at most 64x at a time.
    const double want = target_seconds / std::max(c.rep_seconds, 1e-9);
    int next = c.reps * 2;
    while (next < want && next < c.reps * 64 && next < max_reps) next *= 2;
    c.reps = std::min(next, max_reps);
  }
  return c;
}

void HostSampler::sample(const HostWork& work) {
  record(host_seconds([&] { work(reps_); }));
}

void HostSampler::record(double seconds) {
  seconds = std::max(seconds, 1e-9);
  state_.SetIterationTime(seconds);
  total_ += seconds;
  ++samples_;
}

double HostSampler::mean_rep_seconds() const {
  return samples_ == 0 ? 0.0 : total_ / (static_cast<double>(samples_) * reps_);
}

void HostSampler::report(const Work& w) {
  const double reps = static_cast<double>(reps_) * state_.iterations();
  if (w.bytes > 0) state_.SetBytesProcessed(static_cast<int64_t>(w.bytes * reps));
  if (w.items > 0) state_.SetItemsProcessed(static_cast<int64_t>(w.items * reps));
  if (w.flops > 0)
    state_.counters["flop_per_second"] = benchmark::Counter(w.flops * reps, benchmark::Counter::kIsRate);
  state_.counters["batch"] = reps_;
  if (samples_ > 0) state_.counters["unit_seconds"] = mean_rep_seconds();
}

}  // namespace gb
