// Parsing gpu_bench's flags.
#include "cli.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace gb {

static bool take_value(const std::string& arg, const char* flag, std::string* value) {
  std::string prefix = std::string(flag) + "=";
  if (arg.compare(0, prefix.size(), prefix) != 0) return false;
  *value = arg.substr(prefix.size());
  return true;
}

static double parse_number(const std::string& flag, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= lo && v <= hi))
    throw UsageError(flag + ": expected a number in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  return v;
}

static bool is_index_flag(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  for (size_t i = 1; i < arg.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(arg[i]))) return false;
  return true;
}

CliOptions parse_cli(int* argc, char** argv) {
  CliOptions o;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    std::string a = argv[i], v;
    bool ours = true;
    if (a == "--help" || a == "-h") {
      o.help = true;
      ours = false;  // Google Benchmark prints its own flags too
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--list_devices") {
      o.list_devices = true;
    } else if (take_value(a, "--list_devices", &v)) {
      if (v != "json") throw UsageError("--list_devices: expected no value or json, got '" + v + "'");
      o.list_devices = o.list_devices_json = true;
    } else if (a == "--clock_ramp") {
      o.clock_ramp = true;
    } else if (a == "--list_paths") {
      o.list_paths = true;
    } else if (a == "--all_sweeps" || a == "--all_sweeps=1") {
      o.all_sweeps = true;
    } else if (a == "--all_sweeps=0") {
      o.all_sweeps = false;
    } else if (a == "--verify_only") {
      o.verify_only = true;
    } else if (a == "--skip_checks") {
      o.skip_checks = true;
    } else if (a == "--strict_env") {
      o.strict_env = true;
    } else if (take_value(a, "--device", &v)) {
      if (v.empty()) throw UsageError("--device: expected a name substring, cpu, gpu or a number");
      o.device = v;
    } else if (is_index_flag(a)) {
      if (!o.device_index.empty()) throw UsageError("-N given twice");
      o.device_index = a.substr(1);
    } else if (take_value(a, "--size", &v)) {
      if (v.size() != 1 || v[0] < '1' || v[0] > '4')
        throw UsageError("--size: expected 1, 2, 3 or 4, got '" + v + "'");
      o.size_class = v[0] - '0';
    } else if (take_value(a, "--max_cpu_load", &v)) {
      o.max_cpu_load = parse_number("--max_cpu_load", v, 0, 1e6);
    } else if (take_value(a, "--max_host_busy", &v)) {
      o.max_host_busy = parse_number("--max_host_busy", v, 0, 1);
    } else if (take_value(a, "--max_mem_pressure", &v)) {
      o.max_mem_pressure = parse_number("--max_mem_pressure", v, 0, 1);
    } else if (take_value(a, "--min_mem_available", &v)) {
      o.min_mem_available_mib = parse_number("--min_mem_available", v, 0, 1e12);
    } else if (take_value(a, "--tolerance_scale", &v)) {
      o.tolerance_scale = parse_number("--tolerance_scale", v, 1e-6, 1e6);
    } else if (take_value(a, "--min_sample_ms", &v)) {
      o.min_sample_ms = parse_number("--min_sample_ms", v, 0.001, 10000);
    } else if (take_value(a, "--warmup_s", &v)) {
      o.warmup_s = parse_number("--warmup_s", v, 0, 600);
    } else if (take_value(a, "--max_noise", &v)) {
      o.max_noise_percent = parse_number("--max_noise", v, 1e-6, 100);
    } else if (take_value(a, "--min_samples", &v)) {
      o.min_samples = static_cast<int>(parse_number("--min_samples", v, 1, 1e6));
      if (std::to_string(o.min_samples) != v) throw UsageError("--min_samples: expected a whole number, got '" + v + "'");
    } else if (take_value(a, "--max_time", &v)) {
      o.max_time_s = parse_number("--max_time", v, 1e-6, 1e6);
    } else if (take_value(a, "--build_threads", &v)) {
      o.build_threads = static_cast<int>(parse_number("--build_threads", v, 0, 256));
      if (std::to_string(*o.build_threads) != v) throw UsageError("--build_threads: expected a whole number, got '" + v + "'");
    } else if (take_value(a, "--build_processes", &v)) {
      o.build_processes = static_cast<int>(parse_number("--build_processes", v, 0, 64));
      if (std::to_string(*o.build_processes) != v) throw UsageError("--build_processes: expected a whole number, got '" + v + "'");
    } else if (take_value(a, "--build_head_start", &v)) {
      o.build_head_start_s = parse_number("--build_head_start", v, 0, 1e6);
    } else if (take_value(a, "--kernel_timeout", &v)) {
      o.kernel_timeout_s = parse_number("--kernel_timeout", v, 0, 1e6);
    } else if (take_value(a, "--progress", &v)) {
      if (v != "0" && v != "1" && v != "false" && v != "true")
        throw UsageError("--progress: expected 0 or 1, got '" + v + "'");
      o.progress = v == "1" || v == "true";
    } else if (take_value(a, "--batches_from", &v)) {
      if (v.empty()) throw UsageError("--batches_from: expected a gpu_bench output file of this device");
      o.batches_from = v;
    } else if (take_value(a, "--spread_study", &v)) {
      if (v.empty()) throw UsageError("--spread_study: expected a study file (tools/repro-study) or none");
      o.spread_study = v;
    } else if (take_value(a, "--benchmark_min_time", &v)) {
      o.min_time_s = parse_number("--benchmark_min_time", v, 1e-9, 1e6);
    } else if (take_value(a, "--benchmark_out", &v)) {
      if (v.empty()) throw UsageError("--benchmark_out: expected a file name");
      o.benchmark_out = v;
    } else if (take_value(a, "--benchmark_out_format", &v)) {
      if (v != "json" && v != "csv" && v != "console")
        throw UsageError("--benchmark_out_format: expected json, csv or console, got '" + v + "'");
      o.benchmark_out_format = v;
    } else {
      ours = false;
      if (take_value(a, "--benchmark_format", &v)) {
        if (v != "json" && v != "csv" && v != "console")
          throw UsageError("--benchmark_format: expected json, csv or console, got '" + v + "'");
        o.benchmark_format = v;
      }
    }
    if (!ours) argv[kept++] = argv[i];
  }
  *argc = kept;
  argv[kept] = nullptr;
  return o;
}

