// Host references for L1/IntegralImage: inclusive integral images of an 8-bit image (same size,
// no zero border), the sum in wrapping uint32 as the device's, the squared sum in uint64.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

std::vector<uint32_t> integral_image(const std::vector<uint8_t>& in, size_t width, size_t height);
std::vector<uint64_t> squared_integral_image(const std::vector<uint8_t>& in, size_t width, size_t height);

}  // namespace ref
