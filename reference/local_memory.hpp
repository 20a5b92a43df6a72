// Host references for L0/LocalMemory and L0/ConstantMemory: what each lane of the read kernels
// sums, replayed in float in the kernels' order. Layouts follow kernels/l0/local_memory.cl and
// kernels/l0/constant_memory.cl.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

struct LocalRead {
  size_t width;   // floats per element
  size_t stride;  // STRIDE
  size_t warp;    // WARP
  size_t unroll;  // UNROLL
  size_t rotate;  // ROTATE
  size_t rounds;
};
size_t local_read_elements(const LocalRead& r);  // ELEMENTS
// The value lane l (0..warp-1) writes; `in` holds local_read_elements * width floats.
std::vector<float> local_read_lane_sums(const std::vector<float>& in, const LocalRead& r);

struct ConstantRead {
  size_t words;      // CONST_WORDS, a power of two
  size_t unroll;     // UNROLL
  size_t rounds;
  bool divergent;    // lane offset = local id, else 0
};
// The value work item `lid` of a group writes, for lid in 0..group_size-1.
std::vector<float> constant_read_sums(const std::vector<float>& table, const ConstantRead& r,
                                      size_t group_size);

}  // namespace ref
