// Eigen references for the reduction case.
#include "reduction.hpp"

#include <Eigen/Dense>

namespace ref {

namespace {
template <typename T>
Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> view(const std::vector<T>& v) {
  return {v.data(), static_cast<Eigen::Index>(v.size())};
}
}  // namespace

double reduce_sum(const std::vector<float>& in) { return view(in).cast<double>().sum(); }
int64_t reduce_sum(const std::vector<int32_t>& in) { return view(in).cast<int64_t>().sum(); }
float reduce_min(const std::vector<float>& in) { return view(in).minCoeff(); }
int32_t reduce_min(const std::vector<int32_t>& in) { return view(in).minCoeff(); }
float reduce_max(const std::vector<float>& in) { return view(in).maxCoeff(); }
int32_t reduce_max(const std::vector<int32_t>& in) { return view(in).maxCoeff(); }

}  // namespace ref
