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
