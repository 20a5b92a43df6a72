// References for the integral image case: row prefix sums, then each row adds the row above, split
// over the host's cores (rows in the first pass, blocks of columns in the second). The sums are
// exact (uint64) or modulo 2^32 (uint32, wrapping like the device), so their order cannot matter.
#include "integral_image.hpp"

#include <algorithm>

#include "parallel.hpp"

namespace ref {

namespace {
template <typename T>
std::vector<T> integral(const std::vector<uint8_t>& in, size_t width, size_t height, bool squared) {
  std::vector<T> out = filled_vector<T>(width * height);
  parallel_for(height, [&](size_t y) {
    T running = 0;  // unsigned: wraps like the device
    for (size_t x = 0; x < width; ++x) {
      const T v = in[y * width + x];
      running += squared ? v * v : v;
      out[y * width + x] = running;
    }
  });
  constexpr size_t kBlock = 1024;  // columns per task, running down the image
  parallel_for((width + kBlock - 1) / kBlock, [&](size_t block) {
    const size_t begin = block * kBlock, end = std::min(width, begin + kBlock);
    for (size_t y = 1; y < height; ++y) {
      T* row = out.data() + y * width;
      const T* above = row - width;
      for (size_t x = begin; x < end; ++x) row[x] += above[x];
    }
  });
  return out;
}
}  // namespace

std::vector<uint32_t> integral_image(const std::vector<uint8_t>& in, size_t width, size_t height) {
  return integral<uint32_t>(in, width, height, false);
}

std::vector<uint64_t> squared_integral_image(const std::vector<uint8_t>& in, size_t width, size_t height) {
  return integral<uint64_t>(in, width, height, true);
}

}  // namespace ref
