// support/verify: relative error, exact checks, margins and their scaling.
#include "verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "options.hpp"

namespace {

TEST(RelativeL2, ZeroForEqualAndScalesWithDifference) {
  std::vector<float> want{1, 2, 3, 4};
  EXPECT_EQ(gb::relative_l2(want.data(), want.data(), want.size()), 0.0);
  std::vector<float> got{1, 2, 3, 4.3f};
  EXPECT_NEAR(gb::relative_l2(got.data(), want.data(), 4), 0.3 / std::sqrt(30.0), 1e-7);
}

TEST(RelativeL2, NonFiniteOutputFails) {
  std::vector<float> want{1, 2}, got{1, NAN};
  EXPECT_TRUE(std::isinf(gb::relative_l2(got.data(), want.data(), 2)));
  auto c = gb::check_relative(got, want, 1e3, "nan");
  EXPECT_FALSE(c.passed());
}

TEST(CheckRelative, MarginScalesWithToleranceFlag) {
  std::vector<double> want{1, 1}, got{1, 1.001};
  EXPECT_FALSE(gb::check_relative(got, want, 1e-4, "x").passed());
  gb::options().tolerance_scale = 100;
  EXPECT_TRUE(gb::check_relative(got, want, 1e-4, "x").passed());
  gb::options().tolerance_scale = 1;
}

TEST(CheckExact, OneMismatchFails) {
  std::vector<int> a{1, 2, 3}, b{1, 2, 4};
  EXPECT_TRUE(gb::check_exact(a, a, "same").passed());
  auto c = gb::check_exact(a, b, "diff");
  EXPECT_FALSE(c.passed());
  EXPECT_NEAR(c.error, 1.0 / 3, 1e-12);
}

TEST(CheckExact, SizeMismatchFails) {
  std::vector<int> a{1, 2, 3}, b{1, 2};
  EXPECT_FALSE(gb::check_exact(a, b, "size").passed());
}

TEST(Worst, PicksHighestErrorToMarginRatio) {
  gb::Check a{1e-6, 1e-5, "a"}, b{5e-4, 1e-3, "b"}, c{0, 0, "c"};
  EXPECT_EQ(gb::worst({a, b, c}).what, "b");
  gb::Check bad{1, 0, "exact"};
  EXPECT_EQ(gb::worst({a, bad}).what, "exact");
  // Every check's error and margin are kept, nested combinations flattened, in order.
  const auto all = gb::worst({a, gb::worst({b, c})});
  ASSERT_EQ(all.parts.size(), 3u);
  EXPECT_EQ(all.parts[0].second, 1e-5);
  EXPECT_EQ(all.parts[1].second, 1e-3);
  EXPECT_EQ(all.parts[2].second, 0);
}

}  // namespace

#include "buffers.hpp"

namespace {

TEST(RandomVector, DeterministicInRangeAndNotConstant) {
  auto a = gb::random_vector<float>(3000000, 7, -1, 1);
  auto b = gb::random_vector<float>(3000000, 7, -1, 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, gb::random_vector<float>(3000000, 8, -1, 1));
  double sum = 0;
  for (float x : a) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LE(x, 1.0f);
    sum += x;
  }
  EXPECT_LT(std::fabs(sum / a.size()), 0.01);
  EXPECT_NE(a[0], a[1]);
  auto ints = gb::random_vector<int>(1000, 1, 0, 9);
  EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), 0);
  EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 9);
}

}  // namespace

// ---- element-wise checks and error bounds (issue #14) -----------------------------------------
#include <numeric>

#include "measure.hpp"
#include "reference/global_bandwidth.hpp"

namespace {

// Sums `x` in float the way a GPU reduction does: a chain per work item over a grid stride, then
// a tree over the partials.
float device_like_sum(const std::vector<float>& x, size_t stride) {
  std::vector<float> partial(stride, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) partial[i % stride] += x[i];
  while (partial.size() > 1) {
    std::vector<float> next((partial.size() + 1) / 2, 0.0f);
    for (size_t i = 0; i < partial.size(); ++i) next[i / 2] += partial[i];
    partial.swap(next);
  }
  return partial[0];
}

std::vector<float> float_exclusive_scan(const std::vector<float>& x) {
  std::vector<float> out(x.size());
  float run = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = run;
    run += x[i];
  }
  return out;
}

