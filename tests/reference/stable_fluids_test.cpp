// reference/stable_fluids against a step written cell by cell with every index wrapped (advection,
// divergence, Jacobi iterations, projection): the same fields, bit for bit, on small periodic grids.
#include "reference/stable_fluids.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "random_data.hpp"

namespace {

using testdata::random_floats;

void step_cell_by_cell(ref::FluidState& s, float dt, int jacobi, std::vector<float>& divergence) {
  const int nx = s.nx, ny = s.ny;
  auto at = [&](int x, int y) { return ((y % ny + ny) % ny) * nx + (x % nx + nx) % nx; };
  auto bilinear = [&](const std::vector<float>& f, int x0, int y0, float fx, float fy) {
    const float a = f[at(x0, y0)], b = f[at(x0 + 1, y0)], c = f[at(x0, y0 + 1)], d = f[at(x0 + 1, y0 + 1)];
    return (1.0f - fy) * ((1.0f - fx) * a + fx * b) + fy * ((1.0f - fx) * c + fx * d);
  };
  const size_t n = s.u.size();
  std::vector<float> u(n), v(n), d(n), div(n), p(n), q(n);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const int i = at(x, y);
      const float px = static_cast<float>(x) - dt * s.u[i], py = static_cast<float>(y) - dt * s.v[i];
      const float flx = std::floor(px), fly = std::floor(py);
      u[i] = bilinear(s.u, static_cast<int>(flx), static_cast<int>(fly), px - flx, py - fly);
      v[i] = bilinear(s.v, static_cast<int>(flx), static_cast<int>(fly), px - flx, py - fly);
      d[i] = bilinear(s.d, static_cast<int>(flx), static_cast<int>(fly), px - flx, py - fly);
    }
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) div[at(x, y)] = (u[at(x + 1, y)] - u[at(x, y)]) + (v[at(x, y + 1)] - v[at(x, y)]);
  for (size_t i = 0; i < n; ++i) p[i] = -0.25f * div[i];
  for (int k = 1; k < jacobi; ++k) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        q[at(x, y)] = 0.25f * (((p[at(x - 1, y)] + p[at(x + 1, y)]) + (p[at(x, y - 1)] + p[at(x, y + 1)])) - div[at(x, y)]);
    p.swap(q);
  }
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      u[at(x, y)] -= p[at(x, y)] - p[at(x - 1, y)];
      v[at(x, y)] -= p[at(x, y)] - p[at(x, y - 1)];
    }
  s.u = u;
  s.v = v;
  s.d = d;
  divergence = div;
}

TEST(StableFluids, StepsMatchACellByCellStepBitForBit) {
  for (auto [nx, ny] : {std::pair<int, int>{64, 32}, {2, 8}, {1, 4}}) {
    ref::FluidState got;
    got.nx = nx;
    got.ny = ny;
    const size_t n = static_cast<size_t>(nx) * ny;
    got.u = random_floats(n, 1, -1.0f, 1.0f);
    got.v = random_floats(n, 2, -1.0f, 1.0f);
    got.d = random_floats(n, 3, 0.0f, 1.0f);
    ref::FluidState want = got;
    for (int step = 0; step < 2; ++step) {
      std::vector<float> div_got, div_want;
      ref::stable_fluids_step(got, 0.5f, 7, &div_got);
      step_cell_by_cell(want, 0.5f, 7, div_want);
      ASSERT_EQ(div_got, div_want) << nx << "x" << ny << ", step " << step;
      ASSERT_EQ(got.u, want.u) << nx << "x" << ny << ", step " << step;
      ASSERT_EQ(got.v, want.v) << nx << "x" << ny << ", step " << step;
      ASSERT_EQ(got.d, want.d) << nx << "x" << ny << ", step " << step;
    }
    std::vector<float> div;
    step_cell_by_cell(want, 0.5f, 1, div);  // jacobi 1: the first iterate only
    ref::stable_fluids_step(got, 0.5f, 1);
    EXPECT_EQ(got.u, want.u);
    EXPECT_EQ(got.v, want.v);
  }
}

}  // namespace
