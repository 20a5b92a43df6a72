// Host references for L0/GlobalBandwidth: per-work-item read sums (in double), the write pattern,
// and STREAM triad, split over the host's cores. Layouts follow kernels/l0/global_bandwidth.cl.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

struct BandwidthLayout {
  size_t width;       // floats per element (TYPE's lanes)
  size_t items;       // elements per work item
  size_t work_items;  // elements in the buffer / items
  bool strided;       // contiguous run per work item instead of grid-walking
  size_t group = 0;   // blocked: work-group size whose chunk is contiguous (0: not blocked)
};

// The sum each work item's loads produce (in double).
std::vector<double> bandwidth_read_sums(const std::vector<float>& in, const BandwidthLayout& l);
// The persistent read: work item g sums elements g, g + work_items, ... (width floats each).
std::vector<double> bandwidth_read_sums_grid(const std::vector<float>& in, size_t width, size_t work_items);
// The persistent read over `passes`: in pass p, work item g walks the lane of work item
// (g + p * group) % work_items (the work groups rotate by one per pass, so every pass adds
// different elements to a work item's sum and fewer passes, scaled, cannot match).
std::vector<double> bandwidth_read_sums_persistent(const std::vector<float>& in, size_t width, size_t work_items,
                                                   size_t group, unsigned passes);
// What global_bandwidth_write stores: scrambled(element index) + lane, in float, as the kernel.
std::vector<float> bandwidth_write_pattern(size_t floats, size_t width);
// global_bandwidth_copy_tiles: input tile (tx, ty) of tile x tile floats (height rows of width)
// copied unchanged to tile (ty, tx) of the output (width rows of height).
std::vector<float> tiles_transposed(const std::vector<float>& in, size_t width, size_t height, size_t tile);
// a = b + scalar * c
std::vector<float> stream_triad(const std::vector<float>& b, const std::vector<float>& c, float scalar);

}  // namespace ref
