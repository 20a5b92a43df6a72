// The L1 image references (issue 5) against brute force on small inputs: box-filter window sums
// with clamp-to-edge (radius past the image too), integral images, scans, reductions, histogram,
// transpose, each also across the parallel blocks it is split into; and filled_vector.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "reference/box_filter.hpp"
#include "reference/histogram.hpp"
#include "reference/integral_image.hpp"
#include "reference/parallel.hpp"
#include "reference/reduction.hpp"
#include "reference/scan.hpp"
#include "reference/transpose.hpp"

namespace {

std::vector<uint8_t> random_bytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = static_cast<uint8_t>(rng());
  return v;
}

TEST(BoxFilterReference, WindowSumsMatchBruteForceWithClampedEdges) {
  const size_t w = 7, h = 5;
  for (int channels : {1, 4}) {
    const auto in = random_bytes(w * h * channels, 3);
    for (int r : {0, 1, 2, 6, 9}) {
      const auto sums = ref::box_sums(in, w, h, channels, r);
      for (long y = 0; y < static_cast<long>(h); ++y)
        for (long x = 0; x < static_cast<long>(w); ++x)
          for (int c = 0; c < channels; ++c) {
            int64_t want = 0;
            for (long dy = -r; dy <= r; ++dy)
              for (long dx = -r; dx <= r; ++dx) {
                const long sx = std::clamp(x + dx, 0L, static_cast<long>(w) - 1);
                const long sy = std::clamp(y + dy, 0L, static_cast<long>(h) - 1);
                want += in[(sy * w + sx) * channels + c];
              }
            ASSERT_EQ(sums[(y * w + x) * channels + c], want) << "r=" << r << " x=" << x << " y=" << y;
          }
    }
  }
}

TEST(BoxFilterReference, RoundingAndFloatMean) {
  // A flat image stays flat; RGBA8 rounds half up: one 255 among nine zeros -> (255 + 4) / 9 = 28.
  std::vector<uint8_t> img(3 * 3 * 4, 0);
  img[(1 * 3 + 1) * 4] = 255;
  EXPECT_EQ(ref::box_filter_rgba8(img, 3, 3, 1)[(1 * 3 + 1) * 4], 28);
  std::vector<float> flat(20, 0.25f);
  for (double v : ref::box_filter(flat, 5, 4, 2)) EXPECT_DOUBLE_EQ(v, 0.25);
}

TEST(BoxFilterReference, Rgba8RoundsTheExactSumsAcrossColumnBlocks) {
  // 150 RGBA8 columns: 600 values per row, more than one of the vertical pass's column blocks.
  const size_t w = 150, h = 70;
  const auto in = random_bytes(w * h * 4, 5);
  for (int r : {1, 7, 31}) {
    const auto sums = ref::box_sums(in, w, h, 4, r);
    const auto out = ref::box_filter_rgba8(in, w, h, r);
    const int64_t area = static_cast<int64_t>(2 * r + 1) * (2 * r + 1);
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], (sums[i] + area / 2) / area) << "r=" << r << " i=" << i;
  }
}

TEST(IntegralImageReference, MatchesBruteForce) {
  const size_t w = 9, h = 6;
  const auto in = random_bytes(w * h, 5);
  const auto sum = ref::integral_image(in, w, h);
  const auto sq = ref::squared_integral_image(in, w, h);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      uint64_t s = 0, s2 = 0;
      for (size_t j = 0; j <= y; ++j)
        for (size_t i = 0; i <= x; ++i) s += in[j * w + i], s2 += uint64_t(in[j * w + i]) * in[j * w + i];
      ASSERT_EQ(sum[y * w + x], static_cast<uint32_t>(s));
      ASSERT_EQ(sq[y * w + x], s2);
    }
}

TEST(IntegralImageReference, MatchesTheRecurrenceAcrossColumnBlocks) {
  // Wider than the column pass's blocks (1024 columns), with a ragged last block.
  const size_t w = 2100, h = 7;
  const auto in = random_bytes(w * h, 6);
  const auto sum = ref::integral_image(in, w, h);
  const auto sq = ref::squared_integral_image(in, w, h);
  std::vector<uint64_t> s((w + 1) * (h + 1), 0), s2((w + 1) * (h + 1), 0);  // with a zero border
  for (size_t y = 1; y <= h; ++y)
    for (size_t x = 1; x <= w; ++x) {
      const uint64_t v = in[(y - 1) * w + x - 1];
      const size_t i = y * (w + 1) + x;
      s[i] = v + s[i - 1] + s[i - w - 1] - s[i - w - 2];
      s2[i] = v * v + s2[i - 1] + s2[i - w - 1] - s2[i - w - 2];
      ASSERT_EQ(sum[(y - 1) * w + x - 1], static_cast<uint32_t>(s[i])) << x << "," << y;
      ASSERT_EQ(sq[(y - 1) * w + x - 1], s2[i]) << x << "," << y;
    }
}

TEST(IntegralImageReference, SumWrapsModulo2To32) {
  const size_t w = 4200, h = 4200;  // 4200^2 * 255 > 2^32
  std::vector<uint8_t> in(w * h, 255);
  ASSERT_GT(uint64_t(w) * h * 255, uint64_t(1) << 32);
  const auto sum = ref::integral_image(in, w, h);
  EXPECT_EQ(sum.back(), static_cast<uint32_t>(uint64_t(w) * h * 255));
}

