// References for the box filter: separable running sums (O(1) per pixel whatever the radius),
// horizontal per row, then vertical as Eigen row operations over the row-major image.
#include "box_filter.hpp"

#include <Eigen/Dense>
#include <algorithm>

namespace ref {

namespace {

template <typename Acc, typename In>
std::vector<Acc> window_sums(const In* in, size_t width, size_t height, int channels, int radius) {
  using Rows = Eigen::Array<Acc, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const long w = static_cast<long>(width), h = static_cast<long>(height), c = channels, r = radius;
  auto cx = [&](long x) { return std::clamp(x, 0L, w - 1); };
  auto cy = [&](long y) { return std::clamp(y, 0L, h - 1); };
  Rows horizontal(h, w * c);
  for (long y = 0; y < h; ++y) {
    const In* row = in + y * w * c;
    for (long k = 0; k < c; ++k) {
      Acc s = 0;
      for (long d = -r; d <= r; ++d) s += static_cast<Acc>(row[cx(d) * c + k]);
      horizontal(y, k) = s;
      for (long x = 1; x < w; ++x) {
        s += static_cast<Acc>(row[cx(x + r) * c + k]) - static_cast<Acc>(row[cx(x - r - 1) * c + k]);
        horizontal(y, x * c + k) = s;
      }
    }
  }
  std::vector<Acc> out(width * height * channels);
  Eigen::Map<Rows> sums(out.data(), h, w * c);
  sums.row(0).setZero();
  for (long d = -r; d <= r; ++d) sums.row(0) += horizontal.row(cy(d));
  for (long y = 1; y < h; ++y) sums.row(y) = sums.row(y - 1) + horizontal.row(cy(y + r)) - horizontal.row(cy(y - r - 1));
  return out;
}

}  // namespace

std::vector<int64_t> box_sums(const std::vector<uint8_t>& in, size_t width, size_t height, int channels, int radius) {
  return window_sums<int64_t>(in.data(), width, height, channels, radius);
}

std::vector<double> box_filter(const std::vector<float>& in, size_t width, size_t height, int radius) {
  std::vector<double> out = window_sums<double>(in.data(), width, height, 1, radius);
  const double area = static_cast<double>(2 * radius + 1) * (2 * radius + 1);
  for (double& v : out) v /= area;
  return out;
}

std::vector<uint8_t> box_filter_rgba8(const std::vector<uint8_t>& in, size_t width, size_t height, int radius) {
  const std::vector<int64_t> sums = box_sums(in, width, height, 4, radius);
  const int64_t area = static_cast<int64_t>(2 * radius + 1) * (2 * radius + 1);
  std::vector<uint8_t> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) out[i] = static_cast<uint8_t>((sums[i] + area / 2) / area);
  return out;
}

}  // namespace ref
