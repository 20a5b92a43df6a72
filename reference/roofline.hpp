// Host model of L0/Roofline's multiply-add sweep (kernels/l0/roofline.cl): K fused multiply-adds
// on each sampled float lane. The add chains and read sums use compute's and
// global_bandwidth's references.
#pragma once
#include <cstdint>
#include <vector>

namespace ref {

// x = a*x + b k times, starting from in[i], for each i in `lanes`: rounded once per step (fused)
// or twice (mad allows either).
std::vector<double> roofline_fma(const std::vector<float>& in, const std::vector<uint32_t>& lanes, int k, float a,
                                 float b, bool fused);

}  // namespace ref
