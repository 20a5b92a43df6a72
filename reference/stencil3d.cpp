#include "stencil3d.hpp"

namespace ref {

std::vector<float> stencil7(const std::vector<float>& in, size_t n) {
  std::vector<float> out(in.size());
  auto at = [&](size_t x, size_t y, size_t z) { return static_cast<double>(in[(z * n + y) * n + x]); };
  for (size_t z = 0; z < n; ++z)
    for (size_t y = 0; y < n; ++y)
      for (size_t x = 0; x < n; ++x) {
        const double faces = at(x ? x - 1 : x, y, z) + at(x + 1 < n ? x + 1 : x, y, z) + at(x, y ? y - 1 : y, z) +
                             at(x, y + 1 < n ? y + 1 : y, z) + at(x, y, z ? z - 1 : z) + at(x, y, z + 1 < n ? z + 1 : z);
        out[(z * n + y) * n + x] = static_cast<float>(0.5 * at(x, y, z) + faces / 16);
      }
  return out;
}

}  // namespace ref
