// L1/GEMM's pieces shared by its kernels (gemm.cpp) and its CLBlast variant (gemm_clblast.cpp):
// the problems of each size class, the operands on the device, and the verification of C.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_bench.hpp"
#include "reference/gemm.hpp"

namespace gemm {

// C (m x n) = A (m x k) * B (k x n), row-major.
struct Shape {
  size_t m, n, k;
  bool operator==(const Shape& o) const { return m == o.m && n == o.n && k == o.k; }
};

// The square sizes of a size class, then non-square ones that are no multiple of any tile
// (nor, for some, of 4: their rows are padded, see kAlign).
std::vector<Shape> problems(int size_class);
// The one problem of a size class where the work-group shapes are swept.
Shape sweep_problem(int size_class);

// Leading dimensions are rounded up to a multiple of kAlign elements, so every row starts
// aligned for 4-wide vector loads; the padding holds zeros and is never part of C's check.
constexpr size_t kAlign = 4;

template <typename T>
const char* type_name();  // "float", "double"

// "L1/GEMM/<variant>/type:float/m:../n:../k:../wg:16x16/size:3"; no wg part when wg is empty.
// `group_key` names that part ("warps" for a grid of warps).
std::string bench_name(const std::string& variant, const char* type, const Shape& s,
                       const std::string& wg, int size_class, const std::string& group_key = "wg");

// Why the three matrices (and a variant's own buffer of `extra_bytes`) don't fit this device
// (allocation limit, half its memory), if so.
std::optional<std::string> too_big(const Shape& s, size_t element_bytes, uint64_t extra_bytes = 0);

// 2*m*n*k FLOPs; bytes: A and B read once and C written once (the compulsory traffic).
gb::Work work(const Shape& s, size_t element_bytes);

// One variant's state on a problem's operands.
struct Run {
  cl::Kernel kernel;
  cl::NDRange global, local;
  cl::Buffer scratch;  // a library's temporary buffer
  cl::Kernel pre;      // run before `kernel` in each unit, if set (warptile_async's transpose of A)
  cl::NDRange pre_global, pre_local;
  bool skip_kernel = false;  // `kernel` has no groups: only the split launch runs (mma)
  cl::Kernel split, reduce;  // run after `kernel`, if set (mma's last wave split along K, then summed)
  cl::NDRange split_global, reduce_global, reduce_local;
  cl::Buffer partial;        // the split groups' partial blocks
  size_t partial_bytes = 0;
};

template <typename T>
struct Fixture {
  Shape s;
  size_t lda, ldb, ldc;
  std::vector<T> a, b;  // host copies, padded rows as on the device
  cl::Buffer da, db, dc;
  std::map<std::string, Run> runs;  // by benchmark name (gb::name_key): variant and work group
  cl::Buffer at;  // A transposed, written by warptile_async's first kernel (the same for every group)
  // What the checks compare against depends only on A and B: made by the first check, then
  // shared by every variant and work group of the problem.
  struct Expected {
    std::vector<double> x, a_b_x;           // Freivalds: random x, and A (B x)
    std::vector<ref::Entry> where;          // sampled entries of C
    std::vector<double> want, scale;
    std::vector<double> full, full_scale;   // small problems: all of A*B and of |A||B|
  };
  mutable std::shared_ptr<const Expected> expected;
  size_t c_bytes() const { return s.m * ldc * sizeof(T); }
};

// Cached per (type, shape), keyed by the benchmark name without its variant and work group:
// every variant and work group of one problem, in this file or in gemm_clblast.cpp, shares the
// operands (random A and B, made and uploaded once).
template <typename T>
Fixture<T>& fixture(const Shape& s);

// C read back and checked against reference/gemm: Freivalds' check (C x against A (B x) for a
// random x), a sample of entries against their double-precision value (error over
// sum_k |a_ik||b_kj|), and for problems up to kFullCheck in every dimension every entry of C
// against Eigen's product, each within the margin times its sum_k |a_ik||b_kj| (one wrong entry
// fails). Margin: 16 eps sqrt(k), eps of T.
constexpr size_t kFullCheck = 512;
template <typename T>
gb::Check verify(const Fixture<T>& fx);

}  // namespace gemm
