// Host reference for L0/Interference: what the reference kernel (interference_stream in
// kernels/l0/interference.cl) writes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

// For each of `items` work items w: acc = w, then for each pass p and each element i = w, w +
// items, ... below in.size() (a power of two), acc = acc * 3 + in[(i + p * shift) mod in.size()],
// in unsigned 32-bit arithmetic.
std::vector<uint32_t> interference_stream(const std::vector<uint32_t>& in, size_t items, unsigned passes,
                                          unsigned shift);

}  // namespace ref
