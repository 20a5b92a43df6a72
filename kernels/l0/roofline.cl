// Roofline: K dependent multiply-adds on each float lane loaded (roofline_fma: 2K FLOPs per 8
// bytes read and written, so K/4 FLOP/byte), and the seed's relative metric: float4 add chains
// (roofline_add) against 128-bit streaming reads (roofline_read).
#ifndef K
#define K 4  // multiply-adds per lane
#endif
#ifndef K_UNROLL
#define K_UNROLL 4  // unrolled multiply-adds per loop trip (divides K)
#endif
#ifndef ITEMS
#define ITEMS 4  // float4 elements per work item
#endif
#ifndef CHAINS
#define CHAINS 4  // independent float4 add chains per work item
#endif
#ifndef UNROLL
#define UNROLL 64
#endif

#define HSUM4(v) (((v).s0 + (v).s2) + ((v).s1 + (v).s3))

// Work item gid owns elements gid, gid + work_items, ...: neighbours load neighbouring 16 bytes.
__kernel void roofline_fma(__global const float4* in, __global float4* out, const float a, const float b,
                           const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
  const float4 av = (float4)(a), bv = (float4)(b);
  float4 v[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) v[i] = in[i * work_items + gid];
  for (int k = 0; k < K / K_UNROLL; ++k) {
#pragma unroll
    for (int u = 0; u < K_UNROLL; ++u) {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) v[i] = mad(v[i], av, bv);
    }
  }
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) out[i * work_items + gid] = v[i];
}

// As compute.cl's start values: exactly representable, in [0.5, 1).
float4 start_value(uint gid, uint chain) {
  uint4 h = (uint4)(gid * 0x9E3779B1u + chain * 0x85EBCA77u) + (uint4)(0, 1, 2, 3) * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return convert_float4(h & 0x3FFu) * 0x1p-11f + 0.5f;
}

// CHAINS float4 chains x += b, UNROLL * repeats steps each; one float per work item.
__kernel void roofline_add(__global float* out, const float b, const int repeats) {
  const uint gid = get_global_id(0);
  const float4 bv = (float4)(b);
  float4 x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) x[c] = start_value(gid, c);
  for (int r = 0; r < repeats; ++r) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int c = 0; c < CHAINS; ++c) x[c] += bv;
    }
  }
  float4 sum = x[0];
#pragma unroll
  for (int c = 1; c < CHAINS; ++c) sum += x[c];
  out[gid] = HSUM4(sum);
}

// 128-bit loads: ITEMS float4 per work item, grid-walking; the sum is written to keep them live.
__kernel void roofline_read(__global const float4* in, __global float* sums, const ulong work_items) {
  const size_t gid = get_global_id(0);
  if (gid >= work_items) return;
  float4 acc = in[gid];
#pragma unroll
  for (int i = 1; i < ITEMS; ++i) acc += in[i * work_items + gid];
  sums[gid] = HSUM4(acc);
}
