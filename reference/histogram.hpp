// Host reference for L1/Histogram: 256-bin counts of 8-bit pixels.
#pragma once
#include <cstdint>
#include <vector>

namespace ref {

std::vector<uint32_t> histogram256(const std::vector<uint8_t>& pixels);

}  // namespace ref
