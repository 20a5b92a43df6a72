// Host reference for L0/Stencil3D: the 7-point stencil with neighbours clamped at the faces.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

// out(x, y, z) = in / 2 + (sum of the six face neighbours) / 16, a neighbour past a face being the
// cell itself; the grid is n^3, x fastest.
std::vector<float> stencil7(const std::vector<float>& in, size_t n);

}  // namespace ref
