// Verification of device output against a host reference: relative L2 error against a margin
// (scaled by --tolerance_scale), or exact equality. A failure is loud: the benchmark becomes an
// error in the JSON and gpu_bench exits non-zero.
#pragma once
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "buffers.hpp"

namespace gb {

struct Check {
  double error = 0;   // relative L2 error, or the fraction of mismatches for exact checks
  double margin = 0;  // already scaled by --tolerance_scale
  std::string what;   // what was compared, for the message
  bool passed() const { return error <= margin; }  // false for NaN
};

// Blocks of elements that verification sums separately and combines in order, on every core.
constexpr size_t kVerifyBlock = size_t(1) << 18;

// ||got - want|| / ||want||, in double. Any non-finite value in `got` gives +inf.
template <typename G, typename W>
double relative_l2(const G* got, const W* want, size_t n) {
  const size_t blocks = (n + kVerifyBlock - 1) / kVerifyBlock;
  std::vector<double> diffs(blocks), norms(blocks);
  std::vector<char> finite(blocks, 1);
  parallel_blocks(blocks, [&](size_t blk) {
    double diff = 0, norm = 0;
    for (size_t i = blk * kVerifyBlock, end = std::min(n, i + kVerifyBlock); i < end; ++i) {
      const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
      if (!std::isfinite(g)) {
        finite[blk] = 0;
        return;
      }
      diff += (g - w) * (g - w);
      norm += w * w;
    }
    diffs[blk] = diff;
    norms[blk] = norm;
  });
  double diff = 0, norm = 0;
  for (size_t blk = 0; blk < blocks; ++blk) {
    if (!finite[blk]) return INFINITY;
    diff += diffs[blk];
    norm += norms[blk];
  }
  if (norm == 0) return diff == 0 ? 0 : INFINITY;
  return std::sqrt(diff / norm);
}

double scaled_margin(double margin);

// got and want: std::vector or HostSpan.
template <typename Got, typename Want = Got>
Check check_relative(const Got& got, const Want& want, double margin, const std::string& what) {
  if (got.size() != want.size()) return {INFINITY, scaled_margin(margin), what + " (size mismatch)"};
  return {relative_l2(got.data(), want.data(), got.size()), scaled_margin(margin), what};
}

// Bit-exact comparison (integers, copies). Margin 0: a single mismatch fails.
template <typename Got, typename Want = Got>
Check check_exact(const Got& got, const Want& want, const std::string& what) {
  if (got.size() != want.size()) return {INFINITY, 0, what + " (size mismatch)"};
  const size_t blocks = (got.size() + kVerifyBlock - 1) / kVerifyBlock;
  std::vector<size_t> bad(blocks);
  parallel_blocks(blocks, [&](size_t blk) {
    for (size_t i = blk * kVerifyBlock, end = std::min(got.size(), i + kVerifyBlock); i < end; ++i)
      bad[blk] += !(got[i] == want[i]);
  });
  size_t total = 0;
  for (size_t b : bad) total += b;
  return {got.empty() ? 0.0 : static_cast<double>(total) / got.size(), 0, what};
}

// Combines checks of several outputs: the worst ratio of error to margin decides.
Check worst(const std::vector<Check>& checks);

// Puts rel_error/margin in the counters; on failure marks the benchmark as an error.
void report_check(benchmark::State& state, const Check& check);

// Failures seen in this process (verification or OpenCL errors); main's exit code reads them.
void note_failure(const std::string& benchmark, const std::string& message);
int failure_count();

}  // namespace gb
