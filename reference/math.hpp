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

// Ulp error of a float result against a double reference.
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

}  // namespace ref
