// support/bytes_label: names of byte counts.
#include "bytes_label.hpp"

#include <gtest/gtest.h>

namespace {

TEST(BytesLabel, LargestExactUnit) {
  EXPECT_EQ(gb::bytes_label(4096), "4KiB");
  EXPECT_EQ(gb::bytes_label(size_t(1) << 30), "1GiB");
  EXPECT_EQ(gb::bytes_label(size_t(256) << 20), "256MiB");
  EXPECT_EQ(gb::bytes_label(3072), "3KiB");
  EXPECT_EQ(gb::bytes_label(1536), "1536B");
  EXPECT_EQ(gb::bytes_label(100), "100B");
  EXPECT_EQ(gb::bytes_label(1025), "1025B");
  EXPECT_EQ(gb::bytes_label(0), "0B");
}

}  // namespace
