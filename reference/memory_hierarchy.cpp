// Sattolo cycles, chase walks and working-set read sums.
#include "memory_hierarchy.hpp"

#include <random>
#include <utility>

namespace ref {

std::vector<uint32_t> sattolo_cycle(size_t n, uint64_t seed) {
  // Sattolo: a Fisher-Yates shuffle of the identity that draws j < i only (never j == i);
  // read as the successor function i -> next[i], the result is one cycle through every node.
  std::vector<uint32_t> next(n);
  for (size_t i = 0; i < n; ++i) next[i] = static_cast<uint32_t>(i);
  std::mt19937_64 rng(seed);
  for (size_t i = n; i-- > 1;) {
    std::uniform_int_distribution<size_t> pick(0, i - 1);
    std::swap(next[i], next[pick(rng)]);
  }
  return next;
}

uint32_t chase(const std::vector<uint32_t>& next, uint32_t start, uint64_t steps) {
  uint32_t p = start;
  for (uint64_t s = 0; s < steps; ++s) p = next[p];
  return p;
}

double working_set_read_sum(const std::vector<float>& in, const WorkingSetRead& r, size_t gid) {
  const size_t group = gid / r.group_size, lid = gid % r.group_size, mask = r.elements - 1;
  // TYPE lanes accumulate separately, then the kernel's HSUM adds them pairwise.
  double lanes[16] = {};
  size_t idx = (group * r.seg + lid) & 0xFFFFFFFFu;
  for (size_t i = 0; i < r.loads; ++i) {
    const float* e = &in[(idx & mask) * r.width];
    for (size_t k = 0; k < r.width; ++k) lanes[k] = lanes[k] * kWorkingSetDecay + e[k];
    idx = (idx + r.group_size) & 0xFFFFFFFFu;  // uint arithmetic, as the kernel
  }
  double sum = 0;
  for (size_t k = 0; k < r.width; ++k) sum += lanes[k];
  return sum;
}

}  // namespace ref
