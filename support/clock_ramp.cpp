// Clock-ramp sizing, sampling and steady-state detection.
#include "clock_ramp.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "buffers.hpp"
#include "si_format.hpp"
#include "timing.hpp"

namespace gb {

std::optional<size_t> steady_index(const std::vector<double>& rates, double tolerance,
                                   size_t window) {
  if (window == 0 || rates.size() < window) return std::nullopt;
  std::vector<double> tail(rates.end() - window, rates.end());
  std::nth_element(tail.begin(), tail.begin() + window / 2, tail.end());
  const double ref = tail[window / 2];
  auto within = [&](double r) { return std::fabs(r - ref) <= tolerance * ref; };
  if (!std::all_of(rates.end() - window, rates.end(), within)) return std::nullopt;
  size_t i = rates.size() - window;
  while (i > 0 && within(rates[i - 1])) --i;
  return i;
}

static constexpr int kChains = 8, kSteps = 256;
static constexpr double kFlopsPerItem = 2.0 * 4 * kChains * kSteps;

ProgramKey clock_ramp_program() {
  return {"support/clock_ramp.cl", "-DCHAINS=" + std::to_string(kChains) + " -DSTEPS=" + std::to_string(kSteps)};
}

RampResult run_clock_ramp(double seconds, bool stop_when_steady, bool print) {
  auto& s = session();
  cl::Kernel kernel = s.kernel(clock_ramp_program(), "clock_ramp");
  const size_t local = std::min<size_t>(256, s.kernel_work_group_size(kernel));
  auto run = [&](size_t groups, cl::Buffer& out) {
    GB_SET_ARGS(kernel, out, 0.999f, 0.001f);
    return run_batch([&](Batch& b) { b.launch(kernel, cl::NDRange(groups * local), cl::NDRange(local)); }, 1)
        .device_seconds;
  };

  RampResult r;
  const auto start = std::chrono::steady_clock::now();
  if (print) std::printf("%10s %12s %12s %12s\n", "time_s", "work_groups", "sample", "FLOP/s");
  // Records and prints one sample; the time stamp is host time since the first launch.
  auto record = [&](size_t groups, double dt) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = dt > 0 ? kFlopsPerItem * groups * local / dt : 0;
    r.samples.push_back({now, groups, dt, rate});
    if (print) {
      std::printf("%10.3f %12zu %11ss %11sFLOP/s\n", now, groups, si(dt).c_str(), si(rate).c_str());
      std::fflush(stdout);
    }
    return rate;
  };

  // Grow by x10 from one work group until a sample takes ~2 ms, then size it to ~20 ms (within the
  // allocation limit: the warm-up is sized by time, not a benchmark with a size in its name).
  const double max_groups = static_cast<double>(s.info().max_alloc_bytes / 4 / local);
  size_t groups = 1;
  cl::Buffer out = make_buffer(groups * local * sizeof(float));
  double t = run(groups, out);
  record(groups, t);
  while (t < 2e-3 && groups * 10 < max_groups) {
    groups *= 10;
    out = make_buffer(groups * local * sizeof(float));
    t = run(groups, out);
    record(groups, t);
  }
  groups = static_cast<size_t>(std::clamp(groups * 20e-3 / std::max(t, 1e-9), 1.0, max_groups));
  out = make_buffer(groups * local * sizeof(float));

  // Repeat at that size. The warm-up stops once the steady tail has lasted long enough.
  r.sized_from = r.samples.size();
  const double min_steady_seconds = std::min(0.5, seconds / 2);
  std::vector<double> rates;
  for (;;) {
    rates.push_back(record(groups, run(groups, out)));
    const double now = r.samples.back().t_seconds;
    if (stop_when_steady) {
      if (auto steady = steady_index(rates)) {
        const RampSample& first = r.samples[r.sized_from + *steady];
        if (now - (first.t_seconds - first.sample_seconds) >= min_steady_seconds) break;
      }
    }
    if (now >= seconds) break;
  }
  // The verdict uses the whole sized run, so a late ramp is not called steady early.
  if (auto steady = steady_index(rates)) {
    r.steady_from = r.sized_from + *steady;
    r.steady_after_seconds = *r.steady_from == 0 ? 0 : r.samples[*r.steady_from - 1].t_seconds;
    double sum = 0;
    for (size_t i = *steady; i < rates.size(); ++i) sum += rates[i];
    r.steady_flop_per_second = sum / (rates.size() - *steady);
  }
  return r;
}

double probe_flop_per_second(size_t groups, int samples) {
  auto& s = session();
  cl::Kernel kernel = s.kernel(clock_ramp_program(), "clock_ramp");
  const size_t local = std::min<size_t>(256, s.kernel_work_group_size(kernel));
  cl::Buffer out = make_buffer(groups * local * sizeof(float));
  GB_SET_ARGS(kernel, out, 0.999f, 0.001f);
  double best = 0;
  for (int k = 0; k < samples; ++k) {
    const double dt =
        run_batch([&](Batch& b) { b.launch(kernel, cl::NDRange(groups * local), cl::NDRange(local)); }, 1).device_seconds;
    if (dt > 0) best = std::max(best, kFlopsPerItem * groups * local / dt);
  }
  return best;
}

std::string ramp_timeline_json(const RampResult& r) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < r.samples.size(); ++i)
    s << (i ? "," : "") << "[" << r.samples[i].t_seconds << "," << r.samples[i].flop_per_second << "]";
  s << "]";
  return s.str();
}

}  // namespace gb
