// Host reference for L0/Divergence: each work item's seed stepped by the recurrence its lane takes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

// Work items in groups of `group`; a work item's lane is lid % 32, or with group_scope lid * 32 /
// group. Lanes below `taken` step x = x * 1664525 + 1013904223, the others x = x * 22695477 + 1,
// `steps` times each, in 32-bit wraparound, from seeds[gid].
std::vector<uint32_t> divergence_results(const std::vector<uint32_t>& seeds, size_t group, bool group_scope,
                                         uint32_t taken, uint32_t steps);

}  // namespace ref
