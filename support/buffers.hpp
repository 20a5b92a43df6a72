// Device buffers from host vectors, read-back, poisoning, and random host data.
// Every blocking call here is a DeviceWait (support/watchdog: --kernel_timeout).
// Inputs are random (never zeros: zeros hide unwritten outputs and compress in hardware).
#pragma once
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "cl_error.hpp"
#include "session.hpp"
#include "watchdog.hpp"

namespace gb {

cl::Buffer make_buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE);

template <typename T>
cl::Buffer upload(const std::vector<T>& host, cl_mem_flags flags = CL_MEM_READ_WRITE) {
  cl::Buffer b = make_buffer(host.size() * sizeof(T), flags);
  DeviceWait device_wait;
  GB_CL(session().queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(T), host.data()));
  return b;
}

// Copies `host` into the start of an existing buffer; blocking.
template <typename T>
void upload_into(const cl::Buffer& b, const std::vector<T>& host) {
  DeviceWait device_wait;
  GB_CL(session().queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(T), host.data()));
}

template <typename T>
std::vector<T> fresh_vector(size_t n);

// Read-only view of host memory: what read_back returns, and what checks accept beside vectors.
template <typename T>
struct HostSpan {
  const T* ptr = nullptr;
  size_t count = 0;
  const T* data() const { return ptr; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T& operator[](size_t i) const { return ptr[i]; }
  const T* begin() const { return ptr; }
  const T* end() const { return ptr + count; }
};

// A buffer's contents in the session's pinned staging memory of `slot`: at PCIe speed, with no
// host pages allocated, zeroed and freed per read (a 1 GiB vector costs more than its read).
// Valid until the next read_back into the same slot; use distinct slots for outputs compared
// together.
// Seconds spent in read_back since the process started (GPU_BENCH_PHASES splits a check's time).
double read_back_seconds();
// read_back's blocking read of `bytes` from `offset` into staging slot `slot`; returns the memory.
const void* read_into_staging(const cl::Buffer& b, size_t offset, size_t bytes, int slot);

template <typename T>
HostSpan<T> read_back(const cl::Buffer& b, size_t count, int slot = 0, size_t offset_elements = 0) {
  return {static_cast<const T*>(read_into_staging(b, offset_elements * sizeof(T), count * sizeof(T), slot)), count};
}

template <typename T>
std::vector<T> download(const cl::Buffer& b, size_t count, size_t offset_elements = 0) {
  std::vector<T> host = fresh_vector<T>(count);
  DeviceWait device_wait;
  GB_CL(session().queue().enqueueReadBuffer(b, CL_TRUE, offset_elements * sizeof(T),
                                            count * sizeof(T), host.data()));
  return host;
}

// Fills with 0xFF bytes: NaN as float/double, -1 as signed, max as unsigned. Blocking.
void poison(const cl::Buffer& b, size_t bytes);

// Deterministic per (seed, index): a counter-based generator (splitmix64), filled in parallel,
// so gigabyte inputs take well under a second and every device sees the same data.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Calls fill(begin, end) over [0, n) on several threads.
void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fill);
// Calls body(b) once for every block b in [0, blocks), on every core; results kept per block and
// combined in block order do not depend on the number of cores.
void parallel_blocks(size_t blocks, const std::function<void(size_t)>& body);

// A vector of n value-initialised elements whose pages every core faults in first: a vector's
// own fill runs on one core, and on fresh memory most of its time is page faults.
template <typename T>
std::vector<T> fresh_vector(size_t n) {
  std::vector<T> v;
  v.reserve(n);
  auto* raw = reinterpret_cast<volatile unsigned char*>(v.data());
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t b = begin * sizeof(T); b < end * sizeof(T); b += 4096) raw[b] = 0;
  });
  v.resize(n);
  return v;
}

template <typename T>
std::vector<T> random_vector(size_t n, uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::vector<T> v = fresh_vector<T>(n);
  const uint64_t key = splitmix64(seed * 0x2545f4914f6cdd1dull + 1);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const uint64_t r = splitmix64(key ^ (i * 0x9e3779b97f4a7c15ull));
      const double unit = static_cast<double>(r >> 11) * 0x1p-53;  // [0, 1)
      if constexpr (std::is_floating_point_v<T>) {
        v[i] = static_cast<T>(lo + (hi - lo) * unit);
      } else {
        const double span = hi - lo + 1;
        v[i] = static_cast<T>(static_cast<int64_t>(lo) + static_cast<int64_t>(unit * span));
      }
    }
  });
  return v;
}

// Random multiples of `quantum` (a power of two): k * quantum for integers k in [lo, hi], with the
// same generator as random_vector. Sums of them are exact in floating point while the sum of
// their magnitudes stays within 2^digits quanta (verify.hpp's sum_error_bound), so that a check
// can demand the exact sum, and a dropped, repeated or extra element cannot hide in rounding.
template <typename T>
std::vector<T> random_multiples(size_t n, uint64_t seed, int64_t lo, int64_t hi, double quantum) {
  std::vector<T> v = fresh_vector<T>(n);
  const uint64_t key = splitmix64(seed * 0x2545f4914f6cdd1dull + 1);
  const double span = static_cast<double>(hi - lo + 1);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const uint64_t r = splitmix64(key ^ (i * 0x9e3779b97f4a7c15ull));
      const int64_t k = lo + static_cast<int64_t>(static_cast<double>(r >> 11) * 0x1p-53 * span);
      v[i] = static_cast<T>(static_cast<double>(k) * quantum);
    }
  });
  return v;
}

}  // namespace gb
