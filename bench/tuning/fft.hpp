// L1/FFT and L1/FFT2D's measured choices (bench/l1/fft2d.cpp, fft_stockham.hpp): points per work
// item of the one-pass row and column kernels of the 2-D transform, forward, at 2048^2 and 4096^2.
#pragma once
#include "support/tuning.hpp"

namespace fft_tuning {

enum class Param {
  rows_multi_points_2d,  // rows_cols_multi's rows (fft_rows_multi): points and radix per work item
  cols_multi_points,     // fft_cols_multi: points per work item by default
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::rows_multi_points_2d, 16, "generic", "H200", "8 points a work item (VkFFT's radix-8 rows) slower than 16: one exchange more", "2026-11-25"},
  {Param::cols_multi_points, 32, "generic", "H200", "16 (VkFFT's, 2048 in 4 x 128 work items) slower on the H200 and the H100; the 32-point columns gained 17% (2048^2 columns 33.3 us against VkFFT's 41.5, 4096^2 126.7 against 162.4)", "2026-11-25"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline size_t tuned(Param p) { return static_cast<size_t>(gb::tuning::tuned(kTable, p)); }

}  // namespace fft_tuning
