// support/sampling: evenly spread indices with both ends, and gather.
#include <gtest/gtest.h>

#include "sampling.hpp"

namespace {

TEST(SampleIndices, AllWhenSmall) {
  auto s = gb::sample_indices(5, 10);
  EXPECT_EQ(s, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(gb::sample_indices(0, 10).empty());
}

TEST(SampleIndices, SpreadKeepsEndsAndOrder) {
  auto s = gb::sample_indices(1000001, 101);
  ASSERT_EQ(s.size(), 101u);
  EXPECT_EQ(s.front(), 0u);
  EXPECT_EQ(s.back(), 1000000u);
  for (size_t i = 1; i < s.size(); ++i) EXPECT_EQ(s[i] - s[i - 1], 10000u);
  EXPECT_EQ(gb::sample_indices(7, 1), (std::vector<uint32_t>{0}));
}

TEST(Gather, WidensToDouble) {
  std::vector<uint8_t> v{10, 20, 30};
  EXPECT_EQ(gb::gather(v, {2, 0}), (std::vector<double>{30, 10}));
}

}  // namespace
