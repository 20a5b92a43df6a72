// References for the reduction case: Eigen over fixed chunks of the input, split over the host's
// cores, the chunk results combined in order (the same result whatever the number of cores).
#include "reduction.hpp"

#include <Eigen/Dense>
#include <algorithm>

#include "parallel.hpp"

namespace ref {

namespace {
template <typename T>
Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> view(const T* data, size_t n) {
  return {data, static_cast<Eigen::Index>(n)};
}

// chunk(first element, count) per chunk of kChunk elements, then combine(a, b) from the left.
template <typename R, typename T, typename Chunk, typename Combine>
R chunked(const std::vector<T>& in, const Chunk& chunk, const Combine& combine) {
  constexpr size_t kChunk = size_t(1) << 20;
  const size_t chunks = std::max<size_t>(1, (in.size() + kChunk - 1) / kChunk);
  std::vector<R> partial(chunks);
  parallel_for(chunks, [&](size_t c) {
    const size_t begin = std::min(in.size(), c * kChunk);
    partial[c] = chunk(in.data() + begin, std::min(kChunk, in.size() - begin));
  });
  R result = partial[0];
  for (size_t c = 1; c < chunks; ++c) result = combine(result, partial[c]);
  return result;
}

template <typename R, typename T>
R sum(const std::vector<T>& in) {
  return chunked<R>(in, [](const T* p, size_t n) { return view(p, n).template cast<R>().sum(); },
                    [](R a, R b) { return a + b; });
}
template <typename T>
T min(const std::vector<T>& in) {
  return chunked<T>(in, [](const T* p, size_t n) { return view(p, n).minCoeff(); },
                    [](T a, T b) { return std::min(a, b); });
}
template <typename T>
T max(const std::vector<T>& in) {
  return chunked<T>(in, [](const T* p, size_t n) { return view(p, n).maxCoeff(); },
                    [](T a, T b) { return std::max(a, b); });
}
}  // namespace

double reduce_sum(const std::vector<float>& in) { return sum<double>(in); }
int64_t reduce_sum(const std::vector<int32_t>& in) { return sum<int64_t>(in); }
float reduce_min(const std::vector<float>& in) { return min(in); }
int32_t reduce_min(const std::vector<int32_t>& in) { return min(in); }
float reduce_max(const std::vector<float>& in) { return max(in); }
int32_t reduce_max(const std::vector<int32_t>& in) { return max(in); }

}  // namespace ref
