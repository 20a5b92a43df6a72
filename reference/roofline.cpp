// Host model of the roofline multiply-add chains.
#include "roofline.hpp"

#include <cmath>

#include "compute.hpp"  // unfused_mad

namespace ref {

std::vector<double> roofline_fma(const std::vector<float>& in, const std::vector<uint32_t>& lanes, int k, float a,
                                 float b, bool fused) {
  std::vector<double> out;
  out.reserve(lanes.size());
  for (uint32_t i : lanes) {
    float x = in[i];
    for (int s = 0; s < k; ++s) x = fused ? std::fma(x, a, b) : unfused_mad(x, a, b);
    out.push_back(x);
  }
  return out;
}

}  // namespace ref
