// L1/FFT and L1/FFT2D's measured choices (bench/l1/fft2d.cpp, fft_stockham.hpp): points per work
// item of the one-pass row and column kernels of the 2-D transform, forward, at 2048^2 and 4096^2;
// which kernel takes a transform held in local memory; the column blocks of the global passes
// of a long 1-D transform.
#pragma once
#include "support/tuning.hpp"

namespace fft_tuning {

enum class Param {
  rows_multi_points_2d,  // rows_cols_multi's rows (fft_rows_multi): points and radix per work item
  cols_multi_points,     // fft_cols_multi: points per work item by default
  rows_multi_from,       // the shortest transform held in local memory that fft_rows_multi takes by default
  cols_long_passes,      // fft_cols: columns per group of a 1-D transform's global passes, in turns through local memory
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::rows_multi_points_2d, 16, "generic", "H200", "8 points a work item (VkFFT's radix-8 rows) slower than 16: one exchange more", "2026-11-25"},
  {Param::rows_multi_from, 2048, "generic", "H200", "32 points a work item, radix 8, against fft_rows (radix 16 or 32, one butterfly a work item): 2048 x 32768 260.5 us against 312.5, 4096 x 16384 258.5 against 289.8 (93 registers against 125: 5 groups an SM, not 4); 1024 x 65536 281.9 against 262.3 (16 points: 261.0)", "2026-11-29"},
  {Param::cols_long_passes, 8, "generic", "H200", "2^20 x 64 (1024 x 1024): the second pass in 8 columns, 2 turns: 682.4-682.8 us against 717.7-718.2 at 4; the first (contiguous store) too: 660.3-660.8 against 681.4-682.1; 16 columns (512 work items) 782.8; radix 16 slower at 4 and 8 columns", "2026-11-29"},
  {Param::cols_multi_points, 32, "generic", "H200", "16 (VkFFT's, 2048 in 4 x 128 work items) slower on the H200 and the H100; the 32-point columns gained 17% (2048^2 columns 33.3 us against VkFFT's 41.5, 4096^2 126.7 against 162.4)", "2026-11-25"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline size_t tuned(Param p) { return static_cast<size_t>(gb::tuning::tuned(kTable, p)); }

}  // namespace fft_tuning
