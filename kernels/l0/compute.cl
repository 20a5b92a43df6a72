// Compute peak: CHAINS independent multiply-add chains of TYPE (WIDTH lanes) per work item, each
// STEP depending on the last, UNROLL steps unrolled per trip of a loop run `repeats` times.
// Ops per work item: 2 * WIDTH * CHAINS * UNROLL * repeats (8 per packed int8 dot-and-add).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef USE_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#ifndef TYPE
#define TYPE float4
#define SCALAR float
#define WIDTH 4
#define FLOATING
#endif
#ifndef ARG
#define ARG SCALAR  // kernel argument type of a and b (float for half)
#endif
#ifndef CHAINS
#define CHAINS 4  // independent chains per work item: latency hiding within a work item
#endif
#ifndef UNROLL
#define UNROLL 64  // unrolled steps per loop trip
#endif

#if WIDTH == 1
#define UINTV uint
#define LANE_IDS 0u
#define CONVERT_U(v) (v)
#define HSUM(v) (v)
#else
#define UINTV_(w) uint##w
#define UINTV_X(w) UINTV_(w)
#define UINTV UINTV_X(WIDTH)
#endif
#if WIDTH == 2
#define LANE_IDS (uint2)(0, 1)
#define HSUM(v) ((v).lo + (v).hi)
#elif WIDTH == 4
#define LANE_IDS (uint4)(0, 1, 2, 3)
#define HSUM(v) HSUM2((v).lo + (v).hi)
#elif WIDTH == 8
#define LANE_IDS (uint8)(0, 1, 2, 3, 4, 5, 6, 7)
#define HSUM(v) HSUM4((v).lo + (v).hi)
#elif WIDTH == 16
#define LANE_IDS (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define HSUM(v) HSUM8((v).lo + (v).hi)
#endif
// Pairwise folds: lane i + lane i+W/2, down to one value (the host model sums in this order).
#define HSUM2(v) ((v).lo + (v).hi)
#define HSUM4(v) HSUM2((v).lo + (v).hi)
#define HSUM8(v) HSUM4((v).lo + (v).hi)

#define CONVERT_X(t) convert_##t
#define CONVERT_T(t) CONVERT_X(t)

// The step of one chain. Integers are unsigned so that wraparound is defined.
#if defined(INT24)
#define STEP(x) x = mad24(x, av, bv)
#elif defined(USE_DOT)
#define STEP(x) x = as_uint(dot_4x8packed_ss_int(x, av)) + bv
#elif defined(FLOATING)
#define STEP(x) x = mad(x, av, bv)
#else
#define STEP(x) x = x * av + bv
#endif

// A scrambled start per work item, chain and lane; for floating types an exactly representable
// value in [0.5, 1) with 10 fraction bits (exact even in half).
UINTV start_bits(uint gid, uint chain) {
  UINTV h = (UINTV)(gid * 0x9E3779B1u + chain * 0x85EBCA77u) + LANE_IDS * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

__kernel void compute(__global SCALAR* out, const ARG a, const ARG b, const int repeats) {
  const uint gid = get_global_id(0);
  const TYPE av = (TYPE)((SCALAR)a), bv = (TYPE)((SCALAR)b);
  TYPE x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) {
    UINTV h = start_bits(gid, c);
#if defined(FLOATING)
    x[c] = CONVERT_T(TYPE)(h & 0x3FFu) * (SCALAR)(0x1p-11f) + (SCALAR)(0.5f);
#elif WIDTH == 1
    x[c] = (TYPE)h;
#else
    x[c] = CONVERT_T(TYPE)(h);
#endif
  }
  for (int r = 0; r < repeats; ++r) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int c = 0; c < CHAINS; ++c) STEP(x[c]);
    }
  }
  TYPE sum = x[0];
#pragma unroll
  for (int c = 1; c < CHAINS; ++c) sum += x[c];
  out[gid] = (SCALAR)(HSUM(sum));
}
