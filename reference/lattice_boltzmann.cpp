// Host lattice Boltzmann, written to do the device's arithmetic in the device's order (fp32), so
// the two differ only by rounding (fma contraction, division).
#include "lattice_boltzmann.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <memory>
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

// One step src -> dst (q * cells + cell, both), one (y, z) row per task. Each direction's incoming
// values are gathered into a row buffer (the source row shifted by c_x, or the bounce-back where
// the source lies beyond a wall); then the row collides direction by direction over its cells, so
// the loops run along x and vectorise. Each cell's arithmetic is the device's, in its order.
void step(const LbmDomain& d, const Lattice& l, const float* src, float* dst) {
  const size_t cells = d.cells();
  const bool walls_xz = !d.channel;
  const int nx = d.nx;
  parallel_for(static_cast<size_t>(d.ny) * d.nz, [&](size_t row) {
    const int y = static_cast<int>(row % d.ny), z = static_cast<int>(row / d.ny);
    const size_t first = row * nx;
    std::vector<float> buffer((l.q + 8) * static_cast<size_t>(nx));
    float* const in = buffer.data();  // in[q * nx + x]: population q arriving at cell x
    for (int q = 0; q < l.q; ++q) {
      float* fq = in + q * nx;
      int sy = 0, sz = 0;
      const bool row_open = source(y, l.cy[q], d.ny, true, sy) && source(z, l.cz[q], d.nz, walls_xz, sz);
      const float* from = row_open ? src + q * cells + (static_cast<size_t>(sz) * d.ny + sy) * nx : nullptr;
      const float* back = src + opposite(q) * cells + first;
      const bool lid = !d.channel && l.cy[q] < 0 && y == d.ny - 1;
      const float lid_term = 6.0f * l.w[q] * static_cast<float>(l.cx[q]) * d.lid_u;
      auto gather = [&](int x) {
        int sx;
        if (row_open && source(x, l.cx[q], nx, walls_xz, sx)) {
          fq[x] = from[sx];
        } else {
          float v = back[x];
          if (lid) v += lid_term;
          fq[x] = v;
        }
      };
      // Cells whose source x - c_x lies inside the row take it directly; the ends go through source().
      const int lo = row_open ? std::clamp(l.cx[q], 0, nx) : nx, hi = row_open ? std::max(lo, nx + std::min(l.cx[q], 0)) : nx;
      for (int x = 0; x < lo; ++x) gather(x);
      for (int x = lo; x < hi; ++x) fq[x] = from[x - l.cx[q]];
      for (int x = hi; x < nx; ++x) gather(x);
    }
    float* const rhom1 = in + l.q * nx;
    float* const jx = rhom1 + nx;
    float* const jy = jx + nx;
    float* const jz = jy + nx;
    float* const ux = jz + nx;
    float* const uy = ux + nx;
    float* const uz = uy + nx;
    float* const usq = uz + nx;
    for (int q = 0; q < l.q; ++q) {
      const float* fq = in + q * nx;
      const float cx = static_cast<float>(l.cx[q]), cy = static_cast<float>(l.cy[q]), cz = static_cast<float>(l.cz[q]);
      for (int x = 0; x < nx; ++x) {
        rhom1[x] += fq[x];
        jx[x] += cx * fq[x];
        jy[x] += cy * fq[x];
        jz[x] += cz * fq[x];
      }
    }
    for (int x = 0; x < nx; ++x) {
      if (d.channel) jx[x] += 0.5f * d.force_x;
      const float rho = 1.0f + rhom1[x], inv_rho = 1.0f / rho;
      ux[x] = jx[x] * inv_rho;
      uy[x] = jy[x] * inv_rho;
      uz[x] = jz[x] * inv_rho;
      usq[x] = 1.5f * (ux[x] * ux[x] + uy[x] * uy[x] + uz[x] * uz[x]);
    }
    const float guo = 1.0f - 0.5f * d.omega;
    for (int q = 0; q < l.q; ++q) {
      const float* fq = in + q * nx;
      float* out = dst + q * cells + first;
      const float cx = static_cast<float>(l.cx[q]), cy = static_cast<float>(l.cy[q]), cz = static_cast<float>(l.cz[q]);
      const float w = l.w[q];
      for (int x = 0; x < nx; ++x) {
        const float rho = 1.0f + rhom1[x];
        const float cu = 3.0f * (cx * ux[x] + cy * uy[x] + cz * uz[x]);
        const float feq = w * rhom1[x] + w * rho * (cu + 0.5f * cu * cu - usq[x]);
        float v = fq[x] + d.omega * (feq - fq[x]);
        if (d.channel) v += guo * w * (3.0f * (cx - ux[x]) + 3.0f * cu * cx) * d.force_x;
        out[x] = v;
      }
    }
  });
}

}  // namespace

