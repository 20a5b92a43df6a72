// Reference for the transpose case: Eigen's transpose of one horizontal band of the input per task
// (a band becomes a vertical band of the output), split over the host's cores.
#include "transpose.hpp"

#include <Eigen/Dense>
#include <algorithm>

#include "parallel.hpp"

namespace ref {

std::vector<float> transpose(const std::vector<float>& in, size_t width, size_t height) {
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  std::vector<float> out = filled_vector<float>(in.size());
  constexpr size_t kRows = 64;  // input rows per task
  parallel_for((height + kRows - 1) / kRows, [&](size_t band) {
    const size_t first = band * kRows, rows = std::min(kRows, height - first);
    const Eigen::Map<const RowMajor> from(in.data() + first * width, rows, width);
    Eigen::Map<RowMajor, Eigen::Unaligned, Stride> to(out.data() + first, width, rows, Stride(height));
    to = from.transpose();
  });
  return out;
}

}  // namespace ref
