// Where a run's results go. The display reporter prints each benchmark as it finishes; the
// --benchmark_out file is made at the end, from the runs kept here, written to a temporary file
// beside it and renamed over it, so no signal or kill leaves a half-written file in its place.
// Runs skipped at run time and runs abandoned by a stop signal go to neither.
#pragma once
#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <vector>

namespace gb {

class RunRecorder : public benchmark::BenchmarkReporter {
 public:
  explicit RunRecorder(benchmark::BenchmarkReporter* display) : display_(display) {}
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // The output file's text in `format` (json, csv or console) from the runs kept so far, with
  // the custom context as it is now. JSON is strict (no bare NaN or Infinity).
  std::string render(const std::string& format) const;
  size_t kept() const { return runs_.size(); }

 private:
  benchmark::BenchmarkReporter* display_;
  std::optional<Context> context_;
  std::vector<Run> runs_;
};

// JSON text of Google Benchmark's reporter with each benchmark's primary_metric and metrics added,
// and its run_to_run_spread (and _same_gpu) where the run has a study of its device.
std::string with_metric_kinds(const std::string& json);

// The folder of `path` ("." for a bare name, "/" for one in the root).
std::string folder_of(const std::string& path);

// A benchmark's name as registered: its output name less Google Benchmark's "/manual_time".
std::string without_manual_time(const std::string& name);

// Whether `path` can be written as an output file (its folder exists and is writable, and an
// existing file is writable); the reason when not.
std::string unwritable_reason(const std::string& path);

// Writes `text` to a temporary file beside `path`, flushes it to disk, and renames it over `path`.
bool write_atomically(const std::string& path, const std::string& text);

}  // namespace gb
