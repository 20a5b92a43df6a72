// support/registry: names, and which registered names the benchmark filter selects.
#include "registry.hpp"

#include <gtest/gtest.h>

namespace {

TEST(BenchName, JoinsVariantAndParams) {
  EXPECT_EQ(gb::bench_name("L0/GlobalBandwidth", {{"", "copy"}, {"type", "float4"}, {"size", "1"}}),
            "L0/GlobalBandwidth/copy/type:float4/size:1");
}

TEST(SelectedByFilter, FollowsGoogleBenchmarkFilter) {
  const std::string saved = benchmark::GetBenchmarkFilter();
  benchmark::SetBenchmarkFilter("FFT");
  EXPECT_TRUE(gb::selected_by_filter("L1/FFT/stockham/n:1024"));
  EXPECT_FALSE(gb::selected_by_filter("L1/GEMM/naive"));
  benchmark::SetBenchmarkFilter("-FFT");
  EXPECT_FALSE(gb::selected_by_filter("L1/FFT/stockham/n:1024"));
  EXPECT_TRUE(gb::selected_by_filter("L1/GEMM/naive"));
  benchmark::SetBenchmarkFilter("wg:16/manual_time$");
  EXPECT_TRUE(gb::selected_by_filter("L1/GEMM/naive/wg:16"));
  benchmark::SetBenchmarkFilter("");
  EXPECT_TRUE(gb::selected_by_filter("anything"));
  benchmark::SetBenchmarkFilter(saved);
}

}  // namespace

namespace {

TEST(BenchName, PutsTheAxesInTheGrammarsOrder) {
  EXPECT_EQ(gb::bench_name("L1/BoxFilter", {{"", "strip_vec"}, {"size", "1"}, {"wg", "64x1"}, {"radius", "1"},
                                            {"cols", "4"}, {"type", "float"}}),
            "L1/BoxFilter/strip_vec/type:float/radius:1/cols:4/wg:64x1/size:1");
}

TEST(NameGrammar, AcceptsTheGrammarAndNamesWhatBreaksIt) {
  for (const char* good : {"L0/Compute/mad/type:float/width:4/wg:256/size:3",
                           "L1/FFT/stockham/n:1024/batch:64/dir:forward/size:1",
                           "L2/LatticeBoltzmann/D2Q9/wg:auto/size:2", "L1/GEMM/naive/type:double/m:1/n:2/k:3/wg:8x8x4/size:4"})
    EXPECT_EQ(gb::name_grammar_error(good), "") << good;
  const std::pair<const char*, const char*> bad[] = {
      {"L0/Compute/wg_sweep/type:float/wg:32/size:3", "sweep"},
      {"L1/Transpose/naive/size:1/wg:32x8", "does not follow"},
      {"L1/BoxFilter/naive/wg:32x8/radius:1/size:1", "wg: comes right before size:"},
      {"L1/Reduction/local/op:sum/type:float/size:1", "type: comes right after the variant"},
      {"L0/Atomics/global/int/contention:1/size:1", "does not follow"},
      {"L0/Roofline/fma/intensity:1/intensity:2/size:1", "repeats the axis intensity"},
      {"L1/Scan/local/wg:big/size:1", "wg: is auto"},
      {"L3/Thing/x/size:1", "does not follow"},
      {"L1/GEMM/naive/size:5", "does not follow"},
  };
  for (const auto& [name, why] : bad) EXPECT_NE(gb::name_grammar_error(name).find(why), std::string::npos) << name;
}

TEST(DefaultSet, KeepsTheDriverChoiceAndThe256ItemShapes) {
  EXPECT_TRUE(gb::in_default_set("L1/FFT/stockham/n:1024/batch:64/dir:forward/size:3"));
  EXPECT_TRUE(gb::in_default_set("L1/GEMM/naive/type:float/m:4096/n:4096/k:4096/wg:auto/size:3"));
  EXPECT_TRUE(gb::in_default_set("L1/GEMM/naive/type:float/m:4096/n:4096/k:4096/wg:16x16/size:3"));
  EXPECT_TRUE(gb::in_default_set("L1/BoxFilter/naive/wg:256x1/size:3"));
  EXPECT_TRUE(gb::in_default_set("L1/FFT/stockham/n:1024/batch:64/dir:forward/radix:32/wg:256/size:3"));
  EXPECT_FALSE(gb::in_default_set("L1/GEMM/naive/type:float/m:4096/n:4096/k:4096/wg:8x32/size:3"));
  EXPECT_FALSE(gb::in_default_set("L1/FFT/stockham/n:1024/batch:64/dir:forward/radix:32/wg:64/size:3"));
  EXPECT_FALSE(gb::in_default_set("L1/BoxFilter/naive/wg:2560x1/size:3"));
}

// Registers into this test process's Google Benchmark (nothing is run): the default run leaves
// out the shapes outside the default set and the points a case marks DefaultRun::no, and names
// the selected benchmarks' programs once each, in registration order.
TEST(DefaultSet, LeavesOutMarkedPointsAndListsSelectedPrograms) {
  const gb::Body body = [](benchmark::State&) {};
  auto programs = [](std::vector<gb::ProgramKey> keys) { return [keys] { return keys; }; };
  gb::add_benchmark("L2/SelfTest/a/size:1", body, programs({{"t.cl", "-DA"}}));
  gb::add_benchmark("L2/SelfTest/b/size:1", body, programs({{"t.cl", "-DB"}, {"t.cl", "-DA"}}), gb::DefaultRun::no);
  gb::add_benchmark("L2/SelfTest/c/wg:64/size:1", body, programs({{"t.cl", "-DC"}}));
  gb::add_benchmark("L2/SelfTest/c/wg:256/size:1", body, programs({{"t.cl", "-DD"}}));
  EXPECT_EQ(gb::register_all_cases(false), 2u);
  EXPECT_EQ(gb::selected_benchmark_count(), 2);
  const auto keys = gb::selected_programs();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].options, "-DA");
  EXPECT_EQ(keys[1].options, "-DD");
}

}  // namespace
