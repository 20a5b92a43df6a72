// L0/WorkGroup: Arm's work-group guidance. A 5-point stencil over a ragged image (edges handled by
// a bounds check, by non-uniform groups, or left to the host), a * x + y in 1-D and 2-D, a
// barrier-heavy exchange in local memory, and chains of LIVE values kept alive per work item.
// Knobs: BOUNDS_CHECK, REQD_X/REQD_Y (reqd_work_group_size), THREAD_HINT (arm_thread_limit_hint:
// 64, 128 or 256), DIMS, LIVE.
#ifdef THREAD_HINT
#pragma OPENCL EXTENSION cl_arm_thread_limit_hint : enable
#define HINT __attribute__((arm_thread_limit_hint(THREAD_HINT)))
#else
#define HINT
#endif
#ifdef REQD_X
#define REQD __attribute__((reqd_work_group_size(REQD_X, REQD_Y, 1)))
#else
#define REQD
#endif
#ifndef DIMS
#define DIMS 1
#endif
#ifndef LIVE
#define LIVE 16  // values kept alive per work item
#endif

// out = c / 2 + (l + r + u + d) / 8, neighbours clamped to the image. Without BOUNDS_CHECK the
// grid must lie inside the image (non-uniform groups, or the host doing the rest).
__kernel REQD HINT void work_group_stencil(__global const float* restrict in, __global float* restrict out,
                                           const int width, const int height) {
  const int x = get_global_id(0), y = get_global_id(1);
#ifdef BOUNDS_CHECK
  if (x >= width || y >= height) return;
#endif
  const int row = y * width;
  const float l = in[row + max(x - 1, 0)], r = in[row + min(x + 1, width - 1)];
  const float u = in[max(y - 1, 0) * width + x], d = in[min(y + 1, height - 1) * width + x];
  out[row + x] = 0.5f * in[row + x] + 0.125f * ((l + r) + (u + d));
}

// out = a * x + y over width x height elements, indexed in DIMS dimensions.
__kernel void work_group_scale_add(__global const float* restrict x, __global const float* restrict y,
                                   __global float* restrict out, const float a, const int width, const int height) {
#if DIMS == 2
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= width || j >= height) return;
  const int k = j * width + i;
#else
  const int k = get_global_id(0);
  if (k >= width * height) return;
#endif
  out[k] = a * x[k] + y[k];
}

// Each round: publish the value, barrier, mix in the right neighbour's and the mirror's, barrier.
// Every work item of the padded grid takes part (barriers need the whole group); the first n write.
__kernel void work_group_exchange(__global const uint* restrict in, __global uint* restrict out, __local uint* tile,
                                 const uint n, const int rounds) {
  const uint gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  const uint right = lid + 1 == size ? 0 : lid + 1, mirror = size - 1 - lid;
  uint v = in[gid];
  for (int r = 0; r < rounds; ++r) {
    tile[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = v * 0x9E3779B1u + (tile[right] ^ (tile[mirror] >> 3));
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < n) out[gid] = v;
}

// LIVE values, each step reading its neighbour: all LIVE stay live across the loop (register
// pressure). 2 LIVE ops per repeat. The top bit of the result is cleared, so the poison (all ones)
// cannot pass for a result.
__kernel void work_group_live(__global uint* out, const uint m, const int repeats) {
  const uint gid = get_global_id(0);
  uint x[LIVE];
#pragma unroll
  for (int i = 0; i < LIVE; ++i) {
    uint h = gid * 0x9E3779B1u + (uint)i * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    x[i] = h ^ (h >> 12);
  }
  for (int r = 0; r < repeats; ++r) {
#pragma unroll
    for (int i = 0; i < LIVE; ++i) x[i] = x[i] * m + x[(i + 1) % LIVE];
  }
  uint s = 0;
#pragma unroll
  for (int i = 0; i < LIVE; ++i) s = (s ^ x[i]) * 0x01000193u;
  out[gid] = s & 0x7FFFFFFFu;
}
