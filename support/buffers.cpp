// Buffer creation, read-back into staging, and poisoning.
#include "buffers.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "host_timing.hpp"

namespace gb {

namespace {
double g_read_back_seconds = 0;
}

double read_back_seconds() { return g_read_back_seconds; }

const void* read_into_staging(const cl::Buffer& b, size_t offset, size_t bytes, int slot) {
  void* host = nullptr;
  g_read_back_seconds += host_seconds([&] {
    host = session().staging(slot, bytes);
    DeviceWait device_wait;
    GB_CL(session().queue().enqueueReadBuffer(b, CL_TRUE, offset, bytes, host));
  });
  return host;
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
