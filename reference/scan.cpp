// References for the scan case: a sequential pass (Eigen has no prefix sum).
#include "scan.hpp"

namespace ref {

std::vector<int32_t> exclusive_scan(const std::vector<int32_t>& in) {
  std::vector<int32_t> out(in.size());
  uint32_t running = 0;  // unsigned: wraps like the device's uint arithmetic
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<int32_t>(running);
    running += static_cast<uint32_t>(in[i]);
  }
  return out;
}

std::vector<double> exclusive_scan(const std::vector<float>& in) {
  std::vector<double> out(in.size());
  double running = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = running;
    running += in[i];
  }
  return out;
}

}  // namespace ref
