// support/watchdog (no OpenCL device needed): waits shorter than the limit go unreported; one wait
// past it calls the handler while the waiting thread stays blocked, and ends the process with
// exit code 5; --kernel_timeout's parsing; an output file made before any benchmark ran is JSON.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "run_output.hpp"
#include "watchdog.hpp"

namespace {

using namespace std::chrono_literals;

TEST(Watchdog, ShortWaitsAreNotReported) {
  std::atomic<int> reported{0};
  gb::start_watchdog(0.2, [&](const gb::Hang&) { ++reported; });
  for (int i = 0; i < 20; ++i) {
    gb::DeviceWait outer;
    gb::DeviceWait nested;  // counts as the outer one
    std::this_thread::sleep_for(10ms);
  }
  std::this_thread::sleep_for(300ms);  // idle, outside any wait, longer than the limit
  gb::stop_watchdog();
  gb::stop_watchdog();  // twice is fine
  EXPECT_EQ(reported.load(), 0);
}

TEST(Watchdog, NoLimitStartsNothing) {
  gb::start_watchdog(0, [](const gb::Hang&) { std::abort(); });
  {
    gb::DeviceWait wait;
    std::this_thread::sleep_for(50ms);
  }
  gb::stop_watchdog();
}

// The handler sees what the run was doing, runs while the waiting thread is still blocked (the
// flag the waiter sets after its wait is never seen), and the process ends with exit code 5.
void hang_for_ever() {
  gb::watchdog_activity("Case/a", true);
  gb::watchdog_activity("Case/b", true);
  gb::watchdog_activity("Case/b", true);  // its second repetition
  static std::atomic<bool> waited{false};
  gb::start_watchdog(0.1, [](const gb::Hang& hang) {
    std::fprintf(stderr, "hang in %s #%d rep %d (%s) waited=%d\n", hang.activity.c_str(), hang.benchmark_index,
                 hang.repetition, hang.message.c_str(), waited.load() ? 1 : 0);
  });
  {
    gb::DeviceWait wait;
    std::this_thread::sleep_for(3s);  // a kernel that does not finish in time
  }
  waited = true;
  std::this_thread::sleep_for(3s);
}

TEST(WatchdogDeathTest, AWaitPastTheLimitEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(hang_for_ever(), ::testing::ExitedWithCode(gb::kExitKernelTimeout),
              "hang in Case/b #1 rep 1 \\(kernel did not finish within 0.1 s \\(--kernel_timeout\\)\\) waited=0");
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> v;
  for (auto& a : args) v.push_back(a.data());
  v.push_back(nullptr);
  return v;
}

TEST(Watchdog, KernelTimeoutFlag) {
  std::vector<std::string> args{"gpu_bench"};
  auto argv = argv_of(args);
  int argc = 1;
  EXPECT_DOUBLE_EQ(gb::parse_cli(&argc, argv.data()).kernel_timeout_s, 300);
  for (auto [text, want] : {std::pair{"--kernel_timeout=2.5", 2.5}, {"--kernel_timeout=0", 0.0}}) {
    std::vector<std::string> given{"gpu_bench", text};
    auto v = argv_of(given);
    int n = 2;
    EXPECT_DOUBLE_EQ(gb::parse_cli(&n, v.data()).kernel_timeout_s, want) << text;
    EXPECT_EQ(n, 1);
  }
  for (std::string bad : {"--kernel_timeout=", "--kernel_timeout=-1", "--kernel_timeout=x", "--kernel_timeout=nan"}) {
    std::vector<std::string> given{"gpu_bench", bad};
    auto v = argv_of(given);
    int n = 2;
    EXPECT_THROW(gb::parse_cli(&n, v.data()), gb::UsageError) << bad;
  }
}

TEST(RunOutput, FileBeforeAnyBenchmarkIsJson) {
  gb::RunRecorder recorder(nullptr);
  const std::string json = recorder.render("json");
  EXPECT_EQ(json.rfind("{", 0), 0u) << json;
  EXPECT_NE(json.find("\"context\": {"), std::string::npos) << json;
  EXPECT_NE(json.find("\"benchmarks\": ["), std::string::npos) << json;
  const std::string end = json.substr(0, json.find_last_not_of('\n') + 1);
  EXPECT_EQ(end.substr(end.size() - 3), "]\n}") << json;
}

}  // namespace