std::vector<double> double_exclusive_scan(const std::vector<float>& x) {
  std::vector<double> out(x.size());
  double run = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = run;
    run += x[i];
  }
  return out;
}

TEST(CheckBounded, OneElementOutsideItsBoundFails) {
  std::vector<double> want(1000, 1.0);
  std::vector<float> got(want.begin(), want.end());
  EXPECT_TRUE(gb::check_bounded(got, want, 1e-6, "same").passed());
  got[637] = 1.0f + 2e-6f;
  const auto c = gb::check_bounded(got, want, 1e-6, "one off");
  EXPECT_FALSE(c.passed());
  EXPECT_NE(c.what.find("worst element 637"), std::string::npos) << c.what;
  // Where a relative L2 error over the whole output passes the same element.
  EXPECT_TRUE(gb::check_relative(got, want, 1e-6, "relative L2").passed());
  // Within a per-element bound: passes, and the error is the share of the bound on margin's scale.
  const auto loose = gb::check_bounded(got, want, [](size_t i) { return i == 637 ? 4e-6 : 1e-6; }, "per element");
  EXPECT_TRUE(loose.passed());
  EXPECT_NEAR(loose.margin, 4e-6, 1e-12);
  EXPECT_NEAR(loose.error / loose.margin, 0.5, 0.01);
}

TEST(CheckBounded, ZeroBoundsDemandEqualityAndNonFiniteFails) {
  std::vector<double> want{1, 2, 3, 4};
  std::vector<float> got{1, 2, 3, 4};
  auto exact = gb::check_bounded(got, want, 0.0, "exact");
  EXPECT_TRUE(exact.passed());
  EXPECT_EQ(exact.margin, 0);
  got[3] = 4.0f + 0x1p-20f;
  exact = gb::check_bounded(got, want, 0.0, "exact");
  EXPECT_FALSE(exact.passed());
  EXPECT_NEAR(exact.error, 0.25, 1e-12);
  got[3] = NAN;
  EXPECT_FALSE(gb::check_bounded(got, want, 1e3, "nan").passed());
  EXPECT_FALSE(gb::check_bounded(std::vector<float>{1}, want, 1.0, "size").passed());
}

TEST(CheckBounded, BlockBoundsAreThePerElementBoundOfEachBlock) {
  // Three blocks of 400 (the last one short) spanning several of the check's parallel blocks'
  // boundaries at no particular place: the same verdicts as the bound as a function of the index.
  const size_t n = 1000, block = 400;
  const gb::BlockBounds bounds{block, {1e-6, 4e-6, 2e-6}};
  auto per_element = [&](size_t i) { return bounds.per_block[i / block]; };
  std::vector<double> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = 1.0 + 0.001 * static_cast<double>(i % 7);
  std::vector<float> got(want.begin(), want.end());
  for (size_t wrong : {size_t(5), size_t(399), size_t(400), size_t(799), size_t(999)}) {
    for (double share : {0.5, 1.5}) {
      std::vector<double> g(want);
      g[wrong] += share * per_element(wrong);
      const auto blocks = gb::check_bounded(g, want, bounds, "blocks");
      const auto elements = gb::check_bounded(g, want, per_element, "elements");
      EXPECT_EQ(blocks.passed(), share < 1) << wrong;
      EXPECT_EQ(blocks.passed(), elements.passed()) << wrong;
      EXPECT_NEAR(blocks.error, elements.error, 1e-15) << wrong;
      EXPECT_DOUBLE_EQ(blocks.margin, elements.margin);
      EXPECT_NE(blocks.what.find("worst element " + std::to_string(wrong)), std::string::npos) << blocks.what;
    }
  }
  got[401] = NAN;
  const auto nan = gb::check_bounded(got, want, bounds, "nan");
  EXPECT_FALSE(nan.passed());
  EXPECT_NE(nan.what.find("worst element 401"), std::string::npos) << nan.what;
}

