// L2/StableFluids' measured choices (bench/l2/stable_fluids.cpp): the blocked Jacobi step's rows
// in the default run. Fractions are of the copy bandwidth, at 4096^2.
#pragma once
#include "support/tuning.hpp"

namespace stable_fluids_tuning {

enum class Param {
  blocked_default_rows,  // jacobi_blocked: rows of a work item's 4 x rows block in the default run
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::blocked_default_rows, 1, "generic", "H200", "rows 2: 0.921 against 0.928 (32x8), 4: 0.895, 8: 0.868; more rows only lengthen each item's chain", "2026-11-25"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline int tuned(Param p) { return static_cast<int>(gb::tuning::tuned(kTable, p)); }

}  // namespace stable_fluids_tuning
