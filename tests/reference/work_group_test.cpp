// reference/work_group: small cases worked by hand, and the barrier exchange against a direct
// replay of one work group's rounds.
#include <gtest/gtest.h>

#include "random_data.hpp"
#include "reference/work_group.hpp"

namespace {

TEST(Stencil5, ClampsAtTheEdgesAndKeepsAConstantImage) {
  // 3 x 2:  1 2 3
  //         4 5 6
  const std::vector<float> in = {1, 2, 3, 4, 5, 6};
  const auto out = ref::stencil5(in, 3, 2);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_FLOAT_EQ(out[0], 0.5f * 1 + 0.125f * (1 + 2 + 1 + 4));  // left and up clamp to itself
  EXPECT_FLOAT_EQ(out[1], 0.5f * 2 + 0.125f * (1 + 3 + 2 + 5));
  EXPECT_FLOAT_EQ(out[5], 0.5f * 6 + 0.125f * (5 + 6 + 3 + 6));  // right and down clamp
  const auto flat = ref::stencil5(std::vector<float>(35, 0.25f), 7, 5);
  for (float v : flat) EXPECT_EQ(v, 0.25f);
}

TEST(ScaleAdd, EveryElement) {
  const auto x = testdata::random_floats(100, 1), y = testdata::random_floats(100, 2);
  const auto out = ref::scale_add(0.75f, x, y);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(out[i], 0.75f * x[i] + y[i]);
}

// One group's rounds, with the right neighbour and mirror written out for a group of 3.
TEST(BarrierExchange, MatchesRoundsWrittenOut) {
  const std::vector<uint32_t> in = {0x12345678u, 0x9ABCDEF0u, 0x0F1E2D3Cu, 7u, 8u, 9u};
  auto step = [](const std::vector<uint32_t>& v) {
    const uint32_t k = 0x9E3779B1u;
    return std::vector<uint32_t>{v[0] * k + (v[1] ^ (v[2] >> 3)), v[1] * k + (v[2] ^ (v[1] >> 3)),
                                 v[2] * k + (v[0] ^ (v[0] >> 3))};
  };
  const std::vector<uint32_t> first(in.begin(), in.begin() + 3), second(in.begin() + 3, in.end());
  EXPECT_EQ(ref::barrier_exchange(in, 6, 3, 0), in);
  const auto a = step(first), b = step(second);
  EXPECT_EQ(ref::barrier_exchange(in, 6, 3, 1), (std::vector<uint32_t>{a[0], a[1], a[2], b[0], b[1], b[2]}));
  const auto a2 = step(a), b2 = step(b);
  // n = 4: the second group is padded; its padding items take part but are not returned.
  EXPECT_EQ(ref::barrier_exchange(in, 4, 3, 2), (std::vector<uint32_t>{a2[0], a2[1], a2[2], b2[0]}));
}

TEST(LiveChain, TwoValuesOneRepeat) {
  auto start = [](uint32_t gid, uint32_t i) {
    uint32_t h = gid * 0x9E3779B1u + i * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    return h ^ (h >> 12);
  };
  const uint32_t m = 0x2545F491u, gid = 77;
  uint32_t x0 = start(gid, 0), x1 = start(gid, 1);
  x0 = x0 * m + x1;
  x1 = x1 * m + x0;  // the last value reads the new first one
  const uint32_t s = ((0u ^ x0) * 0x01000193u ^ x1) * 0x01000193u;
  EXPECT_EQ(ref::live_chain(gid, 2, 1, m), s & 0x7FFFFFFFu);
  EXPECT_NE(ref::live_chain(gid, 2, 2, m), ref::live_chain(gid, 2, 1, m));  // every repeat counts
}

}  // namespace
