// Control-flow divergence: work items whose lane (their place in a 32-wide slice of the group) is
// below `taken` step their value with one recurrence, the others with another. Where a warp or
// sub-group of 32 holds both kinds it runs both loops one after the other; with GROUP_SCOPE the
// lanes are 32 slices of the whole group instead, so only the one warp a boundary cuts diverges.
#ifndef GROUP_SCOPE
#define LANE(lid, group) ((lid) % 32u)
#else
#define LANE(lid, group) ((lid) * 32u / (group))
#endif

__kernel void divergence(__global const uint* seeds, __global uint* out, const uint taken, const uint steps) {
  const uint gid = get_global_id(0);
  uint x = seeds[gid];
  if (LANE((uint)get_local_id(0), (uint)get_local_size(0)) < taken) {
    for (uint i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  } else {
    for (uint i = 0; i < steps; ++i) x = x * 22695477u + 1u;
  }
  out[gid] = x;
}
