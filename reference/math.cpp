// Double-precision references and the host replay of the math function chains.
#include "math.hpp"

#include <cmath>

namespace ref {

double math_exact(MathFunction f, double x, double p) {
  switch (f) {
    case MathFunction::log: return std::log(x);
    case MathFunction::exp: return std::exp(x);
    case MathFunction::sin: return std::sin(x);
    case MathFunction::cos: return std::cos(x);
    case MathFunction::tan: return std::tan(x);
    case MathFunction::sqrt: return std::sqrt(x);
    case MathFunction::rsqrt: return 1.0 / std::sqrt(x);
    case MathFunction::pow: return std::pow(x, p);
  }
  return NAN;
}

double float_ulp(double v) {
  const double a = std::fabs(v);
  if (!(a >= 0x1p-126)) return 0x1p-149;
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e): 23 fraction bits below 2^(e-1)
  return std::ldexp(1.0, e - 24);
}

double ulp_error(float got, double want) {
  if (!std::isfinite(got)) return INFINITY;
  return std::fabs(static_cast<double>(got) - want) / float_ulp(want);
}

float math_start_fraction(uint32_t gid, uint32_t chain) {
  uint32_t h = gid * 0x9E3779B1u + chain * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return static_cast<float>(h >> 8) * 0x1p-24f;
}

std::vector<double> math_chain_replay(MathFunction f, const std::vector<uint32_t>& gids, const MathChain& m) {
  std::vector<double> out;
  out.reserve(gids.size());
  for (uint32_t gid : gids) {
    float sum = 0;
    for (int k = 0; k < m.chains; ++k) {
      float s = math_start_fraction(gid, k);
      float x = std::fma(s, m.range, m.lo);
      float acc = 0;
      for (int n = 0; n < m.iters; ++n) {
        const float y = static_cast<float>(math_exact(f, x, m.p));
        acc += y;
        s += m.phi;
        const float t = std::fma(m.c, y, s);
        const float fold = std::fabs(t - 2.0f * std::rint(t * 0.5f));
        x = std::fma(fold, m.range, m.lo);
      }
      sum = k == 0 ? acc : sum + acc;
    }
    out.push_back(sum);
  }
  return out;
}

std::vector<float> math_accuracy_inputs(float lo, float range, size_t n) {
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(lo + range * (static_cast<double>(i) + 0.5) / static_cast<double>(n));
  return in;
}

}  // namespace ref
