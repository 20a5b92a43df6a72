// support/copy_bandwidth: the size of the reference copy.
#include "copy_bandwidth.hpp"

#include <gtest/gtest.h>

namespace {

constexpr size_t GiB = size_t(1) << 30, MiB = size_t(1) << 20;

TEST(CopyBandwidth, GigabyteOnGpusWithinLimits) {
  EXPECT_EQ(gb::copy_bandwidth_buffer_bytes(true, 35 * GiB, 140 * GiB), GiB);
  EXPECT_EQ(gb::copy_bandwidth_buffer_bytes(true, 512 * MiB, 140 * GiB), 512 * MiB);
  EXPECT_EQ(gb::copy_bandwidth_buffer_bytes(true, 35 * GiB, 4 * GiB), 512 * MiB);
}

TEST(CopyBandwidth, SmallOnCpus) {
  EXPECT_EQ(gb::copy_bandwidth_buffer_bytes(false, 8 * GiB, 24 * GiB), 64 * MiB);
  EXPECT_EQ(gb::copy_bandwidth_buffer_bytes(false, 8 * GiB, 64 * MiB), 8 * MiB);
}

}  // namespace
