// The compile-time kernels' outputs, in 32-bit unsigned arithmetic as on the device.
#include "compile_time.hpp"

namespace ref {

std::vector<uint32_t> compile_time_short(size_t items, uint32_t salt) {
  std::vector<uint32_t> out(items);
  for (size_t g = 0; g < items; ++g) out[g] = static_cast<uint32_t>(g) * 2654435761u + salt;
  return out;
}

std::vector<uint32_t> compile_time_long(size_t items, uint32_t salt, unsigned functions) {
  std::vector<uint32_t> out(items);
  for (size_t g = 0; g < items; ++g) {
    uint32_t x = static_cast<uint32_t>(g);
    for (uint32_t k = 0; k < functions * 64u; ++k) x = (x * (2u * k + 1u)) ^ ((x >> 7) + k);
    out[g] = x + salt;
  }
  return out;
}

}  // namespace ref
