// Reading and finding reproducibility studies.
#include "spread_study.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "json_value.hpp"

namespace gb {

namespace {

constexpr const char* kFormat = "gpu-bench-spread";  // tools/repro-study's output

std::optional<SpreadStudy> g_study;

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

SpreadStudy read_spread_study(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  JsonValue doc;
  try {
    doc = parse_json(text.str());
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not JSON (" + e.what() + ")");
  }
  const JsonValue* format = doc.find("format");
  const JsonValue* device = doc.find("device");
  const JsonValue* benchmarks = doc.find("benchmarks");
  if (!format || format->string != kFormat || !device || !benchmarks || !benchmarks->is_object())
    throw std::runtime_error(path + ": not a reproducibility study (format " + kFormat + ", from tools/repro-study)");
  SpreadStudy study;
  study.path = path;
  study.device = device->string;
  if (const JsonValue* runs = doc.find("runs")) study.runs = runs->items.size();
  for (size_t i = 0; i < benchmarks->keys.size(); ++i) {
    const JsonValue& entry = benchmarks->items[i];
    if (const JsonValue* s = entry.find("spread"); s && s->is_number()) study.spread[benchmarks->keys[i]] = s->number;
    if (const JsonValue* s = entry.find("spread_same_gpu"); s && s->is_number())
      study.same_gpu[benchmarks->keys[i]] = s->number;
  }
  return study;
}

std::vector<std::string> spread_study_dirs(const std::string& executable) {
  if (const char* env = std::getenv("GPU_BENCH_RESULTS_DIR"); env && *env) return {env};
  const std::string bin = folder_of(executable);
  return {bin + "/../docs/results", bin + "/../share/gpu-bench/docs/results"};
}

std::string executable_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  path[n] = 0;
  return path;
}

std::optional<SpreadStudy> find_spread_study(const std::string& device, const std::vector<std::string>& dirs) {
  std::optional<SpreadStudy> best;
  for (const auto& dir : dirs) {
    DIR* d = opendir(dir.c_str());
    if (!d) continue;
    std::vector<std::string> names;
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') names.emplace_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      const std::string path = dir + "/" + name + "/spread.json";
      if (!std::ifstream(path)) continue;
      try {
        SpreadStudy study = read_spread_study(path);
        if (study.device == device && (!best || study.runs > best->runs)) best = std::move(study);
      } catch (const std::exception&) {
        // not a study: passed over, as tools/gate does
      }
    }
    if (best) return best;  // the first folder that has one: the source tree before an install
  }
  return best;
}

void set_run_spread_study(std::optional<SpreadStudy> study) { g_study = std::move(study); }
const SpreadStudy* run_spread_study() { return g_study ? &*g_study : nullptr; }

}  // namespace gb
