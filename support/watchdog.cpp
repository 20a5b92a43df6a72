// The device-wait watchdog.
//
// A wait is an odd value of a generation counter: the outermost DeviceWait adds one on entry and
// one on exit. The watchdog samples the counter; the same odd value seen for the limit is a hang.
// Before it reports, it raises `firing` and reads the counter again, while a wait that ends reads
// `firing` after its increment (both sequentially consistent): either the watchdog sees the wait
// ended and stands down, or the waiting thread sees `firing` and blocks on the mutex the watchdog
// holds until the process ends. So the handler never runs beside the thread it reports on.
#include "watchdog.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli.hpp"
#include "progress.hpp"

namespace gb {

namespace {

std::atomic<uint64_t> g_generation{0};
std::atomic<bool> g_firing{false};
std::mutex g_fire_mutex;  // held by the watchdog from the moment it fires to _exit
thread_local int t_depth = 0;

// What the run is doing (written by the benchmark thread, read by the watchdog).
std::mutex g_activity_mutex;
Hang g_activity;

struct Watchdog {
  std::thread thread;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
};
Watchdog g_watchdog;

[[noreturn]] void fire(double limit, const HangHandler& on_hang) {
  Hang hang;
  {
    std::lock_guard<std::mutex> lock(g_activity_mutex);
    hang = g_activity;
  }
  hang.limit_seconds = limit;
  hang.message = kernel_timeout_message(limit);
  try {
    if (on_hang) {
      on_hang(hang);
    } else {
      progress().clear();
      std::fprintf(stderr, "gpu_bench: %s: %s\n", hang.activity.c_str(), hang.message.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: error while reporting a hung kernel: %s\n", e.what());
  }
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(kExitKernelTimeout);
}

void watch(double limit, HangHandler on_hang) {
  using clock = std::chrono::steady_clock;
  const auto poll = std::chrono::duration<double>(std::min(0.1, std::max(1e-3, limit / 10)));
  uint64_t seen = 0;  // the odd generation being timed, or 0
  clock::time_point since;
  std::unique_lock<std::mutex> lock(g_watchdog.mutex);
  while (!g_watchdog.wake.wait_for(lock, poll, [] { return g_watchdog.stopping; })) {
    const uint64_t now_gen = g_generation.load();
    if (now_gen % 2 == 0) {
      seen = 0;
      continue;
    }
    const auto now = clock::now();
    if (now_gen != seen) {  // a new wait: it began at most one poll ago
      seen = now_gen;
      since = now;
      continue;
    }
    if (std::chrono::duration<double>(now - since).count() < limit) continue;
    std::unique_lock<std::mutex> firing(g_fire_mutex);
    g_firing.store(true);
    if (g_generation.load() == seen) fire(limit, on_hang);  // never returns; keeps the mutex
    g_firing.store(false);  // the wait ended just now
  }
}

}  // namespace

DeviceWait::DeviceWait() {
  if (t_depth++ == 0) g_generation.fetch_add(1);
}

DeviceWait::~DeviceWait() {
  if (--t_depth != 0) return;
  g_generation.fetch_add(1);
  if (g_firing.load()) std::lock_guard<std::mutex> wait_for_the_watchdog(g_fire_mutex);
}

cl_int finish(const cl::CommandQueue& queue) {
  DeviceWait wait;
  return queue.finish();
}

cl_int wait(const cl::Event& event) {
  DeviceWait wait;
  return event.wait();
}

void watchdog_activity(const std::string& what, bool is_benchmark) {
  std::lock_guard<std::mutex> lock(g_activity_mutex);
  if (is_benchmark) {
    if (g_activity.in_benchmark && g_activity.activity == what) {
      ++g_activity.repetition;
    } else {
      ++g_activity.benchmark_index;
      g_activity.repetition = 0;
    }
  }
  g_activity.activity = what;
  g_activity.in_benchmark = is_benchmark;
}

void start_watchdog(double limit_seconds, HangHandler on_hang) {
  if (limit_seconds <= 0 || g_watchdog.thread.joinable()) return;
  g_watchdog.stopping = false;
  g_watchdog.thread = std::thread(watch, limit_seconds, std::move(on_hang));
}

void stop_watchdog() {
  if (!g_watchdog.thread.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(g_watchdog.mutex);
    g_watchdog.stopping = true;
  }
  g_watchdog.wake.notify_all();
  g_watchdog.thread.join();
}

std::string kernel_timeout_message(double limit_seconds) {
  std::ostringstream text;
  text << "kernel did not finish within " << limit_seconds << " s (--kernel_timeout)";
  return text.str();
}

}  // namespace gb
