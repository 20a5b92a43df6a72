// support/pinned_batches: the batches of an earlier run, by benchmark name.
#include "pinned_batches.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace {

std::string write_run(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("gb_batches_" + name + ".json");
  std::ofstream(path) << text;
  return path.string();
}

TEST(PinnedBatches, TakesEachIterationsBatchByItsNameWithoutManualTime) {
  const std::string path = write_run("ok", R"({"context": {"device": "GPU A"}, "benchmarks": [
    {"name": "L0/A/x/size:1/manual_time", "run_name": "L0/A/x/size:1/manual_time", "run_type": "iteration", "batch": 16},
    {"name": "L0/A/x/size:1/manual_time_median", "run_name": "L0/A/x/size:1/manual_time", "run_type": "aggregate", "batch": 99},
    {"name": "L0/A/y/size:1/manual_time", "run_type": "iteration", "batch": 4},
    {"name": "L0/A/z/size:1/manual_time", "run_type": "iteration", "error_occurred": true, "batch": 8},
    {"name": "L0/A/w/size:1/manual_time", "run_type": "iteration"}]})");
  const auto batches = gb::read_batches(path, "GPU A");
  EXPECT_EQ(batches, (std::map<std::string, int>{{"L0/A/x/size:1", 16}, {"L0/A/y/size:1", 4}}));
  std::filesystem::remove(path);
}

TEST(PinnedBatches, RefusesAnotherDevicesRunOrWhatIsNotARun) {
  const std::string other = write_run("other", R"({"context": {"device": "GPU B"}, "benchmarks": []})");
  const std::string study = write_run("study", R"({"format": "gpu-bench-spread", "benchmarks": {}})");
  const std::string broken = write_run("broken", R"({"context": )");
  for (const auto& [path, reason] : {std::pair{other, "a run of GPU B, not of GPU A"},
                                     std::pair{study, "not a gpu_bench output file"}, std::pair{broken, "not JSON"}}) {
    try {
      gb::read_batches(path, "GPU A");
      ADD_FAILURE() << path;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
  }
  EXPECT_THROW(gb::read_batches("/no/such/run.json", "GPU A"), std::runtime_error);
}

}  // namespace
