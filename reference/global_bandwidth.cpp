// Eigen references for the global bandwidth case.
#include "global_bandwidth.hpp"

#include <Eigen/Dense>

namespace ref {

std::vector<double> bandwidth_read_sums(const std::vector<float>& in, const BandwidthLayout& l) {
  const Eigen::Index w = l.width, items = l.items, n = l.work_items;
  std::vector<double> sums(n);
  Eigen::Map<Eigen::VectorXd> out(sums.data(), n);
  if (l.group > 0) {
    // Each work group's chunk is laid out as the coalesced case with `group` work items.
    const Eigen::Index g = l.group;
    for (Eigen::Index first = 0; first < n; first += g) {
      Eigen::Map<const Eigen::MatrixXf> m(in.data() + first * items * w, g * w, items);
      Eigen::VectorXd per_lane = m.cast<double>().rowwise().sum();
      out.segment(first, g) = Eigen::Map<Eigen::MatrixXd>(per_lane.data(), w, g).colwise().sum().transpose();
    }
  } else if (l.strided) {
    // float index (gid*items + i)*w + k: one column per work item.
    Eigen::Map<const Eigen::MatrixXf> m(in.data(), items * w, n);
    out = m.cast<double>().colwise().sum().transpose();
  } else {
    // float index (i*n + gid)*w + k: sum over i (columns), then over the w lanes of each gid.
    Eigen::Map<const Eigen::MatrixXf> m(in.data(), n * w, items);
    Eigen::VectorXd per_lane = m.cast<double>().rowwise().sum();
    out = Eigen::Map<Eigen::MatrixXd>(per_lane.data(), w, n).colwise().sum().transpose();
  }
  return sums;
}

std::vector<double> bandwidth_read_sums_grid(const std::vector<float>& in, size_t width, size_t work_items) {
  std::vector<double> sums(work_items, 0.0);
  const size_t elements = in.size() / width;
  for (size_t e = 0; e < elements; ++e) {
    const Eigen::Map<const Eigen::VectorXf> lanes(in.data() + e * width, static_cast<Eigen::Index>(width));
    sums[e % work_items] += lanes.cast<double>().sum();
  }
  return sums;
}

std::vector<float> bandwidth_write_pattern(size_t floats, size_t width) {
  std::vector<float> out(floats);
  for (size_t f = 0; f < floats; ++f) {
    const size_t element = f / width;
    const float scrambled =
        static_cast<float>((static_cast<uint32_t>(element) * 2654435761u) >> 8) * 0x1p-24f;
    out[f] = scrambled + static_cast<float>(f % width);
  }
  return out;
}

std::vector<float> stream_triad(const std::vector<float>& b, const std::vector<float>& c, float scalar) {
  std::vector<float> a(b.size());
  Eigen::Map<Eigen::ArrayXf>(a.data(), a.size()) =
      Eigen::Map<const Eigen::ArrayXf>(b.data(), b.size()) +
      scalar * Eigen::Map<const Eigen::ArrayXf>(c.data(), c.size());
  return a;
}

}  // namespace ref
