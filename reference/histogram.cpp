// Reference for the histogram case: a counting loop (no Eigen needed for counting).
#include "histogram.hpp"

namespace ref {

std::vector<uint32_t> histogram256(const std::vector<uint8_t>& pixels) {
  std::vector<uint32_t> bins(256, 0);
  for (uint8_t p : pixels) ++bins[p];
  return bins;
}

}  // namespace ref
