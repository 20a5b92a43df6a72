// Math function throughput and accuracy on float, every function of one form in one program (one
// compile per form and mode, not per function): math_<f>: CHAINS chains of `iters` calls per work
// item, each input derived from the last result; math_accuracy_<f>: f on a fixed input set, pow
// with an exponent per input. FORM_NATIVE or FORM_HALF picks native_<f> or half_<f> (pow: powr).
#ifndef CHAINS
#define CHAINS 4  // independent call chains per work item
#endif

#if defined(FORM_NATIVE)
#define FORM(f) native_##f
#define POW native_powr
#elif defined(FORM_HALF)
#define FORM(f) half_##f
#define POW half_powr
#else
#define FORM(f) f
#define POW pow
#endif
#define CALL_log(x) FORM(log)(x)
#define CALL_exp(x) FORM(exp)(x)
#define CALL_sin(x) FORM(sin)(x)
#define CALL_cos(x) FORM(cos)(x)
#define CALL_tan(x) FORM(tan)(x)
#define CALL_sqrt(x) FORM(sqrt)(x)
#define CALL_rsqrt(x) FORM(rsqrt)(x)
#define CALL_pow(x) POW(x, p)

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

// The sum of every call's result, per work item (chains summed in order). The CHAINS loops have a
// constant trip count: compilers unroll them (a _Pragma inside a macro is not portable OpenCL C).
#define MATH_KERNELS(NAME)                                                                          \
  __kernel void math_##NAME(__global float* out, const float lo, const float range, const float c, \
                            const float phi, const float p, const int iters) {                      \
    const uint gid = get_global_id(0);                                                              \
    float x[CHAINS], s[CHAINS], acc[CHAINS];                                                        \
    for (int k = 0; k < CHAINS; ++k) {                                            \
      s[k] = start_fraction(gid, k);                                                                \
      x[k] = fma(s[k], range, lo);                                                                  \
      acc[k] = 0.0f;                                                                                \
    }                                                                                               \
    for (int n = 0; n < iters; ++n) {                                                               \
      for (int k = 0; k < CHAINS; ++k) {                                          \
        const float y = CALL_##NAME(x[k]);                                                          \
        acc[k] += y;                                                                                \
        s[k] += phi;                                                                                \
        x[k] = next_input(y, s[k], c, lo, range);                                                   \
      }                                                                                             \
    }                                                                                               \
    float sum = acc[0];                                                                             \
    for (int k = 1; k < CHAINS; ++k) sum += acc[k];                               \
    out[gid] = sum;                                                                                 \
  }                                                                                                 \
  __kernel void math_accuracy_##NAME(__global const float* in, __global const float* exponents,    \
                                     __global float* out) {                                         \
    const size_t i = get_global_id(0);                                                              \
    const float x = in[i], p = exponents[i];                                                        \
    out[i] = CALL_##NAME(x);                                                                        \
  }

MATH_KERNELS(log)
MATH_KERNELS(exp)
MATH_KERNELS(sin)
MATH_KERNELS(cos)
MATH_KERNELS(tan)
MATH_KERNELS(sqrt)
MATH_KERNELS(rsqrt)
MATH_KERNELS(pow)
