// Which outputs a host reference checks when replaying every one would take too long: an even
// spread over [0, n) that always includes the first and the last, or all of them when n is small.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gb {

std::vector<uint32_t> sample_indices(size_t n, size_t max_samples);

// The values of `all` at `indices`, widened to double.
template <typename T>
std::vector<double> gather(const std::vector<T>& all, const std::vector<uint32_t>& indices) {
  std::vector<double> out;
  out.reserve(indices.size());
  for (uint32_t i : indices) out.push_back(static_cast<double>(all[i]));
  return out;
}

}  // namespace gb
