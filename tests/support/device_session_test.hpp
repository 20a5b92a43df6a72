// A GoogleTest fixture for support tests on the default OpenCL device (PoCL's CPU in CI): the
// suite opens a session on the first device and closes it; a test without a device is skipped,
// and fails under CI=true. A test class extending SetUp calls DeviceSessionTest::SetUp() first
// and returns if IsSkipped().
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "devices.hpp"
#include "session.hpp"

class DeviceSessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto entries = gb::enumerate_devices();
    if (!entries.empty()) gb::open_session(entries[0].device, entries[0].info, 1);
  }
  static void TearDownTestSuite() { gb::close_session(); }
  void SetUp() override {
    if (gb::enumerate_devices().empty()) {
      if (const char* ci = std::getenv("CI"); ci && std::string(ci) == "true") FAIL() << "no OpenCL device in CI";
      GTEST_SKIP() << "no OpenCL device";
    }
  }
};
