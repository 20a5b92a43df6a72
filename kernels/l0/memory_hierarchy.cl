// Memory hierarchy: a dependent pointer chase (load-to-use latency) and repeated reads of a buffer
// of a given size (bandwidth by working set). Knobs come as build options.
#ifndef TYPE
#define TYPE float4
#define WIDTH 4
#endif
#ifndef LOADS
#define LOADS 256  // loads per work item in memory_hierarchy_read
#endif

#include "include/hsum.h"

// One work item follows next = chain[next] for `steps` steps (a multiple of 8). Each load's
// address is the previous load's value, so no two loads overlap; the last index is written so
// the chain is live.
__kernel void memory_hierarchy_chase(__global const uint* restrict chain, __global uint* last,
                                     const uint steps) {
  uint p = 0;
  for (uint i = 0; i < steps; i += 8) {
    p = chain[p];
    p = chain[p];
    p = chain[p];
    p = chain[p];
    p = chain[p];
    p = chain[p];
    p = chain[p];
    p = chain[p];
  }
  last[get_global_id(0)] = p;
}

// Each work group walks the buffer from its own start (group * seg elements), a work group's
// width of consecutive elements per step, wrapping with mask (the element count is a power of
// two). A group re-reads the whole buffer when LOADS * group size exceeds it, so a buffer that
// fits one compute unit's cache is served from it; across the grid, an element is read again
// after about the buffer's size of other reads, so a buffer that fits the last-level cache is
// served from there and a larger one from DRAM.
// Each load is weighted by DECAY^(loads after it) (a multiply-add, as cheap as the add), so a
// small working set read again and again still gives every load its own share of the sum: half the
// loads, doubled, or one load of a repeated element, scaled, do not match.
#define DECAY 0.998046875f  // 1 - 2^-9: the first of 1024 loads still weighs 0.14
__kernel void memory_hierarchy_read(__global const TYPE* restrict in, __global float* sums,
                                    const uint mask, const uint seg) {
  const uint lsize = get_local_size(0);
  uint idx = get_group_id(0) * seg + get_local_id(0);
  TYPE acc = 0;
#pragma unroll 8
  for (int i = 0; i < LOADS; ++i) {
    acc = acc * DECAY + in[idx & mask];
    idx += lsize;
  }
  sums[get_global_id(0)] = HSUM(acc);
}
