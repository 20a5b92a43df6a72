// L1/BoxFilter's measured choices (bench/l1/box_filter.cpp): the tiled_slide tiles beside the
// widest, their band and phase two's form. Fractions are of the copy bandwidth, at 8192^2.
#pragma once
#include "support/tuning.hpp"

namespace box_filter_tuning {

enum class Param {
  long_band,             // tiled_slide's second band (rows per horizontal step; span 2 band)
  narrow_width,          // the narrow tile's width (TW)
  short_height_a,        // the narrow tile's short heights (TH), beside 512 and 1024
  short_height_b,
  narrow2_width,         // a second narrow width, band 8 only
  narrow2_height_a,      // its heights
  narrow2_height_b,
  unroll,                // phase two's form (TS_UNROLL): 0 reads a slide's columns up front,
  unroll_long_band,      //   n > 0 streams them n loop turns at a time
  unroll_long_band_rgba8_r31,
  unroll_narrow2_rgba8_r15,
  unroll_long_band_rgba8_r15,
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::long_band, 16, "generic", "H200", "band 8, 192-wide at its best height: float r15 0.73 against 0.63, r31 0.60 against 0.55, rgba8 r31 0.37 against 0.34 (rgba8 r15 0.40 against 0.43: band 8 stays beside it); span 32 at band 8 slower in every tile", "2026-11-25"},
  {Param::narrow_width, 192, "generic", "H200", "widths 128-320 at heights 64-192: float band 16 192x64 r15 0.85, r31 0.76; rgba8 band 8 192x96 r15 0.66, r31 0.54 (256x96 0.545); 192x512 0.73, 0.59, 0.51, 0.43. Rgba8 r31 at heights 64-96 (2026-11-29): 192x96 0.593-0.602 against 256 0.584-0.587, 320 0.511-0.532, 384 0.521-0.534", "2026-11-25"},
  {Param::short_height_a, 64, "generic", "H200", "float band 16 at 192x64: r15 0.85 against 0.73 at 192x512, r31 0.76 against 0.59; height 128 below 64 and 96 in every type, radius and band", "2026-11-25"},
  {Param::short_height_b, 96, "generic", "H200", "rgba8 band 8 at 192x96: r15 0.66 against 0.51 at 192x512, r31 0.54 against 0.43", "2026-11-25"},
  {Param::narrow2_width, 224, "generic", "H200", "rgba8 r15 0.705-0.708 against 0.689-0.693 at 192 (widths 128-256 x heights 64-128); rgba8's band 16 would need 51 KB there. Again at heights 64-96 (2026-11-29): 224x80 0.693-0.701 against 256 0.668-0.669, 288 0.639, 320 0.599, 352 0.617-0.620", "2026-11-25"},
  {Param::narrow2_height_a, 80, "generic", "H200", "with 96, the best rgba8 r15 heights at 224 (0.705-0.708)", "2026-11-25"},
  {Param::narrow2_height_b, 96, "generic", "H200", "with 80, the best rgba8 r15 heights at 224 (0.705-0.708)", "2026-11-25"},
  {Param::unroll, 0, "generic", "H100", "rgba8 r15 192x64 band 8: 223.6 us up front against 240.1 (4 turns) and 233.8 (all turns); float within 1.5% in any form", "2026-11-28"},
  {Param::unroll_long_band, 4, "generic", "H100", "float within 1% in any form (rgba8 r15 192x96 band 16: 0.845 against 0.797 up front, 210.5 us against 222.8)", "2026-11-28"},
  {Param::unroll_long_band, 0, "nvidia-sm90/H200", "H200", "up front: float r15 192x64 band 16 3.556-3.559 TB/s against 3.507-3.511 (4 turns) and 3.519-3.526 (every turn), r31 3.224-3.225 against 3.188-3.190 (the peers rows' tiles; 4 or 8 turns 1-2% ahead at heights 512 and 1024)", "2026-11-29"},
  {Param::unroll_long_band_rgba8_r15, 4, "generic", "H100", "rgba8 r15 192x96 band 16: 0.845 against 0.797 up front (210.5 us against 222.8)", "2026-11-28"},
  {Param::unroll_long_band_rgba8_r15, 16, "nvidia-sm90/H200", "H200", "every turn unrolled: rgba8 r15 192x64 band 16 2.757-2.758 TB/s against 2.710-2.711 (4 turns) and 2.583-2.584 up front; 192x96 2.825 against 2.794-2.802", "2026-11-29"},
  {Param::unroll_long_band_rgba8_r31, 0, "generic", "H100", "rgba8 r31 192x96 band 16: 0.736 up front against 0.703 streamed (241.5 us against 253.3)", "2026-11-28"},
  {Param::unroll_narrow2_rgba8_r15, 8, "generic", "H100", "every turn of band 8 unrolled: rgba8 r15 224x80 0.791 against 0.742 up front (224.7 us against 239.5; 4 turns 264.4)", "2026-11-28"},
  {Param::unroll_narrow2_rgba8_r15, 0, "nvidia-sm90/H200", "H200", "up front: rgba8 r15 224x80 2.972-2.980 TB/s against 2.805-2.806 with every turn unrolled (2 turns 2.920, 4 turns 2.920-2.924); 224x96 2.971-2.972 against 2.805-2.811", "2026-11-29"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline int tuned(Param p) { return static_cast<int>(gb::tuning::tuned(kTable, p)); }

}  // namespace box_filter_tuning
