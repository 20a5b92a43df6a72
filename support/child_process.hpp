// Child processes of gpu_bench that run an entry point a case registers (GB_CHILD_ENTRY): another
// client of the device with its own OpenCL runtime and context, as a second application would be.
// The child is this executable started again (an OpenCL runtime does not survive a fork), with
// argv[1] = "--gb_child=<entry>"; it dies with its parent, ignores the terminal's SIGINT and
// SIGHUP (the parent decides when it stops), and is asked to stop with SIGTERM. It writes lines on
// its stdout, which the parent reads; its stderr is the parent's.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace gb {

// An entry point of a child process: its arguments (after the entry's name); returns the exit code.
using ChildMain = int (*)(const std::vector<std::string>& args);
struct ChildEntry {
  ChildEntry(const char* name, ChildMain main);
};

// Called first by main: in a process started as a child, runs the entry named by argv[1] and
// returns its exit code; otherwise nullopt.
std::optional<int> run_child_entry(int argc, char** argv);
// In a child: whether the parent asked it to stop (SIGTERM). An entry polls it.
bool child_stop_requested();

// The pids of this process's children that are still running (not exited): their contexts on the
// device are this run's own (build helpers, a case's competitor), not another application's.
std::vector<pid_t> running_child_pids();

// The parent's handle of one child.
class ChildProcess {
 public:
  // Starts `entry` with `args`. Throws std::runtime_error when it cannot.
  ChildProcess(const std::string& entry, const std::vector<std::string>& args);
  ~ChildProcess();  // stop(), errors dropped: no child outlives its handle
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The next line the child wrote (without '\n'), also after it exited. Throws std::runtime_error
  // when it closed its stdout without one or after `timeout_s`, and gb::Interrupted on a stop
  // signal while waiting.
  std::string read_line(double timeout_s);
  // Asks the child to stop (SIGTERM) and reaps it; SIGKILL after `grace_s`. Its exit code (128 +
  // the signal when a signal ended it). Once reaped, returns that code again.
  int stop(double grace_s = 5);
  // Stops (SIGSTOP) or continues (SIGCONT) the child; nothing once it is reaped.
  void suspend(bool stopped);

 private:
  bool fill(double timeout_s);  // reads what the child wrote; false at end of file
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string buffer_;
  std::optional<int> exit_code_;
};

}  // namespace gb

#define GB_CHILD_ENTRY_CONCAT2(a, b) a##b
#define GB_CHILD_ENTRY_CONCAT(a, b) GB_CHILD_ENTRY_CONCAT2(a, b)
#define GB_CHILD_ENTRY(name, fn) \
  static const ::gb::ChildEntry GB_CHILD_ENTRY_CONCAT(gb_child_entry_, __LINE__)(name, fn)
