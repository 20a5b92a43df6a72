// support/program_cache: each program built once, ahead of time where named, errors kept, the
// builders held while paused. The builder here is a stand-in that records its calls.
#include "program_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace {

struct Recorder {
  std::mutex mutex;
  std::multiset<std::string> built;  // "file options" of every builder call
  std::atomic<int> running{0}, most_running{0};
  std::chrono::milliseconds delay{0};

  gb::ProgramCache::Builder builder() {
    return [this](const gb::ProgramKey& key) {
      const int now = ++running;
      int seen = most_running.load();
      while (now > seen && !most_running.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(delay);
      --running;
      {
        std::lock_guard<std::mutex> lock(mutex);
        built.insert(key.file + " " + key.options);
      }
      if (key.options == "-DBROKEN") throw std::runtime_error("building " + key.file + " failed: log");
      return cl::Program();
    };
  }
  size_t count(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    return built.count(what);
  }
};

gb::ProgramKey key(const std::string& options) { return {"k.cl", options}; }

TEST(ProgramCache, BuildsEachProgramOnceOnDemand) {
  Recorder r;
  gb::ProgramCache cache(r.builder(), 0);
  cache.get(key("-DA"));
  cache.get(key("-DA"));
  cache.get(key("-DB"));
  EXPECT_EQ(r.count("k.cl -DA"), 1u);
  EXPECT_EQ(r.count("k.cl -DB"), 1u);
  EXPECT_EQ(cache.counts().built_on_demand, 2u);
  EXPECT_EQ(cache.counts().undeclared, 0u) << "nothing was named ahead, so nothing is undeclared";
}

TEST(ProgramCache, BuildsNamedProgramsAheadInParallelAndOnlyOnce) {
  Recorder r;
  r.delay = std::chrono::milliseconds(30);
  gb::ProgramCache cache(r.builder(), 4);
  std::vector<gb::ProgramKey> keys;
  for (int i = 0; i < 8; ++i) keys.push_back(key("-DV=" + std::to_string(i)));
  keys.push_back(keys.front());  // named twice: built once
  cache.prefetch(keys);
  for (const auto& k : keys) cache.get(k);  // waits for a build in flight, or builds what is not started
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r.count("k.cl -DV=" + std::to_string(i)), 1u) << i;
  const auto c = cache.counts();
  EXPECT_EQ(c.built_ahead + c.built_on_demand, 8u);
  EXPECT_GE(c.built_ahead, 1u);
  EXPECT_GE(r.most_running.load(), 2) << "the builders should overlap";
  EXPECT_EQ(c.undeclared, 0u);
  cache.get(key("-DOTHER"));
  EXPECT_EQ(cache.counts().undeclared, 1u) << "asked for but never named";
  ASSERT_EQ(cache.counts().undeclared_keys.size(), 1u);
  EXPECT_EQ(cache.counts().undeclared_keys[0].options, "-DOTHER");
}

TEST(ProgramCache, AFailedBuildThrowsItsErrorEveryTime) {
  Recorder r;
  gb::ProgramCache cache(r.builder(), 2);
  cache.prefetch({key("-DBROKEN"), key("-DFINE")});
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      cache.get(key("-DBROKEN"));
      FAIL() << "a failed build must throw";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("failed: log"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(cache.get(key("-DFINE")));
  EXPECT_EQ(r.count("k.cl -DBROKEN"), 1u);
}

TEST(ProgramCache, PausedBuildersStartNothingUntilResumed) {
  Recorder r;
  r.delay = std::chrono::milliseconds(5);
  gb::ProgramCache cache(r.builder(), 2);
  cache.pause();
  cache.prefetch({key("-DA"), key("-DB"), key("-DC")});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(cache.counts().built_ahead, 0u);
  EXPECT_EQ(r.count("k.cl -DA") + r.count("k.cl -DB") + r.count("k.cl -DC"), 0u);
  cache.get(key("-DB"));  // on demand still works while paused
  EXPECT_EQ(r.count("k.cl -DB"), 1u);
  cache.resume();
  cache.get(key("-DA"));
  cache.get(key("-DC"));
  EXPECT_EQ(r.count("k.cl -DA") + r.count("k.cl -DB") + r.count("k.cl -DC"), 3u);
}

TEST(ProgramCache, DestroyingDropsQueuedBuilds) {
  Recorder r;
  r.delay = std::chrono::milliseconds(20);
  {
    gb::ProgramCache cache(r.builder(), 1);
    std::vector<gb::ProgramKey> keys;
    for (int i = 0; i < 100; ++i) keys.push_back(key("-DV=" + std::to_string(i)));
    cache.prefetch(keys);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }  // waits for the build in flight only
  std::lock_guard<std::mutex> lock(r.mutex);
  EXPECT_LT(r.built.size(), 10u);
}

}  // namespace

namespace {

// Gated programs (support/build_processes): the builders take one only once it is released, in
// queue order among the released; one asked for before that is built on demand, once.
TEST(ProgramCache, GatedProgramsWaitForTheirRelease) {
  Recorder r;
  gb::ProgramCache cache(r.builder(), 1);
  cache.prefetch({key("-DA"), key("-DB"), key("-DC")}, true);
  EXPECT_FALSE(cache.wait_idle(0.1)) << "nothing released: nothing may be built ahead";
  EXPECT_EQ(r.count("k.cl -DA") + r.count("k.cl -DB") + r.count("k.cl -DC"), 0u);
  cache.release(key("-DB"));
  cache.get(key("-DA"));  // not released: built here, on demand
  cache.release(key("-DA"));  // too late to matter: already built
  cache.release(key("-DC"));
  EXPECT_TRUE(cache.wait_idle(5));
  for (const char* v : {"-DA", "-DB", "-DC"}) EXPECT_EQ(r.count(std::string("k.cl ") + v), 1u) << v;
  EXPECT_EQ(cache.counts().built_ahead, 2u);
  EXPECT_EQ(cache.counts().built_on_demand, 1u);
}

}  // namespace
