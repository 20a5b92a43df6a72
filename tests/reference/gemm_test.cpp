// reference/gemm: the full product, Freivalds' matrix-vector products and sampled entries, on
// small padded row-major matrices against a plain triple loop.
#include "reference/gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

// rows x ld, random up to cols, zeros beyond (as the GEMM case lays out its operands).
std::vector<float> padded(size_t rows, size_t cols, size_t ld, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(rows * ld, 0.0f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) v[r * ld + c] = dist(rng);
  return v;
}

std::vector<double> triple_loop(const ref::MatrixRef<float>& a, const ref::MatrixRef<float>& b) {
  std::vector<double> c(a.rows * b.cols, 0.0);
  for (size_t i = 0; i < a.rows; ++i)
    for (size_t j = 0; j < b.cols; ++j)
      for (size_t k = 0; k < a.cols; ++k)
        c[i * b.cols + j] += double(a.data[i * a.ld + k]) * double(b.data[k * b.ld + j]);
  return c;
}

double relative(const std::vector<double>& got, const std::vector<double>& want) {
  double d = 0, n = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    d += (got[i] - want[i]) * (got[i] - want[i]);
    n += want[i] * want[i];
  }
  return std::sqrt(d / n);
}

struct Operands {
  size_t m = 13, n = 11, k = 7;
  std::vector<float> a = padded(13, 7, 8, 1), b = padded(7, 11, 12, 2);
  ref::MatrixRef<float> av{a.data(), m, k, 8}, bv{b.data(), k, n, 12};
};

TEST(GemmReference, FullProductMatchesTripleLoop) {
  Operands o;
  EXPECT_LT(relative(ref::gemm_full(o.av, o.bv), triple_loop(o.av, o.bv)), 1e-12);
}

TEST(GemmReference, FreivaldsVectorsAgreeForTheTrueProductOnly) {
  Operands o;
  std::vector<double> c = triple_loop(o.av, o.bv);
  std::vector<float> cf(c.begin(), c.end());
  const ref::MatrixRef<float> cv{cf.data(), o.m, o.n, o.n};
  std::vector<double> x(o.n);
  for (size_t j = 0; j < o.n; ++j) x[j] = std::sin(1.0 + j);
  const std::vector<double> abx = ref::matvec(o.av, ref::matvec(o.bv, x));
  EXPECT_LT(relative(ref::matvec(cv, x), abx), 1e-6);
  cf[5 * o.n + 3] += 0.5f;  // one wrong entry
  EXPECT_GT(relative(ref::matvec(cv, x), abx), 1e-3);
}

TEST(GemmReference, EntriesAndTheirErrorScale) {
  Operands o;
  const std::vector<double> c = triple_loop(o.av, o.bv);
  const std::vector<ref::Entry> where = {{0, 0}, {12, 10}, {4, 7}};
  std::vector<double> value, scale;
  ref::gemm_entries(o.av, o.bv, where, value, scale);
  for (size_t e = 0; e < where.size(); ++e) {
    EXPECT_NEAR(value[e], c[where[e].row * o.n + where[e].col], 1e-12);
    EXPECT_GE(scale[e], std::abs(value[e]));
  }
}

TEST(GemmReference, MatvecAndEntriesAcrossParallelBlocks) {
  // 200 rows: more than three of matvec's 64-row blocks; 300 sampled entries.
  const size_t m = 200, n = 45, k = 33;
  std::vector<float> a = padded(m, k, 36, 3), b = padded(k, n, 48, 4);
  const ref::MatrixRef<float> av{a.data(), m, k, 36}, bv{b.data(), k, n, 48};
  const std::vector<double> c = triple_loop(av, bv);
  std::vector<double> x(n);
  for (size_t j = 0; j < n; ++j) x[j] = std::cos(0.5 + j);
  std::vector<double> cx(m, 0.0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) cx[i] += c[i * n + j] * x[j];
  EXPECT_LT(relative(ref::matvec(av, ref::matvec(bv, x)), cx), 1e-12);
  const auto where = ref::sample_entries(m, n, 300, 5);
  std::vector<double> value, scale;
  ref::gemm_entries(av, bv, where, value, scale);
  ASSERT_EQ(value.size(), where.size());
  for (size_t e = 0; e < where.size(); ++e) {
    ASSERT_NEAR(value[e], c[where[e].row * n + where[e].col], 1e-12) << e;
    ASSERT_GE(scale[e], std::abs(value[e])) << e;
  }
}

TEST(GemmReference, SampleCoversCornersAndEdgesDeterministically) {
  const auto s = ref::sample_entries(100, 30, 64, 7);
  ASSERT_EQ(s.size(), 4u + 64 + 8 + 8);
  EXPECT_EQ(s[3].row, 99u);
  EXPECT_EQ(s[3].col, 29u);
  size_t last_row = 0, last_col = 0;
  for (const auto& e : s) {
    EXPECT_LT(e.row, 100u);
    EXPECT_LT(e.col, 30u);
    last_row += e.row == 99;
    last_col += e.col == 29;
  }
  EXPECT_GE(last_row, 8u);
  EXPECT_GE(last_col, 8u);
  const auto again = ref::sample_entries(100, 30, 64, 7);
  for (size_t i = 0; i < s.size(); ++i)
    EXPECT_TRUE(s[i].row == again[i].row && s[i].col == again[i].col);
}

}  // namespace
