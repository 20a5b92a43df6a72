// support/build_processes: the program list the helpers read back, and where helpers are used.
#include "build_processes.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

namespace {

TEST(BuildProcesses, ProgramListRoundTrips) {
  const std::vector<gb::ProgramKey> keys{{"l1/fft.cl", "-DN=1024 -DDIR=-1"}, {"l0/compute.cl", ""},
                                         {"l1/gemm.cl", "-cl-mad-enable -DTS=64"}};
  const auto back = gb::parse_program_list(gb::program_list_text(keys));
  ASSERT_EQ(back.size(), keys.size());
  for (size_t k = 0; k < keys.size(); ++k) EXPECT_EQ(back[k], keys[k]) << k;
}

TEST(BuildProcesses, ListRejectsWhatItCannotCarry) {
  EXPECT_THROW(gb::program_list_text({{"l1/fft.cl", "-DA=1\n-DB=2"}}), std::invalid_argument);
  EXPECT_THROW(gb::parse_program_list("no tab here\n"), std::invalid_argument);
}

TEST(BuildProcesses, OnlyWhereTheDriverCachesBuilds) {
  gb::DeviceInfo nvidia, pocl;
  nvidia.platform = "NVIDIA CUDA";
  pocl.platform = "Portable Computing Language";
  unsetenv("CUDA_CACHE_DISABLE");
  EXPECT_TRUE(gb::driver_caches_builds(nvidia));
  EXPECT_GE(gb::default_build_processes(nvidia), 1u);
  EXPECT_LE(gb::default_build_processes(nvidia), 8u);
  EXPECT_EQ(gb::default_build_processes(pocl), 0u);
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  EXPECT_EQ(gb::default_build_processes(nvidia), 0u);
  unsetenv("CUDA_CACHE_DISABLE");
}

}  // namespace
