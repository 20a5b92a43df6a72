// Host references for L1/GEMM, in Eigen with double accumulation: the full product (small
// problems), the matrix-vector products of Freivalds' check, and single entries of A*B with
// the scale of their rounding error. Matrices are row-major with a leading dimension.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

template <typename T>
struct MatrixRef {
  const T* data;
  size_t rows, cols, ld;  // ld >= cols: elements from one row's start to the next's
};

// A*B, rows x cols of the result, dense (leading dimension b.cols).
template <typename T>
std::vector<double> gemm_full(const MatrixRef<T>& a, const MatrixRef<T>& b);

// |A| |B| (element-wise magnitudes), dense: each entry's sum_k |a_ik| |b_kj|, the scale of its
// rounding error.
template <typename T>
std::vector<double> gemm_full_abs(const MatrixRef<T>& a, const MatrixRef<T>& b);

// M x, accumulated in double row by row (no copy of M is made, so it suits large matrices).
// Freivalds' check compares C x with A (B x): two matrix-vector products instead of a GEMM.
template <typename T>
std::vector<double> matvec(const MatrixRef<T>& m, const std::vector<double>& x);

struct Entry {
  size_t row, col;
};

// Entries of A*B and, for each, sum_k |a_ik| |b_kj|: the rounding error of any summation order
// is bounded by a small multiple of eps * k times that scale (the classic dot-product bound).
template <typename T>
void gemm_entries(const MatrixRef<T>& a, const MatrixRef<T>& b, const std::vector<Entry>& where,
                  std::vector<double>& value, std::vector<double>& scale);

// `count` random positions of a rows x cols matrix, plus its four corners and count/8 each
// on the last row and the last column, where partial tiles are. Deterministic per seed.
std::vector<Entry> sample_entries(size_t rows, size_t cols, size_t count, uint64_t seed);

}  // namespace ref
