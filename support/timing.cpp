// Device-time batches.
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cl_error.hpp"
#include "options.hpp"
#include "registry.hpp"
#include "session.hpp"

namespace gb {

void Batch::launch(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local) {
  GB_CL(queue_.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, event_slot()));
  if (recording()) recorded();
}

void Batch::recorded() {
  if (!have_first_) {
    first_ = scratch_;
    have_first_ = true;
  }
  last_ = scratch_;
}

double Batch::device_seconds() const {
  if (!have_first_) throw std::logic_error("a batch enqueued no command with an event");
  cl_ulong start = 0, end = 0;
  GB_CL(first_.getProfilingInfo(CL_PROFILING_COMMAND_START, &start));
  GB_CL(last_.getProfilingInfo(CL_PROFILING_COMMAND_END, &end));
  return end > start ? (end - start) * 1e-9 : 0.0;
}

namespace {
// Opens a user event on release, destruction included, so an exception while enqueueing never
// leaves the queue blocked.
class Gate {
 public:
  explicit Gate(cl::Context& context) : event_(context) {}
  ~Gate() { open(); }
  void open() {
    if (!open_) event_.setStatus(CL_COMPLETE);
    open_ = true;
  }
  const cl::UserEvent& event() const { return event_; }

 private:
  cl::UserEvent event_;
  bool open_ = false;
};
}  // namespace

BatchTime run_batch(const Unit& unit, int units) {
  auto& s = session();
  auto& queue = s.queue();
  // The device waits on a gate until every unit is queued, so that a batch of short units runs
  // back to back instead of at the host's enqueue rate (NVBench's blocking kernel does the same).
  Gate gate(s.context());
  const std::vector<cl::Event> wait{gate.event()};
  GB_CL(queue.enqueueMarkerWithWaitList(&wait));
  Batch batch(queue, units);
  for (int u = 0; u < units; ++u) {
    batch.begin_unit(u);
    unit(batch);
  }
  auto t0 = std::chrono::steady_clock::now();
  gate.open();
  GB_CL(queue.finish());
  auto t1 = std::chrono::steady_clock::now();
  return {batch.device_seconds(), std::chrono::duration<double>(t1 - t0).count()};
}

double min_sample_seconds() {
  double timer = 1000.0 * static_cast<double>(session().info().timer_resolution_ns) * 1e-9;
  return std::max(timer, options().min_sample_seconds);
}

}  // namespace gb
