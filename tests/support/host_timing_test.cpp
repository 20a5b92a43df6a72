// support/host_timing: the steady-clock timer of host-clock cases (no device needed). The
// calibration and sampling of host work are the measurement engine's, tested with it.
#include "host_timing.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

void spin_for(double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

// Only bounds that hold on a loaded machine: a spin lasts at least its time, maybe longer.
TEST(HostSeconds, CoversTheWorkOnce) {
  int calls = 0;
  const double t = gb::host_seconds([&] {
    ++calls;
    spin_for(2e-3);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_GE(t, 2e-3);
  EXPECT_LT(t, 10.0);
}

TEST(HostSeconds, EmptyWorkIsNotNegative) {
  const double t = gb::host_seconds([] {});
  EXPECT_GE(t, 0.0);
  EXPECT_LT(t, 1.0);
}

}  // namespace
