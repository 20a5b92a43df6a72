// Child processes: the entry registry, the child's start (dies with its parent, stops on SIGTERM),
// and the parent's handle (spawn, lines through a pipe, stop and reap).
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "interrupt.hpp"
#include "measure.hpp"

extern char** environ;

namespace gb {

namespace {
constexpr char kEntryFlag[] = "--gb_child=";
constexpr char kParentFlag[] = "--gb_parent=";

// The environment as the process started. The ICD loader (ocl-icd) splits OCL_ICD_FILENAMES at
// its colons in place, so after the first OpenCL call the variable names only its first library:
// a child given the live environment saw PoCL alone, not the GPU (where OCL_ICD_FILENAMES lists
// PoCL, then NVIDIA). Taken before main, ahead of any OpenCL call.
struct StartEnvironment {
  std::vector<std::string> entries;
  StartEnvironment() {
    for (char** e = environ; e && *e; ++e) entries.emplace_back(*e);
  }
};
const StartEnvironment g_start_environment;

std::map<std::string, ChildMain>& entries() {
  static std::map<std::string, ChildMain> all;
  return all;
}

volatile std::sig_atomic_t g_child_stop = 0;
extern "C" void gb_on_child_stop(int) { g_child_stop = 1; }

bool starts_with(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

using clock = std::chrono::steady_clock;
double seconds_until(clock::time_point t) { return std::chrono::duration<double>(t - clock::now()).count(); }
clock::time_point after(double seconds) {
  return clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
}
}  // namespace

ChildEntry::ChildEntry(const char* name, ChildMain main) { entries()[name] = main; }

bool child_stop_requested() { return g_child_stop != 0; }

std::optional<int> run_child_entry(int argc, char** argv) {
  if (argc < 3 || !starts_with(argv[1], kEntryFlag) || !starts_with(argv[2], kParentFlag)) return std::nullopt;
  // Dies with the parent (a kill -9, a kernel timeout's _exit); a parent already gone by now
  // would not send the signal, so the child checks it is still the one that started it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (std::to_string(getppid()) != argv[2] + std::strlen(kParentFlag)) return 1;
  // A terminal's SIGINT and SIGHUP reach the whole process group: the parent handles them and
  // stops the child with SIGTERM, which ends the entry's loop (no SA_RESTART: sleeps return early).
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGHUP, SIG_IGN);
  struct sigaction action = {};
  action.sa_handler = gb_on_child_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  const std::string name = argv[1] + std::strlen(kEntryFlag);
  const auto it = entries().find(name);
  if (it == entries().end()) {
    std::fprintf(stderr, "gpu_bench: no child entry named %s\n", name.c_str());
    return 2;
  }
  try {
    return it->second(std::vector<std::string>(argv + 3, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: child %s: %s\n", name.c_str(), e.what());
    return 1;
  }
}

namespace {
std::mutex g_children_mutex;
std::set<pid_t> g_children;  // started and not yet reaped

// An exited child not yet reaped is a zombie ('Z' after the command in /proc/PID/stat): its
// device context is gone.
bool exited(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z';
}
}  // namespace

std::vector<pid_t> running_child_pids() {
  std::lock_guard<std::mutex> lock(g_children_mutex);
  std::vector<pid_t> pids;
  for (pid_t pid : g_children)
    if (!exited(pid)) pids.push_back(pid);
  return pids;
}

ChildProcess::ChildProcess(const std::string& entry, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<std::string> words{"/proc/self/exe", kEntryFlag + entry, kParentFlag + std::to_string(getpid())};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // stdin from /dev/null, stdout the pipe, stderr shared; no other descriptor of this process
  // (a driver's device files) reaches the child; no signal blocked.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<std::string> env_words = g_start_environment.entries;
  std::vector<char*> env;
  for (auto& w : env_words) env.push_back(w.data());
  env.push_back(nullptr);
  const int error = posix_spawn(&pid_, argv[0], &actions, &attributes, argv.data(), env.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (error != 0) {
    close(fds[0]);
    pid_ = -1;
    throw std::runtime_error("could not start child " + entry + ": " + std::strerror(error));
  }
  out_fd_ = fds[0];
  std::lock_guard<std::mutex> lock(g_children_mutex);
  g_children.insert(pid_);
}

ChildProcess::~ChildProcess() {
  try {
    stop();
  } catch (...) {
  }
  if (out_fd_ >= 0) close(out_fd_);
}

bool ChildProcess::fill(double timeout_s) {
  pollfd p{out_fd_, POLLIN, 0};
  const int ready = poll(&p, 1, static_cast<int>(timeout_s * 1000) + 1);
  if (ready <= 0) return true;  // nothing yet, or a signal: the caller looks again
  char chunk[4096];
  const ssize_t n = read(out_fd_, chunk, sizeof chunk);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  buffer_.append(chunk, static_cast<size_t>(n));
  return true;
}

std::string ChildProcess::read_line(double timeout_s) {
  const auto deadline = after(timeout_s);
  for (;;) {
    const size_t end = buffer_.find('\n');
    if (end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return line;
    }
    // What the child has written is read before a stop signal counts: a child stopped during an
    // interrupted run has written its last line, and the caller may want it.
    const size_t had = buffer_.size();
    const bool open = fill(stop_requested() ? 0 : std::clamp(seconds_until(deadline), 0.0, 0.1));
    if (buffer_.size() > had) continue;
    if (!open)
      throw std::runtime_error("the child process ended without a line" +
                               (buffer_.empty() ? std::string() : " (it wrote: " + buffer_ + ")"));
    if (stop_requested()) throw Interrupted();
    if (seconds_until(deadline) <= 0)
      throw std::runtime_error("the child process wrote no line within " + std::to_string(timeout_s) + " s");
  }
}

int ChildProcess::stop(double grace_s) {
  if (exit_code_) return *exit_code_;
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  kill(pid_, SIGCONT);  // a suspended child handles the SIGTERM only once it runs
  const auto deadline = after(grace_s);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) {
      exit_code_ = -1;
      return -1;
    }
    if (seconds_until(deadline) <= 0) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::lock_guard<std::mutex> lock(g_children_mutex);
  g_children.erase(pid_);
  return *exit_code_;
}

void ChildProcess::suspend(bool stopped) {
  if (!exit_code_ && pid_ > 0) kill(pid_, stopped ? SIGSTOP : SIGCONT);
}

}  // namespace gb
