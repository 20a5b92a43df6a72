// Host references for L0/Atomics: the final value of every counter of kernels/l0/atomics.cl
// after one launch (integers; float counters hold the same values exactly).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

// What work item gid adds in iteration i of iters: 1..4 cycling, but 1 in the last iteration, so
// that no whole number of cycles makes up the sum (half the iterations, doubled, do not match).
inline uint32_t atomic_value(uint64_t gid, uint32_t i, uint32_t iters) {
  return i + 1 == iters ? 1u : ((static_cast<uint32_t>(gid) + i) & 3u) + 1u;
}

// counters[a] = sum over gid < work_items with gid % addresses == a, i < iters.
std::vector<int32_t> atomic_global_sums(size_t work_items, size_t addresses, uint32_t iters);
// out[g * addresses + a] = sum over the group's lid with lid % addresses == a, i < iters.
std::vector<int32_t> atomic_local_sums(size_t work_items, size_t group, size_t addresses, uint32_t iters);

}  // namespace ref
