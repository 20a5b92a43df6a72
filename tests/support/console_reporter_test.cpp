// support/console_reporter: every counter with its unit.
#include "console_reporter.hpp"

#include <gtest/gtest.h>

namespace {

TEST(FormatCounter, RatesCarryTheirUnit) {
  EXPECT_EQ(gb::format_counter("bytes_per_second", 4.54e9, true), "4.54 GB/s");
  EXPECT_EQ(gb::format_counter("flop_per_second", 6.53e13, true), "65.3 TFLOP/s");
  EXPECT_EQ(gb::format_counter("items_per_second", 9.87e7, true), "98.7 M items/s");
  EXPECT_EQ(gb::format_counter("mlups_per_second", 12.5, true), "12.5 mlups/s");
}

TEST(FormatCounter, DescriptiveCountersReadAsWhatTheyAre) {
  EXPECT_EQ(gb::format_counter("noise", 0.00098, false), "0.098%");
  EXPECT_EQ(gb::format_counter("batch", 1024, false), "1024");
  EXPECT_EQ(gb::format_counter("samples", 10, false), "10");
  EXPECT_EQ(gb::format_counter("margin", 1.5e-6, false), "1.5e-06");
  EXPECT_EQ(gb::format_counter("copy_fraction", 0.978, false), "0.978");
  EXPECT_EQ(gb::format_counter("bytes_per_pass", 1.68e7, false), "16.8 MB");
}

}  // namespace
