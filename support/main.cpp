// gpu_bench's main: take our flags, choose the device, check the host, warm the device up to a
// steady clock, register the cases the device can run, run them, and exit non-zero on failure.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <exception>
#include <iostream>
#include <thread>

#include "child_process.hpp"
#include "cli.hpp"
#include "code_paths.hpp"
#include "clock_ramp.hpp"
#include "console_reporter.hpp"
#include "context.hpp"
#include "copy_bandwidth.hpp"
#include "cpu_load.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "fleet_link.hpp"
#include "multi_device.hpp"
#include "interrupt.hpp"
#include "options.hpp"
#include "pinned_batches.hpp"
#include "progress.hpp"
#include "registry.hpp"
#include "run_output.hpp"
#include "session.hpp"
#include "si_format.hpp"
#include "spread_study.hpp"
#include "telemetry.hpp"
#include "timing.hpp"
#include "verify.hpp"
#include "watchdog.hpp"

// Google Benchmark 1.7.1 exports its flags but declares them in a private header.
namespace benchmark {
extern double FLAGS_benchmark_min_time;
extern bool FLAGS_benchmark_list_tests;
extern int32_t FLAGS_benchmark_repetitions;
extern std::string FLAGS_benchmark_out;
}  // namespace benchmark

namespace {

std::vector<gb::DeviceInfo> infos_of(const std::vector<gb::DeviceEntry>& entries) {
  std::vector<gb::DeviceInfo> infos;
  for (const auto& e : entries) infos.push_back(e.info);
  return infos;
}

// [{"name": ..., "reason": ...}, ...] as one context string: the variants this device cannot run.
std::string skipped_json(const std::vector<std::pair<std::string, std::string>>& skipped) {
  auto quoted = [](const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out + "\"";
  };
  std::string json = "[";
  for (const auto& [name, reason] : skipped)
    json += (json.size() > 1 ? "," : "") + std::string("{\"name\":") + quoted(name) + ",\"reason\":" + quoted(reason) + "}";
  return json + "]";
}

// On a CPU device the compiler would compete with the kernels being measured. On a GPU one
// thread: NVIDIA's driver builds about 1.5 programs at a time however many threads ask, and a
// benchmark about to sample waits for every build in flight, so more threads lengthen each wait
// (docs/METHOD.md).
unsigned build_threads(const gb::CliOptions& cli, const gb::DeviceInfo& info) {
  if (cli.build_threads) return static_cast<unsigned>(*cli.build_threads);
  if (!info.is_gpu()) return 0;
  return 1;
}

// The entry of a benchmark whose kernel hung, as Google Benchmark would report an error in it.
benchmark::BenchmarkReporter::Run hung_run(const gb::Hang& hang) {
  benchmark::BenchmarkReporter::Run run;
  run.run_name.function_name = hang.activity;
  run.run_name.time_type = "manual_time";
  run.family_index = hang.benchmark_index;
  run.per_family_instance_index = 0;
  run.repetitions = benchmark::FLAGS_benchmark_repetitions;
  run.repetition_index = hang.repetition;
  run.threads = 1;
  run.iterations = 0;
  run.statistics = nullptr;
  run.error_occurred = true;
  run.error_message = hang.message;
  return run;
}

// Returns an exit code, or -1 to go on.
int check_cpu_load(const gb::CliOptions& cli) {
  auto& policy = gb::environment_policy();
  policy.strict = cli.strict_env;
  policy.max_host_busy = cli.max_host_busy;
  policy.max_mem_pressure = cli.max_mem_pressure;
  policy.min_mem_available = static_cast<uint64_t>(cli.min_mem_available_mib * 1048576.0);
  // Other processes' share of the CPU over a quarter second, beside the 1-minute load average.
  const auto before = gb::host_snapshot();
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  const auto busy = gb::others_busy(before, gb::host_snapshot());
  bool refused = false;
  if (busy) {
    benchmark::AddCustomContext("host_busy_at_start", std::to_string(*busy));
    if (*busy > policy.max_host_busy) {
      std::fprintf(stderr, "%s: other processes use %.0f%% of the host's CPU time (--max_host_busy %.2f): results may be skewed\n",
                   cli.strict_env ? "error" : "warning", 100 * *busy, policy.max_host_busy);
      refused = cli.strict_env;
    }
  }
  if (auto load = gb::read_loadavg()) {
    benchmark::AddCustomContext("cpu_load", std::to_string(*load));
    const double limit = cli.max_cpu_load ? *cli.max_cpu_load : std::thread::hardware_concurrency();
    if (*load > limit) {
      std::fprintf(stderr, "%s: host load average %.2f is above %.2f: results may be skewed\n",
                   cli.strict_env ? "error" : "warning", *load, limit);
      refused = refused || cli.strict_env;
    }
  }
  return refused ? gb::kExitEnvironment : -1;
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);  // as given, for --device=all's children
  gb::CliOptions cli;
  try {
    cli = gb::parse_cli(&argc, argv);
  } catch (const gb::UsageError& e) {
    std::fprintf(stderr, "gpu_bench: error: %s (see --help)\n", e.what());
    return gb::kExitUsage;
  }
  if (cli.version) {
#ifndef GPU_BENCH_OPTIONAL_LIBRARIES
#define GPU_BENCH_OPTIONAL_LIBRARIES "none"
#endif
    std::printf("%soptional libraries: %s\n", gb::version_text().c_str(), GPU_BENCH_OPTIONAL_LIBRARIES);
    return gb::kExitOk;
  }
  if (cli.help) std::fputs(gb::cli_help(), stdout);
  if (!cli.benchmark_out.empty()) {
    if (auto why = gb::unwritable_reason(cli.benchmark_out); !why.empty()) {
      std::fprintf(stderr, "gpu_bench: error: --benchmark_out=%s: %s\n", cli.benchmark_out.c_str(), why.c_str());
      return gb::kExitUsage;
    }
  }
  benchmark::SetDefaultTimeUnit(benchmark::kMillisecond);  // --benchmark_time_unit overrides it
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return gb::kExitUsage;
  // The harness samples inside one Google Benchmark iteration (support/measure): the runner must
  // take that first iteration as final. An explicit --benchmark_min_time was taken by parse_cli.
  benchmark::FLAGS_benchmark_min_time = 1e-15;
  const bool listing = benchmark::FLAGS_benchmark_list_tests;
  if (benchmark::FLAGS_benchmark_repetitions < 1) {
    std::fprintf(stderr, "gpu_bench: error: --benchmark_repetitions: expected at least 1, got %d\n",
                 static_cast<int>(benchmark::FLAGS_benchmark_repetitions));
    return gb::kExitUsage;
  }
  if (auto why = gb::filter_error(benchmark::GetBenchmarkFilter()); !why.empty()) {
    std::fprintf(stderr, "gpu_bench: error: --benchmark_filter=%s: %s\n", benchmark::GetBenchmarkFilter().c_str(), why.c_str());
    return gb::kExitUsage;
  }

