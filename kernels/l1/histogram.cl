// 256-bin histogram of 8-bit pixels. Each work item reads 16 pixels at a time (a uint4, coalesced)
// over a grid-strided share of the image, two loads before their pixels are counted (or, with
// PIPELINED, the next load issued before this one's pixels are counted); the last n % 16 pixels go
// one per work item.
// _global: one global atomic per pixel. _local: a private histogram per work group in local memory
// (REPLICAS copies, interleaved so that equal values in neighbouring work items hit different
// banks), added to the global bins at the end.
// The bins are not cleared by the host: each launch counts into `bins` and clears `next`, the
// buffer the following launch counts into (the host alternates the two).
#ifndef WG
#define WG 256
#endif
#ifndef REPLICAS
#define REPLICAS 1
#endif
#define BINS 256

void clear_next(__global uint* next) {
  for (size_t i = get_global_id(0); i < BINS; i += get_global_size(0)) next[i] = 0;
}

#define COUNT_WORD(W, COUNT)  \
  COUNT((W) & 0xffu);         \
  COUNT(((W) >> 8) & 0xffu);  \
  COUNT(((W) >> 16) & 0xffu); \
  COUNT((W) >> 24)

// Two uint4 loads are issued before their 32 pixels are counted, so loads stay in flight while
// the atomics run.
#define COUNT_UINT4(V, COUNT) \
  COUNT_WORD((V).x, COUNT);   \
  COUNT_WORD((V).y, COUNT);   \
  COUNT_WORD((V).z, COUNT);   \
  COUNT_WORD((V).w, COUNT)

#ifndef PIPELINED
#define COUNT_IMAGE(COUNT)                                                     \
  const size_t gid = get_global_id(0), stride = get_global_size(0);           \
  __global const uint4* in16 = (__global const uint4*)in;                     \
  const size_t n16 = n / 16;                                                  \
  size_t i = gid;                                                             \
  for (; i + stride < n16; i += 2 * stride) {                                 \
    const uint4 first = in16[i], second = in16[i + stride];                   \
    COUNT_UINT4(first, COUNT);                                                \
    COUNT_UINT4(second, COUNT);                                               \
  }                                                                           \
  if (i < n16) {                                                              \
    const uint4 last = in16[i];                                               \
    COUNT_UINT4(last, COUNT);                                                 \
  }                                                                           \
  for (size_t j = n16 * 16 + gid; j < n; j += stride) COUNT((uint)in[j]);
#else
// PIPELINED: one uint4 is counted while the next is in flight, in the registers of the pair above
// (local_lanes16 sits at exactly the 32 registers of full occupancy, and a second pair in flight
// costs it a quarter of its speed). 32-bit indices: the host
// passes PIPELINED only where n / 16 + the grid fits in 32 bits.
#define COUNT_IMAGE(COUNT)                                                     \
  const uint gid = get_global_id(0), stride = get_global_size(0);             \
  __global const uint4* in16 = (__global const uint4*)in;                     \
  const uint n16 = (uint)(n / 16);                                            \
  if (gid < n16) {                                                            \
    uint4 current = in16[gid];                                                \
    for (uint i = gid;;) {                                                    \
      const uint next_i = i + stride;                                         \
      const bool more = next_i < n16;                                         \
      uint4 ahead = current;                                                  \
      if (more) ahead = in16[next_i];                                         \
      COUNT_UINT4(current, COUNT);                                            \
      if (!more) break;                                                       \
      i = next_i;                                                             \
      current = ahead;                                                        \
    }                                                                         \
  }                                                                           \
  for (size_t j = (size_t)n16 * 16 + gid; j < n; j += stride) COUNT((uint)in[j]);
#endif

__kernel void histogram_global(__global const uchar* in, const ulong n, __global uint* bins,
                               __global uint* next) {
#define COUNT_GLOBAL(BIN) atomic_inc(&bins[BIN])
  COUNT_IMAGE(COUNT_GLOBAL)
  clear_next(next);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram_local(__global const uchar* in, const ulong n, __global uint* bins,
                     __global uint* next) {
  __local uint hist[BINS * REPLICAS];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < BINS * REPLICAS; i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint replica = lid % REPLICAS;
#define COUNT_LOCAL(BIN) atomic_inc(&hist[(BIN) * REPLICAS + replica])
  COUNT_IMAGE(COUNT_LOCAL)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG) {
    uint sum = 0;
    for (uint r = 0; r < REPLICAS; ++r) sum += hist[b * REPLICAS + r];
    if (sum) atomic_add(&bins[b], sum);
  }
  clear_next(next);
}

// _local_warp: one private histogram per WARP work items (8 x 256 bins, 8 KiB, for WG 256 and
// WARP 32): a warp's atomics only contend with its own lanes, never with the other warps of the
// group. Added to the global bins at the end like _local.
#ifndef WARP
#define WARP 32
#endif
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram_local_warp(__global const uchar* in, const ulong n, __global uint* bins,
                          __global uint* next) {
  __local uint hist[BINS * (WG / WARP)];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < BINS * (WG / WARP); i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint* mine = hist + (lid / WARP) * BINS;
#define COUNT_WARP(BIN) atomic_inc(&mine[BIN])
  COUNT_IMAGE(COUNT_WARP)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG) {
    uint sum = 0;
    for (uint w = 0; w < WG / WARP; ++w) sum += hist[w * BINS + b];
    if (sum) atomic_add(&bins[b], sum);
  }
  clear_next(next);
}

// _local_lanes: LANES copies of the bins, interleaved word by word (hist[bin * LANES + lane]), lane
// = the work item's index within its warp modulo LANES. With LANES 32 a warp's 32 atomics land in
// 32 distinct banks whatever the pixels, so random data costs no bank conflicts (the per-warp
// copies of _local_warp still conflict ~3-4 ways); the warps of a group share each copy, and
// meet on one word only when two of them add the same bin in the same lane at the same moment.
// LANES 16 halves the local memory (16 KiB) for at most 2-way conflicts. 32 bits per count.
#ifndef LANES
#define LANES 32
#endif
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram_local_lanes(__global const uchar* in, const ulong n, __global uint* bins,
                           __global uint* next) {
  __local uint hist[BINS * LANES];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < BINS * LANES; i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint lane = lid % LANES;
#define COUNT_LANE(BIN) atomic_inc(&hist[(BIN) * LANES + lane])
  COUNT_IMAGE(COUNT_LANE)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG) {
    uint sum = 0;  // the copies read in a rotated order, so a warp's reads hit distinct banks
    for (uint k = 0; k < LANES; ++k) sum += hist[b * LANES + (k + b) % LANES];
    if (sum) atomic_add(&bins[b], sum);
  }
  clear_next(next);
}
