// Programs built once per (kernel file, build options), on demand or ahead of time: the run
// names the programs its selected benchmarks will ask for, and background threads build them in
// run order while the first benchmarks measure. A driver compiles a program in 0.1-1 s, so a run
// of hundreds of variants would otherwise spend minutes in the compiler, one program at a time.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cl.hpp"

namespace gb {

struct ProgramKey {
  std::string file;     // as embedded: "l1/fft.cl"
  std::string options;  // clBuildProgram options
  bool operator<(const ProgramKey& o) const { return file != o.file ? file < o.file : options < o.options; }
  bool operator==(const ProgramKey& o) const { return file == o.file && options == o.options; }
};

class ProgramCache {
 public:
  using Builder = std::function<cl::Program(const ProgramKey&)>;  // throws with the build log
  // `threads` background builders (0: every program is built when first asked for).
  ProgramCache(Builder build, unsigned threads);
  ~ProgramCache();  // drops what is still queued, waits for the builds in flight
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  // The program, built now, or when a background build of it is under way, once that ends.
  // A failed build throws its error again on every call.
  cl::Program get(const ProgramKey& key);
  // Queues the programs not yet known, in this order, for the background builders. Gated: a
  // builder takes a program only once release() names it (a helper process built it into the
  // driver's cache, support/build_processes, so that the build here is a cache load); a program
  // asked for before that is built on demand as ever.
  void prefetch(const std::vector<ProgramKey>& keys, bool gated = false);
  void release(const ProgramKey& key);
  // Holds the background builders: returns once none is building, and none starts until
  // resume() (host-timed measurements: a compiler on other cores disturbs host clocks).
  void pause();
  void resume();
  // Until nothing is queued or being built, or `seconds` have passed; whether it got there.
  bool wait_idle(double seconds);

  struct Counts {
    size_t built_ahead = 0;      // by a background thread
    size_t built_on_demand = 0;  // when first asked for
    size_t undeclared = 0;       // of those, never named to prefetch (a benchmark's incomplete list)
    size_t waited = 0;           // asked for while a background build of it ran
    std::vector<ProgramKey> undeclared_keys;
  };
  Counts counts() const;

 private:
  enum class State { queued, building, done };
  struct Entry {
    State state = State::queued;
    bool released = true;
    cl::Program program;
    std::exception_ptr error;
  };
  void worker();
  // Builds `key` without the lock held, then records the program or the error as done.
  void build(const ProgramKey& key, bool ahead);

  Builder build_;
  unsigned thread_count_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<ProgramKey, Entry> entries_;
  std::deque<ProgramKey> queue_;
  size_t in_flight_ = 0;  // background builds running
  int paused_ = 0;
  bool prefetched_ = false;
  bool stopping_ = false;
  Counts counts_;
  std::vector<std::thread> threads_;
};

}  // namespace gb
