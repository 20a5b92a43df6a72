// support/devices: --device parsing and matching over a fake device list.
#include "devices.hpp"

#include <gtest/gtest.h>

namespace {

gb::DeviceInfo dev(const std::string& platform, const std::string& name, const std::string& type) {
  gb::DeviceInfo d;
  d.platform = platform;
  d.name = name;
  d.type = type;
  return d;
}

std::vector<gb::DeviceInfo> machine() {
  auto pocl = dev("Portable Computing Language", "pthread-skylake", "cpu");
  pocl.opencl_version = "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake";
  return {pocl,
          dev("NVIDIA CUDA", "NVIDIA H200", "gpu"), dev("NVIDIA CUDA", "NVIDIA H100", "gpu")};
}

size_t pick(const std::string& device, const std::string& index = "") {
  return gb::choose_device(machine(), gb::parse_device_spec(device, index)).chosen;
}

TEST(DeviceSpec, DefaultIsFirstGpu) { EXPECT_EQ(pick(""), 1u); }

TEST(DeviceSpec, DefaultFallsBackToFirstDevice) {
  auto cpu_only = machine();
  cpu_only.resize(1);
  EXPECT_EQ(gb::choose_device(cpu_only, gb::parse_device_spec("", "")).chosen, 0u);
}

TEST(DeviceSpec, IndexCountsFromOne) {
  EXPECT_EQ(pick("1"), 0u);
  EXPECT_EQ(pick("3"), 2u);
  EXPECT_EQ(pick("", "2"), 1u);
}

TEST(DeviceSpec, SubstringIsCaseInsensitive) {
  EXPECT_EQ(pick("h100"), 2u);
  EXPECT_EQ(pick("computing LANGUAGE"), 0u);
}

TEST(DeviceSpec, ImplementationNameInVersionMatches) { EXPECT_EQ(pick("pocl"), 0u); }

TEST(DeviceSpec, TypeWords) {
  EXPECT_EQ(pick("cpu"), 0u);
  EXPECT_EQ(pick("gpu"), 1u);
}

TEST(DeviceSpec, SeveralMatchesTakeTheFirstAndListAll) {
  auto c = gb::choose_device(machine(), gb::parse_device_spec("nvidia", ""));
  EXPECT_EQ(c.chosen, 1u);
  EXPECT_EQ(c.matches, (std::vector<size_t>{1, 2}));
}

TEST(DeviceSpec, IndexWithSubstringPicksNthMatch) {
  EXPECT_EQ(pick("nvidia", "2"), 2u);
  EXPECT_EQ(pick("gpu", "1"), 1u);
}

TEST(DeviceSpec, NoMatchOrIndexBeyondListThrows) {
  EXPECT_THROW(pick("radeon"), std::out_of_range);
  EXPECT_THROW(pick("4"), std::out_of_range);
  EXPECT_THROW(pick("nvidia", "3"), std::out_of_range);
}

TEST(DeviceSpec, MalformedIsRejected) {
  EXPECT_THROW(gb::parse_device_spec("0", ""), std::invalid_argument);
  EXPECT_THROW(gb::parse_device_spec("", "x"), std::invalid_argument);
  EXPECT_THROW(gb::parse_device_spec("2", "3"), std::invalid_argument);
}

TEST(DeviceTable, NumbersFromOne) {
  std::string t = gb::device_table(machine());
  EXPECT_NE(t.find("\n1   Portable"), std::string::npos) << t;
  EXPECT_NE(t.find("\n3   NVIDIA CUDA"), std::string::npos) << t;
}

}  // namespace
