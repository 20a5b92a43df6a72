// References for the box filter: separable running sums (O(1) per pixel whatever the radius),
// horizontal per row, then vertical per block of columns, each pass split over the host's cores.
#include "box_filter.hpp"

#include <algorithm>
#include <memory>

#include "parallel.hpp"

namespace ref {

namespace {

// Window sums over (2r+1)^2 with clamp-to-edge, channels interleaved; out[i] = finish(sum[i]).
// Acc must hold the sums exactly (integers) or nearly (double: a few ulp over the running updates).
template <typename Acc, typename In, typename Out, typename Finish>
void window_filter(const In* in, size_t width, size_t height, int channels, int radius, Out* out,
                   const Finish& finish) {
  const long w = static_cast<long>(width), h = static_cast<long>(height), c = channels, r = radius;
  const size_t row_len = width * channels;
  auto cx = [&](long x) { return std::clamp(x, 0L, w - 1); };
  auto cy = [&](long y) { return std::clamp(y, 0L, h - 1); };
  // Every element is written by the first pass, on all cores: no single-core fill.
  std::unique_ptr<Acc[]> horizontal_sums(new Acc[row_len * height]);
  Acc* const horizontal = horizontal_sums.get();
  parallel_for(height, [&](size_t y) {
    const In* row = in + y * row_len;
    Acc* hrow = horizontal + y * row_len;
    for (long k = 0; k < c; ++k) {
      Acc s = 0;
      for (long d = -r; d <= r; ++d) s += static_cast<Acc>(row[cx(d) * c + k]);
      hrow[k] = s;
      for (long x = 1; x < w; ++x) {
        s += static_cast<Acc>(row[cx(x + r) * c + k]) - static_cast<Acc>(row[cx(x - r - 1) * c + k]);
        hrow[x * c + k] = s;
      }
    }
  });
  constexpr size_t kBlock = 256;  // columns (channel values) per task, running down the image
  parallel_for((row_len + kBlock - 1) / kBlock, [&](size_t block) {
    const size_t begin = block * kBlock, n = std::min(kBlock, row_len - begin);
    Acc sums[kBlock] = {};
    for (long d = -r; d <= r; ++d) {
      const Acc* hrow = horizontal + cy(d) * row_len + begin;
      for (size_t j = 0; j < n; ++j) sums[j] += hrow[j];
    }
    Out finished[kBlock];  // local, so the stores cannot alias the sums (Out may be a byte type)
    for (long y = 0; y < h; ++y) {
      for (size_t j = 0; j < n; ++j) finished[j] = finish(sums[j]);
      std::copy(finished, finished + n, out + y * row_len + begin);
      if (y + 1 == h) break;
      const Acc* add = horizontal + cy(y + r + 1) * row_len + begin;
      const Acc* sub = horizontal + cy(y - r) * row_len + begin;
      for (size_t j = 0; j < n; ++j) sums[j] += add[j] - sub[j];
    }
  });
}

}  // namespace

std::vector<int64_t> box_sums(const std::vector<uint8_t>& in, size_t width, size_t height, int channels, int radius) {
  std::vector<int64_t> out = filled_vector<int64_t>(width * height * channels);
  window_filter<int64_t>(in.data(), width, height, channels, radius, out.data(), [](int64_t s) { return s; });
  return out;
}

std::vector<double> box_filter(const std::vector<float>& in, size_t width, size_t height, int radius) {
  std::vector<double> out = filled_vector<double>(width * height);
  const double area = static_cast<double>(2 * radius + 1) * (2 * radius + 1);
  window_filter<double>(in.data(), width, height, 1, radius, out.data(), [area](double s) { return s / area; });
  return out;
}

std::vector<uint8_t> box_filter_rgba8(const std::vector<uint8_t>& in, size_t width, size_t height, int radius) {
  std::vector<uint8_t> out = filled_vector<uint8_t>(width * height * 4);
  const int32_t area = (2 * radius + 1) * (2 * radius + 1);
  const double inverse = 1.0 / area;
  // 32-bit sums are exact (at most 255 * area) and halve the intermediate's memory traffic. The
  // rounded quotient (s + area / 2) / area via a reciprocal, corrected by one either way: exact,
  // and unlike an integer division it vectorises.
  window_filter<int32_t>(in.data(), width, height, 4, radius, out.data(), [area, inverse](int32_t s) {
    const int32_t n = s + area / 2;
    int32_t q = static_cast<int32_t>(n * inverse);
    q += (q + 1) * area <= n;
    q -= q * area > n;
    return static_cast<uint8_t>(q);
  });
  return out;
}

}  // namespace ref
