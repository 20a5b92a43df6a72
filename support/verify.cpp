// Check reporting and the process-wide failure count.
#include "verify.hpp"

#include <cstdio>
#include <sstream>

#include "options.hpp"
#include "registry.hpp"

namespace gb {

static int g_failures = 0;

double scaled_margin(double margin) { return margin * options().tolerance_scale; }

double gamma_n(double n, double u) {
  const double nu = n * u;
  return nu < 1 ? nu / (1 - nu) : INFINITY;
}

double sum_error_bound(double depth, double sum_abs, double u, double quantum) {
  if (quantum > 0 && sum_abs <= quantum / u) return 0;
  return gamma_n(depth, u) * sum_abs;
}

Check worst(const std::vector<Check>& checks) {
  Check w;
  double worst_ratio = -1;
  std::vector<std::pair<double, double>> parts;
  for (const auto& c : checks) {
    if (c.parts.empty())
      parts.emplace_back(c.error, c.margin);
    else
      parts.insert(parts.end(), c.parts.begin(), c.parts.end());
    double ratio = c.margin > 0 ? c.error / c.margin : (c.error > 0 || !(c.error == c.error) ? INFINITY : 0);
    if (!(ratio <= worst_ratio)) {
      worst_ratio = ratio;
      w = c;
    }
  }
  w.parts = std::move(parts);
  return w;
}

void report_check(benchmark::State& state, const Check& check) {
  // JSON must stay strict: an infinite error is written as a large finite number.
  auto finite = [](double e) { return std::isfinite(e) ? e : 1e300; };
  state.counters["rel_error"] = finite(check.error);
  state.counters["margin"] = check.margin;
  if (check.parts.size() > 1)
    for (size_t k = 0; k < check.parts.size(); ++k) {
      state.counters["rel_error_" + std::to_string(k + 1)] = finite(check.parts[k].first);
      state.counters["margin_" + std::to_string(k + 1)] = check.parts[k].second;
    }
  if (check.passed()) return;
  std::ostringstream msg;
  msg << "verification failed: " << check.what << ": error " << check.error << " > margin "
      << check.margin;
  state.SkipWithError(msg.str().c_str());
  note_failure(current_benchmark_name(), msg.str());
}

void note_failure(const std::string& benchmark, const std::string& message) {
  ++g_failures;
  std::fprintf(stderr, "ERROR: %s: %s\n", benchmark.c_str(), message.c_str());
}

int failure_count() { return g_failures; }

}  // namespace gb
