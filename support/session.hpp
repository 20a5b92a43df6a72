// The process's one OpenCL session: device, context, a profiling in-order queue, and the program
// cache (keyed by kernel file and build options, built ahead of time where the run said which).
// Cases reach it through gb::session().
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "build_processes.hpp"
#include "cl.hpp"
#include "devices.hpp"
#include "program_cache.hpp"

namespace gb {

// The OpenCL C source embedded at build time: "l0/global_bandwidth.cl" -> text.
// Throws std::out_of_range naming the file when it is not embedded.
const std::string& kernel_source(const std::string& file);

// Builds `source` for `device`; a failed build throws with its log, `label` naming it.
cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                          const std::string& options, const std::string& label);

class Session {
 public:
  // build_threads: background program builders (0: every program built when first asked for).
  Session(const cl::Device& device, DeviceInfo info, int size_class, unsigned build_threads = 0);
  ~Session();

  const DeviceInfo& info() const { return info_; }
  int size_class() const { return size_class_; }
  const cl::Device& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  // Built once per (file, options); a failed build throws with the build log.
  cl::Program program(const std::string& file, const std::string& options = "");
  // Programs the run will ask for, in order: built by background threads from now on, and by
  // `processes` helper processes into the driver's cache (support/build_processes).
  void build_ahead(const std::vector<ProgramKey>& keys, unsigned processes = 0);
  // No program is built in the background between these (measurements).
  void pause_builds();
  void resume_builds();
  bool wait_for_builds(double seconds) { return programs_.wait_idle(seconds); }
  ProgramCache::Counts program_counts() const { return programs_.counts(); }
  size_t build_helpers() const { return helpers_ ? helpers_->count() : 0; }
  cl::Kernel kernel(const std::string& file, const std::string& name,
                    const std::string& options = "");
  cl::Kernel kernel(const ProgramKey& program, const std::string& name) {
    return kernel(program.file, name, program.options);
  }
  // Builds from a source string (compile-time cases, tests); not cached.
  cl::Program build(const std::string& source, const std::string& options,
                    const std::string& label);

  // Pinned host memory of at least `bytes` for read-backs, one per slot, mapped while the session
  // lasts (grown when a larger one is asked for): reads at PCIe speed without host allocations.
  void* staging(int slot, size_t bytes);

  // CL_KERNEL_WORK_GROUP_SIZE: the largest work group this kernel can run on this device.
  size_t kernel_work_group_size(const cl::Kernel& kernel) const;

  // OpenCL objects of this context held outside the session (process-wide caches) register
  // their release here: the session runs these first when it closes, so that none is released
  // after its context (under Oclgrind, releases at exit, after the context, corrupted the heap)
  // or reused by a later session.
  void on_close(std::function<void()> release) { on_close_.push_back(std::move(release)); }

 private:
  cl::Device device_;
  DeviceInfo info_;
  int size_class_;
  cl::Context context_;
  cl::CommandQueue queue_;
  struct Staging {
    cl::Buffer buffer;
    void* host = nullptr;
    size_t bytes = 0;
  };
  std::map<int, Staging> staging_;
  void unmap(Staging& s);
  std::vector<std::function<void()>> on_close_;
  ProgramCache programs_;  // its builders use the context
  std::unique_ptr<BuildProcesses> helpers_;
};

// The session opened by main (or a test). Throws std::logic_error if none is open.
Session& session();
void open_session(const cl::Device& device, DeviceInfo info, int size_class, unsigned build_threads = 0);
// Releases the cached fixtures and problems (gb::cached_fixture), then the session.
void close_session();

}  // namespace gb
