// Reading and finding reproducibility studies.
#include "spread_study.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "json_value.hpp"
#include "run_output.hpp"

namespace gb {

namespace {

constexpr const char* kFormat = "gpu-bench-spread";  // tools/repro-study's output

std::optional<SpreadStudy> g_study;

}  // namespace

SpreadStudy read_spread_study(const std::string& path) {
  const JsonValue doc = read_json_file(path);
  const JsonValue* format = doc.find("format");
  const JsonValue* device = doc.find("device");
  const JsonValue* benchmarks = doc.find("benchmarks");
  if (!format || format->string != kFormat || !device || !benchmarks || !benchmarks->is_object())
    throw std::runtime_error(path + ": not a reproducibility study (format " + kFormat + ", from tools/repro-study)");
  if (device->kind != JsonValue::Kind::kString || device->string.empty())
    throw std::runtime_error(path + ": a study that names no device");
  SpreadStudy study;
  study.path = path;
  study.device = device->string;
  if (const JsonValue* runs = doc.find("runs"); runs && runs->kind == JsonValue::Kind::kArray) study.runs = runs->items.size();
  const auto take = [](const JsonValue& record, const char* field, const std::string& key,
                       std::unordered_map<std::string, double>& into) {
    if (const JsonValue* s = record.find(field); s && s->is_number() && s->number >= 0) into[key] = s->number;
  };
  for (size_t i = 0; i < benchmarks->keys.size(); ++i) {
    take(benchmarks->items[i], "spread", benchmarks->keys[i], study.spread);
    take(benchmarks->items[i], "spread_same_gpu", benchmarks->keys[i], study.same_gpu);
  }
  if (const JsonValue* families = doc.find("families"); families && families->is_object()) {
    for (size_t i = 0; i < families->keys.size(); ++i) {
      take(families->items[i], "spread_family", families->keys[i], study.family_spread);
      take(families->items[i], "spread_family_same_gpu", families->keys[i], study.family_same_gpu);
    }
  }
  return study;
}

std::optional<double> SpreadStudy::spread_of(const std::string& run_name, bool same) const {
  std::string family;
  for (size_t at = 0, parts = 0; at < run_name.size() && parts < 3; ++at) {
    if (run_name[at] == '/' && ++parts == 3) break;
    family += run_name[at];
  }
  const auto& own = same ? same_gpu : spread;
  const auto& of_family = same ? family_same_gpu : family_spread;
  if (const auto it = own.find(run_name); it != own.end()) return it->second;
  if (const auto it = of_family.find(family); it != of_family.end()) return it->second;
  return std::nullopt;
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

std::optional<SpreadStudy> spread_study_for(const std::string& flag, const std::string& device) {
  if (flag.empty()) return find_spread_study(device, spread_study_dirs(executable_path()));
  SpreadStudy study = read_spread_study(flag);
  if (study.device != device) throw std::runtime_error(flag + ": a study of " + study.device + ", not of " + device);
  return study;
}

void set_run_spread_study(std::optional<SpreadStudy> study) { g_study = std::move(study); }
const SpreadStudy* run_spread_study() { return g_study ? &*g_study : nullptr; }

}  // namespace gb
