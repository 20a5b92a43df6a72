// Constant memory reads: every work item of a group reads the same word (a broadcast through the
// constant cache), or, with DIVERGENT, neighbouring work items read neighbouring words.
#ifndef CONST_WORDS
#define CONST_WORDS 4096  // floats in the table, a power of two (16 KiB)
#endif
#ifndef UNROLL
#define UNROLL 16  // loads per round, a multiple of 4
#endif

__kernel void constant_memory_read(__constant float* table, __global float* out, const uint rounds) {
#ifdef DIVERGENT
  const uint lane = get_local_id(0);
#else
  const uint lane = 0;
#endif
  float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (uint r = 0; r < rounds; ++r) {
    const uint base = r * UNROLL + lane;
#pragma unroll
    for (uint j = 0; j < UNROLL; j += 4) {
      a0 += table[(base + j + 0) & (CONST_WORDS - 1)];
      a1 += table[(base + j + 1) & (CONST_WORDS - 1)];
      a2 += table[(base + j + 2) & (CONST_WORDS - 1)];
      a3 += table[(base + j + 3) & (CONST_WORDS - 1)];
    }
  }
  out[get_global_id(0)] = (a0 + a1) + (a2 + a3);
}
