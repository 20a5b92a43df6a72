// Sample statistics and the stopping rule.
#include "sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gb {

static double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

SampleStats summarize(std::vector<double> samples) {
  SampleStats s;
  s.n = samples.size();
  s.noise = std::numeric_limits<double>::infinity();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.median = quantile(samples, 0.5);
  s.q1 = quantile(samples, 0.25);
  s.q3 = quantile(samples, 0.75);
  if (s.median > 0 && s.n >= 3) s.noise = (s.q3 - s.q1) / s.median;
  return s;
}

int batch_at_least(double units, int cap) {
  int n = 1;
  for (int step = 1; n < units && n < cap;) {
    if (n < 4) {
      ++n;
    } else if (n < 7 * step) {
      n += step;
    } else {
      n = 8 * step;
      step *= 2;
    }
  }
  return std::min(n, cap);
}

bool StopRule::done(const SampleStats& s, double spent) const {
  if (static_cast<int>(s.n) >= max_samples) return true;
  if (fixed_time > 0) return spent >= fixed_time && s.n >= 1;
  // The time limit wins over --min_samples, but three samples are needed to estimate the noise,
  // unless units are so long that three would take more than twice the limit.
  if (spent >= max_time && (s.n >= 3 || spent >= 2 * max_time)) return true;
  if (static_cast<int>(s.n) < min_samples) return false;
  if (converged(s)) return true;
  // The noise is a spread, which more samples estimate better but do not shrink: above four times
  // the target at --min_samples (an estimate from 10 samples is off by a third, not by 4x), or
  // above twice it after three times as many, the rest of the time limit would not meet it.
  if (s.noise > 4 * max_noise) return true;
  return static_cast<int>(s.n) >= 3 * min_samples && s.noise > 2 * max_noise;
}

bool StopRule::grow(const SampleStats& s, int batch, int max_batch, int growths, double spent,
                    double sample_seconds) const {
  if (growths >= kMaxGrowths || fixed_time > 0 || s.n == 0 || converged(s)) return false;
  if (batch > max_batch / kGrowthFactor) return false;
  return spent + sample_seconds * kGrowthFactor * min_samples <= max_time;
}

}  // namespace gb
