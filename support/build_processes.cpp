// BuildProcesses: the list file, the helpers' start, pause and stop, and the helper's entry.
#include "build_processes.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "session.hpp"

namespace gb {

bool driver_caches_builds(const DeviceInfo& info) {
  const char* disabled = std::getenv("CUDA_CACHE_DISABLE");
  return info.platform.find("NVIDIA") != std::string::npos && !(disabled && std::string(disabled) == "1");
}

unsigned default_build_processes(const DeviceInfo& info) {
  if (!driver_caches_builds(info)) return 0;
  return std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
}

std::string program_list_text(const std::vector<ProgramKey>& keys) {
  std::string text;
  for (const auto& k : keys) {
    if (k.file.find_first_of("\t\n") != std::string::npos || k.options.find('\n') != std::string::npos)
      throw std::invalid_argument("program key with a tab or newline: " + k.file);
    text += k.file + "\t" + k.options + "\n";
  }
  return text;
}

std::vector<ProgramKey> parse_program_list(const std::string& text) {
  std::vector<ProgramKey> keys;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) throw std::invalid_argument("program list line without a tab: " + line);
    keys.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return keys;
}

namespace {
constexpr const char* kPlanPrefix = "plan:";
std::map<std::string, PlanMaker>& plan_makers() {
  static std::map<std::string, PlanMaker> makers;
  return makers;
}
}  // namespace

bool register_plan_maker(const std::string& library, PlanMaker make) {
  return plan_makers().emplace(kPlanPrefix + library, std::move(make)).second;
}

ProgramKey plan_key(const std::string& library, const std::string& description) {
  return {kPlanPrefix + library, description};
}

bool is_plan_key(const ProgramKey& key) { return key.file.rfind(kPlanPrefix, 0) == 0; }

namespace {

// The helper: DEVICE_NUMBER DEVICE_LABEL LIST_FILE INDEX COUNT. Builds keys INDEX, INDEX + COUNT,
// ... (kernel files, or library plans), writing "built K" or "failed K" for each, and exits 0; a
// failure is only noted (this process's own build meets it again and reports it).
int build_helper(const std::vector<std::string>& args) {
  if (args.size() != 5) throw std::invalid_argument("build_programs: DEVICE_NUMBER DEVICE_LABEL LIST INDEX COUNT");
  const size_t number = std::stoul(args[0]), index = std::stoul(args[3]), count = std::stoul(args[4]);
  std::ifstream in(args[2]);
  std::stringstream text;
  text << in.rdbuf();
  const auto keys = parse_program_list(text.str());
  const auto devices = enumerate_devices();
  if (number < 1 || number > devices.size()) return 3;
  const DeviceEntry& d = devices[number - 1];
  if (device_label(d.info) != args[1]) return 3;
  cl_int err = CL_SUCCESS;
  cl::Context context(d.device, nullptr, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return 3;
  for (size_t k = index; k < keys.size() && !child_stop_requested(); k += count) {
    bool done = true;
    try {
      if (!is_plan_key(keys[k])) {
        build_program(context, d.device, kernel_source(keys[k].file), keys[k].options, keys[k].file);
      } else {
        const auto make = plan_makers().find(keys[k].file);
        if (make == plan_makers().end()) throw std::invalid_argument("no plan maker " + keys[k].file);
        make->second(context, d.device, keys[k].options);
      }
    } catch (const std::exception&) {
      done = false;
    }
    std::printf("%s %zu\n", done ? "built" : "failed", k);
    std::fflush(stdout);
  }
  return 0;
}
GB_CHILD_ENTRY("build_programs", build_helper);

}  // namespace

BuildProcesses::BuildProcesses(size_t device_number, const std::string& label,
                               const std::vector<ProgramKey>& keys, unsigned count,
                               std::function<void(const ProgramKey&)> built) {
  if (count == 0 || keys.empty()) return;
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpu_bench_programs_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("could not create the program list for the build helpers in " + path);
  list_path_ = path;
  const std::string text = program_list_text(keys);
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written) throw std::runtime_error("could not write the program list " + path);
  count = std::min<unsigned>(count, static_cast<unsigned>(keys.size()));
  for (unsigned i = 0; i < count; ++i)
    helpers_.push_back(std::make_unique<ChildProcess>(
        "build_programs", std::vector<std::string>{std::to_string(device_number), label, list_path_,
                                                   std::to_string(i), std::to_string(count)}));
  for (unsigned i = 0; i < count; ++i)
    readers_.emplace_back([this, i, count, keys, built] {
      std::vector<bool> reported(keys.size(), false);
      try {
        for (;;) {
          const std::string line = helpers_[i]->read_line(1e9);
          size_t k = 0;
          if ((std::sscanf(line.c_str(), "built %zu", &k) == 1 || std::sscanf(line.c_str(), "failed %zu", &k) == 1) &&
              k < keys.size() && !reported[k]) {
            reported[k] = true;
            built(keys[k]);
          }
        }
      } catch (...) {  // the helper ended (or the run is stopping): its other programs are ours
      }
      for (size_t k = i; k < keys.size(); k += count)
        if (!reported[k]) built(keys[k]);
    });
}

BuildProcesses::~BuildProcesses() {
  for (auto& h : helpers_) h->stop(0.5);
  for (auto& r : readers_) r.join();
  if (!list_path_.empty()) std::remove(list_path_.c_str());
}

void BuildProcesses::pause() {
  for (auto& h : helpers_) h->suspend(true);
}

void BuildProcesses::resume() {
  for (auto& h : helpers_) h->suspend(false);
}

}  // namespace gb
