// Device-time batches.
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "buffers.hpp"
#include "cl_error.hpp"
#include "options.hpp"
#include "registry.hpp"
#include "session.hpp"
#include "watchdog.hpp"

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

// The batch_lead kernel and its device seconds per step, measured on first use.
ProgramKey batch_lead_program() { return {"support/batch_lead.cl", ""}; }

struct Lead {
  cl::Kernel kernel;
  cl::Buffer out;
  double step_seconds = 0;
};
Lead& lead() {
  static std::optional<Lead> made;
  if (made) return *made;
  Lead l;
  auto& s = session();
  l.kernel = s.kernel(batch_lead_program(), "batch_lead");
  l.out = make_buffer(sizeof(float));
  constexpr cl_uint kSteps = 1 << 16;
  GB_SET_ARGS(l.kernel, l.out, kSteps, 0.5f);
  double best = 0;
  for (int i = 0; i < 3; ++i) {  // the fastest of three: the first pays for the upload
    cl::Event e;
    GB_CL(s.queue().enqueueNDRangeKernel(l.kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1), nullptr, &e));
    GB_CL(wait(e));
    cl_ulong a = 0, b = 0;
    GB_CL(e.getProfilingInfo(CL_PROFILING_COMMAND_START, &a));
    GB_CL(e.getProfilingInfo(CL_PROFILING_COMMAND_END, &b));
    const double t = (b - a) * 1e-9;
    if (t > 0 && (best == 0 || t < best)) best = t;
  }
  l.step_seconds = best > 0 ? best / kSteps : 1e-9;
  made = l;
  s.on_close([] { made.reset(); });  // released with the session, not at exit
  return *made;
}

BatchTime run_batch(const Unit& unit, int units, double lead_seconds) {
  auto& s = session();
  auto& queue = s.queue();
  // The device waits on a gate until every unit is queued, and then runs a lead while the
  // runtime pushes the queued units to it, so that a batch of short units runs back to back
  // instead of at the host's submission rate (NVBench's blocking kernel serves the same end).
  Lead* l = lead_seconds > 0 ? &lead() : nullptr;
  Gate gate(s.context());
  const std::vector<cl::Event> wait{gate.event()};
  GB_CL(queue.enqueueMarkerWithWaitList(&wait));
  if (l) {
    const double steps = std::min(lead_seconds, 0.1) / l->step_seconds;
    GB_SET_ARGS_FROM(l->kernel, 1, static_cast<cl_uint>(std::min(steps, 4e9)));
    GB_CL(queue.enqueueNDRangeKernel(l->kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1)));
  }
  Batch batch(queue, units);
  const auto t0 = std::chrono::steady_clock::now();
  for (int u = 0; u < units; ++u) {
    batch.begin_unit(u);
    unit(batch);
  }
  const auto t1 = std::chrono::steady_clock::now();
  gate.open();
  GB_CL(finish(queue));
  const auto t2 = std::chrono::steady_clock::now();
  return {batch.device_seconds(), std::chrono::duration<double>(t2 - t1).count(),
          std::chrono::duration<double>(t1 - t0).count()};
}

double timer_floor_seconds() { return 1000.0 * static_cast<double>(session().info().timer_resolution_ns) * 1e-9; }

double min_sample_seconds() { return std::max(timer_floor_seconds(), options().min_sample_seconds); }

}  // namespace gb
