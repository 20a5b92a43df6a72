// Reference for the histogram case: counting loops (no Eigen needed for counting), one histogram
// per chunk of pixels, split over the host's cores, then added.
#include "histogram.hpp"

#include <algorithm>
#include <cstddef>

#include "parallel.hpp"

namespace ref {

std::vector<uint32_t> histogram256(const std::vector<uint8_t>& pixels) {
  constexpr size_t kChunk = size_t(1) << 22;
  const size_t chunks = (pixels.size() + kChunk - 1) / kChunk;
  std::vector<uint32_t> partial(chunks * 256, 0);
  parallel_for(chunks, [&](size_t c) {
    // Four sub-histograms: runs of equal pixels (a flat image) would otherwise serialise on one bin.
    uint32_t bins[4][256] = {};
    const size_t begin = c * kChunk, end = std::min(pixels.size(), begin + kChunk);
    size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      ++bins[0][pixels[i]];
      ++bins[1][pixels[i + 1]];
      ++bins[2][pixels[i + 2]];
      ++bins[3][pixels[i + 3]];
    }
    for (; i < end; ++i) ++bins[0][pixels[i]];
    for (int b = 0; b < 256; ++b) partial[c * 256 + b] = bins[0][b] + bins[1][b] + bins[2][b] + bins[3][b];
  });
  std::vector<uint32_t> out(256, 0);
  for (size_t c = 0; c < chunks; ++c)
    for (int b = 0; b < 256; ++b) out[b] += partial[c * 256 + b];
  return out;
}

}  // namespace ref
