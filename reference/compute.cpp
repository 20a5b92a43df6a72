// Host models of the L0/Compute multiply-add chains.
#include "compute.hpp"

#include <algorithm>
#include <cmath>

#include "parallel.hpp"

namespace ref {

uint32_t peak_start_bits(uint32_t gid, uint32_t chain, uint32_t lane) {
  uint32_t h = gid * 0x9E3779B1u + chain * 0x85EBCA77u + lane * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

double round_to_half(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  std::frexp(std::fabs(x), &e);  // |x| in [2^(e-1), 2^e): 10 fraction bits, subnormal below 2^-14
  const double spacing = std::ldexp(1.0, std::max(e - 11, -24));
  const double r = std::nearbyint(x / spacing) * spacing;
  return std::fabs(r) > 65504.0 ? std::copysign(INFINITY, x) : r;
}

namespace {

// Runs every chain of one work item with `step`, sums chains in order, then folds lanes pairwise
// (lane i + lane i + w/2) as the kernel's HSUM does. `add` rounds a sum to the type.
// Work items are independent: split over the host's cores.
template <typename T, typename Start, typename Step, typename Add>
std::vector<T> run_chains(const std::vector<uint32_t>& gids, const ChainLayout& l, Start start, Step step,
                          Add add) {
  std::vector<T> out(gids.size());
  parallel_for(gids.size(), [&](size_t i) {
    const uint32_t gid = gids[i];
    std::vector<T> x(static_cast<size_t>(l.chains) * l.width);
    for (int c = 0; c < l.chains; ++c)
      for (int k = 0; k < l.width; ++k) x[c * l.width + k] = start(peak_start_bits(gid, c, k));
    for (T& v : x)
      for (long s = 0; s < l.steps; ++s) v = step(v);
    std::vector<T> lanes(x.begin(), x.begin() + l.width);
    for (int c = 1; c < l.chains; ++c)
      for (int k = 0; k < l.width; ++k) lanes[k] = add(lanes[k], x[c * l.width + k]);
    for (int w = l.width; w > 1; w /= 2)
      for (int k = 0; k < w / 2; ++k) lanes[k] = add(lanes[k], lanes[k + w / 2]);
    out[i] = lanes[0];
  });
  return out;
}

double float_start(uint32_t h) { return static_cast<double>(h & 0x3FFu) * 0x1p-11 + 0.5; }

}  // namespace

std::vector<double> peak_chain_float(const std::vector<uint32_t>& gids, const ChainLayout& l, float a, float b,
                                     bool fused) {
  auto r = run_chains<float>(
      gids, l, [](uint32_t h) { return static_cast<float>(float_start(h)); },
      [a, b, fused](float x) { return fused ? std::fma(x, a, b) : unfused_mad(x, a, b); },
      [](float p, float q) { return p + q; });
  return {r.begin(), r.end()};
}

std::vector<double> peak_chain_float_add(const std::vector<uint32_t>& gids, const ChainLayout& l, float b) {
  auto r = run_chains<float>(
      gids, l, [](uint32_t h) { return static_cast<float>(float_start(h)); }, [b](float x) { return x + b; },
      [](float p, float q) { return p + q; });
  return {r.begin(), r.end()};
}

std::vector<double> peak_chain_double(const std::vector<uint32_t>& gids, const ChainLayout& l, double a, double b,
                                      bool fused) {
  return run_chains<double>(
      gids, l, float_start, [a, b, fused](double x) { return fused ? std::fma(x, a, b) : unfused_mad(x, a, b); },
      [](double p, double q) { return p + q; });
}

std::vector<double> peak_chain_half(const std::vector<uint32_t>& gids, const ChainLayout& l, float a, float b,
                                    bool fused) {
  // A product of two halves and a half addend are exact in double: one rounding, as in an fma.
  return run_chains<double>(
      gids, l, float_start,
      [a, b, fused](double x) { return fused ? round_to_half(x * a + b) : round_to_half(round_to_half(x * a) + b); },
      [](double p, double q) { return round_to_half(p + q); });
}

int32_t dot_4x8packed_ss(uint32_t x, uint32_t y) {
  int32_t sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += static_cast<int8_t>((x >> (8 * i)) & 0xFF) * static_cast<int8_t>((y >> (8 * i)) & 0xFF);
  return sum;
}

std::vector<uint32_t> peak_chain_int(const std::vector<uint32_t>& gids, const ChainLayout& l, int bits,
                                     uint32_t a, uint32_t b, IntStep step) {
  const uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
  auto start = [mask](uint32_t h) { return h & mask; };
  auto add = [mask](uint32_t p, uint32_t q) { return (p + q) & mask; };
  switch (step) {
    case IntStep::mad24_low24:
      return run_chains<uint32_t>(
          gids, l, start, [=](uint32_t x) { return ((x & 0xFFFFFFu) * (a & 0xFFFFFFu) + b) & mask; }, add);
    case IntStep::dot4x8:
      return run_chains<uint32_t>(
          gids, l, start, [=](uint32_t x) { return static_cast<uint32_t>(dot_4x8packed_ss(x, a)) + b; }, add);
    case IntStep::mad:
      break;
  }
  return run_chains<uint32_t>(gids, l, start, [=](uint32_t x) { return (x * a + b) & mask; }, add);
}

}  // namespace ref
