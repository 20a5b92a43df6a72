// Device-time batches: a unit of work is enqueued K times and the queue synced once; the
// batch's time is the first event's START to the last event's END.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>

#include "cl.hpp"
#include "program_cache.hpp"

namespace gb {

// Collects the events of one batch. Only the first and last unit record events, so the units in
// between cost the host nothing beyond the enqueue itself.
class Batch {
 public:
  Batch(cl::CommandQueue& queue, int units) : queue_(queue), units_(units) {}

  void launch(const cl::Kernel& kernel, const cl::NDRange& global,
              const cl::NDRange& local = cl::NullRange);
  // Event slot for commands other than kernels (copies, maps): pass it as the event argument,
  // then call recorded(). nullptr in the middle units.
  cl::Event* event_slot() { return recording() ? &scratch_ : nullptr; }
  void recorded();
  cl::CommandQueue& queue() { return queue_; }

  void begin_unit(int unit) { unit_ = unit; }
  double device_seconds() const;  // valid after the queue has finished

 private:
  bool recording() const { return unit_ == 0 || unit_ == units_ - 1; }
  cl::CommandQueue& queue_;
  int units_;
  int unit_ = 0;
  cl::Event scratch_, first_, last_;
  bool have_first_ = false;
};

// Enqueues one unit of work (one kernel, or a pipeline of several) into the batch.
using Unit = std::function<void(Batch&)>;

struct BatchTime {
  double device_seconds;
  double host_seconds;     // release of the queued batch to the return of finish()
  double enqueue_seconds;  // the host's enqueue calls for the batch
};

// Enqueues `units` units, finishes once, and reads the two timers.
// `lead_seconds` of device work (support's batch_lead kernel, not timed) run first, while the
// runtime pushes the units queued behind it (at most 0.1 s): the caller's estimate of that push.
BatchTime run_batch(const Unit& unit, int units, double lead_seconds = 0);
// The program run_batch's lead kernel comes from (built ahead with the cases').
ProgramKey batch_lead_program();

// 1000x the device timer's resolution: no sample is shorter.
double timer_floor_seconds();
// The sample calibration aims at: --min_sample_ms, and at least timer_floor_seconds().
double min_sample_seconds();

}  // namespace gb
