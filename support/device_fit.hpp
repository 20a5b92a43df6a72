// Whether a problem fits the device. A problem's size is fixed by its size class (or named in the
// benchmark's name) and never shrinks to fit: one that does not fit is skipped with these reasons.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gb {

struct MemoryLimits {
  uint64_t max_alloc_bytes = 0;   // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  uint64_t global_mem_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_SIZE
};

// Why buffers of these sizes do not fit (empty when they do): each must be at most
// CL_DEVICE_MAX_MEM_ALLOC_SIZE, and all together at most half of CL_DEVICE_GLOBAL_MEM_SIZE (the
// rest is the runtime's, and a driver may need room to move buffers). The reason names the bytes
// needed and available.
std::string memory_shortfall(const std::vector<uint64_t>& buffer_bytes, const MemoryLimits& limits);
// The same on the session's device.
std::string memory_shortfall(const std::vector<uint64_t>& buffer_bytes);

// Why a width x height 2-D image does not fit CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT (empty when it does).
std::string image_shortfall(size_t width, size_t height, size_t max_width, size_t max_height);
std::string image_shortfall(size_t width, size_t height);  // on the session's device

// "268435456 bytes (256 MiB)", "9355612160 bytes (8.71 GiB)": exact, then readable.
std::string bytes_text(uint64_t bytes);

}  // namespace gb
