// The L0/WorkGroup references: textbook loops, no knowledge of work groups beyond the barrier
// kernel's own grouping.
#include "work_group.hpp"

#include <algorithm>

#include "parallel.hpp"

namespace ref {

std::vector<float> stencil5(const std::vector<float>& in, size_t width, size_t height) {
  std::vector<float> out(width * height);
  parallel_for(height, [&](size_t y) {
    const size_t up = y == 0 ? 0 : y - 1, down = std::min(y + 1, height - 1);
    for (size_t x = 0; x < width; ++x) {
      const size_t left = x == 0 ? 0 : x - 1, right = std::min(x + 1, width - 1);
      const double sum = double(in[y * width + left]) + in[y * width + right] + in[up * width + x] + in[down * width + x];
      out[y * width + x] = static_cast<float>(0.5 * in[y * width + x] + 0.125 * sum);
    }
  });
  return out;
}

std::vector<float> scale_add(float a, const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = static_cast<float>(double(a) * x[i] + y[i]);
  return out;
}

std::vector<uint32_t> barrier_exchange(const std::vector<uint32_t>& in, size_t n, size_t group, int rounds) {
  std::vector<uint32_t> out(n);
  const size_t groups = (n + group - 1) / group;
  parallel_for(groups, [&](size_t g) {
    std::vector<uint32_t> v(in.begin() + g * group, in.begin() + (g + 1) * group), last(group);
    for (int r = 0; r < rounds; ++r) {
      last = v;
      for (size_t lid = 0; lid < group; ++lid)
        v[lid] = last[lid] * 0x9E3779B1u + (last[(lid + 1) % group] ^ (last[group - 1 - lid] >> 3));
    }
    for (size_t lid = 0; lid < group && g * group + lid < n; ++lid) out[g * group + lid] = v[lid];
  });
  return out;
}

uint32_t live_chain(uint32_t gid, int live, int repeats, uint32_t m) {
  std::vector<uint32_t> x(live);
  for (int i = 0; i < live; ++i) {
    uint32_t h = gid * 0x9E3779B1u + static_cast<uint32_t>(i) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    x[i] = h;
  }
  for (int r = 0; r < repeats; ++r)
    for (int i = 0; i < live; ++i) x[i] = x[i] * m + x[(i + 1) % live];
  uint32_t s = 0;
  for (int i = 0; i < live; ++i) s = (s ^ x[i]) * 0x01000193u;
  return s & 0x7FFFFFFFu;
}

}  // namespace ref
