// L1/GEMM's measured choices (bench/l1/gemm.cpp): vectors, K steps, groups and bands of the
// register-blocked, warp-tiled and mma kernels, and the mma instruction. Rates at 8192^3.
#pragma once
#include "support/tuning.hpp"

namespace gemm_tuning {

enum class Param {
  regblock_vw_float,      // regblock and warptile: vector width (VW)
  regblock_vw_double,
  regblock_tile_k_float,  // regblock: the longest K step (less where local memory is short)
  regblock_tile_k_double,
  regblock_float_wg_x,    // regblock float: the group run beside the default 16x16
  regblock_float_wg_y,
  warptile_lane_ilv,      // warptile: lane rows filled together (LANE_ILV)
  warptile_tile_k_float,  // warptile: the longest K step
  warptile_tile_k_double,
  warptile_group_m_float,  // warptile: block rows per band (GROUP_M)
  warptile_group_m_double,
  warptile_wg_x_float,    // warptile: the group run beside the default 16x16
  warptile_wg_y_float,
  warptile_wg_x_double,
  warptile_wg_y_double,
  async_group_m,          // warptile_async: block rows per band
  mma_group_m,            // mma: block rows per band
  mma_ptx_rows,           // mma: rows of PTX's FP64 mma.sync (16: m16n8k4, 8: m8n8k4, 0: FMAs)
  mma_groups_per_cu,      // mma: groups resident on a compute unit at once (a wave: this times the units)
  count
};

using gb::tuning::Entry;
// clang-format off
constexpr Entry<Param> kTable[] = {
  {Param::regblock_vw_float, 4, "generic", "", "float4: 16-byte loads (not swept)", "2026-11-25"},
  {Param::regblock_vw_double, 2, "generic", "H200", "double4: 15.0 TFLOP/s against 22.5 (16x16, K step 8)", "2026-11-25"},
  {Param::regblock_tile_k_float, 16, "generic", "H200", "K step 8: 16x8 and 32x8 groups reach 43.3-43.6 TFLOP/s at 16 (16x16: 40.4 at either step)", "2026-11-25"},
  {Param::regblock_tile_k_double, 8, "generic", "H200", "K step 16 spills", "2026-11-25"},
  {Param::regblock_float_wg_x, 32, "generic", "H200", "32x8 (with 16x8) the sweep's fastest: 43.3-43.6 TFLOP/s against 40.4 at 16x16", "2026-11-25"},
  {Param::regblock_float_wg_y, 8, "generic", "H200", "see regblock_float_wg_x", "2026-11-25"},
  {Param::warptile_lane_ilv, 2, "generic", "H200", "lanes filled a row at a time: 2-5% slower (local reads of Bs 4 cycles a warp against 2.2)", "2026-11-25"},
  {Param::warptile_tile_k_float, 16, "generic", "H200", "regblock's float step", "2026-11-25"},
  {Param::warptile_tile_k_double, 8, "generic", "H200", "K step 16 would not fit 48 KiB of local memory", "2026-11-25"},
  {Param::warptile_group_m_float, 1, "generic", "H200", "bands of 1, 4, 8, 16 within 1%, no consistent sign", "2026-11-25"},
  {Param::warptile_group_m_double, 4, "generic", "H200", "bands of 1, 4, 8, 16 within 1%, no consistent sign", "2026-11-25"},
  {Param::warptile_wg_x_float, 8, "generic", "H200", "8x16 (128x64 blocks, 167 registers, three groups an SM): 44.4-45.0 TFLOP/s against 41.6 at 16x16 (regblock 43.6)", "2026-11-25"},
  {Param::warptile_wg_y_float, 16, "generic", "H200", "see warptile_wg_x_float", "2026-11-25"},
  {Param::warptile_wg_x_double, 16, "generic", "H200", "16x16: 23.2 TFLOP/s (regblock 22.4)", "2026-11-25"},
  {Param::warptile_wg_y_double, 16, "generic", "H200", "see warptile_wg_x_double", "2026-11-25"},
  {Param::async_group_m, 8, "generic", "H100", "bands of 1 (warptile's): 46.2-47.1 TFLOP/s at 8x16 against 47.4-47.5", "2026-11-25"},
  {Param::mma_group_m, 8, "generic", "H200", "bands of 1: 36.8 TFLOP/s against 39.3", "2026-11-25"},
  {Param::mma_groups_per_cu, 1, "generic", "H200", "ptxas -v: 240 registers a work item, so one group of 256 an SM (of 65,536)", "2026-11-29"},
  {Param::mma_ptx_rows, 0, "generic", "", "no FP64 mma instruction: the same products as FMAs", "2026-11-25"},
  {Param::mma_ptx_rows, 8, "nvidia-sm80", "H100", "m8n8k4, sm_80's FP64 mma (m16n8k4 needs sm_90); on sm_90 it runs at half the m16 rate", "2026-11-25"},
  {Param::mma_ptx_rows, 16, "nvidia-sm90", "H200", "m16n8k4: 39.3 TFLOP/s; m16n8k8 37.4, m16n8k4 fed by cp.async 36.6, m8n8k4 at the FMA rate (33 peak)", "2026-11-25"},
};
// clang-format on
static_assert(gb::tuning::complete(kTable, static_cast<size_t>(Param::count)), "one generic value per parameter");

inline size_t tuned(Param p) { return static_cast<size_t>(gb::tuning::tuned(kTable, p)); }

}  // namespace gemm_tuning
