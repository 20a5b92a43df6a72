// Host references for L0/Math (kernels/l0/math.cl): each function in double, the
// float ulp of a double value, and a replay of the throughput kernel's call chains in which every
// call is the correctly rounded function and everything else is the kernel's float arithmetic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

enum class MathFunction { log, exp, sin, cos, tan, sqrt, rsqrt, pow };

// f(x), or pow(x, p), in double.
double math_exact(MathFunction f, double x, double p);

// The spacing of floats at |v| (2^-149 below the normal range).
double float_ulp(double v);

// Ulp error of a float result against a double reference. Special values must match exactly:
// NaN where the reference is NaN, the same infinity where the reference rounds to one in float,
// and a zero of the reference's sign where both are zero; anything else is an infinite error.
double ulp_error(float got, double want);

struct MathChain {
  float lo, range;  // inputs stay in [lo, lo + range]
  float c, phi;     // feedback of the last result and the walk's step (both 0: unvaried inputs)
  float p;          // pow's exponent
  int chains, iters;
};

// The kernel's per-work-item start fraction in [0, 1).
float math_start_fraction(uint32_t gid, uint32_t chain);

// The sum of every call's result per work item in `gids`, as math computes it.
std::vector<double> math_chain_replay(MathFunction f, const std::vector<uint32_t>& gids, const MathChain& m);

// n inputs spread evenly over [lo, lo + range] (cell centres), rounded to float.
std::vector<float> math_accuracy_inputs(float lo, float range, size_t n);

// Input sets beside the ordinary range, where math libraries leave their fast path.
enum class MathEdge {
  large,     // sin, cos, tan: |x| from 2^17 (past the short range reductions) up to FLT_MAX
  denormal,  // log, sqrt, rsqrt: denormal x over every binade; exp: x in [-104, -87.34], denormal results
  special,   // pow: C99 Annex F's special cases (zeros, infinities, NaN, x^0, 1^y, -1^inf), negative
             // bases with integer exponents, and large exponents (overflow to inf, underflow to 0)
};

struct MathInput {
  float x, y;  // y: pow's exponent (0 for the unary functions)
};

// n random inputs of an edge set for f (deterministic per seed). No input, and for pow no result,
// is denormal except in the denormal set, so a device that flushes denormals passes the others.
std::vector<MathInput> math_edge_inputs(MathFunction f, MathEdge set, size_t n, uint64_t seed);

}  // namespace ref
