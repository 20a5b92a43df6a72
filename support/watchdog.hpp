// Hung or runaway kernels (--kernel_timeout). Every blocking wait on the device that the harness
// makes (a queue's finish, an event's wait, a blocking read, write or map) is a DeviceWait; a
// watchdog thread notices one that lasts longer than the limit. A hung OpenCL queue cannot be
// cancelled portably (PoCL's worker threads, a GPU's context), so the watchdog does not try to go
// on: it reports the hang through the run's handler (main writes the finished benchmarks and an
// error entry for the hung one, as it does for a stop signal) and ends the process with _exit
// and kExitKernelTimeout.
#pragma once
#include <functional>
#include <string>

#include "cl.hpp"

namespace gb {

// A blocking wait on the device, from construction to destruction. Cheap (two atomic increments):
// it may bracket a microsecond finish in a timed loop. Nested waits count as the outer one. The
// waits of one thread are watched (the thread that runs the benchmarks).
class DeviceWait {
 public:
  DeviceWait();
  ~DeviceWait();
  DeviceWait(const DeviceWait&) = delete;
  DeviceWait& operator=(const DeviceWait&) = delete;
};

// queue.finish() and event.wait() as DeviceWaits, returning the OpenCL code: call them inside
// GB_CL (GB_CL(gb::finish(queue))) so that an error names the caller's file and line.
[[nodiscard]] cl_int finish(const cl::CommandQueue& queue);
[[nodiscard]] cl_int wait(const cl::Event& event);

// What the run is doing, named in the report of a hang: a benchmark (is_benchmark: its body has
// begun; the same name again is its next repetition) or a phase such as "warm-up".
void watchdog_activity(const std::string& what, bool is_benchmark);

struct Hang {
  std::string activity;      // the benchmark's name, or the phase
  bool in_benchmark = false;
  int benchmark_index = -1;  // among the benchmarks begun, from 0
  int repetition = 0;        // among the repetitions of that benchmark begun, from 0
  double limit_seconds = 0;
  std::string message;       // "kernel did not finish within N s (--kernel_timeout)"
};
// Called on the watchdog's thread while the waiting thread stays blocked in its DeviceWait (it
// cannot leave it while the handler runs): it may read and write what that thread owns.
using HangHandler = std::function<void(const Hang&)>;

// Starts the watchdog thread. When one DeviceWait lasts `limit_seconds` (checked every
// limit / 10, at most every 0.1 s), it calls `on_hang`, flushes stdout and stderr, and ends the
// process with _exit(kExitKernelTimeout). limit_seconds <= 0: no watchdog.
void start_watchdog(double limit_seconds, HangHandler on_hang);
// Stops and joins the thread; nothing is reported after it returns. Safe to call twice.
void stop_watchdog();

// "kernel did not finish within 300 s (--kernel_timeout)".
std::string kernel_timeout_message(double limit_seconds);

}  // namespace gb
