// Random test data for the reference tests: the same generator everywhere (mt19937, uniform), so
// a test's inputs depend only on its seed.
#pragma once
#include <cstddef>
#include <random>
#include <vector>

namespace testdata {

inline std::vector<float> random_floats(size_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

}  // namespace testdata
