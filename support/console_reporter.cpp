// The SI console reporter.
#include "console_reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>

#include "si_format.hpp"

namespace gb {

bool SiConsoleReporter::ReportContext(const Context& context) {
  std::ostream& err = GetErrorStream();
  std::ostringstream captured;
  SetErrorStream(&captured);
  const bool ok = benchmark::ConsoleReporter::ReportContext(context);
  SetErrorStream(&err);
  std::string text = captured.str();
  const std::string warning = "***WARNING*** Library was built as DEBUG. Timings may be affected.";
  if (auto at = text.find(warning); at != std::string::npos)
    text.replace(at, warning.size(),
                 "note: the Google Benchmark library is a DEBUG build (Debian's is); that concerns its own\n"
                 "loop, not gpu_bench's times, which come from OpenCL event profiling on the device.");
  err << text;
  return ok;
}

void SiConsoleReporter::PrintHeader(const Run&) {
  std::string line = std::string(std::max<size_t>(name_field_width_, 9), ' ');
  line.replace(0, 9, "Benchmark");
  GetOutputStream() << line << "        Time  Iterations  Counters\n"
                    << std::string(line.size() + 34, '-') << "\n";
}

void SiConsoleReporter::PrintRunData(const Run& run) {
  auto& out = GetOutputStream();
  std::string name = run.benchmark_name();
  name.resize(std::max(name.size(), name_field_width_), ' ');
  out << name << " ";
  if (run.error_occurred) {
    out << "ERROR: " << run.error_message << "\n";
    return;
  }
  const bool is_percent = run.run_type == Run::RT_Aggregate &&
                          run.aggregate_unit == benchmark::StatisticUnit::kPercentage;
  char buf[64];
  if (is_percent) {
    // The statistic is a fraction: no time-unit scaling, no division by iterations.
    std::snprintf(buf, sizeof buf, "%10.2f %%", 100.0 * run.real_accumulated_time);
  } else {
    double seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    std::snprintf(buf, sizeof buf, "%11ss", si(seconds).c_str());
  }
  out << buf;
  std::snprintf(buf, sizeof buf, " %11lld ", static_cast<long long>(run.iterations));
  out << buf;
  for (const auto& [key, counter] : run.counters) {
    const bool rate = (counter.flags & benchmark::Counter::kIsRate) != 0;
    out << " " << key << "=" << si(counter.value) << (rate ? "/s" : "");
  }
  if (!run.report_label.empty()) out << " " << run.report_label;
  out << "\n";
}

}  // namespace gb
