// The estimate (median), its noise (relative interquartile range) and the stopping rule.
#include "sample_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

TEST(SampleStats, MedianAndQuartilesInterpolate) {
  const auto s = gb::summarize({4, 1, 3, 2, 5});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.noise, 2.0 / 3.0);
}

TEST(SampleStats, NoiseUnknownBelowThreeSamples) {
  EXPECT_TRUE(std::isinf(gb::summarize({1.0, 1.1}).noise));
  EXPECT_TRUE(std::isinf(gb::summarize({}).noise));
}

TEST(SampleStats, OneOutlierDoesNotInflateTheNoise) {
  std::vector<double> v(20, 1.0);
  for (size_t i = 0; i < v.size(); ++i) v[i] += 0.001 * static_cast<double>(i % 5);
  const double clean = gb::summarize(v).noise;
  v.back() = 50.0;  // a preempted sample
  EXPECT_LT(gb::summarize(v).noise, 2 * clean);
  EXPECT_LT(gb::summarize(v).median, 1.01);
}

TEST(SampleStats, NoiseIsTheSpreadOfSamplesNotOfTheMedian) {
  std::mt19937 rng(7);
  std::normal_distribution<double> d(1.0, 0.01);
  std::vector<double> v;
  for (int i = 0; i < 4000; ++i) v.push_back(d(rng));
  // The IQR of N(1, 0.01) is 1.349 * 0.01, whatever the number of samples.
  EXPECT_NEAR(gb::summarize(v).noise, 0.01349, 0.0006);
  v.resize(40);
  EXPECT_NEAR(gb::summarize(v).noise, 0.01349, 0.005);
}

TEST(StopRule, StopsOnceMinSamplesAndNoiseAreMet) {
  gb::StopRule rule;
  rule.min_samples = 5;
  rule.max_noise = 0.01;
  const auto quiet = gb::summarize({1, 1.001, 0.999, 1, 1.0005});
  EXPECT_TRUE(rule.done(quiet, 0.01));
  EXPECT_FALSE(rule.done(gb::summarize({1, 1.001, 0.999, 1}), 0.01));  // too few
  const auto noisy = gb::summarize({1, 2, 0.5, 1.5, 3});
  EXPECT_FALSE(rule.done(noisy, 0.01));
  EXPECT_FALSE(rule.converged(noisy));
}

TEST(StopRule, TimeLimitWinsButNeedsThreeSamples) {
  gb::StopRule rule;
  rule.max_time = 0.5;
  EXPECT_FALSE(rule.done(gb::summarize({1, 2}), 0.9));
  EXPECT_TRUE(rule.done(gb::summarize({1, 2, 3}), 0.5));
  EXPECT_FALSE(rule.done(gb::summarize({1, 2, 3}), 0.4));
  // Units longer than half the limit: one sample is all the limit allows.
  EXPECT_TRUE(rule.done(gb::summarize({6.0}), 6.0));
}

TEST(StopRule, GivesUpOnANoiseFarAboveTheTarget) {
  gb::StopRule rule;
  rule.min_samples = 4;
  rule.max_noise = 0.01;
  std::vector<double> wide, near;
  for (int i = 0; i < 12; ++i) {
    wide.push_back(1.0 + 0.05 * (i % 4));    // relative IQR far above 2%
    near.push_back(1.0 + 0.008 * (i % 4));   // 1.2%: above the target, within twice it
  }
  EXPECT_FALSE(rule.done(gb::summarize(std::vector<double>(wide.begin(), wide.begin() + 11)), 0.01));
  EXPECT_TRUE(rule.done(gb::summarize(wide), 0.01));
  EXPECT_FALSE(rule.converged(gb::summarize(wide)));
  EXPECT_FALSE(rule.done(gb::summarize(near), 0.01));
}

TEST(StopRule, ExplicitMinTimeIgnoresNoise) {
  gb::StopRule rule;
  rule.fixed_time = 0.2;
  EXPECT_FALSE(rule.done(gb::summarize({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}), 0.1));
  EXPECT_TRUE(rule.done(gb::summarize({1, 9}), 0.2));
}
