// Host references for L1/Reduction, in Eigen: sum (in double for float, in int64 for int), min, max.
#pragma once
#include <cstdint>
#include <vector>

namespace ref {

double reduce_sum(const std::vector<float>& in);
int64_t reduce_sum(const std::vector<int32_t>& in);
float reduce_min(const std::vector<float>& in);
int32_t reduce_min(const std::vector<int32_t>& in);
float reduce_max(const std::vector<float>& in);
int32_t reduce_max(const std::vector<int32_t>& in);

}  // namespace ref