TEST(CheckBounded, ToleranceScaleScalesEveryBound) {
  std::vector<double> want{1, 1};
  std::vector<double> got{1, 1.001};
  EXPECT_FALSE(gb::check_bounded(got, want, 1e-4, "x").passed());
  gb::options().tolerance_scale = 100;
  EXPECT_TRUE(gb::check_bounded(got, want, 1e-4, "x").passed());
  gb::options().tolerance_scale = 1;
}

TEST(SumErrorBound, GammaAndExactSums) {
  const double u = gb::unit_roundoff<float>();
  EXPECT_EQ(u, 0x1p-24);
  EXPECT_NEAR(gb::gamma_n(1000, u), 1000 * u / (1 - 1000 * u), 1e-18);
  EXPECT_TRUE(std::isinf(gb::gamma_n(1 << 25, u)));
  EXPECT_EQ(gb::sum_error_bound(1e6, 1e6, u, 1.0 / 16), 0);  // 1e6 <= 2^20: exact
  EXPECT_GT(gb::sum_error_bound(1e6, 2e6, u, 1.0 / 16), 0);
  EXPECT_GT(gb::sum_error_bound(10, 10, u), 0);
}

// The bound holds: float sums of continuous data in a device-like order stay within
// gamma_depth * sum |x| of the double sum.
TEST(SumErrorBound, HoldsForFloatSumsInAnyOrder) {
  const auto x = gb::random_vector<float>(1 << 16, 5, 0.0, 1.0);
  const double exact = std::accumulate(x.begin(), x.end(), 0.0);
  for (size_t stride : {1, 7, 256, 4096}) {
    const double depth = static_cast<double>(x.size() / stride + 1 + 16);
    const double bound = gb::sum_error_bound(depth, exact, gb::unit_roundoff<float>());
    EXPECT_LE(std::abs(device_like_sum(x, stride) - exact), bound) << stride;
  }
}

// Class 4 of issue #14: a reduction that drops one element. With continuous inputs in [0, 1) the
// old check (relative error 1e-5) passes it, and so would any bound the sum's rounding allows;
// with the case's inputs (multiples of 1/8, exactly summable) the bound is 0 and it fails.
TEST(DroppedElement, FailsTheReductionCheck) {
  const size_t n = (size_t(1) << 21) + 3;
  const auto continuous = gb::random_vector<float>(n, 62, 0.0, 1.0);
  std::vector<float> dropped = continuous;
  dropped.pop_back();
  const double want = std::accumulate(continuous.begin(), continuous.end(), 0.0);
  EXPECT_TRUE(gb::check_relative(std::vector<float>{device_like_sum(dropped, 65792)}, std::vector<double>{want}, 1e-5,
                                 "old margin")
                  .passed());

  const double q = 0.125;
  const auto x = gb::random_multiples<float>(n, 62, 1, 7, q);
  const double sum = std::accumulate(x.begin(), x.end(), 0.0);
  const double bound = gb::sum_error_bound(1000, sum, gb::unit_roundoff<float>(), q);
  EXPECT_EQ(bound, 0);
  const std::vector<double> want_q{sum};
  EXPECT_TRUE(gb::check_bounded(std::vector<float>{device_like_sum(x, 65792)}, want_q, bound, "sum").passed());
  std::vector<float> x_dropped(x.begin(), x.end() - 1);
  EXPECT_FALSE(gb::check_bounded(std::vector<float>{device_like_sum(x_dropped, 65792)}, want_q, bound, "sum").passed());
  std::vector<float> x_middle = x;
  x_middle[n / 2] = 0;  // an element in the middle, at a chunk boundary
  EXPECT_FALSE(gb::check_bounded(std::vector<float>{device_like_sum(x_middle, 65792)}, want_q, bound, "sum").passed());
}

