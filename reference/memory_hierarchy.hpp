// Host references for L0/Latency and L0/CacheBandwidth: the random single-cycle permutation
// (Sattolo's algorithm), the end of a pointer chase, and the per-work-item sums of the
// working-set read. Layouts follow kernels/l0/memory_hierarchy.cl.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

// next[i] for a uniformly random permutation of 0..n-1 that is one cycle through all n nodes.
std::vector<uint32_t> sattolo_cycle(size_t n, uint64_t seed);

// Follows node = next[node] `steps` times from node `start`.
uint32_t chase(const std::vector<uint32_t>& next, uint32_t start, uint64_t steps);

struct WorkingSetRead {
  size_t width;        // floats per element (TYPE's lanes)
  size_t elements;     // elements in the buffer, a power of two
  size_t group_size;   // work items per group
  size_t seg;          // elements between the starts of consecutive groups
  size_t loads;        // LOADS
};

// Each load's weight is the decay to the power of the loads after it (the kernel's DECAY).
constexpr double kWorkingSetDecay = 1.0 - 1.0 / 512;

// The weighted sum work item `gid` writes (in double), accumulated as the kernel orders it.
double working_set_read_sum(const std::vector<float>& in, const WorkingSetRead& r, size_t gid);

}  // namespace ref
