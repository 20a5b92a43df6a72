// Column sums of an RGBA float image, in Eigen.
#include "image_read.hpp"

#include <Eigen/Dense>

namespace ref {

std::vector<double> image_column_sums(const std::vector<float>& rgba, size_t width, size_t rows,
                                      size_t items) {
  const Eigen::Index row_floats = static_cast<Eigen::Index>(width * 4), n = static_cast<Eigen::Index>(width * rows);
  // Pixel (x, y + k*rows) lies in block k of rows*row_floats floats: sum the blocks, then the
  // 4 channels of each pixel.
  Eigen::Map<const Eigen::MatrixXf> blocks(rgba.data(), row_floats * static_cast<Eigen::Index>(rows),
                                           static_cast<Eigen::Index>(items));
  Eigen::VectorXd per_float = blocks.cast<double>().rowwise().sum();
  std::vector<double> sums(n);
  Eigen::Map<Eigen::VectorXd>(sums.data(), n) =
      Eigen::Map<Eigen::MatrixXd>(per_float.data(), 4, n).colwise().sum().transpose();
  return sums;
}

}  // namespace ref
