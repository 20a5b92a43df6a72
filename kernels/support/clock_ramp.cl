// FLOP-heavy warm-up and clock-ramp workload: independent multiply-add chains per work item,
// written out so the compiler keeps them. FLOPs per work item: 2 * 4 * CHAINS * STEPS.
#ifndef CHAINS
#define CHAINS 8
#endif
#ifndef STEPS
#define STEPS 256
#endif

__kernel void clock_ramp(__global float* out, float a, float b) {
  float4 acc[CHAINS];
  float seed = (float)get_global_id(0) * 1e-7f;
  for (int c = 0; c < CHAINS; ++c) acc[c] = (float4)(seed + c, seed - c, seed * c, seed + 0.5f);
  for (int s = 0; s < STEPS; ++s) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) acc[c] = mad(acc[c], (float4)a, (float4)b);
  }
  float4 sum = acc[0];
  for (int c = 1; c < CHAINS; ++c) sum += acc[c];
  out[get_global_id(0)] = sum.x + sum.y + sum.z + sum.w;
}
