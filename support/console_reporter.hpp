// Console output for people: time per iteration, then every counter in SI form with three
// significant digits (rates as "/s"). Errors print their message.
#pragma once
#include <benchmark/benchmark.h>

namespace gb {

class SiConsoleReporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;

 protected:
  void PrintHeader(const Run& run) override;
  void PrintRunData(const Run& run) override;
};

}  // namespace gb
