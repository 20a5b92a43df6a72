// reference/divergence: which lanes take which recurrence, at warp and at group scope, against the
// recurrences stepped by hand.
#include <gtest/gtest.h>

#include "reference/divergence.hpp"

namespace {

uint32_t first(uint32_t x, int steps) {
  for (int i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  return x;
}
uint32_t second(uint32_t x, int steps) {
  for (int i = 0; i < steps; ++i) x = x * 22695477u + 1u;
  return x;
}

TEST(Divergence, WarpScopeLanesRepeatEvery32) {
  std::vector<uint32_t> seeds(128);
  for (size_t i = 0; i < seeds.size(); ++i) seeds[i] = static_cast<uint32_t>(i * 2654435761u);
  const auto out = ref::divergence_results(seeds, 64, false, 8, 3);
  for (size_t gid = 0; gid < seeds.size(); ++gid)
    EXPECT_EQ(out[gid], gid % 32 < 8 ? first(seeds[gid], 3) : second(seeds[gid], 3)) << gid;
}

TEST(Divergence, GroupScopeLanesAreSlicesOfTheGroup) {
  std::vector<uint32_t> seeds(512, 12345u);
  const auto out = ref::divergence_results(seeds, 256, true, 1, 2);  // lane 0: the first 8 items of a group
  for (size_t gid = 0; gid < seeds.size(); ++gid)
    EXPECT_EQ(out[gid], gid % 256 < 8 ? first(12345u, 2) : second(12345u, 2)) << gid;
}

TEST(Divergence, NoneAndAllTakeOnePath) {
  const std::vector<uint32_t> seeds = {1, 2, 3, 4};
  EXPECT_EQ(ref::divergence_results(seeds, 4, false, 0, 5)[2], second(3, 5));
  EXPECT_EQ(ref::divergence_results(seeds, 4, false, 32, 5)[2], first(3, 5));
  EXPECT_NE(first(3, 5), second(3, 5));
}

}  // namespace
