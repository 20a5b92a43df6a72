// Math function throughput and accuracy: FUNCTION (sin, native_sin, half_sin, pow, ...) on float.
// math: CHAINS chains of `iters` calls per work item, each input derived from the last
// result; math_accuracy: FUNCTION on a fixed input set, pow with an exponent per input.
// BINARY: FUNCTION(x, p).
#ifndef FUNCTION
#define FUNCTION sin
#endif
#ifndef CHAINS
#define CHAINS 4  // independent call chains per work item
#endif

#ifdef BINARY
#define CALL(x) FUNCTION(x, p)
#else
#define CALL(x) FUNCTION(x)
#endif

// The next input, always in [lo, lo + range]: t = c*y + s folded by a triangle wave of period 2.
// s steps by phi per call (a quasi-random walk) and starts at the work item's u, so inputs cover
// the domain and differ between work items; c*range*|f'| <= 1/2 keeps host replay errors from
// growing. With c = 0 the walk alone (the slow-path inputs); with c = phi = 0 the same input comes
// back every call, through the same instructions.
float next_input(float y, float s, float c, float lo, float range) {
  const float t = fma(c, y, s);
  const float fold = fabs(t - 2.0f * rint(t * 0.5f));
  return fma(fold, range, lo);
}

float start_fraction(uint gid, uint chain) {
  uint h = gid * 0x9E3779B1u + chain * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return (float)(h >> 8) * 0x1p-24f;  // [0, 1), exact
}

// The sum of every call's result, per work item (chains summed in order).
__kernel void math(__global float* out, const float lo, const float range, const float c,
                             const float phi, const float p, const int iters) {
  const uint gid = get_global_id(0);
  float x[CHAINS], s[CHAINS], acc[CHAINS];
#pragma unroll
  for (int k = 0; k < CHAINS; ++k) {
    s[k] = start_fraction(gid, k);
    x[k] = fma(s[k], range, lo);
    acc[k] = 0.0f;
  }
  for (int n = 0; n < iters; ++n) {
#pragma unroll
    for (int k = 0; k < CHAINS; ++k) {
      const float y = CALL(x[k]);
      acc[k] += y;
      s[k] += phi;
      x[k] = next_input(y, s[k], c, lo, range);
    }
  }
  float sum = acc[0];
#pragma unroll
  for (int k = 1; k < CHAINS; ++k) sum += acc[k];
  out[gid] = sum;
}

__kernel void math_accuracy(__global const float* in, __global const float* exponents, __global float* out) {
  const size_t i = get_global_id(0);
  const float x = in[i];
#ifdef BINARY
  const float p = exponents[i];
#endif
  out[i] = CALL(x);
}
