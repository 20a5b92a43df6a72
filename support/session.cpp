// Session: context, queue, program cache with build logs.
#include "session.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "cl_error.hpp"
#include "fixture_cache.hpp"
#include "watchdog.hpp"

namespace gb {

const std::map<std::string, std::string>& embedded_kernels();  // generated at build time

const std::string& kernel_source(const std::string& file) {
  const auto& all = embedded_kernels();
  auto it = all.find(file);
  if (it == all.end()) throw std::out_of_range("kernel file not embedded: " + file);
  return it->second;
}

Session::Session(const cl::Device& device, DeviceInfo info, int size_class, unsigned build_threads)
    : device_(device),
      info_(std::move(info)),
      size_class_(size_class),
      programs_([this](const ProgramKey& key) { return build(kernel_source(key.file), key.options, key.file); },
                build_threads) {
  cl_int err = CL_SUCCESS;
  context_ = cl::Context(device_, nullptr, nullptr, nullptr, &err);
  GB_CL(err);
  queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
  GB_CL(err);
}

namespace {

// GPU_BENCH_PROGRAM_DUMP=DIR: each built program's binary (.ptx on NVIDIA's OpenCL, for ptxas -v) and
// a text file with its options and build log, named by the kernel file and a hash of the options.
void dump_program(const cl::Program& program, const cl::Device& device, const std::string& options,
                  const std::string& label) {
  const char* dir = std::getenv("GPU_BENCH_PROGRAM_DUMP");
  if (!dir || !*dir) return;
  std::string stem = label;
  std::replace(stem.begin(), stem.end(), '/', '_');
  stem = std::string(dir) + "/" + stem + "." + std::to_string(std::hash<std::string>{}(options) % 1000000007u);
  std::vector<std::vector<unsigned char>> binaries;
  if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS && !binaries.empty()) {
    std::vector<unsigned char>& bytes = binaries.front();
    // PTX comes as NUL-terminated text, which ptxas refuses: written as .ptx without the NULs.
    const bool ptx = bytes.size() > 2 && bytes[0] == '/' && bytes[1] == '/';
    while (ptx && !bytes.empty() && bytes.back() == 0) bytes.pop_back();
    std::ofstream(stem + (ptx ? ".ptx" : ".bin"), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  std::string log;
  program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
  std::ofstream(stem + ".txt") << label << "\noptions: " << options << "\nbuild log:\n" << log << "\n";
}

}  // namespace

cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                          const std::string& options, const std::string& label) {
  cl_int err = CL_SUCCESS;
  cl::Program program(context, source, false, &err);
  GB_CL(err);
  err = program.build(std::vector<cl::Device>{device}, options.c_str());
  if (err != CL_SUCCESS) {
    std::string log;
    program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
    throw std::runtime_error("building " + label + " with options '" + options +
                             "' failed: " + cl_error_name(err) + " (" + std::to_string(err) +
                             ")\nbuild log:\n" + log);
  }
  dump_program(program, device, options, label);
  return program;
}

cl::Program Session::build(const std::string& source, const std::string& options, const std::string& label) {
  return build_program(context_, device_, source, options, label);
}

void Session::build_ahead(const std::vector<ProgramKey>& keys, unsigned processes) {
  std::vector<ProgramKey> programs;  // the library plans among `keys` are the helpers' only
  for (const auto& key : keys)
    if (!is_plan_key(key)) programs.push_back(key);
  if (processes > 0 && !helpers_)
    if (const size_t number = device_number(device_); number > 0) {
      // The build threads load what a helper built; they never compile the same program cold
      // beside it (a benchmark about to sample waits for their build in flight).
      programs_.prefetch(programs, true);
      helpers_ = std::make_unique<BuildProcesses>(number, device_label(info_), keys, processes,
                                                  [this](const ProgramKey& key) {
                                                    if (!is_plan_key(key)) programs_.release(key);
                                                  });
      return;
    }
  programs_.prefetch(programs);
}

void Session::pause_builds() {
  if (helpers_) helpers_->pause();
  programs_.pause();
}

void Session::resume_builds() {
  if (helpers_) helpers_->resume();
  programs_.resume();
}

cl::Program Session::program(const std::string& file, const std::string& options) {
  return programs_.get(ProgramKey{file, options});
}

cl::Kernel Session::kernel(const std::string& file, const std::string& name,
                           const std::string& options) {
  cl_int err = CL_SUCCESS;
  cl::Kernel k(program(file, options), name.c_str(), &err);
  if (err != CL_SUCCESS)
    throw ClError(__FILE__, __LINE__, "cl::Kernel(" + file + ", " + name + ")", err);
  return k;
}

Session::~Session() {
  helpers_.reset();
  for (auto it = on_close_.rbegin(); it != on_close_.rend(); ++it) (*it)();
  for (auto& [slot, s] : staging_) unmap(s);
}

void Session::unmap(Staging& s) {
  if (!s.host) return;
  queue_.enqueueUnmapMemObject(s.buffer, s.host);
  (void)finish(queue_);
  s = Staging{};
}

void* Session::staging(int slot, size_t bytes) {
  Staging& s = staging_[slot];
  if (s.bytes >= bytes && s.host) return s.host;
  unmap(s);
  cl_int err = CL_SUCCESS;
  s.buffer = cl::Buffer(context_, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, std::max<size_t>(bytes, 1), nullptr, &err);
  GB_CL(err);
  DeviceWait device_wait;
  s.host = queue_.enqueueMapBuffer(s.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, std::max<size_t>(bytes, 1),
                                   nullptr, nullptr, &err);
  GB_CL(err);
  s.bytes = bytes;
  return s.host;
}

size_t Session::kernel_work_group_size(const cl::Kernel& kernel) const {
  size_t size = 0;
  GB_CL(kernel.getWorkGroupInfo(device_, CL_KERNEL_WORK_GROUP_SIZE, &size));
  return size;
}

static std::unique_ptr<Session>& current() {
  static std::unique_ptr<Session> s;
  return s;
}

Session& session() {
  if (!current()) throw std::logic_error("no OpenCL session is open");
  return *current();
}

void open_session(const cl::Device& device, DeviceInfo info, int size_class, unsigned build_threads) {
  current() = std::make_unique<Session>(device, std::move(info), size_class, build_threads);
}

void close_session() {
  drop_cached_fixtures();  // their buffers, kernels and queues belong to the session's context
  current().reset();
}

}  // namespace gb
