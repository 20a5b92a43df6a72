// Host reference for L0/ImageRead: the column sums of kernels/l0/image_read.cl.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

// rgba: width x (rows * items) pixels of 4 floats, row-major. Returns width x rows sums (in
// double), sum over k < items and the 4 channels of pixel (x, y + k * rows).
std::vector<double> image_column_sums(const std::vector<float>& rgba, size_t width, size_t rows,
                                      size_t items);

}  // namespace ref
