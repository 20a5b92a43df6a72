// The reference kernel's folds, pass by pass, element by element, over blocks of work items.
#include "interference.hpp"

#include <algorithm>
#include <stdexcept>

#include "parallel.hpp"

namespace ref {

std::vector<uint32_t> interference_stream(const std::vector<uint32_t>& in, size_t items, unsigned passes,
                                          unsigned shift) {
  const size_t n = in.size();
  if (n == 0 || (n & (n - 1)) != 0 || items == 0) throw std::invalid_argument("interference_stream: n a power of two, items > 0");
  std::vector<uint32_t> acc(items);
  // Work items in blocks: each block walks every pass and step in the kernel's order, its items
  // side by side (contiguous loads), independent of the other blocks.
  constexpr size_t kBlock = 4096;
  const size_t blocks = (items + kBlock - 1) / kBlock;
  parallel_for(blocks, [&](size_t b) {
    const size_t first = b * kBlock, last = std::min(items, first + kBlock);
    for (size_t w = first; w < last; ++w) acc[w] = static_cast<uint32_t>(w);
    for (unsigned p = 0; p < passes; ++p) {
      const size_t offset = static_cast<size_t>(p) * shift;
      for (size_t start = 0; start < n; start += items)
        for (size_t w = first; w < last && start + w < n; ++w)
          acc[w] = acc[w] * 3u + in[(start + w + offset) & (n - 1)];
    }
  });
  return acc;
}

}  // namespace ref
