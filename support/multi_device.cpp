// One child process per device.
#include "multi_device.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

#include "pinned_batches.hpp"
#include "spread_study.hpp"

namespace gb {

bool is_multi_device(const std::string& device_flag) {
  return device_flag == "all" || device_flag.find(',') != std::string::npos;
}

std::vector<DeviceInfo> device_infos_from_child() {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(pipe_fds[0]);
    std::string text;
    try {
      for (const auto& e : enumerate_devices()) {
        const auto& d = e.info;
        for (const std::string* f : {&d.platform, &d.name, &d.vendor, &d.opencl_version, &d.type}) text += *f + '\x1f';
        text += '\n';
      }
    } catch (const std::exception&) {
    }
    for (size_t at = 0; at < text.size();) {
      const ssize_t n = write(pipe_fds[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  std::vector<DeviceInfo> devices;
  for (size_t line = 0; line < text.size();) {
    const size_t end = text.find('\n', line);
    std::vector<std::string> fields;
    for (size_t at = line; at < end;) {
      const size_t sep = text.find('\x1f', at);
      fields.push_back(text.substr(at, sep - at));
      at = sep + 1;
    }
    if (fields.size() == 5) {
      DeviceInfo d;
      d.platform = fields[0];
      d.name = fields[1];
      d.vendor = fields[2];
      d.opencl_version = fields[3];
      d.type = fields[4];
      devices.push_back(d);
    }
    line = end + 1;
  }
  return devices;
}

std::vector<size_t> select_devices(const std::vector<DeviceInfo>& devices, const std::string& device_flag) {
  std::vector<size_t> chosen;
  auto add = [&](size_t k) {
    if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) chosen.push_back(k);
  };
  if (devices.empty()) throw std::out_of_range("no OpenCL device found");
  if (device_flag == "all") {
    for (size_t k = 0; k < devices.size(); ++k) add(k);
    return chosen;
  }
  size_t at = 0;
  while (at <= device_flag.size()) {
    const size_t comma = std::min(device_flag.find(',', at), device_flag.size());
    const std::string item = device_flag.substr(at, comma - at);
    if (item.find_first_not_of(" \t") == std::string::npos)
      throw std::invalid_argument("--device=" + device_flag + ": an empty item in the list");
    add(choose_device(devices, parse_device_spec(item, "")).chosen);
    at = comma + 1;
  }
  return chosen;
}

std::string per_device_path(const std::string& path, size_t index, const DeviceInfo& device) {
  std::string slug;
  for (char c : device.name) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isalnum(static_cast<unsigned char>(l)))
      slug += l;
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.size() > 40) slug.resize(slug.rfind('-', 40) == std::string::npos ? 40 : slug.rfind('-', 40));
  const std::string tag = ".device" + std::to_string(index + 1) + (slug.empty() ? "" : "-" + slug);
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1)
    return path + tag;
  return path.substr(0, dot) + tag + path.substr(dot);
}

namespace {
std::atomic<pid_t> g_child{0};
std::atomic<int> g_signal{0};

void forward(int signal) {
  g_signal = signal;
  const pid_t child = g_child;
  if (child > 0) kill(child, signal);
}

bool is_flag(const std::string& arg, const char* name) {
  const std::string n(name);
  return arg == n || arg.rfind(n + "=", 0) == 0;
}

// Whether `arg` names a file of one device (--batches_from, --spread_study) that is another's than
// device k's: that device's run goes without it, as it would without the flag. A file that cannot
// be read stays, for the device's run to refuse.
bool another_devices_file(const std::string& arg, size_t k, const DeviceInfo& device) {
  const bool batches = arg.rfind("--batches_from=", 0) == 0, study = arg.rfind("--spread_study=", 0) == 0;
  if (!batches && !study) return false;
  const std::string path = arg.substr(arg.find('=') + 1);
  if (study && path == "none") return false;
  std::string of;
  try {
    of = batches ? run_file_device(path) : read_spread_study(path).device;
  } catch (const std::exception&) {
    return false;
  }
  if (of == device.name) return false;
  std::fprintf(stderr, "gpu_bench: device %zu (%s) runs without %s, a file of %s\n", k + 1, device.name.c_str(),
               arg.c_str(), of.c_str());
  return true;
}
}  // namespace

int run_on_each_device(const std::string& self, const std::vector<std::string>& args,
                       const std::vector<DeviceInfo>& devices, const std::vector<size_t>& selected,
                       const std::string& benchmark_out) {
  struct sigaction action = {};
  action.sa_handler = forward;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &action, nullptr);
  int status_of_run = 0;
  for (size_t k : selected) {
    if (g_signal) break;
    std::vector<std::string> child_args{self};
    for (const auto& a : args)
      if (!is_flag(a, "--device") && !is_flag(a, "--benchmark_out") && !another_devices_file(a, k, devices[k]))
        child_args.push_back(a);
    child_args.push_back("--device=" + std::to_string(k + 1));
    if (!benchmark_out.empty())
      child_args.push_back("--benchmark_out=" + per_device_path(benchmark_out, k, devices[k]));
    std::vector<char*> argv;
    for (auto& a : child_args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("gpu_bench: fork");
      return 1;
    }
    if (pid == 0) {
      execv(self.c_str(), argv.data());
      std::perror("gpu_bench: exec");
      _exit(127);
    }
    g_child = pid;
    if (g_signal) kill(pid, g_signal);  // a signal that came between the check and the fork
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_child = 0;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code != 0 && status_of_run == 0) status_of_run = code;
  }
  if (g_signal && status_of_run == 0) status_of_run = 128 + g_signal;
  return status_of_run;
}

}  // namespace gb
