// Programs compiled ahead in other processes. NVIDIA's OpenCL builds about 1.5 programs at a time
// in one process, however many threads ask, while N processes build N at once; each build lands in
// the driver's on-disk compute cache, from which this process's own build of the same source and
// options loads in milliseconds (docs/METHOD.md). The helpers
// are gpu_bench started again (support/child_process); each builds every N-th program of the run's
// list, in run order, then exits. They are stopped (SIGSTOP) while a benchmark samples, as the
// build threads are, so that no compiler runs beside a measurement.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "devices.hpp"
#include "program_cache.hpp"

namespace gb {

// Where helper processes help: a driver that keeps built programs on disk for other processes
// (NVIDIA's compute cache, unless CUDA_CACHE_DISABLE=1). Elsewhere they would only duplicate work.
bool driver_caches_builds(const DeviceInfo& info);

// How many helpers by default: half the host's cores, at most 8, where the driver caches builds.
unsigned default_build_processes(const DeviceInfo& info);

class BuildProcesses {
 public:
  // Starts `count` helpers on the device numbered `device_number` (as --list_devices counts),
  // labelled `label` (gb::device_label, checked by each helper), building `keys`.
  // `built` is called (from a reader thread) for each key once its helper is done with it, or
  // has ended without getting to it. Throws std::runtime_error when the list cannot be written
  // or a helper cannot start.
  BuildProcesses(size_t device_number, const std::string& label, const std::vector<ProgramKey>& keys,
                 unsigned count, std::function<void(const ProgramKey&)> built);
  ~BuildProcesses();  // stops the helpers still running and removes the list
  BuildProcesses(const BuildProcesses&) = delete;
  BuildProcesses& operator=(const BuildProcesses&) = delete;

  size_t count() const { return helpers_.size(); }
  void pause();   // SIGSTOP to every helper still running
  void resume();  // SIGCONT

 private:
  std::string list_path_;
  std::vector<std::unique_ptr<ChildProcess>> helpers_;
  std::vector<std::thread> readers_;  // one per helper: its "built K" lines
};

// Work a helper does besides compiling a kernel file: making a library's plan (clFFT, VkFFT), which
// compiles the library's own programs; the run's own plan of the same problem then loads them from
// the driver's cache. Named by plan_key(library, description) in a benchmark's program list; the
// case registers what makes the plan from the description. The run's own build threads skip them.
using PlanMaker = std::function<void(const cl::Context&, const cl::Device&, const std::string& description)>;
bool register_plan_maker(const std::string& library, PlanMaker make);  // at static initialisation
ProgramKey plan_key(const std::string& library, const std::string& description);
bool is_plan_key(const ProgramKey& key);

// The program list file: one "file<TAB>options" line per program (options have no newline).
std::string program_list_text(const std::vector<ProgramKey>& keys);
std::vector<ProgramKey> parse_program_list(const std::string& text);

}  // namespace gb
