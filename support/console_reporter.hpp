// Console output for people: time per iteration, then every counter in SI form with three
// significant digits (rates as "/s"). Errors print their message.
#pragma once
#include <benchmark/benchmark.h>

namespace gb {

class SiConsoleReporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;
  // Google Benchmark's context header, with its warning about a DEBUG build (Debian's library is
  // one) explained once: the times come from OpenCL event profiling, which that build does not touch.
  bool ReportContext(const Context& context) override;

 protected:
  void PrintHeader(const Run& run) override;
  void PrintRunData(const Run& run) override;
};

}  // namespace gb