const char* cli_help() {
  return R"(gpu_bench: OpenCL GPU microbenchmarks on Google Benchmark.

gpu_bench flags (all Google Benchmark flags below also work):
  --version               print the gpu-bench revision and the libraries it was built with
  --list_devices[=json]   print every OpenCL device with its number (as JSON: every field), then exit
  --device=SPEC           choose the device: a number (as --list_devices counts), cpu, gpu, or a
                          case-insensitive substring of the platform or device name; `all` or
                          SPEC,SPEC,... runs on each device in turn, one --benchmark_out file each
                          (FILE.deviceN-NAME.json)
  -N                      the N-th device, or with --device=SUBSTRING the N-th match
                          (default: the first GPU; with none, the first device)
  --size=1..4             problem-size class (default: 1 on a CPU, 3 on a GPU)
  --max_cpu_load=F        warn when the 1-minute load average exceeds F (default: number of cores)
  --strict_env            refuse to run (exit 3) when the load is above --max_cpu_load or other
                          processes are busy before the run; fail a benchmark measured while busy
  --max_host_busy=F       the share of all CPU time other processes may use while a benchmark
                          samples (default 0.25); above it: a warning, or with --strict_env a failure
  --max_mem_pressure=F    the share of the time tasks may stall on memory while a benchmark samples
                          (Linux PSI, /proc/pressure/memory; default 0.1); above it: as --max_host_busy
  --min_mem_available=MIB memory that must stay available (MemAvailable) when a benchmark has sampled
                          (default 512); below it: as --max_host_busy
  --tolerance_scale=F     multiply every verification margin by F (default 1)
  --min_sample_ms=F       shortest timed sample (a batch of units), also at least 1000x the
                          device timer (default 5); a device-timed batch of units under 100 us
                          is cut to a quarter where that runs faster per unit, and grows 4x
                          (at most twice) where the noise misses --max_noise early
  --max_noise=P           sample until the relative interquartile range of the samples is at most
                          P percent (default 0.5)
  --min_samples=N         at least N samples per benchmark run (default 10)
  --max_time=S            at most S seconds of sampling per benchmark run; a run stopped by this
                          limit above --max_noise is flagged (converged=0, a warning) (default 1)
  --benchmark_min_time=S  instead of the noise rule, sample for at least S seconds
  --verify_only           run one unit of each benchmark (no warm-up run, calibration or
                          sampling) and check it: for simulators (Oclgrind) and quick checks;
                          the times are one unit's, not measurements
  --skip_checks           run no check (no rel_error in the output): for a simulator that runs
                          part of each grid (the quick pass of tests/oclgrind/run_oclgrind.py),
                          never for results
  --batches_from=FILE     sample each benchmark that FILE (an earlier gpu_bench output file of this
                          device) holds with the batch it ended with there, neither calibrated nor
                          grown, so that both runs time the same units per sample; others calibrate
  --spread_study=FILE     the reproducibility study (tools/repro-study) whose run-to-run spreads the
                          output file gives beside each benchmark (run_to_run_spread); default: the
                          study of this device under docs/results (GPU_BENCH_RESULTS_DIR), if any;
                          none: no study
  --progress=0            no "[i/N] name, ETA" lines on stderr
  --all_sweeps            with no --benchmark_filter, run every work-group sweep shape (the
                          default set runs wg:auto and the 256-item shapes of each sweep);
                          --all_sweeps=0: the default set's shapes also with a filter
  --build_threads=N       threads that build the selected benchmarks' OpenCL programs ahead of
                          time (default: 1 on a GPU; 0 on a CPU device, which the compiler would
                          slow); never while a benchmark samples
  --build_processes=N     helper processes that compile the selected benchmarks' programs into the
                          driver's on-disk cache, each every N-th in run order (default: half the
                          cores, at most 8, with NVIDIA's compute cache; else 0); stopped while a
                          benchmark samples
  --build_head_start=S    before the first benchmark, wait at most S seconds for the programs
                          built ahead (default 1; a large value builds everything first)
  --warmup_s=F            longest clock-ramp warm-up before measuring (default 3; 0: none)
  --clock_ramp            print the clock-ramp diagnostic (about 3 s) and exit
  --kernel_timeout=S      a wait on the device longer than S seconds (a hung or runaway kernel)
                          ends the run: the benchmark is an error in the output file beside the
                          finished ones, and the exit code is 5 (default 300; 0: no limit)
  --list_paths            print, as JSON, the code paths each case's kernels take at each size
                          class (on this device and a model GPU), then exit

Exit codes: 0 ok; 1 a benchmark failed verification or hit an OpenCL error; 2 usage error;
3 environment refused (--strict_env); 4 no usable OpenCL device; 5 a kernel did not finish
within --kernel_timeout, after writing the benchmarks that finished; 128+N stopped by signal N
(130 SIGINT, 143 SIGTERM, 129 SIGHUP) after writing the benchmarks that finished.
)";
}

}  // namespace gb
