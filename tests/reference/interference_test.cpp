// reference/interference against a direct replay of each work item's loop.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "reference/interference.hpp"

namespace {

// Work item w alone, as the kernel runs it: the whole loop over passes and elements.
uint32_t one_item(const std::vector<uint32_t>& in, size_t items, unsigned passes, unsigned shift, size_t w) {
  const size_t mask = in.size() - 1;
  uint32_t acc = static_cast<uint32_t>(w);
  for (unsigned p = 0; p < passes; ++p)
    for (size_t i = w; i <= mask; i += items) acc = acc * 3u + in[(i + p * shift) & mask];
  return acc;
}

TEST(InterferenceStream, MatchesEachWorkItemsOwnLoop) {
  std::mt19937 rng(7);
  // Item counts that divide n, that do not (ragged last step), and above the block of 4096.
  for (auto [n, items] : {std::pair<size_t, size_t>{64, 8}, {64, 5}, {1 << 14, 3000}, {1 << 14, 5000}, {8, 16}}) {
    std::vector<uint32_t> in(n);
    for (auto& x : in) x = rng();
    for (unsigned passes : {0u, 1u, 3u}) {
      const auto got = ref::interference_stream(in, items, passes, 1027);
      ASSERT_EQ(got.size(), items);
      for (size_t w = 0; w < items; ++w)
        ASSERT_EQ(got[w], one_item(in, items, passes, 1027, w)) << "n=" << n << " items=" << items << " w=" << w;
    }
  }
}

TEST(InterferenceStream, EveryPassChangesTheResult) {
  std::vector<uint32_t> in(256);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(i * 2654435761u);
  const auto two = ref::interference_stream(in, 16, 2, 16), three = ref::interference_stream(in, 16, 3, 16);
  for (size_t w = 0; w < 16; ++w) EXPECT_NE(two[w], three[w]);
}

TEST(InterferenceStream, RefusesALengthThatIsNotAPowerOfTwo) {
  EXPECT_THROW(ref::interference_stream(std::vector<uint32_t>(12), 4, 1, 1), std::invalid_argument);
}

}  // namespace
