// gpu_bench's main: take our flags, choose the device, check the host, warm the device up to a
// steady clock, register the cases the device can run, run them, and exit non-zero on failure.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <iostream>
#include <thread>

#include "cli.hpp"
#include "clock_ramp.hpp"
#include "console_reporter.hpp"
#include "context.hpp"
#include "cpu_load.hpp"
#include "devices.hpp"
#include "options.hpp"
#include "registry.hpp"
#include "session.hpp"
#include "si_format.hpp"
#include "verify.hpp"

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

// Returns an exit code, or -1 to go on.
int check_cpu_load(const gb::CliOptions& cli) {
  auto load = gb::read_loadavg();
  if (!load) return -1;
  benchmark::AddCustomContext("cpu_load", std::to_string(*load));
  double limit = cli.max_cpu_load ? *cli.max_cpu_load : std::thread::hardware_concurrency();
  if (*load <= limit) return -1;
  std::fprintf(stderr, "%s: host load average %.2f is above %.2f: results may be skewed\n",
               cli.strict_env ? "error" : "warning", *load, limit);
  return cli.strict_env ? gb::kExitEnvironment : -1;
}

int run(int argc, char** argv) {
  gb::CliOptions cli;
  try {
    cli = gb::parse_cli(&argc, argv);
  } catch (const gb::UsageError& e) {
    std::fprintf(stderr, "gpu_bench: error: %s (see --help)\n", e.what());
    return gb::kExitUsage;
  }
  if (cli.help) std::fputs(gb::cli_help(), stdout);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return gb::kExitUsage;

  auto entries = gb::enumerate_devices();
  auto infos = infos_of(entries);
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
  gb::open_session(chosen.device, chosen.info, size_class);

  if (cli.clock_ramp) {
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
  gb::register_all_cases();
  for (const auto& [name, reason] : gb::skipped_variants())
    std::fprintf(stderr, "skipped %s: %s\n", name.c_str(), reason.c_str());
  benchmark::AddCustomContext("skipped_variants", skipped_json(gb::skipped_variants()));

  if (cli.warmup_s > 0) {
    // No benchmark is measured before the device clock is steady.
    auto r = gb::run_clock_ramp(cli.warmup_s, true, false);
    double last = r.samples.empty() ? 0 : r.samples.back().t_seconds;
    benchmark::AddCustomContext("warmup_seconds", std::to_string(last));
    benchmark::AddCustomContext("steady_flop_per_second", std::to_string(r.steady_flop_per_second));
    benchmark::AddCustomContext("clock_ramp_timeline", gb::ramp_timeline_json(r));
    if (!r.steady_from)
      std::fprintf(stderr, "warning: device throughput not steady after %.1f s of warm-up\n", last);
  }

  if (cli.benchmark_format.empty() || cli.benchmark_format == "console") {
    gb::SiConsoleReporter console;
    benchmark::RunSpecifiedBenchmarks(&console);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  gb::close_session();
  if (!cli.benchmark_out.empty() && !gb::make_json_strict(cli.benchmark_out))
    std::fprintf(stderr, "warning: could not rewrite %s as strict JSON\n", cli.benchmark_out.c_str());
  if (gb::failure_count() > 0) {
    std::fprintf(stderr, "gpu_bench: %d benchmark(s) failed\n", gb::failure_count());
    return gb::kExitFailed;
  }
  return gb::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: error: %s\n", e.what());
    return gb::kExitNoDevice;
  }
}
