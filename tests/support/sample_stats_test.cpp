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
  const auto noisy = gb::summarize({1, 1.02, 0.99, 1.015, 1});  // 1.5%
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
  std::vector<double> wide, mid, near;
  for (int i = 0; i < 12; ++i) {
    wide.push_back(1.0 + 0.05 * (i % 4));   // relative IQR about 9%: above 4x the target
    mid.push_back(1.0 + 0.018 * (i % 4));   // about 2.6%: between 2x and 4x
    near.push_back(1.0 + 0.008 * (i % 4));  // 1.2%: above the target, within twice it
  }
  auto first = [](const std::vector<double>& v, size_t n) { return gb::summarize({v.begin(), v.begin() + n}); };
  EXPECT_FALSE(rule.done(first(wide, 3), 0.01));  // fewer than --min_samples
  EXPECT_TRUE(rule.done(first(wide, 4), 0.01));   // 4x the target at --min_samples: gives up
  EXPECT_FALSE(rule.converged(first(wide, 4)));
  EXPECT_FALSE(rule.done(first(mid, 4), 0.01));
  EXPECT_FALSE(rule.done(first(mid, 11), 0.01));
  EXPECT_TRUE(rule.done(gb::summarize(mid), 0.01));  // 2x the target at 3x --min_samples: gives up
  EXPECT_FALSE(rule.converged(gb::summarize(mid)));
  EXPECT_FALSE(rule.done(gb::summarize(near), 0.01));
}

TEST(BatchAtLeast, StepsOfAtMostAQuarter) {
  EXPECT_EQ(gb::batch_at_least(0.3, 1 << 20), 1);
  EXPECT_EQ(gb::batch_at_least(2.5, 1 << 20), 3);
  EXPECT_EQ(gb::batch_at_least(4.1, 1 << 20), 5);
  EXPECT_EQ(gb::batch_at_least(8.5, 1 << 20), 10);
  EXPECT_EQ(gb::batch_at_least(33, 1 << 20), 40);
  EXPECT_EQ(gb::batch_at_least(1000, 1 << 20), 1024);
  EXPECT_EQ(gb::batch_at_least(1e12, 4096), 4096);
  for (int n = 1; n < 100000; n = gb::batch_at_least(n + 0.5, 1 << 20)) {
    const int next = gb::batch_at_least(n + 0.5, 1 << 20);
    EXPECT_GT(next, n);
    EXPECT_LE(next, n < 4 ? n + 1 : n + n / 4) << n;
  }
}

TEST(StopRule, ExplicitMinTimeIgnoresNoise) {
  gb::StopRule rule;
  rule.fixed_time = 0.2;
  EXPECT_FALSE(rule.done(gb::summarize({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}), 0.1));
  EXPECT_TRUE(rule.done(gb::summarize({1, 9}), 0.2));
}

namespace {

TEST(StopRule, GrowsTheBatchOnlyWhileTheTimeLimitHoldsLongerSamples) {
  gb::StopRule rule;  // 10 samples, 1 s, 0.5%
  const auto noisy = gb::summarize({1e-3, 1.05e-3, 0.95e-3, 1.1e-3, 1e-3});  // 1 ms units, ~5% spread
  // 5 ms samples (batch 5) grown to 20 ms: 10 of them take 0.2 s of the 0.9 s left.
  EXPECT_TRUE(rule.grow(noisy, 5, 1 << 20, 0, 0.1, 5e-3));
  EXPECT_FALSE(rule.grow(noisy, 5, 1 << 20, gb::StopRule::kMaxGrowths, 0.1, 5e-3));  // grown enough
  EXPECT_FALSE(rule.grow(noisy, 5, 19, 0, 0.1, 5e-3));  // 20 units exceed the case's max_batch
  EXPECT_TRUE(rule.grow(noisy, 5, 20, 0, 0.1, 5e-3));
  EXPECT_FALSE(rule.grow(noisy, 20, 1 << 20, 1, 0.3, 20e-3));  // 80 ms samples: 10 of them do not fit
  // The same 5 ms of device time a sample, but 40 ms of wall (the enqueue and the lead of
  // launch-bound units): 10 grown samples would take 1.6 s.
  EXPECT_FALSE(rule.grow(noisy, 5, 1 << 20, 0, 0.1, 40e-3));
  const auto quiet = gb::summarize({1e-3, 1.0001e-3, 0.9999e-3});
  EXPECT_FALSE(rule.grow(quiet, 5, 1 << 20, 0, 0.1, 5e-3));  // the target is met: nothing to grow for
  gb::StopRule fixed;
  fixed.fixed_time = 0.5;  // an explicit --benchmark_min_time keeps its batch
  EXPECT_FALSE(fixed.grow(noisy, 5, 1 << 20, 0, 0.1, 5e-3));
  EXPECT_FALSE(rule.grow(gb::summarize({}), 5, 1 << 20, 0, 0.1, 5e-3));
}

}  // namespace
