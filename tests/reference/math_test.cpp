// reference/math: the float ulp, ulp errors, accuracy inputs, the edge sets, and the chain replay.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "reference/math.hpp"

namespace {

using ref::MathFunction;

TEST(FloatUlp, Binades) {
  EXPECT_EQ(ref::float_ulp(1.0), 0x1p-23);
  EXPECT_EQ(ref::float_ulp(1.5), 0x1p-23);
  EXPECT_EQ(ref::float_ulp(0.75), 0x1p-24);
  EXPECT_EQ(ref::float_ulp(-3.0), 0x1p-22);
  EXPECT_EQ(ref::float_ulp(0.0), 0x1p-149);
  EXPECT_EQ(ref::ulp_error(1.0f + 0x1p-23f * 2, 1.0), 2.0);
  EXPECT_TRUE(std::isinf(ref::ulp_error(NAN, 1.0)));
}

TEST(UlpError, SpecialValuesMustMatch) {
  EXPECT_EQ(ref::ulp_error(NAN, NAN), 0);
  EXPECT_TRUE(std::isinf(ref::ulp_error(1.0f, NAN)));
  EXPECT_EQ(ref::ulp_error(INFINITY, 1e39), 0);  // the reference overflows float: inf is right
  EXPECT_TRUE(std::isinf(ref::ulp_error(FLT_MAX, 1e39)));
  EXPECT_TRUE(std::isinf(ref::ulp_error(-INFINITY, INFINITY)));
  EXPECT_EQ(ref::ulp_error(-0.0f, -0.0), 0);
  EXPECT_TRUE(std::isinf(ref::ulp_error(0.0f, -0.0)));  // pow(-0, 3) is -0
  EXPECT_EQ(ref::ulp_error(0x1p-149f, 0.0), 1);  // a denormal one ulp from an underflowed zero
}

TEST(MathExact, Functions) {
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::rsqrt, 4.0, 0), 0.5);
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::pow, 4.0, 1.5), 8.0);
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::log, std::exp(2.0), 0), 2.0);
}

TEST(AccuracyInputs, CellCentresInDomain) {
  auto in = ref::math_accuracy_inputs(-1.0f, 2.0f, 4);
  EXPECT_EQ(in, (std::vector<float>{-0.75f, -0.25f, 0.25f, 0.75f}));
}

TEST(EdgeInputs, LargeArgumentsUpToFltMax) {
  const auto in = ref::math_edge_inputs(MathFunction::sin, ref::MathEdge::large, 4096, 1);
  int negative = 0, above_2e30 = 0;
  for (const auto& v : in) {
    EXPECT_TRUE(std::isfinite(v.x));
    EXPECT_GE(std::fabs(v.x), 0x1p17f);
    negative += v.x < 0;
    above_2e30 += std::fabs(v.x) > 0x1p100f;
  }
  EXPECT_GT(negative, 1800);
  EXPECT_GT(above_2e30, 400);
}

TEST(EdgeInputs, DoubleReferenceIsExactEnoughForLargeArguments) {
  // glibc reduces double arguments exactly; its long double functions are separate code. The two
  // agree far below the 4-5 ulp a device is allowed, up to 2^127.
  for (MathFunction f : {MathFunction::sin, MathFunction::cos, MathFunction::tan})
    for (const auto& v : ref::math_edge_inputs(f, ref::MathEdge::large, 4096, 2)) {
      const long double x = v.x;
      const long double want = f == MathFunction::sin ? sinl(x) : f == MathFunction::cos ? cosl(x) : tanl(x);
      const double got = ref::math_exact(f, v.x, 0);
      EXPECT_LT(std::fabs(static_cast<double>(got - want)) / ref::float_ulp(static_cast<double>(want)), 1e-6) << v.x;
    }
}

TEST(EdgeInputs, DenormalInputsAndResults) {
  int binades[23] = {};
  for (const auto& v : ref::math_edge_inputs(MathFunction::log, ref::MathEdge::denormal, 4096, 3)) {
    ASSERT_EQ(std::fpclassify(v.x), FP_SUBNORMAL);
    ASSERT_GT(v.x, 0);
    ++binades[std::ilogb(v.x) + 149];
  }
  for (int count : binades) EXPECT_GT(count, 0);  // 2^-149 .. 2^-127: every binade
  for (const auto& v : ref::math_edge_inputs(MathFunction::exp, ref::MathEdge::denormal, 4096, 4))
    EXPECT_LT(std::exp(static_cast<double>(v.x)), 0x1p-126);
}

TEST(EdgeInputs, PowSpecialCases) {
  const auto in = ref::math_edge_inputs(MathFunction::pow, ref::MathEdge::special, 4096, 5);
  ASSERT_EQ(in.size(), 4096u);
  int nan = 0, inf = 0, zero = 0, negative_zero = 0, one = 0, negative_base = 0;
  for (const auto& v : in) {
    EXPECT_NE(std::fpclassify(v.x), FP_SUBNORMAL);
    const double r = std::pow(static_cast<double>(v.x), static_cast<double>(v.y));
    EXPECT_FALSE(r != 0 && std::fabs(r) < 0x1p-126 && std::fabs(r) >= 0x1p-152) << v.x << "^" << v.y;
    nan += std::isnan(r);
    inf += std::isinf(r);
    zero += r == 0;
    negative_zero += r == 0 && std::signbit(r);
    one += r == 1 && (std::isnan(v.x) || std::isnan(v.y) || std::isinf(v.y));  // pow(NaN, 0), pow(1, NaN), pow(-1, inf)
    negative_base += v.x < 0 && std::isfinite(v.x) && v.y == std::trunc(v.y) && std::isfinite(r) && r != 0;
  }
  for (int count : {nan, inf, zero, negative_zero, negative_base}) EXPECT_GT(count, 20);
  EXPECT_GE(one, 7);
  EXPECT_EQ(ref::math_exact(MathFunction::pow, -0.0, 3.0), 0.0);
  EXPECT_TRUE(std::signbit(ref::math_exact(MathFunction::pow, -0.0, 3.0)));
}

TEST(ChainReplay, UnvariedRepeatsTheStartInput) {
  // c = phi = 0: every call sees lo + range * u, so the sum is iters copies of one result.
  ref::MathChain m{0.5f, 8.0f, 0.0f, 0.0f, 2.37f, 1, 5};
  auto got = ref::math_chain_replay(MathFunction::log, {11}, m);
  const float x = std::fma(ref::math_start_fraction(11, 0), 8.0f, 0.5f);
  const float y = static_cast<float>(std::log(static_cast<double>(x)));
  float want = 0;
  for (int i = 0; i < 5; ++i) want += y;
  EXPECT_EQ(got[0], want);
}

TEST(ChainReplay, VariedInputsStayInDomainAndMove) {
  // With feedback and a walk the sum differs from the unvaried one, and stays finite (log of
  // an input below lo would not be, for lo near 0).
  ref::MathChain varied{0.001f, 8.0f, 0.03f, 0.618034f, 2.37f, 2, 200};
  ref::MathChain fixed = varied;
  fixed.c = fixed.phi = 0;
  auto v = ref::math_chain_replay(MathFunction::log, {1, 2}, varied);
  auto f = ref::math_chain_replay(MathFunction::log, {1, 2}, fixed);
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_TRUE(std::isfinite(v[i]));
    EXPECT_NE(v[i], f[i]);
  }
}

}  // namespace
