// reference/math: the float ulp, ulp errors, accuracy inputs, and the chain replay.
#include <gtest/gtest.h>

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

TEST(MathExact, Functions) {
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::rsqrt, 4.0, 0), 0.5);
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::pow, 4.0, 1.5), 8.0);
  EXPECT_DOUBLE_EQ(ref::math_exact(MathFunction::log, std::exp(2.0), 0), 2.0);
}

TEST(AccuracyInputs, CellCentresInDomain) {
  auto in = ref::math_accuracy_inputs(-1.0f, 2.0f, 4);
  EXPECT_EQ(in, (std::vector<float>{-0.75f, -0.25f, 0.25f, 0.75f}));
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
