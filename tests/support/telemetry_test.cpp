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

}  // namespace
