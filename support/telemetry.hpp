// What the device says of itself while benchmarks run: temperature, clocks, power, the reasons it
// holds its clocks down, and the other processes using it. NVIDIA through NVML
// (libnvidia-ml.so.1, loaded at run time so the binary runs where it is missing); AMD and Intel
// through the PCI device's sysfs folder (amdgpu, i915, xe: hwmon temperature and power, the
// current core and memory clocks, amdgpu's busy share); each absent reading is left out rather
// than zero. GPU_BENCH_TEST_SYSFS_ROOT puts a test's tree in place of /sys. GPU_BENCH_TEST_TELEMETRY injects
// readings for tests ("throttle=0x40,sm_clock=900,other_processes=1"; steady_sm_clock=1980 stands
// for the clock read after the warm-up, uuid=GPU-... for the GPU's id, remapped_rows=N for a
// memory health of N rows remapped for correctable errors).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gb {

struct DeviceReading {
  std::optional<double> temperature_c, sm_clock_mhz, mem_clock_mhz, power_w;
  std::optional<double> busy_percent;        // sysfs (amdgpu's gpu_busy_percent); NVML: not read
  std::optional<uint64_t> throttle_reasons;  // NVML's clocks-event reasons, a bitmask
  std::optional<int> other_processes;        // processes with a context on it, other than this one and its children
};

// The reasons that mean the device is held below the clock it would run at: hardware slowdown,
// thermal (software or hardware), power brake. The power cap (0x4) is left out: under heavy kernels
// it is a GPU's normal state; it counts where the clock fell below its steady value.
constexpr uint64_t kThrottleMask = 0x8 | 0x20 | 0x40 | 0x80;
// "power cap, thermal (software)": the throttling reasons set in `reasons`, or "".
std::string throttle_names(uint64_t reasons);

// Of `listed` processes with a context on the device (the first of them in `pids`), those that
// are neither `self` nor one of its running `children` (build helpers, a case's competitor).
int other_processes_of(unsigned listed, const std::vector<unsigned>& pids, unsigned self,
                       const std::vector<pid_t>& children);

// An AMD or Intel GPU's readings from sysfs: `root` stands for /sys, `bus_id` is "0000:03:00.0".
class SysfsGpu {
 public:
  // The device's folder under root/bus/pci/devices when its driver is amdgpu, i915 or xe.
  static std::optional<SysfsGpu> open(const std::string& root, const std::string& bus_id);
  const std::string& driver() const { return driver_; }
  DeviceReading read() const;
  // amdgpu's unique_id (the chip's serial, where the GPU has one), or "".
  std::string unique_id() const;

 private:
  std::string dir_, driver_, hwmon_;
};

// "00000000:03:00.0" or "0000:03:00.0" -> "0000:03:00.0", sysfs's form; "" when it is neither.
std::string sysfs_bus_id(const std::string& bus_id);
// The bus id of the one AMD or Intel GPU under root/bus/pci/devices, or "" (none, or several).
std::string only_sysfs_gpu(const std::string& root);

// The session device's PCI bus id ("00000000:03:00.0"), or "" where the device does not say.
std::string device_pci_bus_id();

// The session device's telemetry source, opened on first use.
class Telemetry {
 public:
  static Telemetry& instance();
  // "NVML 12.580.159.04 (00000000:00:06.0)", "test hook", or "" when the device has no source.
  const std::string& source() const { return source_; }
  // The GPU's own identity, the same for every process and machine that drives this chip: NVML's
  // UUID ("GPU-..."), amdgpu's unique_id, or "" where the device has none. Two runs with one id ran
  // on one GPU, which tools/gate uses to take the study's same-GPU spread.
  const std::string& gpu_uuid() const { return gpu_uuid_; }
  // The GPU memory's health as the run begins, a JSON object (NVML: HBM rows remapped for
  // correctable and uncorrectable errors, a remapping pending or failed, ECC errors since the
  // driver loaded and over the GPU's life), or "" where the device does not say. Two chips of one
  // model that read some patterns 10% apart may differ here.
  const std::string& memory_health() const { return memory_health_; }
  DeviceReading read();
  // The SM clock right after the warm-up: the hook's steady_sm_clock, else a reading now.
  std::optional<double> steady_sm_clock();
  // The injected readings of GPU_BENCH_TEST_TELEMETRY, pure for tests.
  static DeviceReading parse_test_hook(const std::string& text);

 private:
  Telemetry();
  std::string source_, gpu_uuid_, memory_health_;
  std::optional<SysfsGpu> sysfs_;
  void* library_ = nullptr;
  void* device_ = nullptr;
  std::optional<DeviceReading> hook_;
  std::optional<double> hook_steady_sm_clock_;
};

}  // namespace gb
