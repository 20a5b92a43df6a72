// Eigen references for the matrix-multiply case.
#include "gemm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <random>

#include "parallel.hpp"

namespace ref {

namespace {
template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
Eigen::Map<const RowMajor<T>, Eigen::Unaligned, Eigen::OuterStride<>> view(const MatrixRef<T>& m) {
  return {m.data, static_cast<Eigen::Index>(m.rows), static_cast<Eigen::Index>(m.cols),
          Eigen::OuterStride<>(static_cast<Eigen::Index>(m.ld))};
}
}  // namespace

template <typename T>
std::vector<double> gemm_full(const MatrixRef<T>& a, const MatrixRef<T>& b) {
  std::vector<double> c(a.rows * b.cols);
  Eigen::Map<RowMajor<double>> out(c.data(), a.rows, b.cols);
  out.noalias() = view(a).template cast<double>() * view(b).template cast<double>();
  return c;
}

template <typename T>
std::vector<double> gemm_full_abs(const MatrixRef<T>& a, const MatrixRef<T>& b) {
  std::vector<double> c(a.rows * b.cols);
  Eigen::Map<RowMajor<double>> out(c.data(), a.rows, b.cols);
  out.noalias() = view(a).template cast<double>().cwiseAbs() * view(b).template cast<double>().cwiseAbs();
  return c;
}

// Rows (and entries) are independent: split over the host's cores, each value computed as before.
template <typename T>
std::vector<double> matvec(const MatrixRef<T>& m, const std::vector<double>& x) {
  const auto mv = view(m);
  Eigen::Map<const Eigen::RowVectorXd> xv(x.data(), static_cast<Eigen::Index>(x.size()));
  std::vector<double> y(m.rows);
  constexpr size_t kRows = 64;
  parallel_for((m.rows + kRows - 1) / kRows, [&](size_t block) {
    for (size_t i = block * kRows, end = std::min(m.rows, i + kRows); i < end; ++i)
      y[i] = mv.row(static_cast<Eigen::Index>(i)).template cast<double>().dot(xv);
  });
  return y;
}

template <typename T>
void gemm_entries(const MatrixRef<T>& a, const MatrixRef<T>& b, const std::vector<Entry>& where,
                  std::vector<double>& value, std::vector<double>& scale) {
  const auto av = view(a);
  const auto bv = view(b);
  value.resize(where.size());
  scale.resize(where.size());
  parallel_for(where.size(), [&](size_t e) {
    const Eigen::ArrayXd ai = av.row(where[e].row).transpose().template cast<double>().array();
    const Eigen::ArrayXd bj = bv.col(where[e].col).template cast<double>().array();
    value[e] = (ai * bj).sum();
    scale[e] = (ai.abs() * bj.abs()).sum();
  });
}

std::vector<Entry> sample_entries(size_t rows, size_t cols, size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> row(0, rows - 1), col(0, cols - 1);
  std::vector<Entry> out = {{0, 0}, {0, cols - 1}, {rows - 1, 0}, {rows - 1, cols - 1}};
  for (size_t i = 0; i < count; ++i) out.push_back({row(rng), col(rng)});
  for (size_t i = 0; i < count / 8; ++i) out.push_back({rows - 1, col(rng)});
  for (size_t i = 0; i < count / 8; ++i) out.push_back({row(rng), cols - 1});
  return out;
}

template std::vector<double> gemm_full(const MatrixRef<float>&, const MatrixRef<float>&);
template std::vector<double> gemm_full(const MatrixRef<double>&, const MatrixRef<double>&);
template std::vector<double> gemm_full_abs(const MatrixRef<float>&, const MatrixRef<float>&);
template std::vector<double> gemm_full_abs(const MatrixRef<double>&, const MatrixRef<double>&);
template std::vector<double> matvec(const MatrixRef<float>&, const std::vector<double>&);
template std::vector<double> matvec(const MatrixRef<double>&, const std::vector<double>&);
template void gemm_entries(const MatrixRef<float>&, const MatrixRef<float>&,
                           const std::vector<Entry>&, std::vector<double>&, std::vector<double>&);
template void gemm_entries(const MatrixRef<double>&, const MatrixRef<double>&,
                           const std::vector<Entry>&, std::vector<double>&, std::vector<double>&);

}  // namespace ref
