// support/si_format, support/cpu_load, support/context (strict JSON), support/clock_ramp's
// steady detection, support/cli parsing.
#include <gtest/gtest.h>

#include <vector>

#include "cli.hpp"
#include "clock_ramp.hpp"
#include "context.hpp"
#include "cpu_load.hpp"
#include "si_format.hpp"

namespace {

TEST(SiFormat, ThreeSignificantDigits) {
  EXPECT_EQ(gb::si(4381e9), "4.38 T");
  EXPECT_EQ(gb::si(12.5e-3), "12.5 m");
  EXPECT_EQ(gb::si(999.7), "1.00 k");
  EXPECT_EQ(gb::si(123456), "123 k");
  EXPECT_EQ(gb::si(1.0), "1.00");
  EXPECT_EQ(gb::si(-2.5e-6), "-2.50 u");
  EXPECT_EQ(gb::si(0), "0");
}

TEST(CpuLoad, ParsesFirstField) {
  EXPECT_DOUBLE_EQ(*gb::parse_loadavg("0.52 0.58 0.59 1/123 4567\n"), 0.52);
  EXPECT_DOUBLE_EQ(*gb::parse_loadavg("12.00 1 1 1/1 1"), 12.0);
  EXPECT_FALSE(gb::parse_loadavg(""));
  EXPECT_FALSE(gb::parse_loadavg("abc 1 1"));
  EXPECT_FALSE(gb::parse_loadavg("-1 1 1"));
}

TEST(StrictJson, ReplacesBareNonFiniteButNotStrings) {
  EXPECT_EQ(gb::strict_json_text(R"({"a": NaN, "b": -Infinity, "c": "NaN inf", "d": 1})"),
            R"({"a": null, "b": null, "c": "NaN inf", "d": 1})");
  EXPECT_EQ(gb::strict_json_text(R"({"e": "a\"NaN"})"), R"({"e": "a\"NaN"})");
}

TEST(Fingerprint, StableAndSensitive) {
  gb::DeviceInfo a;
  a.name = "H200";
  gb::DeviceInfo b = a;
  EXPECT_EQ(gb::device_fingerprint(a), gb::device_fingerprint(b));
  EXPECT_EQ(gb::device_fingerprint(a).size(), 16u);
  b.global_mem_bytes = 3ull << 30;  // PoCL's memory and a CPU's clock drift between runs
  b.max_clock_mhz = 2100;
  EXPECT_EQ(gb::device_fingerprint(a), gb::device_fingerprint(b));
  b.driver_version = "580";
  EXPECT_NE(gb::device_fingerprint(a), gb::device_fingerprint(b));
}

TEST(SteadyIndex, FindsWhereRampEnds) {
  std::vector<double> ramp{10, 20, 40, 99, 100, 101, 100, 99, 100};
  EXPECT_EQ(gb::steady_index(ramp), 3u);
  std::vector<double> rising{10, 20, 30, 40, 50, 60};
  EXPECT_FALSE(gb::steady_index(rising));
  std::vector<double> short_run{100, 100};
  EXPECT_FALSE(gb::steady_index(short_run));
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> v;
  for (auto& a : args) v.push_back(a.data());
  v.push_back(nullptr);
  return v;
}

TEST(Cli, TakesOwnFlagsAndLeavesBenchmarkFlags) {
  std::vector<std::string> args{"gpu_bench", "--device=h200", "-2", "--size=1",
                                "--benchmark_filter=FFT", "--benchmark_out=x.json", "--strict_env"};
  auto argv = argv_of(args);
  int argc = static_cast<int>(args.size());
  auto o = gb::parse_cli(&argc, argv.data());
  EXPECT_EQ(o.device, "h200");
  EXPECT_EQ(o.device_index, "2");
  EXPECT_EQ(*o.size_class, 1);
  EXPECT_TRUE(o.strict_env);
  // The output file is written by gpu_bench itself (atomically), so Google Benchmark never sees it.
  EXPECT_EQ(o.benchmark_out, "x.json");
  EXPECT_EQ(o.benchmark_out_format, "json");
  ASSERT_EQ(argc, 2);
  EXPECT_STREQ(argv[1], "--benchmark_filter=FFT");
}

TEST(Cli, MeasurementFlags) {
  std::vector<std::string> args{"gpu_bench", "--max_noise=1.5", "--min_samples=4", "--max_time=0.25",
                                "--progress=0", "--benchmark_min_time=0.5", "--benchmark_repetitions=3"};
  auto argv = argv_of(args);
  int argc = static_cast<int>(args.size());
  auto o = gb::parse_cli(&argc, argv.data());
  EXPECT_DOUBLE_EQ(o.max_noise_percent, 1.5);
  EXPECT_EQ(o.min_samples, 4);
  EXPECT_DOUBLE_EQ(o.max_time_s, 0.25);
  EXPECT_FALSE(o.progress);
  ASSERT_TRUE(o.min_time_s.has_value());
  EXPECT_DOUBLE_EQ(*o.min_time_s, 0.5);
  ASSERT_EQ(argc, 2);  // repetitions stay Google Benchmark's
  EXPECT_STREQ(argv[1], "--benchmark_repetitions=3");
}

TEST(Cli, BadValuesAreUsageErrors) {
  for (std::string bad : {"--size=5", "--size=0", "--size=big", "--max_cpu_load=x", "--device=", "--max_noise=0",
                          "--min_samples=0", "--min_samples=2.5", "--max_time=-1", "--progress=maybe",
                          "--benchmark_out=", "--benchmark_out_format=xml", "--benchmark_min_time=abc"}) {
    std::vector<std::string> args{"gpu_bench", bad};
    auto argv = argv_of(args);
    int argc = 2;
    EXPECT_THROW(gb::parse_cli(&argc, argv.data()), gb::UsageError) << bad;
  }
}

}  // namespace
