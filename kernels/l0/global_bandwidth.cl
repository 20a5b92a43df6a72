// Global memory bandwidth: read, write, copy and triad over TYPE (float, float2 ... float16,
// WIDTH lanes), ITEMS elements per work item. Knobs come as build options.
#ifndef TYPE
#define TYPE float4
#define WIDTH 4
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

// Coalesced: neighbouring work items touch neighbouring elements, the grid walks the buffer.
// Blocked: still coalesced, but each work group walks its own contiguous chunk (clpeak's pattern;
// needs work_items to be a multiple of the work-group size).
// Strided: each work item owns a contiguous run, so neighbours are ITEMS elements apart.
#if defined(STRIDED)
#define INDEX(i) (gid * ITEMS + (i))
#elif defined(BLOCKED)
#define INDEX(i) ((gid - get_local_id(0)) * ITEMS + (size_t)(i) * get_local_size(0) + get_local_id(0))
#else
#define INDEX(i) ((size_t)(i) * work_items + gid)
#endif

#include "include/hsum.h"
#if WIDTH == 1
#define LANES 0.0f
#elif WIDTH == 2
#define LANES (float2)(0, 1)
#elif WIDTH == 4
#define LANES (float4)(0, 1, 2, 3)
#elif WIDTH == 8
#define LANES (float8)(0, 1, 2, 3, 4, 5, 6, 7)
#elif WIDTH == 16
#define LANES (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#endif

// A scrambled, exactly representable value per element index: writes are not compressible.
float scrambled(size_t index) { return (float)(((uint)index * 2654435761u) >> 8) * 0x1p-24f; }

// The sum of each work item's loads is written, so the loads cannot be dropped; one float per
// work item is 1/(ITEMS*WIDTH) of the traffic.
__kernel void global_bandwidth_read(__global const TYPE* in, __global float* sums,
                                    const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
  TYPE acc = in[INDEX(0)];
#pragma unroll
  for (int i = 1; i < ITEMS; ++i) acc += in[INDEX(i)];
  sums[gid] = HSUM(acc);
}

__kernel void global_bandwidth_write(__global TYPE* out, const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) out[INDEX(i)] = (TYPE)(scrambled(INDEX(i))) + LANES;
}

__kernel void global_bandwidth_copy(__global const TYPE* in, __global TYPE* out,
                                    const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) out[INDEX(i)] = in[INDEX(i)];
}

// Tiles transposed, not their contents: the input, height rows of width floats, is cut into TILE x
// TILE tiles; tile (tx, ty) is copied row by row, unchanged, to tile (ty, tx) of the output (width
// rows of height floats). Its DRAM traffic is a tiled transpose's (runs of TILE floats read along
// input rows, written along output rows 4 * height bytes apart) without the shuffle inside the
// tile: the bandwidth a transpose with such tiles can reach. The group is TILE / 4 x TILE_ROWS
// items (both from the host), float4 each; width and height are multiples of TILE.
#ifdef TILE
__kernel __attribute__((reqd_work_group_size(TILE / 4, TILE_ROWS, 1)))
void global_bandwidth_copy_tiles(__global const float4* in, __global float4* out, const uint width,
                                 const uint height) {
  const size_t tx = get_group_id(0) * TILE, ty = get_group_id(1) * TILE;
  __global const float4* src = in + (ty * width + tx) / 4 + get_local_id(0);
  __global float4* dst = out + (tx * height + ty) / 4 + get_local_id(0);
#pragma unroll
  for (uint r = get_local_id(1); r < TILE; r += TILE_ROWS) dst[r * (height / 4)] = src[r * (width / 4)];
}
#endif

// STREAM triad: a = b + scalar * c.
__kernel void global_bandwidth_triad(__global TYPE* a, __global const TYPE* b,
                                     __global const TYPE* c, const float scalar,
                                     const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) a[INDEX(i)] = b[INDEX(i)] + scalar * c[INDEX(i)];
}

// Persistent read: a grid of a few work groups per compute unit, all resident at once, walks the
// whole buffer (grid-stride, any element count) `passes` times. Every work group finishes at
// about the same time, so no last partial wave of groups leaves the memory system idle at the end
// of a kernel, and several passes make the gap between kernels a smaller share (the buffer is
// far past L2, so every pass reads DRAM); four accumulators keep four loads in flight per work
// item; one float per work item is written. The work groups rotate by one per pass (pass p walks
// the lane of work item gid + p * local size), so each pass adds other elements to a work item's
// sum: a kernel doing fewer passes and scaling its sums would not match the reference.
__kernel void global_bandwidth_read_persistent(__global const TYPE* in, __global float* sums,
                                               const ulong elements, const uint passes) {
  const size_t gid = get_global_id(0), stride = get_global_size(0);
  TYPE a0 = (TYPE)(0), a1 = (TYPE)(0), a2 = (TYPE)(0), a3 = (TYPE)(0);
  for (uint pass = 0; pass < passes; ++pass) {
    size_t i = (gid + (size_t)pass * get_local_size(0)) % stride;
    for (; i + 3 * stride < elements; i += 4 * stride) {
      a0 += in[i];
      a1 += in[i + stride];
      a2 += in[i + 2 * stride];
      a3 += in[i + 3 * stride];
    }
    for (; i < elements; i += stride) a0 += in[i];
  }
  sums[gid] = HSUM((a0 + a1) + (a2 + a3));
}
