// reference/ of the L0 memory, atomics, enqueue and compile-time cases: small hand-checked cases.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "random_data.hpp"
#include "reference/atomics.hpp"
#include "reference/compile_time.hpp"
#include "reference/enqueue.hpp"
#include "reference/global_bandwidth.hpp"
#include "reference/image_read.hpp"
#include "reference/local_memory.hpp"
#include "reference/memory_hierarchy.hpp"

namespace {

TEST(SattoloCycle, IsOneCycleThroughEveryNode) {
  for (size_t n : {1u, 2u, 3u, 8u, 1000u}) {
    auto next = ref::sattolo_cycle(n, 42 + n);
    EXPECT_EQ(std::set<uint32_t>(next.begin(), next.end()).size(), n) << "not a permutation, n=" << n;
    uint32_t p = 0;
    for (size_t step = 1; step <= n; ++step) {
      p = next[p];
      if (step < n) {
        EXPECT_NE(p, 0u) << "cycle shorter than n=" << n;
      }
    }
    EXPECT_EQ(p, 0u);
    EXPECT_EQ(ref::chase(next, 0, n), 0u);
  }
}

TEST(BandwidthReadSums, GridWalkMatchesTheCoalescedLayoutAndTakesARaggedEnd) {
  std::vector<float> in(2 * 12);  // 12 float2 elements
  std::iota(in.begin(), in.end(), 1.0f);
  // 4 work items, 3 elements each: the grid walk is the coalesced layout.
  EXPECT_EQ(ref::bandwidth_read_sums_grid(in, 2, 4), ref::bandwidth_read_sums(in, {2, 3, 4, false}));
  // 5 work items: items 0 and 1 take 3 elements, the others 2. Element e holds 4e + 3.
  const std::vector<double> ragged = {3 + 23 + 43, 7 + 27 + 47, 11 + 31, 15 + 35, 19 + 39};
  EXPECT_EQ(ref::bandwidth_read_sums_grid(in, 2, 5), ragged);
}

using testdata::random_floats;

// Work item gid's loads, one at a time: element(gid, i) for i < items, each lane summed over i,
// then the lanes, in double.
template <typename Element>
std::vector<double> read_sums_one_by_one(const std::vector<float>& in, size_t width, size_t items,
                                         size_t work_items, const Element& element) {
  std::vector<double> sums(work_items);
  for (size_t gid = 0; gid < work_items; ++gid) {
    std::vector<double> lanes(width, 0.0);
    for (size_t i = 0; i < items; ++i)
      for (size_t k = 0; k < width; ++k) lanes[k] += in[element(gid, i) * width + k];
    for (size_t k = 0; k < width; ++k) sums[gid] += lanes[k];
  }
  return sums;
}

TEST(BandwidthReadSums, EveryLayoutMatchesItsIndexingAcrossBlocksOfWorkItems) {
  // 4480 work items: more than two of the reference's blocks of 2048, the last one ragged.
  const size_t items = 3, group = 64, n = 70 * group;
  for (size_t width : {1u, 2u, 4u, 16u}) {
    const auto in = random_floats(width * items * n, 11 + static_cast<unsigned>(width));
    EXPECT_EQ(ref::bandwidth_read_sums(in, {width, items, n, false}),
              read_sums_one_by_one(in, width, items, n, [&](size_t gid, size_t i) { return i * n + gid; }))
        << "coalesced, width " << width;
    EXPECT_EQ(ref::bandwidth_read_sums(in, {width, items, n, true}),
              read_sums_one_by_one(in, width, items, n, [&](size_t gid, size_t i) { return gid * items + i; }))
        << "strided, width " << width;
    EXPECT_EQ(ref::bandwidth_read_sums(in, {width, items, n, false, group}),
              read_sums_one_by_one(in, width, items, n,
                                   [&](size_t gid, size_t i) { return gid / group * group * items + i * group + gid % group; }))
        << "blocked, width " << width;
    // The grid walk: 3001 work items over 13440 elements, so the last pass is ragged.
    std::vector<double> grid(3001, 0.0);
    for (size_t e = 0; e < n * items; ++e) {
      double lanes = 0;
      for (size_t k = 0; k < width; ++k) lanes += in[e * width + k];
      grid[e % grid.size()] += lanes;
    }
    EXPECT_EQ(ref::bandwidth_read_sums_grid(in, width, grid.size()), grid) << "grid, width " << width;
  }
}

TEST(BandwidthWriteAndTriad, MatchTheirFormulasElementByElement) {
  const size_t floats = (size_t(1) << 20) * 3 + 5;  // several blocks, the last element partial
  for (size_t width : {1u, 4u, 16u}) {
    const auto out = ref::bandwidth_write_pattern(floats, width);
    ASSERT_EQ(out.size(), floats);
    auto want = [&](size_t f) {
      const float scrambled = static_cast<float>((static_cast<uint32_t>(f / width) * 2654435761u) >> 8) * 0x1p-24f;
      return scrambled + static_cast<float>(f % width);
    };
    for (size_t f = 0; f < floats; f += 997) ASSERT_EQ(out[f], want(f)) << f;
    for (size_t f = floats - 20; f < floats; ++f) ASSERT_EQ(out[f], want(f)) << f;
  }
  const auto b = random_floats(floats, 3), c = random_floats(floats, 4);
  const auto a = ref::stream_triad(b, c, 0.4f);
  for (size_t i = 0; i < floats; ++i) ASSERT_EQ(a[i], b[i] + 0.4f * c[i]) << i;
}

TEST(BandwidthTilesTransposed, MovesWholeTilesToTheirTransposedPlace) {
  // 4 rows x 6 columns in tiles of 2: tile (tx, ty) lands at (ty, tx) of the 6 x 4 output.
  std::vector<float> in(24);
  std::iota(in.begin(), in.end(), 0.0f);
  const auto out = ref::tiles_transposed(in, 6, 4, 2);
  const std::vector<float> expected{0,  1,  12, 13,   // output row 0: input tile (0,0) row 0, tile (0,1) row 0
                                    6,  7,  18, 19,   //            1:                 row 1
                                    2,  3,  14, 15,   // tile column 1 of the input
                                    8,  9,  20, 21,
                                    4,  5,  16, 17,
                                    10, 11, 22, 23};
  EXPECT_EQ(out, expected);
  // tiles of one element: the transpose itself
  const auto t = ref::tiles_transposed(in, 6, 4, 1);
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 6; ++x) EXPECT_EQ(t[x * 4 + y], in[y * 6 + x]) << x << "," << y;
}

