// References for the global bandwidth case: plain loops over blocks of work items or elements,
// split over the host's cores (buffers are a gigabyte at size 3).
#include "global_bandwidth.hpp"

#include <algorithm>

#include "parallel.hpp"

namespace ref {

namespace {

constexpr size_t kItemBlock = 2048;           // work items per task
constexpr size_t kFloatBlock = size_t(1) << 20;  // floats per task

// Work item gid loads elements first(gid) + i * step (i < items, `width` floats each): its sum is
// each lane summed over i in order, then the lanes in order, in double. Within a task the loads run
// over i, then work items, so that neighbouring work items' elements (coalesced) are read together.
template <typename First>
std::vector<double> strided_sums(const std::vector<float>& in, size_t width, size_t items, size_t work_items,
                                 size_t step, const First& first) {
  std::vector<double> sums(work_items);
  parallel_for((work_items + kItemBlock - 1) / kItemBlock, [&](size_t block) {
    const size_t begin = block * kItemBlock, n = std::min(kItemBlock, work_items - begin);
    std::vector<double> lanes(n * width, 0.0);
    for (size_t i = 0; i < items; ++i)
      for (size_t g = 0; g < n; ++g) {
        const float* e = in.data() + (first(begin + g) + i * step) * width;
        double* acc = lanes.data() + g * width;
        for (size_t k = 0; k < width; ++k) acc[k] += e[k];
      }
    for (size_t g = 0; g < n; ++g) {
      double sum = 0;
      for (size_t k = 0; k < width; ++k) sum += lanes[g * width + k];
      sums[begin + g] = sum;
    }
  });
  return sums;
}

}  // namespace

std::vector<double> bandwidth_read_sums(const std::vector<float>& in, const BandwidthLayout& l) {
  const size_t n = l.work_items;
  if (l.group > 0) {
    // Each work group's chunk is laid out as the coalesced case with `group` work items.
    const size_t g = l.group;
    return strided_sums(in, l.width, l.items, n, g,
                        [&](size_t gid) { return gid / g * g * l.items + gid % g; });
  }
  if (l.strided)  // element gid * items + i: a contiguous run per work item
    return strided_sums(in, l.width, l.items, n, 1, [&](size_t gid) { return gid * l.items; });
  return strided_sums(in, l.width, l.items, n, n, [](size_t gid) { return gid; });  // element i * n + gid
}

std::vector<double> bandwidth_read_sums_grid(const std::vector<float>& in, size_t width, size_t work_items) {
  // Work item g sums elements g, g + work_items, ...: the coalesced layout, with the last pass over
  // the grid ragged (work items past the end of the buffer take one element fewer).
  const size_t elements = in.size() / width;
  std::vector<double> sums(work_items, 0.0);
  parallel_for((work_items + kItemBlock - 1) / kItemBlock, [&](size_t block) {
    const size_t begin = block * kItemBlock, end = std::min(work_items, begin + kItemBlock);
    for (size_t row = 0; row * work_items + begin < elements; ++row)
      for (size_t g = begin; g < end && row * work_items + g < elements; ++g) {
        const float* e = in.data() + (row * work_items + g) * width;
        double lanes = 0;
        for (size_t k = 0; k < width; ++k) lanes += e[k];
        sums[g] += lanes;
      }
  });
  return sums;
}

std::vector<double> bandwidth_read_sums_persistent(const std::vector<float>& in, size_t width, size_t work_items,
                                                   size_t group, unsigned passes) {
  const std::vector<double> lane = bandwidth_read_sums_grid(in, width, work_items);
  std::vector<double> sums(work_items, 0.0);
  for (size_t g = 0; g < work_items; ++g)
    for (unsigned p = 0; p < passes; ++p) sums[g] += lane[(g + p * group) % work_items];
  return sums;
}

std::vector<float> bandwidth_write_pattern(size_t floats, size_t width) {
  std::vector<float> out = filled_vector<float>(floats);
  const size_t elements = (floats + width - 1) / width;
  parallel_for((elements + kFloatBlock - 1) / kFloatBlock, [&](size_t block) {
    const size_t begin = block * kFloatBlock, end = std::min(elements, begin + kFloatBlock);
    for (size_t element = begin; element < end; ++element) {
      const float scrambled = static_cast<float>((static_cast<uint32_t>(element) * 2654435761u) >> 8) * 0x1p-24f;
      const size_t lanes = std::min(width, floats - element * width);
      for (size_t k = 0; k < lanes; ++k) out[element * width + k] = scrambled + static_cast<float>(k);
    }
  });
  return out;
}

std::vector<float> stream_triad(const std::vector<float>& b, const std::vector<float>& c, float scalar) {
  std::vector<float> a = filled_vector<float>(b.size());
  parallel_for((b.size() + kFloatBlock - 1) / kFloatBlock, [&](size_t block) {
    const size_t begin = block * kFloatBlock, end = std::min(b.size(), begin + kFloatBlock);
    for (size_t i = begin; i < end; ++i) a[i] = b[i] + scalar * c[i];
  });
  return a;
}

std::vector<float> tiles_transposed(const std::vector<float>& in, size_t width, size_t height, size_t tile) {
  std::vector<float> out = filled_vector<float>(in.size());
  parallel_for(height, [&](size_t y) {  // input row y: its tiles' rows land in output rows x .. x + tile
    const size_t ty = y / tile * tile, r = y % tile;
    for (size_t tx = 0; tx < width; tx += tile)
      std::copy_n(&in[y * width + tx], tile, &out[(tx + r) * height + ty]);
  });
  return out;
}

}  // namespace ref
