// Device-time measurement: a unit of work is enqueued K times per iteration, the queue is synced
// once, and the iteration's time is the first event's START to the last event's END.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>

#include "cl.hpp"

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
  double host_seconds;  // enqueue of the first command to the return of finish()
};

// Enqueues `units` units, finishes once, and reads the two timers.
BatchTime run_batch(const Unit& unit, int units);

// How many units make one sample long enough for the device timer (>= 1000x its resolution
// and >= --min_sample_ms), found after a warm-up of the unit. Deterministic for a device: a
// power of two.
struct Calibration {
  int units = 1;
  double unit_seconds = 0;
};
Calibration calibrate(const Unit& unit);
double min_sample_seconds();

// Declared work of one unit; the harness turns it into rates.
struct Work {
  double bytes = 0;  // bytes moved to/from memory
  double flops = 0;  // floating-point (or integer) operations
  double items = 0;  // elements, pixels, transforms...
};

// The measurement of one benchmark run: the body's loop calls sample(), then report().
class Sampler {
 public:
  Sampler(benchmark::State& state, const Calibration& calibration)
      : state_(state), calibration_(calibration) {}
  void sample(const Unit& unit);
  // Rates (bytes_per_second, items_per_second, flop_per_second), the batch size, the time of one
  // unit, and the host/device timer ratio.
  void report(const Work& per_unit);

 private:
  benchmark::State& state_;
  Calibration calibration_;
  double device_total_ = 0, host_total_ = 0;
  int samples_ = 0;
};

}  // namespace gb