// Class 4: a scan that drops one element near the end: relative L2 (1e-5) passes it; the
// element-wise check with the case's bound fails it, and passes the correct scan.
TEST(DroppedElement, FailsTheScanCheck) {
  const size_t n = 1000003;
  const double q = 1.0 / 16;
  const auto x = gb::random_multiples<float>(n, 72, 1, 15, q);
  const auto want = double_exclusive_scan(x);
  const double u = gb::unit_roundoff<float>(), depth = 4096;
  auto bound = [&](size_t i) { return gb::sum_error_bound(depth, want[i], u, q); };
  EXPECT_TRUE(gb::check_bounded(float_exclusive_scan(x), want, bound, "scan").passed());
  auto x_dropped = x;
  x_dropped[n - 10] = 0;
  const auto wrong = float_exclusive_scan(x_dropped);
  EXPECT_TRUE(gb::check_relative(wrong, want, 1e-5, "old margin").passed());
  EXPECT_FALSE(gb::check_bounded(wrong, want, bound, "scan").passed());
}

// Class 3 of issue #14: the persistent read with 4 passes, done as 1 pass with its sums scaled
// by 4 (or 2 passes by 2), matched the old reference (one pass times the passes); with the groups
// rotating per pass it fails the reference, while the kernel's own walk matches it exactly.
TEST(FewerPassesScaled, FailTheRotatedPassesReference) {
  const size_t width = 4, work_items = 512, group = 128, elements = 5000;
  const unsigned passes = 4;
  const auto in = gb::random_multiples<float>(elements * width, 3, -128, 127, 1.0 / 128);
  const auto want = ref::bandwidth_read_sums_persistent(in, width, work_items, group, passes);
  // The kernel's walk: in pass p, work item g reads lane (g + p * group) % work_items.
  std::vector<float> kernel(work_items, 0.0f);
  for (size_t g = 0; g < work_items; ++g)
    for (unsigned p = 0; p < passes; ++p)
      for (size_t i = (g + p * group) % work_items; i < elements; i += work_items)
        for (size_t k = 0; k < width; ++k) kernel[g] += in[i * width + k];
  EXPECT_TRUE(gb::check_bounded(kernel, want, 0.0, "read sums").passed());
  const auto one_pass = ref::bandwidth_read_sums_grid(in, width, work_items);
  for (unsigned done : {1u, 2u}) {
    std::vector<float> scaled(work_items, 0.0f);
    for (size_t g = 0; g < work_items; ++g) {
      double s = 0;
      for (unsigned p = 0; p < done; ++p) s += one_pass[(g + p * group) % work_items];
      scaled[g] = static_cast<float>(s * passes / done);
    }
    EXPECT_FALSE(gb::check_bounded(scaled, want, 0.0, "read sums").passed()) << done << " passes";
  }
  // Without the rotation (the old kernel and reference), 1 pass times 4 matched.
  std::vector<double> old_want(one_pass);
  for (double& w : old_want) w *= passes;
  std::vector<float> old_scaled(one_pass.begin(), one_pass.end());
  for (float& s : old_scaled) s *= passes;
  EXPECT_TRUE(gb::check_bounded(old_scaled, old_want, 0.0, "old reference").passed());
}

// Class 6 of issue #14: a measurement with a check must name its poison or why it has none.
TEST(Poison, IsStructural) {
  const gb::Unit unit = [](gb::Batch&) {};
  const auto check = [] { return gb::Check{}; };
  EXPECT_FALSE(gb::Measurement::device(unit).check(check).missing_poison().empty());
  EXPECT_FALSE(gb::Measurement::timed([](int) { return gb::Sample{}; }).check(check).missing_poison().empty());
  EXPECT_TRUE(gb::Measurement::device(unit).check(check).poison([] {}).missing_poison().empty());
  EXPECT_TRUE(gb::Measurement::device(unit).check(check).no_poison("its own launch").missing_poison().empty());
  EXPECT_TRUE(gb::Measurement::device(unit).missing_poison().empty());  // nothing checked
}

}  // namespace
