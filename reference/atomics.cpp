// Counter sums of the atomics kernels.
#include "atomics.hpp"

namespace ref {

std::vector<int32_t> atomic_global_sums(size_t work_items, size_t addresses, uint32_t iters) {
  std::vector<int32_t> sums(addresses, 0);
  for (size_t gid = 0; gid < work_items; ++gid)
    for (uint32_t i = 0; i < iters; ++i) sums[gid % addresses] += static_cast<int32_t>(atomic_value(gid, i, iters));
  return sums;
}

std::vector<int32_t> atomic_local_sums(size_t work_items, size_t group, size_t addresses, uint32_t iters) {
  std::vector<int32_t> sums(work_items / group * addresses, 0);
  for (size_t gid = 0; gid < work_items; ++gid) {
    const size_t g = gid / group, lid = gid % group;
    for (uint32_t i = 0; i < iters; ++i)
      sums[g * addresses + lid % addresses] += static_cast<int32_t>(atomic_value(gid, i, iters));
  }
  return sums;
}

}  // namespace ref
