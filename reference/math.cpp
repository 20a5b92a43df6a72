// Double-precision references and the host replay of the math function chains.
#include "math.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

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
  if (std::isnan(want)) return std::isnan(got) ? 0 : INFINITY;
  const float rounded = static_cast<float>(want);
  if (std::isinf(rounded)) return got == rounded ? 0 : INFINITY;
  if (!std::isfinite(got)) return INFINITY;
  if (got == 0 && want == 0 && std::signbit(got) != std::signbit(want)) return INFINITY;
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

namespace {

// Uniform in [0, 1), from the engine's raw bits (std:: distributions differ between libraries).
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

float pick(std::mt19937_64& rng, const std::vector<float>& values) {
  return values[static_cast<size_t>(uniform(rng) * static_cast<double>(values.size()))];
}

// A random denormal float: 23 random fraction bits shifted down by 0..22, so every binade shows.
float random_denormal(std::mt19937_64& rng) {
  uint32_t bits = static_cast<uint32_t>(rng() & 0x7fffffu) >> (rng() % 23);
  if (bits == 0) bits = 1;
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// pow's results that a device flushing denormals, or rounding near FLT_MAX within its 16 ulp,
// may legitimately return otherwise than the correctly rounded float: left out of the set.
bool ambiguous_pow_result(double r) {
  const double a = std::fabs(r);
  return (a >= 0x1p-152 && a < 0x1p-126) || (a >= 0x1p127 && a < 0x1p129);
}

std::vector<MathInput> pow_special_inputs(size_t n, std::mt19937_64& rng) {
  const float inf = INFINITY, nan = NAN;
  // Every pair of these covers C99 F.9.4.4: signed zeros, infinities and NaN as base or exponent,
  // odd and even integer, and non-integer exponents, |x| below and above 1, x = +-1.
  const std::vector<float> xs = {0.0f, -0.0f, inf, -inf, nan, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.5f, -3.5f};
  const std::vector<float> ys = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 3.0f, -3.0f, 0.5f, -0.5f, 2.5f,
                                 inf,  -inf,  nan,  0x1p24f, -0x1p24f, 0x1p24f + 2, 1e10f, -1e10f};
  std::vector<MathInput> in;
  for (float x : xs)
    for (float y : ys) in.push_back({x, y});
  while (in.size() < n) {
    const double u = uniform(rng), sign = uniform(rng) < 0.5 ? -1.0 : 1.0;
    MathInput v{};
    switch (rng() % 6) {
      case 0:  // negative base, integer exponent in [-30, 30]: the sign path
        v = {static_cast<float>(-(0.25 + 3.75 * u)), static_cast<float>(static_cast<int>(rng() % 61) - 30)};
        break;
      case 1:  // large exponents, |y| in [16, 4016]: overflow, underflow, or in range; integer where x < 0
        v.x = static_cast<float>(sign * (0.5 + 1.5 * uniform(rng)));
        v.y = static_cast<float>((uniform(rng) < 0.5 ? -1 : 1) * (16 + 4000 * u));
        if (v.x < 0) v.y = std::nearbyint(v.y);
        break;
      case 2:  // x^+-0 = 1 for any x
        v = {static_cast<float>(sign * std::ldexp(1.0 + u, static_cast<int>(rng() % 40) - 20)), uniform(rng) < 0.5 ? 0.0f : -0.0f};
        break;
      case 3:  // +-0^y
        v = {uniform(rng) < 0.5 ? 0.0f : -0.0f, static_cast<float>(sign * std::ldexp(1.0 + u, static_cast<int>(rng() % 10) - 3))};
        break;
      case 4:  // +-inf^y and x^+-inf
        if (rng() % 2)
          v = {pick(rng, {inf, -inf}), static_cast<float>(sign * 8 * u)};
        else
          v = {static_cast<float>(sign * 2 * u), pick(rng, {inf, -inf})};
        break;
      default:  // NaN in either place
        if (rng() % 2)
          v = {nan, static_cast<float>(sign * 8 * u)};
        else
          v = {static_cast<float>(sign * 8 * u), nan};
        break;
    }
    if (std::fpclassify(v.x) == FP_SUBNORMAL || std::fpclassify(v.y) == FP_SUBNORMAL) continue;
    if (!ambiguous_pow_result(std::pow(static_cast<double>(v.x), static_cast<double>(v.y)))) in.push_back(v);
  }
  in.resize(n);
  return in;
}

}  // namespace

std::vector<MathInput> math_edge_inputs(MathFunction f, MathEdge set, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  if (set == MathEdge::special) return pow_special_inputs(n, rng);
  std::vector<MathInput> in(n);
  for (auto& v : in) {
    if (set == MathEdge::large) {  // log-uniform magnitude in [2^17, 2^127.99], either sign
      const double m = std::exp2(17 + 110.99 * uniform(rng));
      v.x = static_cast<float>(rng() % 2 ? -m : m);
    } else if (f == MathFunction::exp) {
      v.x = static_cast<float>(-104.0 + (104.0 - 87.34) * uniform(rng));
    } else {
      v.x = random_denormal(rng);
    }
  }
  return in;
}

}  // namespace ref
