// The device's copy bandwidth, measured once per process (float4 copy of a large buffer, the best
// of a few batches), as the yardstick of memory-bound cases: copy_fraction = bytes_per_second / it.
#pragma once
#include <benchmark/benchmark.h>

#include <cstddef>

#include "program_cache.hpp"

namespace gb {

// Bytes each work item of the reference copies: one float4, the fastest copy measured (H200 4.28
// TB/s at 16 B, 4.21 at 64). The L0 copy case copies the same way.
constexpr size_t kCopyBytesPerWorkItem = 16;

struct CopyBandwidth {
  double bytes_per_second = 0;  // read + write bytes of the copy per second of device time
  size_t buffer_bytes = 0;      // size of each of the two buffers
};

// Bytes per buffer: 1 GiB on a GPU (far past any cache), 64 MiB on other devices (kept quick on
// CPUs), never above the allocation limit nor 1/8 of the device memory. It may shrink to fit: no
// benchmark is named after it (a constant of the device; its line on stderr gives the size).
size_t copy_bandwidth_buffer_bytes(bool is_gpu, size_t max_alloc_bytes, size_t global_mem_bytes);

// Measured on first use in this process (a few hundred ms), then cached. Prints one line on stderr.
const CopyBandwidth& device_copy_bandwidth();
ProgramKey copy_bandwidth_program();  // its kernel's (built ahead with the cases')

// This benchmark's bytes per second over the copy bandwidth. The copy bandwidth, a constant of
// the device, goes into the JSON context once (copy_bytes_per_second).
double copy_fraction(double bytes_per_unit, double unit_seconds);

}  // namespace gb
