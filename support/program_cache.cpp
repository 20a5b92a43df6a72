// ProgramCache: one entry per key, a queue in run order, background builders.
#include "program_cache.hpp"

#include <algorithm>
#include <chrono>

namespace gb {

ProgramCache::ProgramCache(Builder build, unsigned threads) : build_(std::move(build)), thread_count_(threads) {}

ProgramCache::~ProgramCache() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
}

void ProgramCache::build(const ProgramKey& key, bool ahead) {
  cl::Program program;
  std::exception_ptr error;
  try {
    program = build_(key);
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[key];
    e.state = State::done;
    e.program = std::move(program);
    e.error = error;
    (ahead ? counts_.built_ahead : counts_.built_on_demand)++;
    if (ahead) --in_flight_;
  }
  changed_.notify_all();
}

cl::Program ProgramCache::get(const ProgramKey& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.state == State::queued) {
    // Not started: build it here (a queued copy is skipped by the builders).
    if (it == entries_.end() && prefetched_) {
      ++counts_.undeclared;
      counts_.undeclared_keys.push_back(key);
    }
    entries_[key].state = State::building;
    lock.unlock();
    build(key, false);
    lock.lock();
    it = entries_.find(key);
  } else if (it->second.state == State::building) {
    ++counts_.waited;
    changed_.wait(lock, [&] { return it->second.state == State::done; });
  }
  if (it->second.error) std::rethrow_exception(it->second.error);
  return it->second.program;
}

void ProgramCache::prefetch(const std::vector<ProgramKey>& keys, bool gated) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (thread_count_ == 0 || stopping_) return;
    prefetched_ = true;
    for (const auto& key : keys) {
      Entry fresh;
      fresh.released = !gated;
      if (entries_.emplace(key, fresh).second) queue_.push_back(key);
    }
    while (threads_.size() < thread_count_ && threads_.size() < queue_.size())
      threads_.emplace_back([this] { worker(); });
  }
  changed_.notify_all();
}

void ProgramCache::worker() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // The first queued program that is released; those built on demand meanwhile are dropped.
    auto next = queue_.end();
    changed_.wait(lock, [&] {
      if (stopping_) return true;
      if (paused_ > 0) return false;
      while (!queue_.empty() && entries_[queue_.front()].state != State::queued) queue_.pop_front();
      next = std::find_if(queue_.begin(), queue_.end(), [&](const ProgramKey& k) { return entries_[k].released; });
      return next != queue_.end();
    });
    if (stopping_) return;
    ProgramKey key = *next;
    queue_.erase(next);
    Entry& e = entries_[key];
    if (e.state != State::queued) continue;  // already built or being built on demand
    e.state = State::building;
    ++in_flight_;
    lock.unlock();
    build(key, true);
    lock.lock();
  }
}

void ProgramCache::release(const ProgramKey& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.released) return;
    it->second.released = true;
  }
  changed_.notify_all();
}

void ProgramCache::pause() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++paused_;
  changed_.wait(lock, [&] { return in_flight_ == 0; });
}

bool ProgramCache::wait_idle(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::duration<double>(seconds),
                           [&] { return queue_.empty() && in_flight_ == 0; });
}

void ProgramCache::resume() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (paused_ > 0) --paused_;
  }
  changed_.notify_all();
}

ProgramCache::Counts ProgramCache::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

}  // namespace gb
