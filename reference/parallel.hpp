// parallel_for: the host references' loops over independent rows, split over the host's cores
// (references of the largest size classes would otherwise take minutes on one core); and
// filled_vector, a large result vector whose memory those cores map first.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <type_traits>
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

// std::vector<T>(n, value) for trivial T. A vector's own fill runs on one core, and on fresh memory
// most of its time goes to page faults; here the cores fault the reserved pages in first (one byte
// per page, before any element exists), so the fill only writes mapped memory.
template <typename T>
std::vector<T> filled_vector(size_t n, T value = T()) {
  static_assert(std::is_trivially_copyable_v<T>, "filled_vector: trivial element types only");
  std::vector<T> v;
  v.reserve(n);
  auto* raw = reinterpret_cast<volatile unsigned char*>(v.data());
  constexpr size_t kPage = 4096, kChunk = size_t(1) << 24;
  const size_t bytes = n * sizeof(T);
  parallel_for((bytes + kChunk - 1) / kChunk, [&](size_t c) {
    for (size_t b = c * kChunk, end = std::min(bytes, b + kChunk); b < end; b += kPage) raw[b] = 0;
  });
  v.resize(n, value);
  return v;
}

}  // namespace ref
