// Lane sums of the local and constant memory read kernels, in float as the kernels add them.
#include "local_memory.hpp"

namespace ref {

size_t local_read_elements(const LocalRead& r) { return r.warp * r.stride + r.warp * (r.rotate + r.unroll); }

static float hsum(const float* v, size_t width) {
  if (width == 1) return v[0];
  if (width == 2) return v[0] + v[1];
  return (v[0] + v[1]) + (v[2] + v[3]);
}

std::vector<float> local_read_lane_sums(const std::vector<float>& in, const LocalRead& r) {
  std::vector<float> out(r.warp);
  for (size_t lane = 0; lane < r.warp; ++lane) {
    float acc[4][4] = {};  // accumulator, lane of TYPE
    for (size_t round = 0; round < r.rounds; ++round) {
      const size_t p = lane * r.stride + (round % r.rotate) * r.warp;
      for (size_t j = 0; j < r.unroll; ++j) {
        const float* e = &in[(p + j * r.warp) * r.width];
        for (size_t k = 0; k < r.width; ++k) acc[j % 4][k] += e[k];
      }
    }
    float total[4];
    for (size_t k = 0; k < r.width; ++k) total[k] = (acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k]);
    out[lane] = hsum(total, r.width);
  }
  return out;
}

std::vector<float> constant_read_sums(const std::vector<float>& table, const ConstantRead& r,
                                      size_t group_size) {
  std::vector<float> out(group_size);
  const size_t mask = r.words - 1;
  for (size_t lid = 0; lid < group_size; ++lid) {
    const size_t lane = r.divergent ? lid : 0;
    float acc[4] = {};
    for (size_t round = 0; round < r.rounds; ++round)
      for (size_t j = 0; j < r.unroll; ++j) acc[j % 4] += table[(round * r.unroll + j + lane) & mask];
    out[lid] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  }
  return out;
}

}  // namespace ref
