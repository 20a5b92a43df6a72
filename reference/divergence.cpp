#include "divergence.hpp"

namespace ref {

std::vector<uint32_t> divergence_results(const std::vector<uint32_t>& seeds, size_t group, bool group_scope,
                                         uint32_t taken, uint32_t steps) {
  std::vector<uint32_t> out(seeds.size());
  for (size_t gid = 0; gid < seeds.size(); ++gid) {
    const size_t lid = gid % group;
    const size_t lane = group_scope ? lid * 32 / group : lid % 32;
    uint32_t x = seeds[gid];
    const bool first = lane < taken;
    for (uint32_t i = 0; i < steps; ++i) x = first ? x * 1664525u + 1013904223u : x * 22695477u + 1u;
    out[gid] = x;
  }
  return out;
}

}  // namespace ref