// Cells per task. The equilibrium runs directions outer within a block, so each direction's plane
// is written as a run; every value is still the cell's own expression.
constexpr size_t kCellBlock = 4096;

std::vector<float> lbm_equilibrium(const LbmDomain& d, const std::vector<float>& rho_minus_1,
                                   const std::vector<float>& ux, const std::vector<float>& uy,
                                   const std::vector<float>& uz) {
  const Lattice l = lattice(d.q);
  const size_t cells = d.cells();
  std::vector<float> f = filled_vector<float>(cells * l.q);
  parallel_for((cells + kCellBlock - 1) / kCellBlock, [&](size_t block) {
    const size_t begin = block * kCellBlock, end = std::min(cells, begin + kCellBlock);
    float rho[kCellBlock], usq[kCellBlock];
    for (size_t n = begin; n < end; ++n) {
      rho[n - begin] = 1.0f + rho_minus_1[n];
      usq[n - begin] = 1.5f * (ux[n] * ux[n] + uy[n] * uy[n] + uz[n] * uz[n]);
    }
    for (int q = 0; q < l.q; ++q) {
      float* fq = f.data() + q * cells;
      for (size_t n = begin; n < end; ++n) {
        const float cu = 3.0f * (l.cx[q] * ux[n] + l.cy[q] * uy[n] + l.cz[q] * uz[n]);
        fq[n] = l.w[q] * rho_minus_1[n] + l.w[q] * rho[n - begin] * (cu + 0.5f * cu * cu - usq[n - begin]);
      }
    }
  });
  return f;
}

std::vector<float> lbm_run(const LbmDomain& d, const std::vector<float>& f, int steps) {
  const Lattice l = lattice(d.q);
  std::vector<float> result = filled_vector<float>(f.size());
  if (steps <= 0) {
    parallel_for((f.size() + kCellBlock - 1) / kCellBlock, [&](size_t block) {
      const size_t begin = block * kCellBlock, end = std::min(f.size(), begin + kCellBlock);
      std::copy(f.begin() + begin, f.begin() + end, result.begin() + begin);
    });
    return result;
  }
  // Steps alternate between the result and a scratch buffer, ending in the result; the scratch is
  // left uninitialised (every step writes all of it, on all cores).
  std::unique_ptr<float[]> scratch(steps > 1 ? new float[f.size()] : nullptr);
  const float* from = f.data();
  for (int s = 0; s < steps; ++s) {
    float* to = (steps - 1 - s) % 2 == 0 ? result.data() : scratch.get();
    step(d, l, from, to);
    from = to;
  }
  return result;
}

double lbm_mass(const LbmDomain& d, const std::vector<float>& f) {
  // sum of (f - w) plus sum of w (= 1 per cell); fixed chunks summed in order, whatever the cores
  constexpr size_t kChunk = size_t(1) << 20;
  std::vector<double> partial((f.size() + kChunk - 1) / kChunk);
  parallel_for(partial.size(), [&](size_t c) {
    const size_t begin = c * kChunk, end = std::min(f.size(), begin + kChunk);
    partial[c] = Eigen::Map<const Eigen::ArrayXf>(f.data() + begin, end - begin).cast<double>().sum();
  });
  double sum = 0;
  for (double p : partial) sum += p;
  return sum + static_cast<double>(d.cells());
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
