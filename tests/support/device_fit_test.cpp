// support/device_fit: a problem that does not fit is named with the bytes it needs and has.
#include "device_fit.hpp"

#include <gtest/gtest.h>

namespace {

const gb::MemoryLimits kOneGiB{uint64_t(256) << 20, uint64_t(1) << 30};  // PoCL with POCL_MEMORY_LIMIT=1

TEST(MemoryShortfall, FitsUpToTheLimitsExactly) {
  EXPECT_EQ(gb::memory_shortfall({uint64_t(256) << 20, uint64_t(256) << 20}, kOneGiB), "");
  EXPECT_EQ(gb::memory_shortfall({}, kOneGiB), "");
}

TEST(MemoryShortfall, OneBufferAboveTheAllocationLimit) {
  EXPECT_EQ(gb::memory_shortfall({4, (uint64_t(256) << 20) + 1}, kOneGiB),
            "needs a buffer of 268435457 bytes (256 MiB); CL_DEVICE_MAX_MEM_ALLOC_SIZE is 268435456 bytes (256 MiB)");
}

TEST(MemoryShortfall, AllBuffersAboveHalfTheMemory) {
  const uint64_t b = uint64_t(200) << 20;
  EXPECT_EQ(gb::memory_shortfall({b, b, b}, kOneGiB),
            "needs 629145600 bytes (600 MiB) of buffers; half of CL_DEVICE_GLOBAL_MEM_SIZE is 536870912 bytes (512 MiB)");
}

TEST(ImageShortfall, EachSideAgainstItsLimit) {
  EXPECT_EQ(gb::image_shortfall(16384, 16384, 16384, 16384), "");
  EXPECT_EQ(gb::image_shortfall(16384, 8192, 8192, 16384),
            "needs a 16384x8192 image; CL_DEVICE_IMAGE2D_MAX_WIDTH x HEIGHT is 8192x16384");
  EXPECT_EQ(gb::bytes_text(9355612160), "9355612160 bytes (8.71 GiB)");
}

}  // namespace
