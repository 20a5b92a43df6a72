// Console output for people: the time of one unit (SI seconds, or --benchmark_time_unit's unit
// when given), then every counter with its unit: rates in B/s, FLOP/s, items/s; noise in %;
// counts as integers; as columns with --benchmark_counters_tabular. Errors print their message.
#pragma once
#include <benchmark/benchmark.h>

#include <string>

namespace benchmark {  // Google Benchmark 1.7.1 defines these flags without declaring them in its header
extern bool FLAGS_benchmark_counters_tabular;
extern std::string FLAGS_benchmark_time_unit;
}  // namespace benchmark

namespace gb {

class SiConsoleReporter : public benchmark::ConsoleReporter {
 public:
  // tabular: --benchmark_counters_tabular; fixed_time_unit: --benchmark_time_unit was given.
  SiConsoleReporter(bool tabular, bool fixed_time_unit)
      : benchmark::ConsoleReporter(tabular ? OO_Tabular : OO_None), fixed_time_unit_(fixed_time_unit) {}
  // Google Benchmark's context header, with its warning about a DEBUG build (Debian's library is
  // one) explained once: the times come from OpenCL event profiling, which that build does not touch.
  bool ReportContext(const Context& context) override;

 protected:
  void PrintHeader(const Run& run) override;
  void PrintRunData(const Run& run) override;

 private:
  bool fixed_time_unit_;
};

// A counter's value with its unit, as the console shows it ("4.54 GB/s", "0.098%", "256").
std::string format_counter(const std::string& key, double value, bool is_rate);

}  // namespace gb
