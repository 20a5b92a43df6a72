// Eigen reference for the transpose case.
#include "transpose.hpp"

#include <Eigen/Dense>

namespace ref {

std::vector<float> transpose(const std::vector<float>& in, size_t width, size_t height) {
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<float> out(in.size());
  Eigen::Map<RowMajor>(out.data(), width, height) = Eigen::Map<const RowMajor>(in.data(), height, width).transpose();
  return out;
}

}  // namespace ref
