// L1/Histogram's measured choices (bench/l1/histogram.cpp): which variants count one uint4 while
// the next is in flight (the kernel's PIPELINED). Rates at 16384^2.
#pragma once
#include "support/tuning.hpp"

namespace histogram_tuning {

enum class Param {
  lanes16_pipelined,  // local_lanes16: 1 pipelined, 0 not
  others_pipelined,   // every other variant
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::lanes16_pipelined, 1, "generic", "H100", "not pipelined: noise 2.82-2.89 TB/s against 2.91, photo 2.82-2.88 against 2.91, flat 2.86-2.91 against 2.97; two uint4 ahead take it past 32 registers (-23%)", "2026-11-28"},
  {Param::others_pipelined, 0, "generic", "H100", "pipelined they lose 3-9% (below full occupancy, other warps hide their loads)", "2026-11-28"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline bool tuned(Param p) { return gb::tuning::tuned(kTable, p) != 0; }

}  // namespace histogram_tuning
