// support/copy_bandwidth: a positive, plausible figure, measured once and then cached.
#include "copy_bandwidth.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "devices.hpp"
#include "session.hpp"

namespace {

TEST(CopyBandwidth, MeasuredOnceAndCached) {
  auto devices = gb::enumerate_devices();
  if (devices.empty()) {
    const char* ci = std::getenv("CI");
    if (ci && std::strcmp(ci, "true") == 0) FAIL() << "no OpenCL device under CI=true";
    GTEST_SKIP() << "no OpenCL device";
  }
  gb::open_session(devices[0].device, devices[0].info, 1);
  const double first = gb::device_copy_bandwidth();
  EXPECT_GT(first, 1e8);   // any device copies more than 100 MB/s
  EXPECT_LT(first, 1e14);  // and less than 100 TB/s
  EXPECT_EQ(gb::device_copy_bandwidth(), first);  // cached: the same figure, not a new run
  gb::close_session();
}

}  // namespace
