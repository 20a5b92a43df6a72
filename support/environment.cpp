// Host snapshots from /proc and getrusage; the device probe from the clock-ramp workload.
#include "environment.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "clock_ramp.hpp"
#include "progress.hpp"

namespace gb {

std::optional<CpuTimes> parse_proc_stat(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) != 0) continue;
    std::istringstream fields(line.substr(4));
    uint64_t v[10] = {}, total = 0;
    int n = 0;
    while (n < 10 && fields >> v[n]) total += v[n++];
    if (n < 5) return std::nullopt;
    // user nice system idle iowait irq softirq steal guest guest_nice; guests are inside user.
    if (n >= 10) total -= v[8] + v[9];
    const uint64_t idle = v[3] + v[4];
    return CpuTimes{total - idle, total};
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_self_cpu_ticks(const std::string& stat_text) {
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses; fields count from the last ')'.
  const auto close = stat_text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat_text.substr(close + 1));
  std::string field;
  uint64_t utime = 0, stime = 0;
  for (int k = 3; k <= 15 && fields >> field; ++k) {  // field 3 is the state
    if (k == 14) utime = std::stoull(field);
    if (k == 15) {
      stime = std::stoull(field);
      return utime + stime;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_mem_available(const std::string& meminfo_text) {
  std::istringstream in(meminfo_text);
  std::string key, unit;
  uint64_t value = 0;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return value * 1024;  // kB
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_psi_some_total(const std::string& pressure_text) {
  std::istringstream in(pressure_text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const auto at = line.find("total=");
    if (at == std::string::npos) return std::nullopt;
    try {
      return std::stoull(line.substr(at + 6));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

static std::string read_file(const char* path) {
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

HostSnapshot host_snapshot() {
  HostSnapshot s;
  auto cpu = parse_proc_stat(read_file("/proc/stat"));
  std::optional<uint64_t> self;
  try {
    self = parse_self_cpu_ticks(read_file("/proc/self/stat"));
  } catch (const std::exception&) {
  }
  auto mem = parse_mem_available(read_file("/proc/meminfo"));
  // GPU_BENCH_TEST_PSI_MEMORY names a file that stands in for it (tests: a host under pressure).
  const char* psi = std::getenv("GPU_BENCH_TEST_PSI_MEMORY");
  s.memory_stall_us = parse_psi_some_total(read_file(psi && *psi ? psi : "/proc/pressure/memory"));
  s.at = std::chrono::steady_clock::now();
  struct rusage usage = {};
  getrusage(RUSAGE_SELF, &usage);
  s.involuntary_switches = usage.ru_nivcsw;
  if (!cpu || !self) return s;
  s.ok = true;
  s.cpu = *cpu;
  s.self_ticks = *self;
  s.mem_available = mem.value_or(0);
  return s;
}

std::optional<double> others_busy(const HostSnapshot& before, const HostSnapshot& after) {
  if (!before.ok || !after.ok || after.cpu.total < before.cpu.total + 4) return std::nullopt;
  const double total = static_cast<double>(after.cpu.total - before.cpu.total);
  const double busy = static_cast<double>(after.cpu.busy - before.cpu.busy);
  const double self = static_cast<double>(after.self_ticks - before.self_ticks);
  return std::clamp((busy - self) / total, 0.0, 1.0);
}

std::optional<double> memory_pressure(const HostSnapshot& before, const HostSnapshot& after) {
  if (!before.memory_stall_us || !after.memory_stall_us || *after.memory_stall_us < *before.memory_stall_us)
    return std::nullopt;
  const double wall_us = std::chrono::duration<double, std::micro>(after.at - before.at).count();
  if (wall_us <= 0) return std::nullopt;
  return std::clamp(static_cast<double>(*after.memory_stall_us - *before.memory_stall_us) / wall_us, 0.0, 1.0);
}

EnvironmentPolicy& environment_policy() {
  static EnvironmentPolicy policy;
  return policy;
}

namespace {
using clock = std::chrono::steady_clock;
struct DeviceProbe {
  size_t groups = 0;
  double reference = 0;
  clock::time_point last_active = clock::now();
  clock::time_point last_probe{};
  double last_ratio = 1;
  std::optional<double> steady_sm_clock;  // the SM clock the telemetry read right after the warm-up
};
constexpr double kClockSlack = 0.9;  // an SM clock below this share of the steady one is flagged
constexpr double kProbeEverySeconds = 2;  // about 10 ms a probe: a few per second would add up
DeviceProbe g_probe;
std::vector<std::string> g_busy, g_slow;
std::vector<std::pair<std::string, std::string>> g_memory, g_device;
int g_rewarms = 0;
}  // namespace

void set_device_probe(size_t groups, double steady_flop_per_second) {
  g_probe.groups = groups;
  g_probe.reference = steady_flop_per_second;
  g_probe.last_active = clock::now();
}

void set_steady_clock_reference() { g_probe.steady_sm_clock = Telemetry::instance().steady_sm_clock(); }

EnvironmentWatch::EnvironmentWatch() {
  const auto& policy = environment_policy();
  const double idle = std::chrono::duration<double>(clock::now() - g_probe.last_active).count();
  if (g_probe.reference > 0 && idle > policy.rewarm_after_s) {
    // Probe until the device is back at its steady rate, or a second has passed.
    const auto start = clock::now();
    while (probe_flop_per_second(g_probe.groups, 3) < (1 - policy.max_slowdown) * g_probe.reference &&
           std::chrono::duration<double>(clock::now() - start).count() < 1.0) {
    }
    ++g_rewarms;
  }
  before_ = host_snapshot();
  device_before_ = Telemetry::instance().read();
}

std::vector<std::pair<std::string, double>> EnvironmentWatch::finish(const std::string& benchmark) {
  const HostSnapshot after = host_snapshot();
  const DeviceReading device = Telemetry::instance().read();  // before the probe below runs
  const auto& policy = environment_policy();
  std::vector<std::pair<std::string, double>> counters;
  const auto busy = others_busy(before_, after);
  if (busy) counters.emplace_back("host_busy", *busy);
  if (after.mem_available) counters.emplace_back("mem_available_bytes", static_cast<double>(after.mem_available));
  const auto pressure = memory_pressure(before_, after);
  if (pressure) counters.emplace_back("memory_pressure", *pressure);
  counters.emplace_back("involuntary_switches",
                        static_cast<double>(after.involuntary_switches - before_.involuntary_switches));
  // The device's readings: taken as sampling ended (clocks, temperature, power), or over both ends
  // (a throttle reason or another process at either).
  std::optional<uint64_t> reasons = device.throttle_reasons;
  if (device_before_.throttle_reasons) reasons = reasons.value_or(0) | *device_before_.throttle_reasons;
  std::optional<int> others = device.other_processes;
  if (device_before_.other_processes) others = std::max(others.value_or(0), *device_before_.other_processes);
  for (const auto& [name, value] : {std::pair{"gpu_temperature_c", device.temperature_c},
                                    std::pair{"sm_clock_mhz", device.sm_clock_mhz},
                                    std::pair{"mem_clock_mhz", device.mem_clock_mhz}, std::pair{"power_w", device.power_w},
                                    std::pair{"gpu_busy_percent", device.busy_percent}})
    if (value) counters.emplace_back(name, *value);
  if (reasons) counters.emplace_back("throttle_reasons", static_cast<double>(*reasons));
  if (others) counters.emplace_back("gpu_other_processes", *others);
  std::vector<std::string> conditions;
  if (reasons && (*reasons & kThrottleMask)) conditions.push_back("throttled: " + throttle_names(*reasons & kThrottleMask));
  if (device.sm_clock_mhz && g_probe.steady_sm_clock && *device.sm_clock_mhz < kClockSlack * *g_probe.steady_sm_clock) {
    char text[128];
    std::snprintf(text, sizeof text, "SM clock %.0f MHz below its steady %.0f MHz%s", *device.sm_clock_mhz,
                  *g_probe.steady_sm_clock, reasons && (*reasons & 0x4) ? " (power cap)" : "");
    conditions.emplace_back(text);
  }
  if (others && *others > 0) conditions.push_back(std::to_string(*others) + " other process(es) on the GPU");
  if (!conditions.empty()) {
    std::string why;
    for (const auto& c : conditions) why += (why.empty() ? "" : "; ") + c;
    g_device.emplace_back(benchmark, why);
    if (policy.strict) throw std::runtime_error("device: " + why + " (--strict_env)");
    progress().note("warning: " + benchmark + ": " + why);
  }
  if (g_probe.reference > 0) {
    if (std::chrono::duration<double>(clock::now() - g_probe.last_probe).count() >= kProbeEverySeconds) {
      g_probe.last_ratio = probe_flop_per_second(g_probe.groups, 3) / g_probe.reference;
      g_probe.last_probe = clock::now();
    }
    const double ratio = g_probe.last_ratio;  // this benchmark's probe, or one within 2 s before
    counters.emplace_back("device_clock_ratio", ratio);
    if (ratio < 1 - policy.max_slowdown) {
      g_slow.push_back(benchmark);
      progress().note("warning: " + benchmark + ": the device ran at " + std::to_string(ratio) +
                      " of its steady throughput after sampling (throttled?)");
    }
  }
  g_probe.last_active = clock::now();
  // Memory: stalls while it sampled (PSI), or less available than the limit when it ended.
  std::string memory;
  char text[96];
  if (pressure && *pressure > policy.max_mem_pressure) {
    std::snprintf(text, sizeof text, "tasks stalled on memory %.0f%% of the time (--max_mem_pressure %.2f)",
                  100 * *pressure, policy.max_mem_pressure);
    memory = text;
  } else if (after.mem_available && after.mem_available < policy.min_mem_available) {
    std::snprintf(text, sizeof text, "%.0f MiB of memory available (--min_mem_available %.0f MiB)",
                  after.mem_available / 1048576.0, policy.min_mem_available / 1048576.0);
    memory = text;
  }
  if (!memory.empty()) {
    g_memory.emplace_back(benchmark, "memory pressure: " + memory);
    if (policy.strict) throw std::runtime_error("memory pressure: " + memory + " (--strict_env)");
    progress().note("warning: " + benchmark + ": " + memory);
  }
  if (busy && *busy > policy.max_host_busy) {
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", 100 * *busy);
    const std::string what = "other processes used " + std::string(share) +
                             " of the host's CPU time while it sampled (--max_host_busy " +
                             std::to_string(policy.max_host_busy).substr(0, 4) + ")";
    g_busy.push_back(benchmark);
    if (policy.strict) throw std::runtime_error("host busy: " + what + " (--strict_env)");
    progress().note("warning: " + benchmark + ": " + what);
  }
  return counters;
}

const std::vector<std::string>& busy_host_benchmarks() { return g_busy; }
const std::vector<std::string>& slow_device_benchmarks() { return g_slow; }
const std::vector<std::pair<std::string, std::string>>& memory_pressure_benchmarks() { return g_memory; }
const std::vector<std::pair<std::string, std::string>>& device_condition_benchmarks() { return g_device; }
std::string telemetry_source() { return Telemetry::instance().source(); }
std::string gpu_uuid() { return Telemetry::instance().gpu_uuid(); }
std::string gpu_memory_health() { return Telemetry::instance().memory_health(); }
int rewarm_count() { return g_rewarms; }

}  // namespace gb
