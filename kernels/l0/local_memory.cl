// Local memory read bandwidth with a bank-conflict stride: lane l of each group of WARP work items
// reads element l * STRIDE + WARP * (rotation + j), so lanes of one warp fall STRIDE-way into the
// same bank (32 banks of 4 bytes on NVIDIA) for 4-byte TYPE and power-of-two STRIDE.
#ifndef TYPE
#define TYPE float
#define WIDTH 1
#endif
#ifndef STRIDE
#define STRIDE 1
#endif
#ifndef WARP
#define WARP 32  // lanes that issue one local access together (NVIDIA warp; 64 for an AMD wave)
#endif
#ifndef UNROLL
#define UNROLL 16  // loads per round, a multiple of 4
#endif
#ifndef ROTATE
#define ROTATE 4  // start positions cycled round to round, so no load is loop-invariant
#endif
#define ELEMENTS (WARP * STRIDE + WARP * (ROTATE + UNROLL))

#include "include/hsum.h"

// `in` holds ELEMENTS values, copied into local memory by each group. Four accumulators take the
// loads in turn; the work item writes ((a0 + a1) + (a2 + a3)), summed over its lanes.
__kernel void local_memory_read(__global const TYPE* in, __global float* out, const uint rounds) {
  __local TYPE lm[ELEMENTS];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < ELEMENTS; i += get_local_size(0)) lm[i] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);

  __local const TYPE* base = lm + (lid % WARP) * STRIDE;
  TYPE a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (uint r = 0; r < rounds; ++r) {
    __local const TYPE* p = base + (r % ROTATE) * WARP;
#pragma unroll
    for (int j = 0; j < UNROLL; j += 4) {
      a0 += p[(j + 0) * WARP];
      a1 += p[(j + 1) * WARP];
      a2 += p[(j + 2) * WARP];
      a3 += p[(j + 3) * WARP];
    }
  }
  out[get_global_id(0)] = HSUM((a0 + a1) + (a2 + a3));
}
