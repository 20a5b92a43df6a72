// Buffer creation and poisoning.
#include "buffers.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace gb {

double& read_back_seconds() {
  static double total = 0;
  return total;
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

cl::Buffer make_buffer(size_t bytes, cl_mem_flags flags) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(session().context(), flags, bytes, nullptr, &err);
  GB_CL(err);
  return b;
}

void poison(const cl::Buffer& b, size_t bytes) {
  const cl_uchar pattern = 0xFF;
  auto& q = session().queue();
  GB_CL(q.enqueueFillBuffer(b, pattern, 0, bytes));
  GB_CL(finish(q));
}

void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fill) {
  const size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                          std::max<size_t>(1, n >> 20));
  if (threads <= 1) return fill(0, n);
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back(fill, n * t / threads, n * (t + 1) / threads);
  for (auto& th : pool) th.join();
}

void parallel_blocks(size_t blocks, const std::function<void(size_t)>& body) {
  const size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), blocks);
  if (threads <= 1) {
    for (size_t b = 0; b < blocks; ++b) body(b);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t b = next++; b < blocks; b = next++) body(b);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
}

}  // namespace gb
