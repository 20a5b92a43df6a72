// reference/lattice_boltzmann against a cell-by-cell step (pull streaming with the bounce-back and
// lid or Guo force terms written out per population): the same populations, bit for bit, on small
// cavities and channels of both lattices; the equilibrium, the mass and the profiles.
#include "reference/lattice_boltzmann.hpp"

#include <gtest/gtest.h>

#include <random>

#include "random_data.hpp"

namespace {

using testdata::random_floats;

struct Lattice {
  std::vector<int> cx, cy, cz;
  std::vector<float> w;
};

Lattice lattice(int q) {
  if (q == 9)
    return {{0, 1, -1, 0, 0, 1, -1, 1, -1}, {0, 0, 0, 1, -1, 1, -1, -1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0},
            {4.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 36.0f, 1.0f / 36.0f,
             1.0f / 36.0f, 1.0f / 36.0f}};
  Lattice l{{0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0},
            {0, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 1, -1},
            {0, 0, 0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, -1, 1, -1, 1},
            {}};
  for (int q = 0; q < 19; ++q) l.w.push_back(q == 0 ? 1.0f / 3.0f : q < 7 ? 1.0f / 18.0f : 1.0f / 36.0f);
  return l;
}

// One step, one cell and one population at a time.
std::vector<float> step_cell_by_cell(const ref::LbmDomain& d, const std::vector<float>& src) {
  const Lattice l = lattice(d.q);
  const size_t cells = d.cells();
  std::vector<float> dst(src.size());
  auto opposite = [](int q) { return q == 0 ? 0 : (q & 1) ? q + 1 : q - 1; };
  // The neighbour at i - c: false beyond a wall (walls in y always, in x and z for the cavity).
  auto source = [](int i, int c, int n, bool walls, int& s) {
    s = i - c;
    if (s >= 0 && s < n) return true;
    if (walls && n > 1) return false;
    s = s < 0 ? s + n : s - n;
    return true;
  };
  for (int z = 0; z < d.nz; ++z)
    for (int y = 0; y < d.ny; ++y)
      for (int x = 0; x < d.nx; ++x) {
        const size_t n = (static_cast<size_t>(z) * d.ny + y) * d.nx + x;
        float f[19];
        for (int q = 0; q < d.q; ++q) {
          int sx, sy, sz;
          if (source(x, l.cx[q], d.nx, !d.channel, sx) && source(y, l.cy[q], d.ny, true, sy) &&
              source(z, l.cz[q], d.nz, !d.channel, sz)) {
            f[q] = src[q * cells + (static_cast<size_t>(sz) * d.ny + sy) * d.nx + sx];
          } else {
            f[q] = src[opposite(q) * cells + n];
            if (!d.channel && l.cy[q] < 0 && y == d.ny - 1) f[q] += 6.0f * l.w[q] * static_cast<float>(l.cx[q]) * d.lid_u;
          }
        }
        float rhom1 = 0, jx = 0, jy = 0, jz = 0;
        for (int q = 0; q < d.q; ++q) {
          rhom1 += f[q];
          jx += static_cast<float>(l.cx[q]) * f[q];
          jy += static_cast<float>(l.cy[q]) * f[q];
          jz += static_cast<float>(l.cz[q]) * f[q];
        }
        if (d.channel) jx += 0.5f * d.force_x;
        const float rho = 1.0f + rhom1, inv_rho = 1.0f / rho;
        const float ux = jx * inv_rho, uy = jy * inv_rho, uz = jz * inv_rho;
        const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
        for (int q = 0; q < d.q; ++q) {
          const float cx = static_cast<float>(l.cx[q]);
          const float cu = 3.0f * (cx * ux + static_cast<float>(l.cy[q]) * uy + static_cast<float>(l.cz[q]) * uz);
          const float feq = l.w[q] * rhom1 + l.w[q] * rho * (cu + 0.5f * cu * cu - usq);
          float out = f[q] + d.omega * (feq - f[q]);
          if (d.channel) out += (1.0f - 0.5f * d.omega) * l.w[q] * (3.0f * (cx - ux) + 3.0f * cu * cx) * d.force_x;
          dst[q * cells + n] = out;
        }
      }
  return dst;
}

ref::LbmDomain domain(int q, bool channel) {
  ref::LbmDomain d;
  d.q = q;
  d.channel = channel;
  d.nx = channel ? 5 : 13;
  d.ny = channel ? 16 : 11;
  d.nz = q == 9 ? 1 : channel ? 3 : 7;
  d.omega = channel ? 1.0f : 1.25f;
  d.lid_u = channel ? 0.0f : 0.05f;
  d.force_x = channel ? 5e-5f : 0.0f;
  return d;
}

std::vector<float> random_state(const ref::LbmDomain& d, unsigned seed) {
  const size_t n = d.cells();
  return ref::lbm_equilibrium(d, random_floats(n, seed, -0.01f, 0.01f), random_floats(n, seed + 1, -0.02f, 0.02f),
                              random_floats(n, seed + 2, -0.02f, 0.02f),
                              d.nz > 1 ? random_floats(n, seed + 3, -0.02f, 0.02f) : std::vector<float>(n, 0.0f));
}

TEST(LatticeBoltzmann, StepsMatchACellByCellStepBitForBit) {
  for (int q : {9, 19})
    for (bool channel : {false, true}) {
      const ref::LbmDomain d = domain(q, channel);
      const auto f0 = random_state(d, 3);
      std::vector<float> want = f0;
      for (int steps = 1; steps <= 4; ++steps) {
        want = step_cell_by_cell(d, want);
        ASSERT_EQ(ref::lbm_run(d, f0, steps), want) << "D" << (q == 9 ? "2Q9" : "3Q19") << (channel ? " channel" : " cavity")
                                                    << ", " << steps << " steps";
      }
      EXPECT_EQ(ref::lbm_run(d, f0, 0), f0);
    }
}

TEST(LatticeBoltzmann, EquilibriumAndMass) {
  for (int q : {9, 19}) {
    ref::LbmDomain d = domain(q, false);
    d.nx = 70;  // 70 x 90 (x 7) cells: several of the reference's blocks of cells
    d.ny = 90;
    const size_t n = d.cells();
    const auto rho = random_floats(n, 5, -0.01f, 0.01f), ux = random_floats(n, 6, -0.02f, 0.02f),
               uy = random_floats(n, 7, -0.02f, 0.02f), uz = random_floats(n, 8, -0.02f, 0.02f);
    const auto f = ref::lbm_equilibrium(d, rho, ux, uy, uz);
    const Lattice l = lattice(q);
    double mass = 0;
    for (size_t c = 0; c < n; ++c) {
      const float r = 1.0f + rho[c], usq = 1.5f * (ux[c] * ux[c] + uy[c] * uy[c] + uz[c] * uz[c]);
      for (int k = 0; k < q; ++k) {
        const float cu = 3.0f * (l.cx[k] * ux[c] + l.cy[k] * uy[c] + l.cz[k] * uz[c]);
        ASSERT_EQ(f[k * n + c], l.w[k] * rho[c] + l.w[k] * r * (cu + 0.5f * cu * cu - usq)) << c << "," << k;
      }
    }
    for (float v : f) mass += v;
    EXPECT_NEAR(ref::lbm_mass(d, f), mass + static_cast<double>(n), 1e-9 * n);
  }
}

}  // namespace
