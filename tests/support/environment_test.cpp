// support/environment: /proc parsing and the share of CPU time other processes used.
#include "environment.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

TEST(Environment, ParsesTheCpuLineOfProcStat) {
  const auto t = gb::parse_proc_stat("cpu  100 5 50 800 20 1 2 3 7 0\ncpu0 50 2 25 400 10 0 1 1 3 0\n");
  ASSERT_TRUE(t);
  // total 988 minus guest 7 (already in user): 981; idle + iowait 820.
  EXPECT_EQ(t->total, 981u);
  EXPECT_EQ(t->busy, 161u);
  EXPECT_FALSE(gb::parse_proc_stat("intr 1 2 3\n"));
}

TEST(Environment, ParsesUserAndSystemTicksOfProcSelfStat) {
  // comm with a space and a parenthesis; utime (14) 120, stime (15) 30.
  const std::string stat = "4242 (gpu (bench) x) R 1 2 3 4 5 6 7 8 9 10 120 30 0 0 20 0 9 0 100";
  EXPECT_EQ(gb::parse_self_cpu_ticks(stat), 150u);
  EXPECT_FALSE(gb::parse_self_cpu_ticks("no parenthesis here"));
}

TEST(Environment, ParsesMemAvailable) {
  EXPECT_EQ(gb::parse_mem_available("MemTotal: 100 kB\nMemFree: 50 kB\nMemAvailable: 2048 kB\n"), 2048u * 1024);
  EXPECT_FALSE(gb::parse_mem_available("MemTotal: 100 kB\n"));
}

TEST(Environment, ParsesThePressureOfMemory) {
  const std::string psi = "some avg10=1.50 avg60=0.20 avg300=0.05 total=123456\n"
                          "full avg10=0.00 avg60=0.00 avg300=0.00 total=789\n";
  EXPECT_EQ(gb::parse_psi_some_total(psi), 123456u);
  EXPECT_FALSE(gb::parse_psi_some_total("full avg10=0.00 total=789\n"));  // no "some" line
  EXPECT_FALSE(gb::parse_psi_some_total(""));                              // no PSI on this kernel
}

TEST(Environment, MemoryPressureIsTheStalledShareOfTheWallTime) {
  gb::HostSnapshot a, b;
  a.memory_stall_us = 1000;
  b.memory_stall_us = 26000;  // 25 ms stalled
  b.at = a.at + std::chrono::milliseconds(100);
  EXPECT_DOUBLE_EQ(*gb::memory_pressure(a, b), 0.25);
  b.memory_stall_us.reset();  // no PSI
  EXPECT_FALSE(gb::memory_pressure(a, b));
}

TEST(Environment, OthersBusyIsTheBusyShareLessOurOwn) {
  gb::HostSnapshot a, b;
  a.ok = b.ok = true;
  a.cpu = {1000, 4000};
  b.cpu = {1600, 5000};  // 600 of 1000 ticks busy
  a.self_ticks = 100;
  b.self_ticks = 300;  // 200 of them ours
  EXPECT_DOUBLE_EQ(*gb::others_busy(a, b), 0.4);
  b.cpu.total = a.cpu.total + 2;  // too short to tell
  EXPECT_FALSE(gb::others_busy(a, b));
  b = a;
  b.ok = false;
  EXPECT_FALSE(gb::others_busy(a, b));
}

TEST(Environment, ASnapshotOfThisHostReadsProc) {
  const auto s = gb::host_snapshot();
  EXPECT_TRUE(s.ok);
  EXPECT_GT(s.cpu.total, 0u);
  EXPECT_GT(s.mem_available, 0u);
}

}  // namespace
