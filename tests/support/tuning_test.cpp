// support/tuning and the families' tables (bench/tuning/): device classes, the lookup's fallbacks,
// and the values each case chose before its choices became tables, on an H100/H200
// ("nvidia-sm90"), other NVIDIA GPUs and everything else ("generic", PoCL in CI).
#include "tuning.hpp"

#include <gtest/gtest.h>

#include "bench/tuning/box_filter.hpp"
#include "bench/tuning/fft.hpp"
#include "bench/tuning/gemm.hpp"
#include "bench/tuning/histogram.hpp"
#include "bench/tuning/integral_image.hpp"
#include "bench/tuning/stable_fluids.hpp"
#include "devices.hpp"

namespace {

using gb::tuning::lookup;

TEST(TuningDeviceClass, IsNvidiaWithItsComputeCapabilityElseGeneric) {
  gb::DeviceInfo h200;
  h200.vendor = "NVIDIA Corporation";
  h200.name = "NVIDIA H200";
  h200.nv_compute_capability = 90;
  EXPECT_EQ(gb::tuning::device_class(h200), "nvidia-sm90");
  gb::DeviceInfo pocl;
  pocl.vendor = "AuthenticAMD";
  pocl.name = "cpu-haswell-AMD EPYC";
  EXPECT_EQ(gb::tuning::device_class(pocl), "generic");
}

enum class P { a, b, count };
constexpr gb::tuning::Entry<P> kToy[] = {
    {P::a, 1, "generic", "", "", ""},     {P::a, 80, "nvidia-sm80", "", "", ""},
    {P::a, 90, "nvidia-sm90", "", "", ""}, {P::b, 2, "generic", "", "", ""},
    {P::b, 3, "nvidia", "", "", ""},
};
static_assert(gb::tuning::complete(kToy, 2));
static_assert(lookup(kToy, P::a, "nvidia-sm90") == 90);  // constant where the class is

constexpr gb::tuning::Entry<P> kModels[] = {
    {P::a, 1, "generic", "", "", ""},
    {P::a, 90, "nvidia-sm90", "", "", ""},
    {P::a, 200, "nvidia-sm90/H200", "", "", ""},
    {P::b, 2, "generic", "", "", ""},
};
static_assert(gb::tuning::complete(kModels, 2));
static_assert(lookup(kModels, P::a, "nvidia-sm90/NVIDIA H200") == 200);

TEST(TuningLookup, TakesAModelOfTheClassWhoseNameTheDeviceCarriesFirst) {
  EXPECT_EQ(lookup(kModels, P::a, "nvidia-sm90/NVIDIA H200"), 200);
  EXPECT_EQ(lookup(kModels, P::a, "nvidia-sm90/NVIDIA H100 80GB HBM3"), 90);
  EXPECT_EQ(lookup(kModels, P::a, "nvidia-sm90"), 90);
  EXPECT_EQ(lookup(kModels, P::a, "nvidia-sm100/NVIDIA H200"), 90);  // another class: not that model
  EXPECT_EQ(lookup(kModels, P::a, "generic/NVIDIA H200"), 1);
  EXPECT_EQ(lookup(kModels, P::b, "nvidia-sm90/NVIDIA H200"), 2);
  gb::DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.nv_compute_capability = 90;
  EXPECT_EQ(gb::tuning::device_key(h200), "nvidia-sm90/NVIDIA H200");
}

TEST(TuningLookup, TakesTheClassThenTheNearestOlderNvidiaThenNvidiaThenGeneric) {
  EXPECT_EQ(lookup(kToy, P::a, "nvidia-sm90"), 90);
  EXPECT_EQ(lookup(kToy, P::a, "nvidia-sm100"), 90);
  EXPECT_EQ(lookup(kToy, P::a, "nvidia-sm89"), 80);
  EXPECT_EQ(lookup(kToy, P::a, "nvidia-sm75"), 1);
  EXPECT_EQ(lookup(kToy, P::a, "generic"), 1);
  EXPECT_EQ(lookup(kToy, P::b, "nvidia-sm90"), 3);
  EXPECT_EQ(lookup(kToy, P::b, "generic"), 2);
  constexpr gb::tuning::Entry<P> kNoGeneric[] = {{P::a, 1, "nvidia-sm90", "", "", ""}};
  EXPECT_FALSE(gb::tuning::complete(kNoGeneric, 1));
  EXPECT_THROW(lookup(kNoGeneric, P::a, "generic"), std::out_of_range);
  constexpr gb::tuning::Entry<P> kTwice[] = {{P::a, 1, "generic", "", "", ""}, {P::a, 2, "generic", "", "", ""}};
  EXPECT_FALSE(gb::tuning::complete(kTwice, 1));
}

// The values the cases used before the tables, on every class they may meet.
const char* const kClasses[] = {"nvidia-sm90", "nvidia-sm80", "nvidia-sm89", "nvidia-sm100", "generic"};

TEST(TuningTables, BoxFilter) {
  using box_filter_tuning::kTable, box_filter_tuning::Param;
  for (const char* c : kClasses) {
    SCOPED_TRACE(c);
    EXPECT_EQ(lookup(kTable, Param::long_band, c), 16);
    EXPECT_EQ(lookup(kTable, Param::narrow_width, c), 192);
    EXPECT_EQ(lookup(kTable, Param::short_height_a, c), 64);
    EXPECT_EQ(lookup(kTable, Param::short_height_b, c), 96);
    EXPECT_EQ(lookup(kTable, Param::narrow2_width, c), 224);
    EXPECT_EQ(lookup(kTable, Param::narrow2_height_a, c), 80);
    EXPECT_EQ(lookup(kTable, Param::narrow2_height_b, c), 96);
    EXPECT_EQ(lookup(kTable, Param::unroll, c), 0);
    EXPECT_EQ(lookup(kTable, Param::unroll_long_band, c), 4);
    EXPECT_EQ(lookup(kTable, Param::unroll_long_band_rgba8_r31, c), 0);
    EXPECT_EQ(lookup(kTable, Param::unroll_narrow2_rgba8_r15, c), 8);
    EXPECT_EQ(lookup(kTable, Param::unroll_long_band_rgba8_r15, c), 4);
  }
  EXPECT_EQ(lookup(kTable, Param::unroll_long_band, "nvidia-sm90/NVIDIA H200"), 0);
  EXPECT_EQ(lookup(kTable, Param::unroll_long_band_rgba8_r15, "nvidia-sm90/NVIDIA H200"), 16);
  EXPECT_EQ(lookup(kTable, Param::unroll_long_band, "nvidia-sm90/NVIDIA H100 80GB HBM3"), 4);
  EXPECT_EQ(lookup(kTable, Param::unroll_narrow2_rgba8_r15, "nvidia-sm90/NVIDIA H200"), 0);
  EXPECT_EQ(lookup(kTable, Param::unroll_narrow2_rgba8_r15, "nvidia-sm90/NVIDIA H100 80GB HBM3"), 8);
}

TEST(TuningTables, Gemm) {
  using gemm_tuning::kTable, gemm_tuning::Param;
  for (const char* c : kClasses) {
    SCOPED_TRACE(c);
    EXPECT_EQ(lookup(kTable, Param::regblock_vw_float, c), 4);
    EXPECT_EQ(lookup(kTable, Param::regblock_vw_double, c), 2);
    EXPECT_EQ(lookup(kTable, Param::regblock_tile_k_float, c), 16);
    EXPECT_EQ(lookup(kTable, Param::regblock_tile_k_double, c), 8);
    EXPECT_EQ(lookup(kTable, Param::regblock_float_wg_x, c), 32);
    EXPECT_EQ(lookup(kTable, Param::regblock_float_wg_y, c), 8);
    EXPECT_EQ(lookup(kTable, Param::warptile_lane_ilv, c), 2);
    EXPECT_EQ(lookup(kTable, Param::warptile_tile_k_float, c), 16);
    EXPECT_EQ(lookup(kTable, Param::warptile_tile_k_double, c), 8);
    EXPECT_EQ(lookup(kTable, Param::warptile_group_m_float, c), 1);
    EXPECT_EQ(lookup(kTable, Param::warptile_group_m_double, c), 4);
    EXPECT_EQ(lookup(kTable, Param::warptile_wg_x_float, c), 8);
    EXPECT_EQ(lookup(kTable, Param::warptile_wg_y_float, c), 16);
    EXPECT_EQ(lookup(kTable, Param::warptile_wg_x_double, c), 16);
    EXPECT_EQ(lookup(kTable, Param::warptile_wg_y_double, c), 16);
    EXPECT_EQ(lookup(kTable, Param::async_group_m, c), 8);
    EXPECT_EQ(lookup(kTable, Param::mma_group_m, c), 8);
    EXPECT_EQ(lookup(kTable, Param::mma_groups_per_cu, c), 1);
  }
  // The FP64 mma instruction: m16n8k4 from sm_90, m8n8k4 on sm_80-89, FMAs elsewhere.
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "nvidia-sm90"), 16);
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "nvidia-sm100"), 16);
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "nvidia-sm80"), 8);
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "nvidia-sm89"), 8);
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "nvidia-sm75"), 0);
  EXPECT_EQ(lookup(kTable, Param::mma_ptx_rows, "generic"), 0);
}

