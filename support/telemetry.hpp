// What the device says of itself while benchmarks run: temperature, clocks, power, the reasons it
// holds its clocks down, and the other processes using it. NVIDIA through NVML
// (libnvidia-ml.so.1, loaded at run time so the binary runs where it is missing); elsewhere
// nothing, and each absent reading is left out rather than zero. GPU_BENCH_TEST_TELEMETRY injects
// readings for tests ("throttle=0x40,sm_clock=900,other_processes=1"; steady_sm_clock=1980 stands
// for the clock read after the warm-up).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gb {

struct DeviceReading {
  std::optional<double> temperature_c, sm_clock_mhz, mem_clock_mhz, power_w;
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

// The session device's telemetry source, opened on first use.
class Telemetry {
 public:
  static Telemetry& instance();
  // "NVML 12.580.159.04 (00000000:00:06.0)", "test hook", or "" when the device has no source.
  const std::string& source() const { return source_; }
  DeviceReading read();
  // The SM clock right after the warm-up: the hook's steady_sm_clock, else a reading now.
  std::optional<double> steady_sm_clock();
  // The injected readings of GPU_BENCH_TEST_TELEMETRY, pure for tests.
  static DeviceReading parse_test_hook(const std::string& text);

 private:
  Telemetry();
  std::string source_;
  void* library_ = nullptr;
  void* device_ = nullptr;
  std::optional<DeviceReading> hook_;
  std::optional<double> hook_steady_sm_clock_;
};

}  // namespace gb
