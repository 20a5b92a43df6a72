// The SI console reporter.
#include "console_reporter.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
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

// "4.38 T" + "B/s" -> "4.38 TB/s"; "12.5" + "B/s" -> "12.5 B/s"; words apart: "98.7 M items/s".
static std::string with_unit(const std::string& number, const std::string& unit) {
  const bool prefixed = !number.empty() && std::isalpha(static_cast<unsigned char>(number.back()));
  const bool word = !unit.empty() && std::islower(static_cast<unsigned char>(unit[0]));
  return number + (prefixed && !word ? "" : " ") + unit;
}

static bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string format_counter(const std::string& key, double value, bool is_rate) {
  char buf[64];
  if (key == "noise" || key == "host_busy") {  // fractions: the relative IQR; others' CPU share
    std::snprintf(buf, sizeof buf, "%.3g%%", 100 * value);
    return buf;
  }
  if (key == "margin" || key == "rel_error") {  // relative errors span many decades
    std::snprintf(buf, sizeof buf, "%.2g", value);
    return buf;
  }
  if (key == "batch" || key == "samples" || key == "converged" || key == "passes" || key == "work_group" ||
      key == "involuntary_switches") {
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  if (key == "copy_fraction" || key == "host_over_device" || key == "device_clock_ratio") {  // ratios
    std::snprintf(buf, sizeof buf, "%.3g", value);
    return buf;
  }
  const std::string per_second = "_per_second";
  if (is_rate || ends_with(key, per_second)) {
    std::string what = ends_with(key, per_second) ? key.substr(0, key.size() - per_second.size()) : "";
    if (what == "bytes") what = "B";
    if (what == "flop") what = "FLOP";
    return with_unit(si(value), what + "/s");
  }
  if (key.rfind("bytes", 0) == 0 || ends_with(key, "_bytes")) return with_unit(si(value), "B");
  return si(value);
}

void SiConsoleReporter::PrintHeader(const Run& run) {
  std::string line = std::string(std::max<size_t>(name_field_width_, 9), ' ');
  line.replace(0, 9, "Benchmark");
  line += "        Time  Iterations";
  if (output_options_ & OO_Tabular) {
    for (const auto& [key, counter] : run.counters) {
      std::string column = key.size() < 14 ? std::string(14 - key.size(), ' ') + key : key;
      line += " " + column;
    }
  } else {
    line += "  Counters";
  }
  GetOutputStream() << line << "\n" << std::string(line.size(), '-') << "\n";
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
  } else if (fixed_time_unit_) {
    std::snprintf(buf, sizeof buf, "%10.6g %s", run.GetAdjustedRealTime(), benchmark::GetTimeUnitString(run.time_unit));
  } else {
    double seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    std::snprintf(buf, sizeof buf, "%11ss", si(seconds).c_str());
  }
  out << buf;
  std::snprintf(buf, sizeof buf, " %11lld ", static_cast<long long>(run.iterations));
  out << buf;
  for (const auto& [key, counter] : run.counters) {
    const std::string value = format_counter(key, counter.value, (counter.flags & benchmark::Counter::kIsRate) != 0);
    if (output_options_ & OO_Tabular) {
      const size_t width = std::max<size_t>(14, key.size());
      out << " " << std::string(value.size() < width ? width - value.size() : 0, ' ') << value;
    } else {
      out << " " << key << "=" << value;
    }
  }
  if (!run.report_label.empty()) out << " " << run.report_label;
  out << "\n";
}

}  // namespace gb
