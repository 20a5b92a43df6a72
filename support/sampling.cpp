// Evenly spread sample indices.
#include "sampling.hpp"

namespace gb {

std::vector<uint32_t> sample_indices(size_t n, size_t max_samples) {
  std::vector<uint32_t> out;
  if (n == 0 || max_samples == 0) return out;
  if (n <= max_samples) {
    for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint32_t>(i));
    return out;
  }
  if (max_samples == 1) return {0};
  for (size_t i = 0; i < max_samples; ++i)
    out.push_back(static_cast<uint32_t>(i * (n - 1) / (max_samples - 1)));
  return out;
}

}  // namespace gb
