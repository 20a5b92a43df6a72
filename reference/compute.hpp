// Host models of the L0/Compute chains (kernels/l0/compute.cl): the same start values, the
// same steps in the same type, the same summation order, for a sample of work items.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

struct ChainLayout {
  int width;   // lanes per vector
  int chains;  // independent chains per work item
  long steps;  // steps per chain (UNROLL * repeats)
};

// The kernel's scrambled start bits for (work item, chain, lane).
uint32_t peak_start_bits(uint32_t gid, uint32_t chain, uint32_t lane);

// Floating chains x = a*x + b, rounded to the type once per step (fused, what mad is on GPUs) or
// twice (unfused: product, then sum; mad allows either). Returned in double, one value per work
// item in `gids`.
std::vector<double> peak_chain_float(const std::vector<uint32_t>& gids, const ChainLayout& l, float a, float b,
                                     bool fused);
// Float chains x = x + b (L0/Roofline's float4 add chains, same start values and sums).
std::vector<double> peak_chain_float_add(const std::vector<uint32_t>& gids, const ChainLayout& l, float b);
std::vector<double> peak_chain_double(const std::vector<uint32_t>& gids, const ChainLayout& l, double a, double b,
                                      bool fused);
// Half: every result rounded to binary16 (a and b already half values).
std::vector<double> peak_chain_half(const std::vector<uint32_t>& gids, const ChainLayout& l, float a, float b,
                                    bool fused);

// a*x + b rounded twice. The volatile product keeps a compiler from contracting it into an fma.
template <typename T>
T unfused_mad(T x, T a, T b) {
  volatile T product = x * a;
  return product + b;
}
double round_to_half(double x);

// Unsigned integer chains of `bits` (8, 16, 32) with wraparound: x = x*a + b. With low24, the
// multiplication uses the low 24 bits of each operand (one reading of mad24 outside its range).
enum class IntStep { mad, mad24_low24, dot4x8 };
std::vector<uint32_t> peak_chain_int(const std::vector<uint32_t>& gids, const ChainLayout& l, int bits,
                                     uint32_t a, uint32_t b, IntStep step);
// The signed 4x8-bit packed dot product of cl_khr_integer_dot_product.
int32_t dot_4x8packed_ss(uint32_t x, uint32_t y);

}  // namespace ref