TEST(ScanReference, ExclusiveAndWrapping) {
  EXPECT_EQ(ref::exclusive_scan(std::vector<int32_t>{3, -1, 4}), (std::vector<int32_t>{0, 3, 2}));
  EXPECT_EQ(ref::exclusive_scan(std::vector<int32_t>{INT32_MAX, 1, 0})[2], INT32_MIN);
  EXPECT_EQ(ref::exclusive_scan(std::vector<float>{0.5f, 0.25f}), (std::vector<double>{0.0, 0.5}));
}

TEST(ScanReference, ManyChunksMatchASequentialPass) {
  // More than three of the reference's parallel chunks (2^20 elements), with a ragged last one.
  const size_t n = (size_t(3) << 20) + 12345;
  const auto bytes = random_bytes(n, 9);
  std::vector<int32_t> ints(n);
  std::vector<float> floats(n);
  for (size_t i = 0; i < n; ++i) {
    ints[i] = static_cast<int32_t>(bytes[i]) * 40000 - 5000000;  // sums wrap
    floats[i] = bytes[i] / 256.0f;
  }
  const auto got_int = ref::exclusive_scan(ints);
  const auto got_float = ref::exclusive_scan(floats);
  uint32_t running = 0;
  double running_f = 0;
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_int[i], static_cast<int32_t>(running)) << i;
    ASSERT_DOUBLE_EQ(got_float[i], running_f) << i;  // multiples of 2^-8: exact in double
    running += static_cast<uint32_t>(ints[i]);
    running_f += floats[i];
  }
}

TEST(ReductionReference, SumMinMax) {
  const std::vector<int32_t> ints{5, -7, 2000000000, 2000000000};
  EXPECT_EQ(ref::reduce_sum(ints), 3999999998);
  EXPECT_EQ(ref::reduce_min(ints), -7);
  EXPECT_EQ(ref::reduce_max(std::vector<float>{0.5f, -2.0f, 1.5f}), 1.5f);
}

TEST(ReductionReference, ManyChunksMatchASequentialPass) {
  // More than three of the reference's chunks (2^20 elements), with a ragged last one.
  const size_t n = (size_t(3) << 20) + 777;
  const auto bytes = random_bytes(n, 10);
  std::vector<int32_t> ints(n);
  std::vector<float> floats(n);
  for (size_t i = 0; i < n; ++i) {
    // -1e9 .. 1.295e9: the int32 sum would overflow (the product is taken in 64 bits: 255 * 9e6 is not an int32)
    ints[i] = static_cast<int32_t>(int64_t{bytes[i]} * 9000000 - 1000000000);
    floats[i] = bytes[i] / 256.0f - 0.375f;  // multiples of 2^-8: every sum exact in double
  }
  ints[n - 3] = INT32_MIN;
  floats[5] = 7.5f;
  int64_t sum = 0;
  double sum_f = 0;
  for (size_t i = 0; i < n; ++i) sum += ints[i], sum_f += floats[i];
  EXPECT_EQ(ref::reduce_sum(ints), sum);
  EXPECT_EQ(ref::reduce_sum(floats), sum_f);
  EXPECT_EQ(ref::reduce_min(ints), INT32_MIN);
  EXPECT_EQ(ref::reduce_max(ints), *std::max_element(ints.begin(), ints.end()));
  EXPECT_EQ(ref::reduce_min(floats), *std::min_element(floats.begin(), floats.end()));
  EXPECT_EQ(ref::reduce_max(floats), 7.5f);
}

TEST(HistogramReference, CountsAcrossChunks) {
  // More than two of the reference's chunks (2^22 pixels), with a ragged last one.
  const size_t n = (size_t(2) << 22) + 999;
  auto pixels = random_bytes(n, 11);
  std::fill(pixels.begin() + 1000, pixels.begin() + 300000, uint8_t(42));  // a flat run
  std::vector<uint32_t> want(256, 0);
  for (uint8_t p : pixels) ++want[p];
  EXPECT_EQ(ref::histogram256(pixels), want);
}

TEST(TransposeReference, MatchesIndexingWithRaggedBands) {
  // 150 rows: two of the reference's 64-row bands and a ragged third.
  const size_t w = 301, h = 150;
  std::vector<float> in(w * h);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) * 0.5f - 7.0f;
  const auto out = ref::transpose(in, w, h);
  ASSERT_EQ(out.size(), in.size());
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) ASSERT_EQ(out[x * h + y], in[y * w + x]) << x << "," << y;
}

TEST(FilledVector, HoldsTheValueEverywhere) {
  const size_t n = (size_t(5) << 20) + 3;  // several of its 16 MiB chunks of pages, and a ragged end
  const auto v = ref::filled_vector<uint32_t>(n, 0xA5A5A5A5u);
  ASSERT_EQ(v.size(), n);
  EXPECT_EQ(std::count(v.begin(), v.end(), 0xA5A5A5A5u), static_cast<long>(n));
  EXPECT_TRUE(ref::filled_vector<double>(0).empty());
}

TEST(HistogramAndTransposeReference, Basics) {
  const auto bins = ref::histogram256({0, 0, 255, 7});
  EXPECT_EQ(bins[0], 2u);
  EXPECT_EQ(bins[7], 1u);
  EXPECT_EQ(bins[255], 1u);
  // 2 x 3 (height x width) -> 3 x 2
  EXPECT_EQ(ref::transpose({1, 2, 3, 4, 5, 6}, 3, 2), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

}  // namespace
