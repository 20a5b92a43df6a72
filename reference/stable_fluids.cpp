// Host stable fluids: plain loops over Eigen-mapped fields, mirroring the kernels' arithmetic; each
// pass is split by rows over the host's cores (cells are independent within a pass).
#include "stable_fluids.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "parallel.hpp"

namespace ref {

namespace {

struct Grid {
  int nx, ny;
  int at(int x, int y) const { return (y & (ny - 1)) * nx + (x & (nx - 1)); }
};

float bilinear(const Grid& g, const std::vector<float>& f, int x0, int y0, float fx, float fy) {
  const float a = f[g.at(x0, y0)], b = f[g.at(x0 + 1, y0)], c = f[g.at(x0, y0 + 1)], d = f[g.at(x0 + 1, y0 + 1)];
  return (1.0f - fy) * ((1.0f - fx) * a + fx * b) + fy * ((1.0f - fx) * c + fx * d);
}

}  // namespace

std::vector<float> fluid_divergence(int nx, int ny, const std::vector<float>& u, const std::vector<float>& v) {
  const Grid g{nx, ny};
  std::vector<float> div = filled_vector<float>(u.size());
  parallel_for(ny, [&](size_t row) {
    const int y = static_cast<int>(row);
    for (int x = 0; x < nx; ++x) {
      const int i = g.at(x, y);
      div[i] = (u[g.at(x + 1, y)] - u[i]) + (v[g.at(x, y + 1)] - v[i]);
    }
  });
  return div;
}

void stable_fluids_step(FluidState& s, float dt, int jacobi, std::vector<float>* divergence_before) {
  const Grid g{s.nx, s.ny};
  const size_t n = s.u.size();
  std::vector<float> u = filled_vector<float>(n), v = filled_vector<float>(n), d = filled_vector<float>(n);
  parallel_for(s.ny, [&](size_t row) {
    const int y = static_cast<int>(row);
    for (int x = 0; x < s.nx; ++x) {
      const int i = g.at(x, y);
      const float px = static_cast<float>(x) - dt * s.u[i], py = static_cast<float>(y) - dt * s.v[i];
      const float flx = std::floor(px), fly = std::floor(py);
      const int x0 = static_cast<int>(flx), y0 = static_cast<int>(fly);
      const float fx = px - flx, fy = py - fly;
      u[i] = bilinear(g, s.u, x0, y0, fx, fy);
      v[i] = bilinear(g, s.v, x0, y0, fx, fy);
      d[i] = bilinear(g, s.d, x0, y0, fx, fy);
    }
  });
  const std::vector<float> div = fluid_divergence(s.nx, s.ny, u, v);
  if (divergence_before) *divergence_before = div;
  std::vector<float> p = filled_vector<float>(n), q = filled_vector<float>(n);
  Eigen::Map<Eigen::ArrayXf>(p.data(), n) = -0.25f * Eigen::Map<const Eigen::ArrayXf>(div.data(), n);
  for (int k = 1; k < jacobi; ++k) {
    parallel_for(s.ny, [&](size_t row) {
      const int y = static_cast<int>(row);
      // Row pointers, so that the interior loop has no wrap-around and vectorises.
      const float* here = &p[g.at(0, y)];
      const float* up = &p[g.at(0, y - 1)];
      const float* down = &p[g.at(0, y + 1)];
      const float* d = &div[g.at(0, y)];
      float* out = &q[g.at(0, y)];
      auto cell = [&](int x, int left, int right) {
        out[x] = 0.25f * (((here[left] + here[right]) + (up[x] + down[x])) - d[x]);
      };
      cell(0, g.at(-1, 0), g.at(1, 0));
      for (int x = 1; x < s.nx - 1; ++x) cell(x, x - 1, x + 1);
      if (s.nx > 1) cell(s.nx - 1, s.nx - 2, g.at(s.nx, 0));
    });
    p.swap(q);
  }
  parallel_for(s.ny, [&](size_t row) {
    const int y = static_cast<int>(row);
    for (int x = 0; x < s.nx; ++x) {
      const int i = g.at(x, y);
      u[i] -= p[i] - p[g.at(x - 1, y)];
      v[i] -= p[i] - p[g.at(x, y - 1)];
    }
  });
  s.u.swap(u);
  s.v.swap(v);
  s.d.swap(d);
}

}  // namespace ref
