// support/spread_study: reading a reproducibility study and finding the one of a device.
#include "spread_study.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

class Studies : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gb_spread_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string write(const std::string& folder, const std::string& text) {
    fs::create_directories(root_ / folder);
    const fs::path path = root_ / folder / "spread.json";
    std::ofstream(path) << text;
    return path.string();
  }
  static std::string study(const std::string& device, int runs, double spread) {
    std::string run_list;
    for (int i = 0; i < runs; ++i) run_list += std::string(i ? "," : "") + "{\"file\": \"run-" + std::to_string(i) + ".json\"}";
    return "{\"format\": \"gpu-bench-spread\", \"device\": \"" + device + "\", \"runs\": [" + run_list + "], " +
           "\"benchmarks\": {\"L0/A/b/size:1/manual_time\": {\"spread\": " + std::to_string(spread) +
           ", \"spread_same_gpu\": 0.002}, \"L0/A/c/size:1/manual_time\": {\"spread\": 0.03}}, " +
           "\"families\": {\"L0/A/b\": {\"spread_family\": 0.02, \"spread_family_same_gpu\": 0.004}, " +
           "\"L0/A/d\": {\"spread_family\": 0.05}}}";
  }
  fs::path root_;
};

TEST_F(Studies, ReadsEachBenchmarksSpreads) {
  const auto s = gb::read_spread_study(write("gpu-a", study("GPU A", 3, 0.01)));
  EXPECT_EQ(s.device, "GPU A");
  EXPECT_EQ(s.runs, 3u);
  EXPECT_DOUBLE_EQ(s.spread.at("L0/A/b/size:1/manual_time"), 0.01);
  EXPECT_DOUBLE_EQ(s.same_gpu.at("L0/A/b/size:1/manual_time"), 0.002);
  EXPECT_EQ(s.same_gpu.count("L0/A/c/size:1/manual_time"), 0u);  // the study has none for it
  // A benchmark's own figure first, else its family's (a variant the study did not run), else none.
  EXPECT_EQ(s.spread_of("L0/A/b/size:1/manual_time", false), 0.01);
  EXPECT_EQ(s.spread_of("L0/A/b/size:2/manual_time", true), 0.004);
  EXPECT_EQ(s.spread_of("L0/A/d/x:1/size:1/manual_time", false), 0.05);
  EXPECT_FALSE(s.spread_of("L0/A/d/x:1/size:1/manual_time", true));
  EXPECT_FALSE(s.spread_of("L0/A/e/size:1/manual_time", false));
}

TEST_F(Studies, RefusesWhatIsNotAStudyWithTheReason) {
  const auto expect_reason = [](const std::string& path, const std::string& reason) {
    try {
      gb::read_spread_study(path);
      ADD_FAILURE() << path;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  expect_reason(write("broken", "{\"format\": "), "not JSON (byte");
  expect_reason(write("run", "{\"context\": {}, \"benchmarks\": []}"), "not a reproducibility study");
  expect_reason((root_ / "nowhere.json").string(), "cannot be read");
}

TEST_F(Studies, FindsTheStudyOfTheDeviceWithTheMostRuns) {
  write("a-small", study("GPU A", 2, 0.05));
  write("a-large", study("GPU A", 7, 0.01));
  write("b", study("GPU B", 9, 0.02));
  write("junk", "not json");
  const auto found = gb::find_spread_study("GPU A", {(root_ / "missing").string(), root_.string()});
  ASSERT_TRUE(found);
  EXPECT_EQ(found->runs, 7u);
  EXPECT_NE(found->path.find("a-large"), std::string::npos);
  EXPECT_FALSE(gb::find_spread_study("GPU C", {root_.string()}));
}

TEST(SpreadStudyDirs, FromTheEnvironmentElseBesideTheExecutable) {
  unsetenv("GPU_BENCH_RESULTS_DIR");
  EXPECT_EQ(gb::spread_study_dirs("/opt/gb/bin/gpu_bench"),
            (std::vector<std::string>{"/opt/gb/bin/../docs/results", "/opt/gb/bin/../share/gpu-bench/docs/results"}));
  setenv("GPU_BENCH_RESULTS_DIR", "/data/results", 1);
  EXPECT_EQ(gb::spread_study_dirs("/opt/gb/bin/gpu_bench"), (std::vector<std::string>{"/data/results"}));
  unsetenv("GPU_BENCH_RESULTS_DIR");
}

}  // namespace
