// The recording reporter and the atomic output file.
#include "run_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>

#include "context.hpp"
#include "measure.hpp"
#include "progress.hpp"
#include "registry.hpp"
#include "spread_study.hpp"

namespace gb {

static bool dropped(const benchmark::BenchmarkReporter::Run& run) {
  if (!run.error_occurred) return false;
  return run.error_message == kInterruptedMessage || run.error_message.rfind(kSkippedPrefix, 0) == 0;
}

bool RunRecorder::ReportContext(const Context& context) {
  context_.emplace(context);
  return display_ ? display_->ReportContext(context) : true;
}

void RunRecorder::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> kept;
  for (const auto& r : runs)
    if (!dropped(r)) kept.push_back(r);
  progress().clear();
  if (display_ && !kept.empty()) display_->ReportRuns(kept);
  runs_.insert(runs_.end(), kept.begin(), kept.end());
}

void RunRecorder::Finalize() {
  progress().clear();
  if (display_) display_->Finalize();
}

std::string RunRecorder::render(const std::string& format) const {
  std::ostringstream out, err;
  std::unique_ptr<benchmark::BenchmarkReporter> reporter;
  if (format == "csv")
    reporter = std::make_unique<benchmark::CSVReporter>();
  else if (format == "console")
    reporter = std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
  else
    reporter = std::make_unique<benchmark::JSONReporter>();
  reporter->SetOutputStream(&out);
  reporter->SetErrorStream(&err);
  if (context_) {
    reporter->ReportContext(*context_);
  } else {  // a run ended before its first benchmark (a kernel hung in the warm-up)
    benchmark::BenchmarkReporter::Context context;
    context.name_field_width = 10;
    reporter->ReportContext(context);
  }
  if (!runs_.empty()) reporter->ReportRuns(runs_);
  reporter->Finalize();
  return format == "json" ? with_metric_kinds(strict_json_text(out.str())) : out.str();
}

std::string without_manual_time(const std::string& name) {
  const std::string suffix = "/manual_time";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return name.substr(0, name.size() - suffix.size());
  return name;
}

static std::string json_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Google Benchmark's JSON, with each benchmark's primary_metric and metrics (support/measure.hpp's
// MetricKinds) after its run_type line: 1.7.1 writes one field per line, run_name before run_type;
// and the run-to-run spreads of the study the run took (support/spread_study.hpp).
std::string with_metric_kinds(const std::string& json) {
  std::istringstream in(json);
  std::string out, line, run_name, full_name;
  const std::string name_key = "\"run_name\": \"";
  while (std::getline(in, line)) {
    out += line + "\n";
    const auto at = line.find(name_key);
    if (at != std::string::npos) {
      run_name = line.substr(at + name_key.size());
      run_name = run_name.substr(0, run_name.rfind('"'));
      full_name = run_name;  // a study's key
      run_name = without_manual_time(run_name);
      continue;
    }
    if (run_name.empty() || line.find("\"run_type\": ") == std::string::npos) continue;
    const std::string indent = line.substr(0, line.find('"'));
    if (const MetricKinds* kinds = metric_kinds(run_name)) {
      out += indent + "\"primary_metric\": \"" + kinds->primary + "\",\n" + indent + "\"metrics\": [";
      for (size_t i = 0; i < kinds->metrics.size(); ++i) out += (i ? ", \"" : "\"") + kinds->metrics[i] + "\"";
      out += "],\n";
    }
    if (const SpreadStudy* study = run_spread_study()) {
      for (const auto& [field, same_gpu] : {std::pair{"run_to_run_spread", false}, std::pair{"run_to_run_spread_same_gpu", true}})
        if (const auto spread = study->spread_of(full_name, same_gpu))
          out += indent + "\"" + field + "\": " + json_number(*spread) + ",\n";
    }
    run_name.clear();
  }
  return out;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string unwritable_reason(const std::string& path) {
  if (path.empty()) return "empty file name";
  const std::string folder = folder_of(path);
  if (access(folder.c_str(), F_OK) != 0) return "folder " + folder + " does not exist";
  if (access(folder.c_str(), W_OK) != 0) return "folder " + folder + " is not writable";
  if (access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0) return "file is not writable";
  return "";
}

bool write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  const bool ok = written == text.size() && fsync(fd) == 0;
  if (close(fd) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace gb
