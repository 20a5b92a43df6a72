// support/telemetry: the names of the throttle reasons that count, and the test hook's readings.
#include "telemetry.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Telemetry, NamesTheReasonsThatHoldTheClockDown) {
  EXPECT_EQ(gb::throttle_names(0x40 | 0x8), "hardware slowdown, thermal (hardware)");
  EXPECT_EQ(gb::throttle_names(0x4), "power cap");
  EXPECT_EQ(gb::throttle_names(0x1 | 0x2), "");  // idle, application clocks: not throttling
  EXPECT_EQ(0x4 & gb::kThrottleMask, 0u);  // the power cap alone flags nothing
}

TEST(Telemetry, TheTestHookSetsOnlyWhatItNames) {
  const auto r = gb::Telemetry::parse_test_hook("throttle=0x20,sm_clock=900,other_processes=2");
  EXPECT_EQ(r.throttle_reasons, 0x20u);
  EXPECT_EQ(r.sm_clock_mhz, 900.0);
  EXPECT_EQ(r.other_processes, 2);
  EXPECT_FALSE(r.temperature_c);  // absent, never zero
  EXPECT_FALSE(r.power_w);
  EXPECT_FALSE(gb::Telemetry::parse_test_hook("").throttle_reasons);
}

TEST(Telemetry, OwnChildrenAreNotOtherProcesses) {
  // Our PID in NVML's list: the build helpers (41, 42) are ours, 77 is another application.
  EXPECT_EQ(gb::other_processes_of(4, {10, 41, 42, 77}, 10, {41, 42}), 1);
  EXPECT_EQ(gb::other_processes_of(3, {10, 41, 42}, 10, {41, 42}), 0);
  // A helper that has exited is no longer in `children`: its lingering entry counts.
  EXPECT_EQ(gb::other_processes_of(3, {10, 41, 42}, 10, {41}), 1);
  // Entries beyond the buffer are others.
  EXPECT_EQ(gb::other_processes_of(5, {10, 41}, 10, {41}), 3);
  // In a PID namespace (our PID not listed): one entry for us and one per running child.
  EXPECT_EQ(gb::other_processes_of(9, {9001, 9002}, 10, {41, 42, 43, 44, 45, 46, 47, 48}), 0);
  EXPECT_EQ(gb::other_processes_of(3, {9001, 9002, 9003}, 10, {41}), 1);
  EXPECT_EQ(gb::other_processes_of(1, {9001}, 10, {41, 42}), 0);
}

}  // namespace
