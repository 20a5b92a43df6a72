// support/telemetry: the names of the throttle reasons that count, and the test hook's readings.
#include "telemetry.hpp"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

namespace {

TEST(Telemetry, NamesTheReasonsThatHoldTheClockDown) {
  EXPECT_EQ(gb::throttle_names(0x40 | 0x8), "hardware slowdown, thermal (hardware)");
  EXPECT_EQ(gb::throttle_names(0x4), "power cap");
  EXPECT_EQ(gb::throttle_names(0x1 | 0x2), "");  // idle, application clocks: not throttling
  EXPECT_EQ(0x4 & gb::kThrottleMask, 0u);  // the power cap alone flags nothing
}

TEST(Telemetry, TheTestHookSetsOnlyWhatItNames) {
  const auto r = gb::Telemetry::parse_test_hook("throttle=0x20,sm_clock=900,other_processes=2");
  EXPECT_EQ(r.throttle_reasons, 0x20u);
  EXPECT_EQ(r.sm_clock_mhz, 900.0);
  EXPECT_EQ(r.other_processes, 2);
  EXPECT_FALSE(r.temperature_c);  // absent, never zero
  EXPECT_FALSE(r.power_w);
  EXPECT_FALSE(gb::Telemetry::parse_test_hook("").throttle_reasons);
}

// A sysfs tree under a temporary root: files with their contents, and the driver link.
class FakeSysfs {
 public:
  FakeSysfs() {
    char pattern[] = "/tmp/gpu_bench_sysfs.XXXXXX";
    root_ = mkdtemp(pattern);
  }
  ~FakeSysfs() { std::filesystem::remove_all(root_); }
  const std::string& root() const { return root_; }
  void device(const std::string& bdf, const std::string& driver, const std::map<std::string, std::string>& files) {
    const auto dir = std::filesystem::path(root_) / "bus/pci/devices" / bdf;
    std::filesystem::create_directories(dir);
    std::filesystem::create_directories(std::filesystem::path(root_) / "bus/pci/drivers" / driver);
    std::filesystem::create_directory_symlink("../../../bus/pci/drivers/" + driver, dir / "driver");
    for (const auto& [path, text] : files) {
      std::filesystem::create_directories((dir / path).parent_path());
      std::ofstream(dir / path) << text;
    }
  }

 private:
  std::string root_;
};

TEST(Telemetry, ReadsAnAmdGpuFromSysfs) {
  FakeSysfs sys;
  sys.device("0000:03:00.0", "amdgpu",
             {{"hwmon/hwmon4/temp1_input", "61000\n"}, {"hwmon/hwmon4/power1_average", "245000000\n"},
              {"pp_dpm_sclk", "0: 500Mhz\n1: 1800Mhz\n2: 2100Mhz *\n"}, {"pp_dpm_mclk", "0: 96Mhz\n1: 1000Mhz *\n"},
              {"gpu_busy_percent", "97\n"}, {"unique_id", "7f3a9c0e12b45d68\n"}});
  auto gpu = gb::SysfsGpu::open(sys.root(), "00000000:03:00.0");  // the OpenCL form of the bus id
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->driver(), "amdgpu");
  EXPECT_EQ(gpu->unique_id(), "7f3a9c0e12b45d68");
  const auto r = gpu->read();
  EXPECT_EQ(r.temperature_c, 61.0);
  EXPECT_EQ(r.power_w, 245.0);
  EXPECT_EQ(r.sm_clock_mhz, 2100.0);
  EXPECT_EQ(r.mem_clock_mhz, 1000.0);
  EXPECT_EQ(r.busy_percent, 97.0);
  EXPECT_FALSE(r.throttle_reasons);  // sysfs has no such thing: absent, never zero
  EXPECT_FALSE(r.other_processes);
  EXPECT_EQ(gb::only_sysfs_gpu(sys.root()), "0000:03:00.0");
}

TEST(Telemetry, ReadsIntelGpusFromSysfsAndLeavesMissingFilesAbsent) {
  FakeSysfs sys;
  sys.device("0000:00:02.0", "i915", {{"drm/card0/gt_act_freq_mhz", "1300\n"}, {"hwmon/hwmon2/power1_input", "12500000\n"}});
  sys.device("0000:04:00.0", "xe", {{"tile0/gt0/freq0/act_freq", "2050\n"}});
  sys.device("0000:05:00.0", "nvme", {});
  const auto i915 = gb::SysfsGpu::open(sys.root(), "0000:00:02.0")->read();
  EXPECT_EQ(i915.sm_clock_mhz, 1300.0);
  EXPECT_EQ(i915.power_w, 12.5);
  EXPECT_FALSE(i915.temperature_c);  // no temp1_input
  EXPECT_FALSE(i915.mem_clock_mhz);
  EXPECT_EQ(gb::SysfsGpu::open(sys.root(), "0000:00:02.0")->unique_id(), "");  // none: empty, not made up
  const auto xe = gb::SysfsGpu::open(sys.root(), "0000:04:00.0")->read();
  EXPECT_EQ(xe.sm_clock_mhz, 2050.0);
  EXPECT_FALSE(xe.power_w);
  EXPECT_FALSE(gb::SysfsGpu::open(sys.root(), "0000:05:00.0"));  // not a GPU driver
  EXPECT_FALSE(gb::SysfsGpu::open(sys.root(), "0000:09:00.0"));  // no such device
  EXPECT_FALSE(gb::SysfsGpu::open(sys.root(), ""));
  EXPECT_EQ(gb::only_sysfs_gpu(sys.root()), "");  // two GPUs: neither is taken for the device
}

TEST(Telemetry, OwnChildrenAreNotOtherProcesses) {
  // Our PID in NVML's list: the build helpers (41, 42) are ours, 77 is another application.
  EXPECT_EQ(gb::other_processes_of(4, {10, 41, 42, 77}, 10, {41, 42}), 1);
  EXPECT_EQ(gb::other_processes_of(3, {10, 41, 42}, 10, {41, 42}), 0);
  // A helper that has exited is no longer in `children`: its lingering entry counts.
  EXPECT_EQ(gb::other_processes_of(3, {10, 41, 42}, 10, {41}), 1);
  // Entries beyond the buffer are others.
  EXPECT_EQ(gb::other_processes_of(5, {10, 41}, 10, {41}), 3);
  // In a PID namespace (our PID not listed): one entry for us and one per running child.
  EXPECT_EQ(gb::other_processes_of(9, {9001, 9002}, 10, {41, 42, 43, 44, 45, 46, 47, 48}), 0);
  EXPECT_EQ(gb::other_processes_of(3, {9001, 9002, 9003}, 10, {41}), 1);
  EXPECT_EQ(gb::other_processes_of(1, {9001}, 10, {41, 42}), 0);
}

}  // namespace
