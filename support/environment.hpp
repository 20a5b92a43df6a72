// The environment during each benchmark (seed: "CPU and memory load is low before and during";
// thermal limits). Host: the share of all CPU time other processes used while the benchmark
// sampled, memory pressure (Linux PSI: the share of the time some task stalled on memory) and the
// memory available, and the process's involuntary context switches. Device: a short
// throughput probe after sampling, the warm-up's workload at a fixed size, against the rate it had
// once steady (NVIDIA's OpenCL exposes no clock); after a long host-side pause (a reference that
// took seconds) the device is warmed again before calibrating. Results are counters; a busy host
// or a slow device is a warning on stderr and in the JSON context, and with --strict_env a busy
// host (CPU or memory) fails the benchmark.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "telemetry.hpp"

namespace gb {

// /proc parsing, pure for tests.
struct CpuTimes {
  uint64_t busy = 0, total = 0;  // clock ticks over all CPUs (busy: not idle or iowait)
};
std::optional<CpuTimes> parse_proc_stat(const std::string& text);              // the "cpu " line
std::optional<uint64_t> parse_self_cpu_ticks(const std::string& stat_text);    // utime + stime
std::optional<uint64_t> parse_mem_available(const std::string& meminfo_text);  // bytes
// /proc/pressure/memory's "some ... total=" (microseconds some task stalled on memory), or nullopt
// (no PSI: an older kernel, or CONFIG_PSI off).
std::optional<uint64_t> parse_psi_some_total(const std::string& pressure_text);

struct HostSnapshot {
  bool ok = false;
  CpuTimes cpu;
  uint64_t self_ticks = 0;
  long involuntary_switches = 0;
  uint64_t mem_available = 0;
  std::optional<uint64_t> memory_stall_us;  // PSI's some total, where the kernel has it
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
};
HostSnapshot host_snapshot();
// The share of all CPU time used by other processes between two snapshots (0..1), or nullopt when
// too little time passed to tell (a few clock ticks).
std::optional<double> others_busy(const HostSnapshot& before, const HostSnapshot& after);
// The share of the wall time between two snapshots during which some task stalled on memory (0..1),
// or nullopt without PSI.
std::optional<double> memory_pressure(const HostSnapshot& before, const HostSnapshot& after);

struct EnvironmentPolicy {
  double max_host_busy = 0.25;  // --max_host_busy
  double max_mem_pressure = 0.1;               // --max_mem_pressure: PSI memory "some" share
  uint64_t min_mem_available = uint64_t(512) << 20;  // --min_mem_available (bytes)
  bool strict = false;          // --strict_env
  double rewarm_after_s = 3.0;  // warm the device again after a pause this long
  double max_slowdown = 0.05;   // the probe below (1 - this) x the steady rate flags a benchmark
};
EnvironmentPolicy& environment_policy();

// The device probe's reference, taken right after the warm-up (rate at `groups` work groups).
void set_device_probe(size_t groups, double steady_flop_per_second);
// The SM clock the telemetry reads right after the warm-up, steady or not: later readings below
// 0.9 of it are flagged.
void set_steady_clock_reference();

// What measure() calls around calibration and sampling.
class EnvironmentWatch {
 public:
  // Warms the device again if it has been idle longer than rewarm_after_s, then snapshots the host.
  EnvironmentWatch();
  // After sampling: the counters (host_busy, mem_available_bytes, memory_pressure,
  // involuntary_switches, the device's own readings where it has a source: gpu_temperature_c,
  // sm_clock_mhz, mem_clock_mhz, power_w, throttle_reasons, gpu_other_processes; then
  // device_clock_ratio: the probe's rate over the steady one, probed at most every 2 s); warnings
  // for `benchmark`. Throws std::runtime_error under --strict_env when the host was busy, short of
  // memory, or the device throttled, slow or shared.
  std::vector<std::pair<std::string, double>> finish(const std::string& benchmark);

 private:
  HostSnapshot before_;
  DeviceReading device_before_;
};

// The benchmarks flagged during the run, for the JSON context.
const std::vector<std::string>& busy_host_benchmarks();
const std::vector<std::string>& slow_device_benchmarks();
// The benchmarks measured under memory pressure or with too little memory available, with why.
const std::vector<std::pair<std::string, std::string>>& memory_pressure_benchmarks();
// The benchmarks the device's own readings flag (a throttle reason, the SM clock below its steady
// value, another process on the GPU), with why; and where those readings come from ("" if nowhere).
const std::vector<std::pair<std::string, std::string>>& device_condition_benchmarks();
std::string telemetry_source();
// The GPU's own id from the same source (NVML's UUID, amdgpu's unique_id), or "".
std::string gpu_uuid();
// The GPU memory's health as a JSON object (Telemetry::memory_health), or "".
std::string gpu_memory_health();
int rewarm_count();

}  // namespace gb
