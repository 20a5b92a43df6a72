// References for the integral image case: row prefix sums, then each row adds the row above
// (an Eigen row-wise add over the row-major image).
#include "integral_image.hpp"

#include <Eigen/Dense>

namespace ref {

namespace {
template <typename T>
std::vector<T> integral(const std::vector<uint8_t>& in, size_t width, size_t height, bool squared) {
  using Rows = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<T> out(width * height);
  Eigen::Map<Rows> I(out.data(), height, width);
  for (size_t y = 0; y < height; ++y) {
    T running = 0;  // unsigned: wraps like the device
    for (size_t x = 0; x < width; ++x) {
      const T v = in[y * width + x];
      running += squared ? v * v : v;
      I(y, x) = running;
    }
    if (y > 0) I.row(y) += I.row(y - 1);
  }
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
