// References for the scan case (Eigen has no prefix sum): chunks of the input summed in parallel,
// the chunk totals scanned in order, then each chunk scanned from its offset in parallel.
#include "scan.hpp"

#include <algorithm>

#include "parallel.hpp"

namespace ref {

namespace {

// Exclusive scan in Acc (uint32: wraps like the device; double: near-exact for float inputs).
template <typename Acc, typename In, typename Out>
std::vector<Out> chunked_exclusive_scan(const std::vector<In>& in) {
  constexpr size_t kChunk = size_t(1) << 20;
  const size_t n = in.size(), chunks = (n + kChunk - 1) / kChunk;
  std::vector<Acc> offsets(chunks, Acc(0));
  parallel_for(chunks, [&](size_t c) {
    Acc sum = 0;
    for (size_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) sum += static_cast<Acc>(in[i]);
    offsets[c] = sum;
  });
  Acc running = 0;
  for (Acc& o : offsets) {
    const Acc total = o;
    o = running;
    running += total;
  }
  std::vector<Out> out = filled_vector<Out>(n);
  parallel_for(chunks, [&](size_t c) {
    Acc sum = offsets[c];
    for (size_t i = c * kChunk, end = std::min(n, i + kChunk); i < end; ++i) {
      out[i] = static_cast<Out>(sum);
      sum += static_cast<Acc>(in[i]);
    }
  });
  return out;
}

}  // namespace

std::vector<int32_t> exclusive_scan(const std::vector<int32_t>& in) {
  return chunked_exclusive_scan<uint32_t, int32_t, int32_t>(in);
}

std::vector<double> exclusive_scan(const std::vector<float>& in) {
  return chunked_exclusive_scan<double, float, double>(in);
}

}  // namespace ref
