// Host lattice Boltzmann, written to do the device's arithmetic in the device's order (fp32), so
// the two differ only by rounding (fma contraction, division).
#include "lattice_boltzmann.hpp"

#include <Eigen/Dense>
#include <stdexcept>

#include "parallel.hpp"

namespace ref {

namespace {

struct Lattice {
  int q;
  const int *cx, *cy, *cz;
  const float* w;
};

const int kCx9[9] = {0, 1, -1, 0, 0, 1, -1, 1, -1};
const int kCy9[9] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
const int kCz9[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
const float kW9[9] = {4.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f, 1.0f / 9.0f,
                      1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
const int kCx19[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0};
const int kCy19[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 1, -1};
const int kCz19[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, -1, 1, -1, 1};
const float kW19[19] = {1.0f / 3.0f,  1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                        1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                        1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                        1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};

Lattice lattice(int q) {
  if (q == 9) return {9, kCx9, kCy9, kCz9, kW9};
  if (q == 19) return {19, kCx19, kCy19, kCz19, kW19};
  throw std::invalid_argument("lattice Boltzmann: Q must be 9 or 19");
}

int opposite(int q) { return q == 0 ? 0 : (q & 1) ? q + 1 : q - 1; }

// The neighbour at i - c along one axis of length n: false when it lies beyond a wall, else wrapped
// round (periodic).
inline bool source(int i, int c, int n, bool walls, int& s) {
  s = i - c;
  if (s >= 0 && s < n) return true;
  if (walls && n > 1) return false;
  s = s < 0 ? s + n : s - n;
  return true;
}

void step(const LbmDomain& d, const Lattice& l, const std::vector<float>& src, std::vector<float>& dst) {
  const size_t cells = d.cells();
  const bool walls_xz = !d.channel;
  // One (y, z) row per task: rows are independent.
  parallel_for(static_cast<size_t>(d.ny) * d.nz, [&](size_t row) {
    const int y = static_cast<int>(row % d.ny), z = static_cast<int>(row / d.ny);
    float f[19];
    for (int x = 0; x < d.nx; ++x) {
      const size_t n = row * d.nx + x;
      for (int q = 0; q < l.q; ++q) {
        int sx, sy, sz;
        if (source(x, l.cx[q], d.nx, walls_xz, sx) && source(y, l.cy[q], d.ny, true, sy) &&
            source(z, l.cz[q], d.nz, walls_xz, sz)) {
          f[q] = src[q * cells + (static_cast<size_t>(sz) * d.ny + sy) * d.nx + sx];
        } else {
          float v = src[opposite(q) * cells + n];
          if (!d.channel && l.cy[q] < 0 && y == d.ny - 1) v += 6.0f * l.w[q] * static_cast<float>(l.cx[q]) * d.lid_u;
          f[q] = v;
        }
      }
      float rhom1 = 0, jx = 0, jy = 0, jz = 0;
      for (int q = 0; q < l.q; ++q) {
        rhom1 += f[q];
        jx += static_cast<float>(l.cx[q]) * f[q];
        jy += static_cast<float>(l.cy[q]) * f[q];
        jz += static_cast<float>(l.cz[q]) * f[q];
      }
      if (d.channel) jx += 0.5f * d.force_x;
      const float rho = 1.0f + rhom1, inv_rho = 1.0f / rho;
      const float ux = jx * inv_rho, uy = jy * inv_rho, uz = jz * inv_rho;
      const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
      for (int q = 0; q < l.q; ++q) {
        const float cx = static_cast<float>(l.cx[q]);
        const float cu = 3.0f * (cx * ux + static_cast<float>(l.cy[q]) * uy + static_cast<float>(l.cz[q]) * uz);
        const float feq = l.w[q] * rhom1 + l.w[q] * rho * (cu + 0.5f * cu * cu - usq);
        float out = f[q] + d.omega * (feq - f[q]);
        if (d.channel) out += (1.0f - 0.5f * d.omega) * l.w[q] * (3.0f * (cx - ux) + 3.0f * cu * cx) * d.force_x;
        dst[q * cells + n] = out;
      }
    }
  });
}

}  // namespace

std::vector<float> lbm_equilibrium(const LbmDomain& d, const std::vector<float>& rho_minus_1,
                                   const std::vector<float>& ux, const std::vector<float>& uy,
                                   const std::vector<float>& uz) {
  const Lattice l = lattice(d.q);
  const size_t cells = d.cells();
  std::vector<float> f(cells * l.q);
  for (size_t n = 0; n < cells; ++n) {
    const float rho = 1.0f + rho_minus_1[n];
    const float usq = 1.5f * (ux[n] * ux[n] + uy[n] * uy[n] + uz[n] * uz[n]);
    for (int q = 0; q < l.q; ++q) {
      const float cu = 3.0f * (l.cx[q] * ux[n] + l.cy[q] * uy[n] + l.cz[q] * uz[n]);
      f[q * cells + n] = l.w[q] * rho_minus_1[n] + l.w[q] * rho * (cu + 0.5f * cu * cu - usq);
    }
  }
  return f;
}

std::vector<float> lbm_run(const LbmDomain& d, std::vector<float> f, int steps) {
  const Lattice l = lattice(d.q);
  std::vector<float> g(f.size());
  for (int s = 0; s < steps; ++s) {
    step(d, l, f, g);
    f.swap(g);
  }
  return f;
}

double lbm_mass(const LbmDomain& d, const std::vector<float>& f) {
  // sum of (f - w) plus sum of w (= 1 per cell)
  return Eigen::Map<const Eigen::ArrayXf>(f.data(), f.size()).cast<double>().sum() +
         static_cast<double>(d.cells());
}

std::vector<double> lbm_velocity_profile(const LbmDomain& d, const std::vector<float>& f) {
  const Lattice l = lattice(d.q);
  const size_t cells = d.cells();
  std::vector<double> profile(d.ny, 0.0);
  for (int z = 0; z < d.nz; ++z)
    for (int y = 0; y < d.ny; ++y)
      for (int x = 0; x < d.nx; ++x) {
        const size_t n = (static_cast<size_t>(z) * d.ny + y) * d.nx + x;
        double rho = 1, jx = d.channel ? 0.5 * d.force_x : 0.0;
        for (int q = 0; q < l.q; ++q) {
          rho += f[q * cells + n];
          jx += l.cx[q] * static_cast<double>(f[q * cells + n]);
        }
        profile[y] += jx / rho / (static_cast<double>(d.nx) * d.nz);
      }
  return profile;
}

std::vector<double> poiseuille_profile(const LbmDomain& d) {
  const double nu = (1.0 / d.omega - 0.5) / 3.0;
  std::vector<double> u(d.ny);
  for (int y = 0; y < d.ny; ++y) u[y] = d.force_x / (2.0 * nu) * (y + 0.5) * (d.ny - y - 0.5);
  return u;
}

}  // namespace ref
