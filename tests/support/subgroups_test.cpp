// support/subgroups: which devices get the sub-group variants, and with what build options.
#include "subgroups.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Subgroups, ExtensionsEnableWithoutOptions) {
  auto s = gb::subgroup_support("cl_khr_fp64 cl_khr_subgroups cl_khr_int64_base_atomics", "", false);
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.build_options, "");
  EXPECT_TRUE(gb::subgroup_support("cl_intel_subgroups", "", false).available);
}

TEST(Subgroups, OpenClC3FeatureNeedsTheStandardOption) {
  auto s = gb::subgroup_support("cl_khr_fp64", "__opencl_c_3d_image_writes __opencl_c_subgroups", true);
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.build_options, "-cl-std=CL3.0");
  EXPECT_FALSE(gb::subgroup_support("", "__opencl_c_subgroups", false).available);
}

TEST(Subgroups, WholeWordsOnly) {
  auto s = gb::subgroup_support("cl_khr_subgroups_extended cl_khr_subgroup_ballot", "__opencl_c_subgroups_x", true);
  EXPECT_FALSE(s.available);
  EXPECT_NE(s.reason.find("sub-groups"), std::string::npos);
}

}  // namespace
