// Work-group shape generation.
#include "wg_sweep.hpp"

namespace gb {

std::string WorkGroup::label() const {
  if (is_auto()) return "auto";
  std::string s = std::to_string(x);
  if (dims >= 2) s += "x" + std::to_string(y);
  if (dims >= 3) s += "x" + std::to_string(z);
  return s;
}

cl::NDRange WorkGroup::local() const {
  if (is_auto()) return cl::NullRange;
  if (dims == 1) return cl::NDRange(x);
  if (dims == 2) return cl::NDRange(x, y);
  return cl::NDRange(x, y, z);
}

std::vector<WorkGroup> work_group_shapes(int dims, const SweepLimits& limits, bool include_auto) {
  std::vector<WorkGroup> shapes;
  auto fits = [&](size_t a, size_t b, size_t c) {
    return a <= limits.max_items[0] && (dims < 2 || b <= limits.max_items[1]) &&
           (dims < 3 || c <= limits.max_items[2]);
  };
  for (size_t n = 1; n <= limits.max_size; n *= 2) {
    if (n < limits.min_size) continue;
    if (dims == 1) {
      if (fits(n, 1, 1)) shapes.push_back({n, 1, 1, 1});
    } else if (dims == 2) {
      for (size_t y = 1; y <= n; y *= 2)
        if (fits(n / y, y, 1)) shapes.push_back({n / y, y, 1, 2});
    } else {
      for (size_t z = 1; z <= n; z *= 2)
        for (size_t y = 1; y * z <= n; y *= 2)
          if (fits(n / (y * z), y, z)) shapes.push_back({n / (y * z), y, z, 3});
    }
  }
  if (include_auto) shapes.push_back({0, 1, 1, dims});
  return shapes;
}

size_t round_up(size_t value, size_t multiple) {
  return multiple == 0 ? value : (value + multiple - 1) / multiple * multiple;
}

cl::NDRange padded_global(size_t gx, size_t gy, size_t gz, const WorkGroup& wg) {
  size_t x = wg.is_auto() ? gx : round_up(gx, wg.x);
  size_t y = wg.is_auto() ? gy : round_up(gy, wg.y);
  size_t z = wg.is_auto() ? gz : round_up(gz, wg.z);
  if (wg.dims == 1) return cl::NDRange(x);
  if (wg.dims == 2) return cl::NDRange(x, y);
  return cl::NDRange(x, y, z);
}

}  // namespace gb
