// Host reference for L1/Transpose, in Eigen: a row-major height x width float matrix transposed.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

// out (width x height, row-major) = in (height x width, row-major) transposed.
std::vector<float> transpose(const std::vector<float>& in, size_t width, size_t height);

}  // namespace ref
