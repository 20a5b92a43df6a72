// gpu_bench's own flags, taken out of argv before Google Benchmark sees the rest.
// Exit codes: 0 ok, 1 a benchmark failed (verification or OpenCL error), 2 usage error,
// 3 environment refused (--strict_env), 4 no usable OpenCL device, 5 a kernel did not finish
// within --kernel_timeout (support/watchdog).
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gb {

enum ExitCode { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitEnvironment = 3, kExitNoDevice = 4, kExitKernelTimeout = 5 };

struct CliOptions {
  bool help = false;
  bool version = false;
  bool list_devices = false;
  bool list_devices_json = false;   // --list_devices=json
  bool clock_ramp = false;
  bool list_paths = false;          // --list_paths: each case's code paths per size class, as JSON
  bool strict_env = false;
  bool verify_only = false;         // --verify_only: one unit per benchmark, then its check
  bool skip_checks = false;         // --skip_checks: no check (a simulator running part of a grid)
  std::string device;               // --device=SPEC
  std::string device_index;         // -N
  std::optional<int> size_class;    // --size=1..4
  std::optional<double> max_cpu_load;
  double max_host_busy = 0.25;      // --max_host_busy: share of CPU time other processes may use
  double max_mem_pressure = 0.1;    // --max_mem_pressure: share of time tasks may stall on memory
  double min_mem_available_mib = 512;  // --min_mem_available: MiB that must stay available
  double tolerance_scale = 1.0;
  double min_sample_ms = 5.0;
  double warmup_s = 3.0;
  double max_noise_percent = 0.5;   // --max_noise: stop once the estimate is this precise
  int min_samples = 10;
  double max_time_s = 1.0;          // --max_time: sampling time limit per benchmark run
  bool progress = true;
  std::optional<bool> all_sweeps;   // every work-group sweep shape (unset: with a filter)
  std::optional<int> build_threads; // --build_threads: background program builders
  std::optional<int> build_processes; // --build_processes: helper processes filling the driver's cache
  double build_head_start_s = 1.0;  // --build_head_start: longest wait for builds before the first benchmark
  double kernel_timeout_s = 300;    // --kernel_timeout: longest wait on the device (0: no limit)
  std::optional<double> min_time_s; // --benchmark_min_time, taken: sample this long instead
  std::string batches_from;         // --batches_from: an earlier run whose batches are kept
  std::string spread_study;         // --spread_study: a study FILE, none, or "" (the device's, found by itself)
  std::string benchmark_out;        // --benchmark_out, taken: written atomically at the end
  std::string benchmark_out_format = "json";  // taken: json, csv or console
  std::string benchmark_format;     // seen, not taken
};

class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Removes gpu_bench's flags from argv (updating argc) and returns them; Google Benchmark's flags
// stay. Throws UsageError with a one-line message on a bad value.
CliOptions parse_cli(int* argc, char** argv);

const char* cli_help();

}  // namespace gb