TEST(SattoloCycle, DependsOnSeed) { EXPECT_NE(ref::sattolo_cycle(64, 1), ref::sattolo_cycle(64, 2)); }

TEST(WorkingSetRead, WrapsAndOffsetsGroups) {
  std::vector<float> in{1, 2, 3, 4};
  ref::WorkingSetRead r{1, 4, 2, 0, 3};
  const double d = ref::kWorkingSetDecay;
  EXPECT_DOUBLE_EQ(ref::working_set_read_sum(in, r, 1), (2 * d + 4) * d + 2);  // idx 1, 3, 5 & 3
  r.seg = 2;
  EXPECT_DOUBLE_EQ(ref::working_set_read_sum(in, r, 2), (3 * d + 1) * d + 3);  // group 1 starts at 2
}

TEST(WorkingSetRead, FewerLoadsScaledDoNotMatch) {
  // A working set smaller than a group's step: each work item reads one element again and again.
  // Half the loads doubled (or one load times LOADS) must miss the sum by more than the check's bound.
  std::vector<float> in(64 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.25f + static_cast<float>(i % 7) / 16;
  for (size_t loads : {64u, 256u, 1024u}) {
    const ref::WorkingSetRead full{4, 64, 256, 0, loads}, half{4, 64, 256, 0, loads / 2};
    const double want = ref::working_set_read_sum(in, full, 5), cheat = 2 * ref::working_set_read_sum(in, half, 5);
    const double bound = (2.0 * loads + 2) * 0x1p-24 / (1 - (2.0 * loads + 2) * 0x1p-24) * 4.0 * loads;
    EXPECT_GT(std::abs(want - cheat), 10 * bound) << loads;
  }
}

TEST(LocalRead, LaneStrideAndWarpSteps) {
  ref::LocalRead r{1, 2, 2, 4, 1, 1};
  ASSERT_EQ(ref::local_read_elements(r), 14u);
  std::vector<float> in(14);
  std::iota(in.begin(), in.end(), 0.0f);
  EXPECT_EQ(ref::local_read_lane_sums(in, r), (std::vector<float>{0 + 2 + 4 + 6, 2 + 4 + 6 + 8}));
}

TEST(ConstantRead, UniformAndDivergent) {
  std::vector<float> table(8);
  std::iota(table.begin(), table.end(), 0.0f);
  ref::ConstantRead r{8, 4, 3, true};
  EXPECT_EQ(ref::constant_read_sums(table, r, 2)[1], 1 + 2 + 3 + 4 + 5 + 6 + 7 + 0 + 1 + 2 + 3 + 4);
  r.divergent = false;
  auto uniform = ref::constant_read_sums(table, r, 2);
  EXPECT_EQ(uniform[0], uniform[1]);
  EXPECT_EQ(uniform[0], 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 0 + 1 + 2 + 3);
}

TEST(AtomicSums, GlobalSharersAreSpreadLocalPerGroup) {
  // Two iterations: ((gid + 0) & 3) + 1, then 1 (the last): gid 0..7 add 2 3 4 5 2 3 4 5.
  EXPECT_EQ(ref::atomic_global_sums(8, 2, 2), (std::vector<int32_t>{2 + 4 + 2 + 4, 3 + 5 + 3 + 5}));
  EXPECT_EQ(ref::atomic_local_sums(8, 4, 2, 2), (std::vector<int32_t>{6, 8, 6, 8}));
  auto all = ref::atomic_global_sums(1000, 1, 16);
  // 4 whole cycles per work item, less the last iteration's cycle value (2500 over the 1000), plus its 1.
  EXPECT_EQ(all[0], 1000 * 16 / 4 * (1 + 2 + 3 + 4) - 1000 / 4 * (1 + 2 + 3 + 4) + 1000);
}

TEST(CompileTime, ShortAndLongOutputs) {
  EXPECT_EQ(ref::compile_time_short(2, 7), (std::vector<uint32_t>{7, 2654435761u + 7}));
  EXPECT_EQ(ref::compile_time_long(3, 5, 0), (std::vector<uint32_t>{5, 6, 7}));
  // One function is 64 steps: x = (x * (2k + 1)) ^ ((x >> 7) + k) for k = 0..63, then + salt.
  uint32_t x = 0;
  for (uint32_t k = 0; k < 64; ++k) x = (x * (2 * k + 1)) ^ ((x >> 7) + k);
  EXPECT_EQ(ref::compile_time_long(1, 0, 1)[0], x);
}

TEST(ImageColumnSums, SumsBlocksAndChannels) {
  // 2 x 2 pixels, rows 1, items 2: work item (x, 0) sums pixels (x, 0) and (x, 1).
  std::vector<float> px(16);
  std::iota(px.begin(), px.end(), 0.0f);
  auto sums = ref::image_column_sums(px, 2, 1, 2);
  EXPECT_EQ(sums, (std::vector<double>{(0 + 1 + 2 + 3) + (8 + 9 + 10 + 11), (4 + 5 + 6 + 7) + (12 + 13 + 14 + 15)}));
}

TEST(EnqueueStages, ChainFromPositionAndStage) {
  auto out = ref::enqueue_stage_outputs(2, 3, 0);
  EXPECT_EQ(out, (std::vector<float>{0, 0x1p-12f, 0x2p-12f, 1, 1 + 0x1p-12f, 1 + 0x2p-12f}));
  EXPECT_EQ(ref::enqueue_stage_outputs(1, 1, 1)[0], 0.5f);
}

}  // namespace
