// Host-clock calibration and sampling.
#include "host_timing.hpp"

#include <algorithm>
#include <chrono>

namespace gb {

double host_seconds(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace gb
