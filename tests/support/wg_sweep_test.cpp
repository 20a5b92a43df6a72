// support/wg_sweep: the shapes swept and the padding of global sizes.
#include "wg_sweep.hpp"

#include <gtest/gtest.h>

namespace {

std::vector<std::string> labels(const std::vector<gb::WorkGroup>& shapes) {
  std::vector<std::string> out;
  for (const auto& s : shapes) out.push_back(s.label());
  return out;
}

TEST(WorkGroupShapes, TwoDimensionalEnumeratesEveryFactorisation) {
  gb::SweepLimits limits{4, {1024, 1024, 64}, 1};
  EXPECT_EQ(labels(gb::work_group_shapes(2, limits)),
            (std::vector<std::string>{"1x1", "2x1", "1x2", "4x1", "2x2", "1x4", "auto"}));
}

TEST(WorkGroupShapes, OneDimensionalPowersOfTwoFromMinimum) {
  gb::SweepLimits limits{256, {1024, 1, 1}, 64};
  EXPECT_EQ(labels(gb::work_group_shapes(1, limits, false)),
            (std::vector<std::string>{"64", "128", "256"}));
}

TEST(WorkGroupShapes, RespectsPerDimensionLimits) {
  gb::SweepLimits limits{8, {8, 2, 1}, 8};
  EXPECT_EQ(labels(gb::work_group_shapes(2, limits, false)), (std::vector<std::string>{"8x1", "4x2"}));
}

TEST(WorkGroupShapes, ThreeDimensionalProductsMatchSize) {
  gb::SweepLimits limits{8, {8, 8, 8}, 8};
  auto shapes = gb::work_group_shapes(3, limits, false);
  EXPECT_EQ(shapes.size(), 10u);  // compositions of 2^3 into three powers of two
  for (const auto& s : shapes) EXPECT_EQ(s.size(), 8u) << s.label();
}

TEST(WorkGroupShapes, AutoHasNullLocalRange) {
  gb::WorkGroup automatic{0, 1, 1, 2};
  EXPECT_TRUE(automatic.is_auto());
  EXPECT_EQ(automatic.local().dimensions(), 0u);
}

TEST(PaddedGlobal, RoundsUpToMultiples) {
  gb::WorkGroup wg{16, 4, 1, 2};
  cl::NDRange g = gb::padded_global(100, 30, 1, wg);
  EXPECT_EQ(g[0], 112u);
  EXPECT_EQ(g[1], 32u);
  gb::WorkGroup automatic{0, 1, 1, 2};
  EXPECT_EQ(gb::padded_global(100, 30, 1, automatic)[0], 100u);
}

}  // namespace