  if (gb::is_multi_device(cli.device) && !cli.list_devices) {
    const auto devices = gb::device_infos_from_child();
    if (devices.empty()) {
      std::fprintf(stderr, "gpu_bench: error: no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)\n");
      return gb::kExitNoDevice;
    }
    std::vector<size_t> selected;
    try {
      if (!cli.device_index.empty()) throw std::invalid_argument("-N cannot be combined with --device=" + cli.device);
      selected = gb::select_devices(devices, cli.device);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpu_bench: error: %s (gpu_bench --list_devices shows them)\n", e.what());
      return gb::kExitUsage;
    }
    return gb::run_on_each_device("/proc/self/exe", args, devices, selected, cli.benchmark_out);
  }

  auto entries = gb::enumerate_devices();
  auto infos = infos_of(entries);
  if (cli.list_devices_json) {
    std::fputs(gb::devices_json(infos).c_str(), stdout);
    return gb::kExitOk;
  }
  if (cli.list_devices) {
    std::fputs(gb::device_table(infos).c_str(), stdout);
    if (infos.empty()) std::fputs("(no OpenCL devices found)\n", stdout);
    return gb::kExitOk;
  }
  if (infos.empty()) {
    std::fprintf(stderr, "gpu_bench: error: no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)\n");
    return gb::kExitNoDevice;
  }
  gb::DeviceChoice choice;
  try {
    choice = gb::choose_device(infos, gb::parse_device_spec(cli.device, cli.device_index));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: error: %s\n%s", e.what(), gb::device_table(infos).c_str());
    return gb::kExitUsage;
  }
  const auto& chosen = entries[choice.chosen];
  std::fprintf(stderr, "device %zu: %s / %s\n", choice.chosen + 1, chosen.info.platform.c_str(),
               chosen.info.name.c_str());
  for (size_t m : choice.matches)
    if (m != choice.chosen)
      std::fprintf(stderr, "  also matched %zu: %s / %s\n", m + 1, infos[m].platform.c_str(),
                   infos[m].name.c_str());

