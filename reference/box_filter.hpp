// Host references for L1/BoxFilter: the mean over a (2r+1)^2 window with clamp-to-edge borders.
// Float: window sums in double, divided by the area (the device's float sums differ by rounding).
// RGBA8: exact integer sums per channel, rounded as (sum + area / 2) / area, as the device does.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

std::vector<double> box_filter(const std::vector<float>& in, size_t width, size_t height, int radius);
std::vector<uint8_t> box_filter_rgba8(const std::vector<uint8_t>& in, size_t width, size_t height, int radius);

// The window sums themselves (channels interleaved), exposed for tests.
std::vector<int64_t> box_sums(const std::vector<uint8_t>& in, size_t width, size_t height, int channels, int radius);

}  // namespace ref
