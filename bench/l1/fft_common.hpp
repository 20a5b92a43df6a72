// What the FFT cases share (bench/l1/fft.cpp, fft2d.cpp, fft_libraries.cpp): the problems by size
// class and their names, declared work, inputs, and verification against reference/fft.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "gpu_bench.hpp"
#include "reference/fft.hpp"

namespace fft {

enum class Dir { forward, inverse };
inline const gb::Axis<Dir> kDir{"dir", {{Dir::forward, "forward"}, {Dir::inverse, "inverse"}}};
inline Dir opposite(Dir d) { return d == Dir::forward ? Dir::inverse : Dir::forward; }

// A batch of complex single-precision transforms: 1-D of length nx (ny == 1), or 2-D of ny rows
// of nx points (row-major). Data interleaved (re, im), each transform contiguous.
struct Problem {
  size_t nx = 0, ny = 1, batch = 1;
  Dir dir = Dir::forward;

  bool is_2d() const { return ny > 1; }
  size_t points_per_transform() const { return nx * ny; }
  size_t points() const { return nx * ny * batch; }
  size_t bytes() const { return points() * 8; }  // one buffer of float2
  // 5 N log2 N per transform (N = nx ny for 2-D), the usual convention for complex FFTs.
  double flops() const {
    const double n = static_cast<double>(points_per_transform());
    return 5.0 * n * std::log2(n) * static_cast<double>(batch);
  }
  // One read and one write of every point: the least any implementation moves.
  double bytes_per_pass() const { return 2.0 * static_cast<double>(bytes()); }
  std::string n_label() const {
    return is_2d() ? std::to_string(nx) + "x" + std::to_string(ny) : std::to_string(nx);
  }
};

// ---- sizes by class ------------------------------------------------------------------------
// 1-D: lengths 2^8..2^12 run in one kernel, longer ones in several passes; the batch makes the
// points per batch 2^20 (class 1, PoCL), 2^22, 2^26 (class 3: 1024 x 65536, 4096 x 16384,
// 2^20 x 64) and 2^27. 2-D: one transform of n x n (classes 3-4: up to 4096^2, 128 MiB).
inline std::vector<size_t> lengths_1d(int size_class) {
  switch (size_class) {
    case 1: return {256, 1024, 4096, 1u << 14};
    case 2: return {256, 512, 1024, 2048, 4096, 1u << 14, 1u << 16};
    case 3: return {256, 512, 1024, 2048, 4096, 1u << 14, 1u << 16, 1u << 20};
    default: return {256, 1024, 4096, 1u << 14, 1u << 16, 1u << 20, 1u << 22};
  }
}
inline size_t points_1d(int size_class) {
  static const size_t by_class[] = {size_t(1) << 20, size_t(1) << 22, size_t(1) << 26, size_t(1) << 27};
  return by_class[std::min(std::max(size_class, 1), 4) - 1];
}
inline std::vector<size_t> sizes_2d(int size_class) {
  switch (size_class) {
    case 1: return {256};
    case 2: return {256, 512, 1024};
    default: return {256, 512, 1024, 2048, 4096};
  }
}

inline Problem problem_1d(size_t n, Dir dir, int size_class) {
  return Problem{n, 1, std::max<size_t>(1, points_1d(size_class) / n), dir};
}
inline Problem problem_2d(size_t n, Dir dir) { return Problem{n, n, 1, dir}; }

// Why a device cannot hold the problem (empty if it can): the variant is then skipped. `buffers`:
// the variant's own; one more holds the upload its input is copied from (device_input).
inline std::string too_large(const Problem& p, int buffers) {
  return gb::memory_shortfall(std::vector<uint64_t>(buffers + 1, p.bytes()));
}

// "L1/FFT/<variant>/n:1024/batch:65536/dir:forward/size:3", "L1/FFT2D/<variant>/n:1024x1024/...".
inline std::string name(const std::string& variant, const Problem& p, int size_class,
                        std::initializer_list<std::pair<std::string, std::string>> extra = {}) {
  std::vector<std::pair<std::string, std::string>> axes{{"", variant}, {"n", p.n_label()}};
  if (!p.is_2d()) axes.emplace_back("batch", std::to_string(p.batch));
  axes.push_back(kDir.part(p.dir));
  axes.insert(axes.end(), extra.begin(), extra.end());
  axes.emplace_back("size", std::to_string(size_class));
  return gb::bench_name(p.is_2d() ? "L1/FFT2D" : "L1/FFT", axes);
}

// ---- inputs and verification ------------------------------------------------------------------
// Random input of a problem's size (the same for both directions and every variant), keyed by the
// benchmark's n: and batch: axes. Kept for the family's other variants, which sweep the same
// problems after this one (2^27 points take a quarter second to make and upload on 16 cores).
// `p` is the running benchmark's problem.
using Input = std::shared_ptr<const std::vector<float>>;
inline Input make_input(const Problem& p) {
  return gb::cached_host<const std::vector<float>>(
      gb::name_key_only({"n", "batch"}),
      [&] {
        return std::make_shared<const std::vector<float>>(
            gb::random_vector<float>(2 * p.points(), 0xFF7 + p.nx * 31 + p.ny * 7 + p.batch));
      },
      p.bytes());
}

// The input on the device, in a buffer of the variant's own: a copy on the device of one upload
// per input (kept like the input), since a host upload of 512 MiB per variant took longer than
// its samples, and a variant must not see what another left in a shared buffer.
inline cl::Buffer device_input(const Input& input, cl_mem_flags flags) {
  struct Uploaded {
    cl::Buffer buffer;
  };
  const std::string key = gb::name_key_only({"n", "batch"}) + "@" + std::to_string(reinterpret_cast<uintptr_t>(input->data()));
  const auto uploaded = gb::cached_host<Uploaded>(key, [&] { return std::make_shared<Uploaded>(Uploaded{gb::upload(*input)}); });
  const size_t bytes = input->size() * sizeof(float);
  cl::Buffer own = gb::make_buffer(bytes, flags);
  GB_CL(gb::session().queue().enqueueCopyBuffer(uploaded->buffer, own, 0, 0, bytes));
  GB_CL(gb::finish(gb::session().queue()));
  return own;
}

// Single-precision FFT error grows about like log2 N; the margins are per log2 N, measured on
// PoCL and wide enough for a GPU's fma contraction and approximate twiddles (native_sin/cos,
// which VkFFT uses on NVIDIA). A wrong index or twiddle gives an error near 1.
enum class Accuracy { exact_twiddles, approximate_twiddles };
inline double margin(const Problem& p, Accuracy a) {
  const double log2n = std::log2(static_cast<double>(p.points_per_transform()));
  return (a == Accuracy::exact_twiddles ? 1.5e-7 : 6e-7) * log2n;
}

// The batch members the forward/inverse check compares: all of them up to 2^20 points, else an
// even spread (first and last included) so that the host reference stays about a second.
inline std::vector<size_t> sampled_members(const Problem& p) {
  const size_t budget = std::max<size_t>(1, (size_t(1) << 20) / p.points_per_transform());
  const size_t count = std::min(p.batch, budget);
  std::vector<size_t> which(count);
  for (size_t k = 0; k < count; ++k) which[k] = count == 1 ? 0 : k * (p.batch - 1) / (count - 1);
  return which;
}

// Eigen's FFT (in double) of the sampled members of the current input, in the problem's direction.
// Kept like the input, both directions side by side, since every variant of a problem, the
// libraries' included, compares against the same transforms, and the variants alternate forward
// and inverse (a 4096^2 reference takes seconds): keyed by the benchmark's n: and batch: axes and
// the input they were made from.
// Beside each, the RMS of each transform's values (what the element-wise bounds scale with), and
// the input's: computed once per problem rather than once per check (a pass over 2^27 values).
struct ExpectedTransforms {
  std::shared_ptr<const std::vector<double>> by_dir[2];  // forward, inverse: made when first asked
  std::shared_ptr<const std::vector<double>> rms_by_dir[2];
  std::shared_ptr<const std::vector<double>> input_rms;
};

// The RMS of each block of `block` values of `values`, on every core.
template <typename Values>
std::vector<double> block_rms(const Values& values, size_t block) {
  const size_t blocks = (values.size() + block - 1) / block;
  std::vector<double> rms(blocks);
  gb::parallel_blocks(blocks, [&](size_t b) {
    double sq = 0;
    const size_t end = std::min(values.size(), (b + 1) * block);
    for (size_t i = b * block; i < end; ++i) sq += static_cast<double>(values[i]) * static_cast<double>(values[i]);
    rms[b] = std::sqrt(sq / static_cast<double>(end - b * block));
  });
  return rms;
}
inline std::shared_ptr<ExpectedTransforms> expected_transforms(const Problem& p, const std::vector<float>& input) {
  const std::string key = gb::name_key_only({"n", "batch"}) + "@" + std::to_string(reinterpret_cast<uintptr_t>(input.data()));
  // What the two directions will hold (complex doubles) and the RMS lists.
  const size_t points = p.is_2d() ? p.points() : sampled_members(p).size() * p.points_per_transform();
  const size_t bytes = 2 * points * 2 * sizeof(double) + 3 * p.batch * sizeof(double);
  return gb::cached_host<ExpectedTransforms>(key, [] { return std::make_shared<ExpectedTransforms>(); }, bytes);
}
inline std::shared_ptr<const std::vector<double>> expected_transform(const Problem& p, const std::vector<float>& input) {
  auto both = expected_transforms(p, input);
  auto& t = both->by_dir[p.dir == Dir::inverse ? 1 : 0];
  if (!t)
    t = std::make_shared<const std::vector<double>>(
        p.is_2d() ? ref::fft_2d(input, p.nx, p.ny, p.batch, p.dir == Dir::inverse)
                  : ref::fft_1d(input, p.nx, sampled_members(p), p.dir == Dir::inverse));
  return t;
}

// Element-wise against `want`, transform by transform (blocks of `block` floats): every value
// within margin x the RMS of its transform's values x kTail. The margin bounds the relative L2
// error of a transform; spread over its points, an error stays within a few times the RMS (the
// largest of 2^16 Gaussian errors is about 4.5 of their RMS: kTail leaves room), while one wrong
// point (a dropped term, a wrong twiddle or index) is off by about its inputs' size, far above,
// and no longer hides among the 2^20 points a relative L2 error sums over.
constexpr double kTail = 16;
template <typename Got, typename Want>
gb::Check check_points(const Got& got, const Want& want, size_t block, double margin, const std::vector<double>& rms,
                       const std::string& what) {
  gb::BlockBounds bounds{block, std::vector<double>(rms.size())};
  for (size_t t = 0; t < rms.size(); ++t) bounds.per_block[t] = kTail * margin * rms[t];
  return gb::check_bounded(got, want, bounds, what);
}

// The RMS per transform of a reference direction or of the input, made once per problem.
template <typename Values>
const std::vector<double>& cached_rms(std::shared_ptr<const std::vector<double>>& slot, const Values& values,
                                      size_t block) {
  if (!slot) slot = std::make_shared<const std::vector<double>>(block_rms(values, block));
  return *slot;
}

// Device output of the sampled members against Eigen's FFT (in double) of the same input.
// Output: a std::vector<float> or a gb::HostSpan<float> (a read-back).
template <typename Output>
gb::Check check_transform(const Problem& p, const std::vector<float>& input, const Output& output, Accuracy a) {
  const std::string what = std::string(kDir.label(p.dir)) + " transform vs Eigen FFT";
  const size_t floats = 2 * p.points_per_transform();
  const auto want = expected_transform(p, input);
  auto both = expected_transforms(p, input);
  const auto& rms = cached_rms(both->rms_by_dir[p.dir == Dir::inverse ? 1 : 0], *want, floats);
  if (p.is_2d()) return check_points(output, *want, floats, margin(p, a), rms, what);
  const auto which = sampled_members(p);
  std::vector<float> got;
  got.reserve(floats * which.size());
  for (size_t b : which) got.insert(got.end(), output.begin() + b * floats, output.begin() + (b + 1) * floats);
  return check_points(got, *want, floats, margin(p, a), rms, what);
}

// The opposite transform (scaled so the pair is the identity) applied to the output gives the
// input back: two transforms' worth of error.
template <typename Output>
gb::Check check_round_trip(const Problem& p, const std::vector<float>& input, const Output& round_trip, Accuracy a) {
  const size_t floats = 2 * p.points_per_transform();
  const auto& rms = cached_rms(expected_transforms(p, input)->input_rms, input, floats);
  return check_points(round_trip, input, floats, 2 * margin(p, a), rms,
                      std::string(kDir.label(p.dir)) + " then " + kDir.label(opposite(p.dir)) + " round trip vs input");
}

// Both checks, worst one reported.
template <typename Output>
gb::Check check_all(const Problem& p, const std::vector<float>& input, const Output& output, const Output& round_trip,
                    Accuracy a) {
  return gb::worst({check_transform(p, input, output, a), check_round_trip(p, input, round_trip, a)});
}

// Declared work of one run: `passes` reads and writes of the data. passes = 0 for the libraries,
// whose passes are their own: their bytes count one read and one write, the least possible.
inline gb::Measurement with_work(gb::Measurement m, const Problem& p, int passes) {
  m.work(gb::Work().bytes(p.bytes_per_pass() * std::max(passes, 1)).flops(p.flops()).items(static_cast<double>(p.batch)));
  if (passes > 0) m.counter("passes", passes);
  m.counter("bytes_per_pass", p.bytes_per_pass());
  return m;
}

}  // namespace fft
