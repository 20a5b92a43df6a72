// Host references for L1/Scan: exclusive prefix sums (ints in wrapping 32-bit arithmetic, exact as
// the device's; floats in double).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

std::vector<int32_t> exclusive_scan(const std::vector<int32_t>& in);
std::vector<double> exclusive_scan(const std::vector<float>& in);

}  // namespace ref
