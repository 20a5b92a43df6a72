// Device fit: buffer and image sizes against the device's limits, with reasons naming the bytes.
#include "device_fit.hpp"

#include <algorithm>
#include <cstdio>

#include "cl_error.hpp"
#include "session.hpp"

namespace gb {

std::string bytes_text(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (u < 4 && v >= 1024) {
    v /= 1024;
    ++u;
  }
  char readable[32];
  std::snprintf(readable, sizeof readable, "%.3g %s", v, units[u]);
  return std::to_string(bytes) + " bytes (" + readable + ")";
}

std::string memory_shortfall(const std::vector<uint64_t>& buffer_bytes, const MemoryLimits& limits) {
  uint64_t largest = 0, total = 0;
  for (uint64_t b : buffer_bytes) {
    largest = std::max(largest, b);
    total += b;
  }
  if (largest > limits.max_alloc_bytes)
    return "needs a buffer of " + bytes_text(largest) + "; CL_DEVICE_MAX_MEM_ALLOC_SIZE is " +
           bytes_text(limits.max_alloc_bytes);
  if (total > limits.global_mem_bytes / 2)
    return "needs " + bytes_text(total) + " of buffers; half of CL_DEVICE_GLOBAL_MEM_SIZE is " +
           bytes_text(limits.global_mem_bytes / 2);
  return "";
}

std::string memory_shortfall(const std::vector<uint64_t>& buffer_bytes) {
  const auto& d = session().info();
  return memory_shortfall(buffer_bytes, {d.max_alloc_bytes, d.global_mem_bytes});
}

std::string image_shortfall(size_t width, size_t height, size_t max_width, size_t max_height) {
  if (width <= max_width && height <= max_height) return "";
  return "needs a " + std::to_string(width) + "x" + std::to_string(height) +
         " image; CL_DEVICE_IMAGE2D_MAX_WIDTH x HEIGHT is " + std::to_string(max_width) + "x" +
         std::to_string(max_height);
}

std::string image_shortfall(size_t width, size_t height) {
  auto& s = session();
  size_t w_max = 0, h_max = 0;
  GB_CL(s.device().getInfo(CL_DEVICE_IMAGE2D_MAX_WIDTH, &w_max));
  GB_CL(s.device().getInfo(CL_DEVICE_IMAGE2D_MAX_HEIGHT, &h_max));
  return image_shortfall(width, height, w_max, h_max);
}

}  // namespace gb