  const int size_class = cli.size_class ? *cli.size_class : (chosen.info.is_gpu() ? 3 : 1);
  gb::options().tolerance_scale = cli.tolerance_scale;
  gb::options().min_sample_seconds = cli.min_sample_ms * 1e-3;
  gb::options().warmup_max_seconds = cli.warmup_s;
  gb::options().stop.max_noise = cli.max_noise_percent / 100;
  gb::options().stop.min_samples = cli.min_samples;
  gb::options().stop.max_time = cli.max_time_s;
  gb::options().stop.fixed_time = cli.min_time_s.value_or(0);
  gb::options().verify_only = cli.verify_only;
  gb::options().skip_checks = cli.skip_checks;
  gb::install_interrupt_handlers();

  std::unique_ptr<benchmark::BenchmarkReporter> display;
  if (cli.benchmark_format == "json")
    display = std::make_unique<benchmark::JSONReporter>();
  else if (cli.benchmark_format == "csv")
    display = std::make_unique<benchmark::CSVReporter>();
  else
    display = std::make_unique<gb::SiConsoleReporter>(benchmark::FLAGS_benchmark_counters_tabular,
                                                      !benchmark::FLAGS_benchmark_time_unit.empty());
  // Two reporters, as Google Benchmark has them: the display, and the file's, which receives
  // every run even with --benchmark_display_aggregates_only. Both drop runs skipped at run time or
  // abandoned by a signal; the file's keeps its runs until the end.
  gb::RunRecorder shown(display.get()), recorder(nullptr);
  // Context entries that would clutter the console header go only into the output file.
  std::vector<std::pair<std::string, std::string>> file_context;
  const bool write_file = !cli.benchmark_out.empty() && !listing && !cli.clock_ramp;
  bool file_written = false;
  if (!cli.batches_from.empty()) {
    try {
      gb::options().pinned_batches = gb::read_batches(cli.batches_from, chosen.info.name);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpu_bench: error: --batches_from: %s\n", e.what());
      return gb::kExitUsage;
    }
    file_context.emplace_back("batches_from", cli.batches_from + " (" +
                                                  std::to_string(gb::options().pinned_batches.size()) + " batches)");
  }
  // The reproducibility study whose run-to-run spreads go beside each benchmark in the file.
  if (write_file && cli.spread_study != "none") {
    try {
      auto study = gb::spread_study_for(cli.spread_study, chosen.info.name);
      if (study) {
        file_context.emplace_back("spread_study", study->path + " (" + std::to_string(study->runs) + " runs)");
        gb::set_run_spread_study(std::move(study));
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpu_bench: error: --spread_study: %s\n", e.what());
      return gb::kExitUsage;
    }
  }
  auto end_of_run_context = [&] {
    file_context.emplace_back("skipped_variants", skipped_json(gb::skipped_variants()));
    // The environment's warnings (support/environment): benchmarks measured while the host was
    // busy or after which the device probe ran slow, and how often an idle device was warmed again.
    std::vector<std::pair<std::string, std::string>> busy, slow;
    for (const auto& name : gb::busy_host_benchmarks()) busy.emplace_back(name, "host busy");
    for (const auto& name : gb::slow_device_benchmarks()) slow.emplace_back(name, "device below its steady rate");
    file_context.emplace_back("host_busy_benchmarks", skipped_json(busy));
    file_context.emplace_back("slow_device_benchmarks", skipped_json(slow));
    file_context.emplace_back("memory_pressure_benchmarks", skipped_json(gb::memory_pressure_benchmarks()));
    file_context.emplace_back("device_condition_benchmarks", skipped_json(gb::device_condition_benchmarks()));
    file_context.emplace_back("telemetry_source", gb::telemetry_source());
    if (const std::string uuid = gb::gpu_uuid(); !uuid.empty()) file_context.emplace_back("gpu_uuid", uuid);
    if (const std::string health = gb::gpu_memory_health(); !health.empty())
      file_context.emplace_back("gpu_memory_health", health);
    file_context.emplace_back("device_rewarms", std::to_string(gb::rewarm_count()));
    const auto programs = gb::session().program_counts();
    file_context.emplace_back("programs", "{\"built_ahead\":" + std::to_string(programs.built_ahead) +
                                              ",\"built_on_demand\":" + std::to_string(programs.built_on_demand) +
                                              ",\"undeclared\":" + std::to_string(programs.undeclared) +
                                              ",\"waited\":" + std::to_string(programs.waited) +
                                              ",\"helper_processes\":" + std::to_string(gb::session().build_helpers()) + "}");
    return programs;
  };
  // A wait on the device past --kernel_timeout: the hung benchmark becomes an error entry beside
  // the finished ones, the file is written as at the end of a run (with aborted: kernel_timeout),
  // and the watchdog ends the process (exit 5). This runs while the benchmark thread is blocked.
  gb::start_watchdog(cli.kernel_timeout_s, [&](const gb::Hang& hang) {
    gb::progress().clear();
    const size_t finished = std::max(shown.kept(), recorder.kept());
    if (hang.in_benchmark) {
      const std::vector<benchmark::BenchmarkReporter::Run> runs{hung_run(hang)};
      shown.ReportRuns(runs);
      shown.Finalize();
      recorder.ReportRuns(runs);
    }
    std::string where;
    if (write_file && !file_written) {
      end_of_run_context();
      file_context.emplace_back("aborted", "kernel_timeout");
      file_context.emplace_back("hung_in", hang.activity);
      for (const auto& [key, value] : file_context) benchmark::AddCustomContext(key, value);
      where = gb::write_atomically(cli.benchmark_out, recorder.render(cli.benchmark_out_format))
                  ? ", written to " + cli.benchmark_out
                  : ", but could not write " + cli.benchmark_out;
    }
    std::fprintf(stderr, "gpu_bench: %s: %s; run ended after %zu finished benchmark runs%s (exit %d)\n",
                 hang.activity.c_str(), hang.message.c_str(), finished, where.c_str(), gb::kExitKernelTimeout);
  });
  struct StopWatchdog {
    ~StopWatchdog() { gb::stop_watchdog(); }
  } stop_watchdog_on_return;
  gb::open_session(chosen.device, chosen.info, size_class, build_threads(cli, chosen.info));

  if (cli.clock_ramp) {
    gb::watchdog_activity("clock ramp", false);
    auto r = gb::run_clock_ramp(3.0, false, true);
    if (r.steady_from)
      std::printf("steady after %.3f s at %sFLOP/s\n", r.steady_after_seconds,
                  gb::si(r.steady_flop_per_second).c_str());
    else
      std::printf("not steady within %.1f s: the clock was still changing\n", r.samples.back().t_seconds);
    return gb::kExitOk;
  }

  if (int code = check_cpu_load(cli); code >= 0) return code;
  gb::add_device_context(chosen.info, size_class);
  if (gb::in_fleet() && !listing && !cli.list_paths)
    gb::fleet_send_device(gb::device_fingerprint(chosen.info), chosen.info.name, gb::device_pci_bus_id(), gb::gpu_uuid());
  const std::string filter = benchmark::GetBenchmarkFilter();
  const bool explicit_filter = !(filter.empty() || filter == "." || filter == "all");
  const size_t left_out = gb::register_all_cases(cli.all_sweeps.value_or(explicit_filter));
  if (cli.list_paths) {
    std::fputs(gb::code_paths_json(chosen.info.compute_units).c_str(), stdout);
    return gb::failure_count() > 0 ? gb::kExitFailed : gb::kExitOk;
  }
  if (left_out > 0)
    std::fprintf(stderr, "default set: %zu work-group sweep shapes not run (--all_sweeps runs them)\n", left_out);
  const int selected = gb::selected_benchmark_count();
  if (selected == 0 && !listing) {
    std::fprintf(stderr, "gpu_bench: error: --benchmark_filter=%s matches no benchmark (--benchmark_list_tests lists them)\n",
                 benchmark::GetBenchmarkFilter().c_str());
    return gb::kExitUsage;
  }
  const auto selected_skips = gb::selected_skipped_variants();
  for (const auto& [name, reason] : selected_skips) std::fprintf(stderr, "skipped %s: %s\n", name.c_str(), reason.c_str());
  if (size_t others = gb::skipped_variants().size() - selected_skips.size(); others > 0)
    std::fprintf(stderr, "(%zu variants this device cannot run are outside the filter; the JSON context lists every skip)\n", others);

  // Compiling starts now, during the warm-up, in run order; the first benchmark waits for every
  // program, or --build_head_start seconds; later builds run only while no benchmark samples.
  const auto builds_started = std::chrono::steady_clock::now();
  if (!listing) {
    std::vector<gb::ProgramKey> programs{gb::clock_ramp_program(), gb::batch_lead_program(),
                                         gb::copy_bandwidth_program()};
    for (auto& key : gb::selected_programs()) programs.push_back(std::move(key));
    gb::session().build_ahead(programs, cli.build_processes ? static_cast<unsigned>(*cli.build_processes)
                                                            : gb::default_build_processes(chosen.info));
  }

  if (cli.warmup_s > 0 && !listing) {
    gb::watchdog_activity("warm-up", false);
    // No benchmark is measured before the device clock is steady.
    auto r = gb::run_clock_ramp(cli.warmup_s, true, false);
    double last = r.samples.empty() ? 0 : r.samples.back().t_seconds;
    benchmark::AddCustomContext("warmup_seconds", std::to_string(last));
    benchmark::AddCustomContext("steady_flop_per_second", std::to_string(r.steady_flop_per_second));
    file_context.emplace_back("clock_ramp_timeline", gb::ramp_timeline_json(r));
    if (!r.steady_from)
      std::fprintf(stderr, "warning: device throughput not steady after %.1f s of warm-up\n", last);
    // The probe between benchmarks: a tenth of the sized workload (about 2 ms), its rate now the
    // reference (support/environment).
    if (r.steady_from) {
      const size_t groups = std::max<size_t>(1, r.samples[r.sized_from].work_groups / 10);
      gb::set_device_probe(groups, gb::probe_flop_per_second(groups, 5));
    }
    gb::set_steady_clock_reference();
  }

  if (!listing) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - builds_started).count();
    gb::session().wait_for_builds(std::max(0.0, cli.build_head_start_s - spent));
  }

  gb::progress().start(selected, cli.progress && !listing);
  if (cli.benchmark_out.empty() || listing) {
    benchmark::RunSpecifiedBenchmarks(&shown);
  } else {
    benchmark::FLAGS_benchmark_out = "/dev/null";  // Google Benchmark opens it; the recorder writes nothing there
    benchmark::RunSpecifiedBenchmarks(&shown, &recorder);
  }
  gb::progress().clear();
  gb::watchdog_activity("end of run", false);

  const int signal = gb::stop_signal();
  const auto programs = end_of_run_context();
  if (std::getenv("GPU_BENCH_PHASES"))
    for (const auto& key : programs.undeclared_keys)
      std::fprintf(stderr, "program built but not declared: %s %s\n", key.file.c_str(), key.options.c_str());
  if (signal != 0) {
    file_context.emplace_back("interrupted", signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : std::to_string(signal));
    std::fprintf(stderr, "gpu_bench: stopped by signal %d after %zu finished benchmark runs\n", signal,
                 std::max(shown.kept(), recorder.kept()));
  }
  if (write_file) {
    for (const auto& [key, value] : file_context) benchmark::AddCustomContext(key, value);
    file_written = true;
    if (!gb::write_atomically(cli.benchmark_out, recorder.render(cli.benchmark_out_format))) {
      std::fprintf(stderr, "gpu_bench: error: could not write %s\n", cli.benchmark_out.c_str());
      return gb::kExitFailed;
    }
  }
  benchmark::Shutdown();
  gb::close_session();
  if (signal != 0) return gb::exit_code_for_signal(signal);
  if (gb::failure_count() > 0) {
    std::fprintf(stderr, "gpu_bench: %d benchmark(s) failed\n", gb::failure_count());
    return gb::kExitFailed;
  }
  return gb::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  // A child process a case started (support/child_process) runs its entry and nothing else.
  if (const auto code = gb::run_child_entry(argc, argv)) return *code;
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: error: %s\n", e.what());
    return gb::kExitNoDevice;
  }
}
