// Host references for L0/WorkGroup: the 5-point stencil with clamped edges, a * x + y, the barrier
// kernel's exchange rounds within each work group, and the chains of live values. Plain loops;
// the stencil and a * x + y in double (exact for the case's inputs), the integer kernels exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

// out(x, y) = c / 2 + (left + right + up + down) / 8, neighbours clamped to the image; row-major.
std::vector<float> stencil5(const std::vector<float>& in, size_t width, size_t height);

// out_i = a * x_i + y_i.
std::vector<float> scale_add(float a, const std::vector<float>& x, const std::vector<float>& y);

// The barrier kernel: work items in groups of `group`, item i starting from in[i] (in holds the
// padded grid, at least n rounded up to `group`); each round every item publishes its value, then
// v = v * 0x9E3779B1 + (v_right ^ (v_mirror >> 3)) with right = (lid + 1) mod group and mirror
// = group - 1 - lid, in 32-bit wraparound. Returns the first n items' values.
std::vector<uint32_t> barrier_exchange(const std::vector<uint32_t>& in, size_t n, size_t group, int rounds);

// The live-value kernel's result for work item `gid`: `live` values from a hash of (gid, i), then
// `repeats` times x_i = x_i * m + x_{(i+1) mod live} for i = 0..live-1 in turn (the last one reads
// the new x_0), then s = (s ^ x_i) * 0x01000193 over i from s = 0; the top bit cleared.
uint32_t live_chain(uint32_t gid, int live, int repeats, uint32_t m);

}  // namespace ref
