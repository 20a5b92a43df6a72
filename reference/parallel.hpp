// parallel_for: the host references' loops over independent rows, split over the host's cores
// (references of the largest size classes would otherwise take minutes on one core).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ref {

// Calls body(i) for every i in [0, n), each i exactly once, on up to hardware_concurrency threads
// that take indices in turn. body must only write what index i owns.
template <typename Body>
void parallel_for(size_t n, const Body& body) {
  const size_t threads = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) body(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) body(i);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace ref
