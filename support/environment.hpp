// The environment during each benchmark (seed: "CPU and memory load is low before and during";
// thermal limits). Host: the share of all CPU time other processes used while the benchmark
// sampled, the memory available, and the process's involuntary context switches. Device: a short
// throughput probe after sampling, the warm-up's workload at a fixed size, against the rate it had
// once steady (NVIDIA's OpenCL exposes no clock); after a long host-side pause (a reference that
// took seconds) the device is warmed again before calibrating. Results are counters; a busy host
// or a slow device is a warning on stderr and in the JSON context, and with --strict_env a busy
// host fails the benchmark.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gb {

// /proc parsing, pure for tests.
struct CpuTimes {
  uint64_t busy = 0, total = 0;  // clock ticks over all CPUs (busy: not idle or iowait)
};
std::optional<CpuTimes> parse_proc_stat(const std::string& text);              // the "cpu " line
std::optional<uint64_t> parse_self_cpu_ticks(const std::string& stat_text);    // utime + stime
std::optional<uint64_t> parse_mem_available(const std::string& meminfo_text);  // bytes

struct HostSnapshot {
  bool ok = false;
  CpuTimes cpu;
  uint64_t self_ticks = 0;
  long involuntary_switches = 0;
  uint64_t mem_available = 0;
};
HostSnapshot host_snapshot();
// The share of all CPU time used by other processes between two snapshots (0..1), or nullopt when
// too little time passed to tell (a few clock ticks).
std::optional<double> others_busy(const HostSnapshot& before, const HostSnapshot& after);

struct EnvironmentPolicy {
  double max_host_busy = 0.25;  // --max_host_busy
  bool strict = false;          // --strict_env
  double rewarm_after_s = 3.0;  // warm the device again after a pause this long
  double max_slowdown = 0.05;   // the probe below (1 - this) x the steady rate flags a benchmark
};
EnvironmentPolicy& environment_policy();

// The device probe's reference, taken right after the warm-up (rate at `groups` work groups).
void set_device_probe(size_t groups, double steady_flop_per_second);

// What measure() calls around calibration and sampling.
class EnvironmentWatch {
 public:
  // Warms the device again if it has been idle longer than rewarm_after_s, then snapshots the host.
  EnvironmentWatch();
  // After sampling: the counters (host_busy, mem_available_bytes, involuntary_switches,
  // device_clock_ratio: the probe's rate over the steady one, probed at most every 2 s), in that
  // order; warnings for `benchmark`. Throws std::runtime_error under
  // --strict_env when the host was busy.
  std::vector<std::pair<std::string, double>> finish(const std::string& benchmark);

 private:
  HostSnapshot before_;
};

// The benchmarks flagged during the run, for the JSON context.
const std::vector<std::string>& busy_host_benchmarks();
const std::vector<std::string>& slow_device_benchmarks();
int rewarm_count();

}  // namespace gb
