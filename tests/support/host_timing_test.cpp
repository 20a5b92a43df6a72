// support/host_timing: calibration of host-clock repetitions (no device needed).
#include "host_timing.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

void spin_for(double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(CalibrateHost, ReachesTargetWithAPowerOfTwo) {
  // Only bounds that hold on a loaded machine: a spin lasts at least its time, maybe longer.
  int total = 0;
  auto c = gb::calibrate_host([&](int reps) { total += reps; spin_for(reps * 100e-6); }, 2e-3);
  EXPECT_EQ(c.reps & (c.reps - 1), 0) << c.reps;
  EXPECT_LE(c.reps, 32);  // 20 repetitions of 100 us reach 2 ms
  EXPECT_GE(c.rep_seconds, 100e-6);
  EXPECT_GE(c.rep_seconds * c.reps, 2e-3);  // the calibrated run itself reached the target
  EXPECT_GE(total, 2 + c.reps);             // two warm-up runs of one repetition, then the rest
}

TEST(CalibrateHost, StopsAtMaximum) {
  auto c = gb::calibrate_host([](int) {}, 10.0, 256);
  EXPECT_EQ(c.reps, 256);
}

TEST(CalibrateHost, SlowWorkNeedsOneRepetition) {
  auto c = gb::calibrate_host([](int reps) { spin_for(reps * 3e-3); }, 2e-3);
  EXPECT_EQ(c.reps, 1);
  EXPECT_GE(c.rep_seconds, 3e-3);
}

}  // namespace
