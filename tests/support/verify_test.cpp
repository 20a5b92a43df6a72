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
