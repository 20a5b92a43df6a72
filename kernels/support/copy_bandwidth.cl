// The copy-bandwidth reference for "copy_fraction" counters: a float4 copy, ITEMS elements per
// work item (from the host) walking the buffer in grid-sized steps (coalesced), as the L0 copy
// case does.
#ifndef ITEMS
#define ITEMS 1
#endif

__kernel void copy_bandwidth(__global const float4* in, __global float4* out, const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) out[(size_t)i * work_items + gid] = in[(size_t)i * work_items + gid];
}