TEST(TuningTables, FftHistogramIntegralImageStableFluids) {
  for (const char* c : kClasses) {
    SCOPED_TRACE(c);
    EXPECT_EQ(lookup(fft_tuning::kTable, fft_tuning::Param::rows_multi_points_2d, c), 16);
    EXPECT_EQ(lookup(fft_tuning::kTable, fft_tuning::Param::cols_multi_points, c), 32);
    EXPECT_EQ(lookup(fft_tuning::kTable, fft_tuning::Param::rows_multi_from, c), 2048);
    EXPECT_EQ(lookup(fft_tuning::kTable, fft_tuning::Param::cols_long_passes, c), 8);
    EXPECT_EQ(lookup(histogram_tuning::kTable, histogram_tuning::Param::lanes16_pipelined, c), 1);
    EXPECT_EQ(lookup(histogram_tuning::kTable, histogram_tuning::Param::others_pipelined, c), 0);
    EXPECT_EQ(lookup(integral_image_tuning::kTable, integral_image_tuning::Param::tile_items, c), 64);
    EXPECT_EQ(lookup(integral_image_tuning::kTable, integral_image_tuning::Param::tile_rows, c), 32);
    EXPECT_EQ(lookup(integral_image_tuning::kTable, integral_image_tuning::Param::reduce_batch, c), 16);
    EXPECT_EQ(lookup(stable_fluids_tuning::kTable, stable_fluids_tuning::Param::blocked_default_rows, c), 1);
  }
}

}  // namespace
