// Verification of device output against a host reference: element-wise within per-element error
// bounds (check_bounded), exact equality, or relative L2 error against a margin (for outputs
// whose error bound is normwise). Margins and bounds are scaled by --tolerance_scale. A failure is
// loud: the benchmark becomes an error in the JSON and gpu_bench exits non-zero.
#pragma once
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "buffers.hpp"

namespace gb {

struct Check {
  double error = 0;   // relative L2 error, or the fraction of mismatches for exact checks
  double margin = 0;  // already scaled by --tolerance_scale
  std::string what;   // what was compared, for the message
  // worst(): every check combined, in order (error, margin), so that each margin is reported.
  std::vector<std::pair<double, double>> parts{};
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

// ---- error bounds ------------------------------------------------------------------------------
// Unit roundoff of T: 2^-24 for float, 2^-53 for double.
template <typename T>
constexpr double unit_roundoff() {
  return std::numeric_limits<T>::epsilon() / 2;
}

// Higham's gamma_n = n u / (1 - n u): a floating-point sum in which every term goes through at
// most n roundings (n additions, in any order or tree) is within gamma_n * sum |x_i| of the exact
// sum. Infinity where n u >= 1 (no bound).
double gamma_n(double n, double u);

// The error bound of a floating-point sum: gamma_depth * sum_abs; 0 where every term is a
// multiple of `quantum` (> 0) and sum_abs <= quantum / u, since every partial sum, in any order,
// is then a multiple of quantum below 2^digits quanta: exactly representable, so the sum is exact.
double sum_error_bound(double depth, double sum_abs, double u, double quantum = 0);

// ---- element-wise checks --------------------------------------------------------------------------
// A bound constant over consecutive blocks of `block` elements (element i's: per_block[i / block]),
// such as an FFT's per-transform bound: checked at memory speed, with no call per element.
struct BlockBounds {
  size_t block = 1;
  std::vector<double> per_block;
};

namespace detail {
// What one stretch of elements contributed to an element-wise check.
struct BoundedPart {
  double worst_ratio = -1, max_bound = 0, max_want = 0;  // -1: no element yet
  size_t worst = 0, unequal = 0;
};
// Elements [begin, end) against one bound `b`, scaled by `scale` (--tolerance_scale): the largest
// difference decides.
template <typename Got, typename Want>
void check_stretch(const Got& got, const Want& want, size_t begin, size_t end, double b, double scale,
                   BoundedPart& part) {
  // One pass that the compiler vectorizes; the worst element is looked for only where it matters.
  double max_diff = 0, max_want = 0;
  size_t unequal = 0, nans = 0;
  for (size_t i = begin; i < end; ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    const double diff = std::abs(g - w), abs_want = std::abs(w);
    max_diff = diff > max_diff ? diff : max_diff;
    max_want = abs_want > max_want ? abs_want : max_want;
    nans += diff != diff;
    unequal += !(diff == 0);
  }
  const double ratio = nans > 0 ? INFINITY : max_diff == 0 ? 0 : b * scale > 0 ? max_diff / (b * scale) : INFINITY;
  if (end > begin && ratio > part.worst_ratio) {
    part.worst_ratio = ratio;
    part.worst = begin;
    for (size_t i = begin; i < end; ++i) {
      const double diff = std::abs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
      if (nans > 0 ? diff != diff : diff == max_diff) {
        part.worst = i;
        break;
      }
    }
  }
  part.max_bound = std::max(part.max_bound, b);
  part.max_want = std::max(part.max_want, max_want);
  part.unequal += unequal;
}
}  // namespace detail

// Element-wise: passes when every |got_i - want_i| <= bound(i) (absolute, scaled by
// --tolerance_scale; a bound of 0 demands equality) and got_i is finite, so one wrong element fails
// however many others are right (a relative L2 error over n elements hides it). Reported on the
// relative scale of the largest |want_i|: margin = max_i bound(i) / max_i |want_i|, error = that
// times the worst element's share of its bound, so error <= margin exactly when every element is
// within its bound. Where every bound is 0, error is the fraction of unequal elements, margin 0.
// The worst element is named in `what`. Got and want: std::vector or HostSpan; bound: a
// function of the index, one number for every element, or BlockBounds.
template <typename Got, typename Want, typename Bound>
Check check_bounded(const Got& got, const Want& want, const Bound& bound, const std::string& what) {
  if (got.size() != want.size()) return {INFINITY, scaled_margin(0), what + " (size mismatch)"};
  auto bound_of = [&](size_t i) -> double {
    if constexpr (std::is_arithmetic_v<Bound>)
      return static_cast<double>(bound);
    else if constexpr (std::is_same_v<Bound, BlockBounds>)
      return bound.per_block[i / bound.block];
    else
      return static_cast<double>(bound(i));
  };
  const double scale = scaled_margin(1.0);
  const size_t n = got.size(), blocks = (n + kVerifyBlock - 1) / kVerifyBlock;
  std::vector<detail::BoundedPart> part(blocks);
  parallel_blocks(blocks, [&](size_t blk) {
    detail::BoundedPart& b = part[blk];
    const size_t begin = blk * kVerifyBlock, end = std::min(n, begin + kVerifyBlock);
    if constexpr (std::is_arithmetic_v<Bound>) {
      detail::check_stretch(got, want, begin, end, static_cast<double>(bound), scale, b);
    } else if constexpr (std::is_same_v<Bound, BlockBounds>) {
      for (size_t i = begin; i < end;) {
        const size_t stop = std::min(end, (i / bound.block + 1) * bound.block);
        detail::check_stretch(got, want, i, stop, bound.per_block[i / bound.block], scale, b);
        i = stop;
      }
    } else {
      for (size_t i = begin; i < end; ++i) detail::check_stretch(got, want, i, i + 1, bound_of(i), scale, b);
    }
  });
  detail::BoundedPart all;
  for (const auto& b : part) {
    if (b.worst_ratio > all.worst_ratio) {
      all.worst_ratio = b.worst_ratio;
      all.worst = b.worst;
    }
    all.max_bound = std::max(all.max_bound, b.max_bound);
    all.max_want = std::max(all.max_want, b.max_want);
    all.unequal += b.unequal;
  }
  all.worst_ratio = std::max(all.worst_ratio, 0.0);
  std::string described = what;
  if (n > 0) {
    const size_t i = all.worst;
    described += " (worst element " + std::to_string(i) + ": got " + std::to_string(static_cast<double>(got[i])) +
                 ", want " + std::to_string(static_cast<double>(want[i])) + ", bound " +
                 std::to_string(bound_of(i) * scale) + ")";
  }
  if (all.max_bound == 0) {  // exact everywhere
    const double error = n == 0 ? 0.0 : static_cast<double>(all.unequal) / static_cast<double>(n);
    return {error, 0, described};
  }
  const double relative = all.max_bound / (all.max_want > 0 ? all.max_want : 1.0);
  // error <= margin  <=>  worst_ratio <= 1 (the ratio already includes --tolerance_scale).
  return {all.worst_ratio * relative * scale, relative * scale, described};
}

// Element-wise, every element within margin x the largest |want_i| (reported margin: `margin`):
// for outputs whose error grows with the field's scale rather than the element's own (a
// simulation's state after a few steps), where a relative L2 error would hide a wrong element.
template <typename Got, typename Want>
Check check_max_relative(const Got& got, const Want& want, double margin, const std::string& what) {
  double scale = 0;
  for (size_t i = 0; i < want.size(); ++i) scale = std::max(scale, std::abs(static_cast<double>(want[i])));
  return check_bounded(got, want, margin * (scale > 0 ? scale : 1.0), what);
}

// Combines checks of several outputs: the worst ratio of error to margin decides; every check's
// error and margin are kept in `parts`.
Check worst(const std::vector<Check>& checks);

// Puts rel_error/margin in the counters (the deciding check's), and for a combination of checks
// rel_error_<k>/margin_<k> of each, k from 1 in the case's order, so that every margin shows in the
// JSON (tests/cases/margins.py holds each to its bound); on failure marks the benchmark as an error.
void report_check(benchmark::State& state, const Check& check);

// Failures seen in this process (verification or OpenCL errors); main's exit code reads them.
void note_failure(const std::string& benchmark, const std::string& message);
int failure_count();

}  // namespace gb
