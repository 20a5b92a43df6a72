// reference/atomics: the sums against a direct count, and that a kernel doing half its iterations
// and doubling the sums (a bandwidth or rate reported twice the truth) cannot match them.
#include "reference/atomics.hpp"

#include <gtest/gtest.h>

namespace {

TEST(AtomicsReference, GlobalSumsByHand) {
  // 8 work items on 2 addresses, 4 iterations: gid 0 adds 1, 2, 3 and (last) 1.
  const auto sums = ref::atomic_global_sums(8, 2, 4);
  int32_t want0 = 0, want1 = 0;
  for (uint32_t gid = 0; gid < 8; ++gid)
    for (uint32_t i = 0; i < 4; ++i) (gid % 2 ? want1 : want0) += i == 3 ? 1 : ((gid + i) & 3) + 1;
  EXPECT_EQ(sums, (std::vector<int32_t>{want0, want1}));
  EXPECT_EQ(ref::atomic_value(0, 0, 4) + ref::atomic_value(0, 1, 4) + ref::atomic_value(0, 2, 4) + ref::atomic_value(0, 3, 4), 7u);
}

// A kernel that runs the first half of the iterations (same values) and doubles its counters.
std::vector<int32_t> half_doubled(size_t work_items, size_t addresses, uint32_t iters) {
  std::vector<int32_t> sums(addresses, 0);
  for (size_t gid = 0; gid < work_items; ++gid)
    for (uint32_t i = 0; i < iters / 2; ++i) sums[gid % addresses] += 2 * static_cast<int32_t>(ref::atomic_value(gid, i, iters));
  return sums;
}

TEST(AtomicsReference, HalfTheIterationsDoubledDoNotMatch) {
  for (uint32_t iters : {16u, 64u})  // the kernels' global and local counts
    for (size_t addresses : {size_t(1), size_t(4), size_t(4096)})
      EXPECT_NE(ref::atomic_global_sums(4096, addresses, iters), half_doubled(4096, addresses, iters))
          << iters << " iterations, " << addresses << " addresses";
}

}  // namespace
