// gpu_bench's own flags, taken out of argv before Google Benchmark sees the rest.
// Exit codes: 0 ok, 1 a benchmark failed (verification or OpenCL error), 2 usage error,
// 3 environment refused (--strict_env), 4 no usable OpenCL device.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gb {

enum ExitCode { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitEnvironment = 3, kExitNoDevice = 4 };

struct CliOptions {
  bool help = false;
  bool list_devices = false;
  bool clock_ramp = false;
  bool strict_env = false;
  std::string device;               // --device=SPEC
  std::string device_index;         // -N
  std::optional<int> size_class;    // --size=1..4
  std::optional<double> max_cpu_load;
  double tolerance_scale = 1.0;
  double min_sample_ms = 2.0;
  double warmup_s = 3.0;
  std::string benchmark_out;        // seen, not taken: the JSON file to make strict afterwards
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
