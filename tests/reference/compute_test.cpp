// reference/compute and reference/roofline: start values, half rounding, integer steps, the
// packed dot product, fused and unfused chains, and the lane fold order.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/compute.hpp"
#include "reference/roofline.hpp"

namespace {

TEST(RoundToHalf, NearestEvenAndRange) {
  EXPECT_EQ(ref::round_to_half(1.0), 1.0);
  EXPECT_EQ(ref::round_to_half(1.0 + 0x1p-11), 1.0);              // tie: to even
  EXPECT_EQ(ref::round_to_half(1.0 + 3 * 0x1p-11), 1.0 + 0x1p-9);  // tie: to even (up)
  EXPECT_EQ(ref::round_to_half(1.0 + 0x1p-10 * 0.75), 1.0 + 0x1p-10);
  EXPECT_EQ(ref::round_to_half(0x1p-25 * 3), 0x1p-24 * 2);        // subnormal spacing 2^-24
  EXPECT_TRUE(std::isinf(ref::round_to_half(70000.0)));
  EXPECT_EQ(ref::round_to_half(-0.333), -2728 * 0x1p-13);  // spacing 2^-13 in [0.25, 0.5)
}

TEST(Dot4x8, SignedBytes) {
  // bytes (low first) 1, -1, 127, -128 against 2, 3, -1, -1
  const uint32_t x = 0x807FFF01u, y = 0xFFFF0302u;
  EXPECT_EQ(ref::dot_4x8packed_ss(x, y), 1 * 2 + (-1) * 3 + 127 * -1 + (-128) * -1);
}

TEST(PeakChain, IntegerStepsWrapAndSum) {
  // One chain, one lane, two steps: x = x*a + b mod 2^8 from the kernel's start bits.
  const uint32_t x0 = ref::peak_start_bits(5, 0, 0) & 0xFF;
  const uint32_t a = 0xB5, b = 0x91;
  const uint32_t want = ((((x0 * a + b) & 0xFF) * a + b) & 0xFF);
  auto got = ref::peak_chain_int({5}, {1, 1, 2}, 8, a, b, ref::IntStep::mad);
  EXPECT_EQ(got, std::vector<uint32_t>{want});
  // Two chains of width 2: (c0l0 + c1l0) + (c0l1 + c1l1), all mod 2^16.
  auto one = [&](uint32_t c, uint32_t l) { return ((ref::peak_start_bits(9, c, l) & 0xFFFF) * 3 + 1) & 0xFFFF; };
  const uint32_t sum = ((one(0, 0) + one(1, 0)) + (one(0, 1) + one(1, 1))) & 0xFFFF;
  EXPECT_EQ(ref::peak_chain_int({9}, {2, 2, 1}, 16, 3, 1, ref::IntStep::mad), std::vector<uint32_t>{sum});
}

TEST(PeakChain, Mad24LowBitsOnlyDiffersAbove24Bits) {
  const uint32_t big = 0x7F000000u;  // a with bits above 24: the two readings of mad24 differ
  auto full = ref::peak_chain_int({1, 2}, {1, 1, 3}, 32, big | 5, 7, ref::IntStep::mad);
  auto low = ref::peak_chain_int({1, 2}, {1, 1, 3}, 32, big | 5, 7, ref::IntStep::mad24_low24);
  EXPECT_NE(full, low);
}

TEST(PeakChain, FloatStartsExactAndFusedVersusUnfused) {
  // Zero steps: the start value itself, (bits & 0x3FF) * 2^-11 + 0.5.
  auto start = ref::peak_chain_float({3}, {1, 1, 0}, 0.5f, 0.25f, true);
  EXPECT_EQ(start[0], (ref::peak_start_bits(3, 0, 0) & 0x3FF) * 0x1p-11 + 0.5);
  // One step, fused equals the exact product rounded once.
  const float x0 = static_cast<float>(start[0]), a = 0.999f, b = 0.0013f;
  EXPECT_EQ(ref::peak_chain_float({3}, {1, 1, 1}, a, b, true)[0], std::fma(x0, a, b));
  EXPECT_EQ(ref::peak_chain_float({3}, {1, 1, 1}, a, b, false)[0], static_cast<float>(x0 * a) + b);
  // Over size 3's 1024 steps the two models drift apart by more than the 1e-5 margin: why
  // L0/Compute checks against the closer of the two.
  auto f = ref::peak_chain_float({0, 1, 2}, {4, 4, 1024}, 0.99932f, 0.00136f, true);
  auto u = ref::peak_chain_float({0, 1, 2}, {4, 4, 1024}, 0.99932f, 0.00136f, false);
  for (size_t i = 0; i < f.size(); ++i) {
    EXPECT_GT(std::fabs(f[i] - u[i]), 1e-5 * std::fabs(f[i]));
    EXPECT_LT(std::fabs(f[i] - u[i]), 1e-4 * std::fabs(f[i]));
  }
}

TEST(PeakChain, AddChainsAreExactSums) {
  // Float adds of 2^-12 to values in [0.5, 1): exact, so the sum is computable in double.
  auto got = ref::peak_chain_float_add({7}, {4, 1, 16}, 0x1p-12f);
  double want = 0;
  for (uint32_t l = 0; l < 4; ++l) want += (ref::peak_start_bits(7, 0, l) & 0x3FF) * 0x1p-11 + 0.5 + 16 * 0x1p-12;
  EXPECT_EQ(got[0], want);
}

TEST(Roofline, ChainOfK) {
  std::vector<float> in{0.5f, -1.0f, 0.25f};
  auto got = ref::roofline_fma(in, {0, 2}, 2, 0.5f, 1.0f, true);
  EXPECT_EQ(got, (std::vector<double>{(0.5 * 0.5 + 1) * 0.5 + 1, (0.25 * 0.5 + 1) * 0.5 + 1}));
}

}  // namespace
