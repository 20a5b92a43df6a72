// A reproducibility study (tools/repro-study, docs/REPRODUCIBILITY.md): each benchmark's
// run-to-run spread on one device kind. gpu_bench writes the study's figures beside each
// benchmark of its output file, so the file says how far the next run may land, not only how
// noisy this one was.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gb {

struct SpreadStudy {
  std::string path, device;
  size_t runs = 0;
  std::unordered_map<std::string, double> spread;    // by run name ("L0/.../manual_time")
  std::unordered_map<std::string, double> same_gpu;  // between runs of one GPU, where the study has it
  // By family (the name's first three parts, "L0/Atomics/global"): for benchmarks the study lacks.
  std::unordered_map<std::string, double> family_spread, family_same_gpu;

  // A benchmark's spread (same_gpu: between runs of one GPU): its own, else its family's, else none.
  std::optional<double> spread_of(const std::string& run_name, bool same_gpu) const;
};

// The study in `path`; throws std::runtime_error with a one-line reason when it is not one.
SpreadStudy read_spread_study(const std::string& path);

// Where studies are looked for: $GPU_BENCH_RESULTS_DIR, else the source tree's docs/results beside
// a build folder and the installed share/gpu-bench/docs/results, both found from `executable`.
std::vector<std::string> spread_study_dirs(const std::string& executable);
// The running executable's path (/proc/self/exe), or "" where it cannot be read.
std::string executable_path();

// The study of `device` with the most runs among DIR/*/spread.json, if any; files that are not
// studies are passed over.
std::optional<SpreadStudy> find_spread_study(const std::string& device, const std::vector<std::string>& dirs);

// The study a run of `device` takes: `flag` names it (a study of another device is refused), or
// with "" it is found in spread_study_dirs beside this executable; none may be found. Throws
// std::runtime_error with a one-line reason.
std::optional<SpreadStudy> spread_study_for(const std::string& flag, const std::string& device);

// The study this run's output file takes its spreads from (main sets it once), or nullptr.
void set_run_spread_study(std::optional<SpreadStudy> study);
const SpreadStudy* run_spread_study();

}  // namespace gb
