// Device buffers from host vectors, read-back, poisoning, and random host data.
// Inputs are random (never zeros: zeros hide unwritten outputs and compress in hardware).
#pragma once
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "cl_error.hpp"
#include "session.hpp"

namespace gb {

cl::Buffer make_buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE);

template <typename T>
cl::Buffer upload(const std::vector<T>& host, cl_mem_flags flags = CL_MEM_READ_WRITE) {
  cl::Buffer b = make_buffer(host.size() * sizeof(T), flags);
  GB_CL(session().queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(T), host.data()));
  return b;
}

template <typename T>
std::vector<T> download(const cl::Buffer& b, size_t count, size_t offset_elements = 0) {
  std::vector<T> host(count);
  GB_CL(session().queue().enqueueReadBuffer(b, CL_TRUE, offset_elements * sizeof(T),
                                            count * sizeof(T), host.data()));
  return host;
}

// Fills with 0xFF bytes: NaN as float/double, -1 as signed, max as unsigned. Blocking.
void poison(const cl::Buffer& b, size_t bytes);

// Deterministic per seed, so a configuration sees the same data on every device.
template <typename T>
std::vector<T> random_vector(size_t n, uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(static_cast<T>(lo), static_cast<T>(hi));
    for (auto& x : v) x = dist(rng);
  } else {
    std::uniform_int_distribution<int64_t> dist(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
    for (auto& x : v) x = static_cast<T>(dist(rng));
  }
  return v;
}

}  // namespace gb
