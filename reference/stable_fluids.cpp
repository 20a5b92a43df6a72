// Host stable fluids: plain loops over Eigen-mapped fields, mirroring the kernels' arithmetic.
#include "stable_fluids.hpp"

#include <Eigen/Dense>
#include <cmath>

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
  std::vector<float> div(u.size());
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const int i = g.at(x, y);
      div[i] = (u[g.at(x + 1, y)] - u[i]) + (v[g.at(x, y + 1)] - v[i]);
    }
  return div;
}

void stable_fluids_step(FluidState& s, float dt, int jacobi, std::vector<float>* divergence_before) {
  const Grid g{s.nx, s.ny};
  const size_t n = s.u.size();
  std::vector<float> u(n), v(n), d(n);
  for (int y = 0; y < s.ny; ++y)
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
  const std::vector<float> div = fluid_divergence(s.nx, s.ny, u, v);
  if (divergence_before) *divergence_before = div;
  std::vector<float> p(n), q(n);
  Eigen::Map<Eigen::ArrayXf>(p.data(), n) = -0.25f * Eigen::Map<const Eigen::ArrayXf>(div.data(), n);
  for (int k = 1; k < jacobi; ++k) {
    for (int y = 0; y < s.ny; ++y)
      for (int x = 0; x < s.nx; ++x) {
        const int i = g.at(x, y);
        q[i] = 0.25f * (((p[g.at(x - 1, y)] + p[g.at(x + 1, y)]) + (p[g.at(x, y - 1)] + p[g.at(x, y + 1)])) - div[i]);
      }
    p.swap(q);
  }
  for (int y = 0; y < s.ny; ++y)
    for (int x = 0; x < s.nx; ++x) {
      const int i = g.at(x, y);
      u[i] -= p[i] - p[g.at(x - 1, y)];
      v[i] -= p[i] - p[g.at(x, y - 1)];
    }
  s.u.swap(u);
  s.v.swap(v);
  s.d.swap(d);
}

}  // namespace ref
