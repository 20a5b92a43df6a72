// The batch calibration: long enough for the timer, and no longer than the units can be timed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "measure.hpp"
#include "sample_stats.hpp"

namespace {

// A device whose runtime leaves gaps between short units past 1024 of them in one batch (as
// NVIDIA's did past some 2000 queued commands): 1 us a unit up to 1024, then 10% more per doubling.
gb::Timer gapped_timer() {
  return [](int units) {
    const double per_unit = 1e-6 * (1 + 0.1 * std::max(0.0, std::log2(units / 1024.0)));
    return gb::Sample{per_unit * units, 0};
  };
}

TEST(Calibrate, SteadyUnitsGetTheSmallestBatchThatLastsTheTarget) {
  const gb::Timer steady = [](int units) { return gb::Sample{1e-6 * units, 0}; };
  const int units = gb::calibrate(steady, 5e-3, 1e-3, 1 << 20, true);
  EXPECT_GE(units * 1e-6, 5e-3);
  EXPECT_EQ(units, gb::batch_at_least(5000, 1 << 20));
  EXPECT_EQ(gb::calibrate(steady, 5e-3, 1e-3, 1 << 20, false), units);
  EXPECT_EQ(gb::calibrate(steady, 5e-3, 1e-3, 1000, true), 1000);  // the case's max_batch
}

TEST(Calibrate, ABatchSlowerPerUnitThanItsQuarterIsCutToTheQuarter) {
  const int unchecked = gb::calibrate(gapped_timer(), 5e-3, 1e-3, 1 << 20, false);
  EXPECT_GT(unchecked, 4096);  // the target alone lands in the gaps
  // 5120 units take 23% longer per unit than 1280, which take 3% longer than 320; 320 units last
  // 0.32 ms, under the 1 ms floor, so 1280 it is.
  EXPECT_EQ(gb::calibrate(gapped_timer(), 5e-3, 1e-3, 1 << 20, true), unchecked / 4);
  // With a lower floor the second quarter is taken too (at most two).
  EXPECT_EQ(gb::calibrate(gapped_timer(), 5e-3, 0.1e-3, 1 << 20, true), unchecked / 16);
}

TEST(Calibrate, ASlowerBatchIsConfirmedOnTheMedianOfThreeSamples) {
  // Steady 1 us units; the batch of 5120 is 10% slow in the samples `slow` lists (a stall of
  // the host once; gaps that come and go in most samples).
  auto timer = [](int* big_runs, std::vector<bool> slow) {
    return [big_runs, slow](int units) {
      const bool stalled = units == 5120 && slow[static_cast<size_t>((*big_runs)++)];
      return gb::Sample{(stalled ? 1.1e-6 : 1e-6) * units, 0};
    };
  };
  int big_runs = 0;
  EXPECT_EQ(gb::calibrate(timer(&big_runs, {true, false, false}), 5e-3, 1e-3, 1 << 20, true), 5120);
  EXPECT_EQ(big_runs, 3);  // the calibrating run and two more
  big_runs = 0;
  EXPECT_EQ(gb::calibrate(timer(&big_runs, {true, false, true, false, false, false}), 5e-3, 1e-3, 1 << 20, true), 1280);
}

TEST(Calibrate, LongUnitsAreNotChecked) {
  int calls = 0;
  const gb::Timer slow = [&calls](int) { ++calls; return gb::Sample{10e-3, 0}; };  // one unit: twice the target
  EXPECT_EQ(gb::calibrate(slow, 5e-3, 1e-3, 1 << 20, true), 1);
  EXPECT_EQ(calls, 2);  // the warm-up and one confirming run
  // 200 us units, 10% slower per unit in the batch of 28 than in its quarter of 7 (1.4 ms): kept.
  const gb::Timer gapped_long = [](int units) { return gb::Sample{(units >= 16 ? 220e-6 : 200e-6) * units, 0}; };
  EXPECT_EQ(gb::calibrate(gapped_long, 5e-3, 1e-3, 1 << 20, true), gb::batch_at_least(25, 1 << 20));
}

}  // namespace
