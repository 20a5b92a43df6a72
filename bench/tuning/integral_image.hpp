// L1/IntegralImage's measured choices (bench/l1/integral_image.cpp): the tiles kernels' default
// tile and loads in flight, and lookback_tiles' default shape, out:sum. Fractions are of the copy bandwidth, at 8192^2.
#pragma once
#include "support/tuning.hpp"

namespace integral_image_tuning {

enum class Param {
  tile_items,   // the write kernel's group (8 columns an item): the default tile's width / 8
  tile_rows,    // the default tile's rows
  reduce_batch, // the reduce's rows of loads in flight (REDUCE_BATCH)
  lookback_cols,   // lookback_tiles' default shape: tile columns,
  lookback_rows,   // tile rows,
  lookback_items,  // and work items a group
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::tile_items, 64, "generic", "H200", "64 x 32 (512 x 32 tiles): 0.577 against 0.566 at 64 x 16, 0.558 at 64 x 64, 0.550 at 128 x 32 (items x rows, 9 shapes); tied with 1024 x 32 and 1024 x 64 tiles since the write stores whole sectors; out:sum_sq 0.393 against 0.385 at 128 x 32", "2026-11-25"},
  {Param::tile_rows, 32, "generic", "H200", "see tile_items", "2026-11-25"},
  {Param::reduce_batch, 16, "generic", "H200", "8: 0.574 (139.3 us) against 0.583 (137.4 us); 32: 0.566", "2026-11-25"},
  {Param::lookback_cols, 256, "generic", "H200", "256 x 64 in 128 items: 0.676 (twice); 128 x 64 / 64: 0.658; 256 x 32 / 64: 0.655; 256 x 32 / 128: 0.654; 128 x 128 / 128: 0.650; 512 x 32 / 128: 0.645; 256 x 64 / 64: 0.643; 128 x 64 / 128: 0.640; 256 x 64 / 256: 0.632; 512 x 32 / 256: 0.608; 128 x 32 / 128: 0.518; 256 x 16 / 128: 0.498 (tiles at its best: 0.614, same call)", "2026-11-29"},
  {Param::lookback_rows, 64, "generic", "H200", "see lookback_cols", "2026-11-29"},
  {Param::lookback_items, 128, "generic", "H200", "see lookback_cols", "2026-11-29"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline size_t tuned(Param p) { return static_cast<size_t>(gb::tuning::tuned(kTable, p)); }

}  // namespace integral_image_tuning
