// Host reference for L2/LatticeBoltzmann: the same BGK step as kernels/l2/lattice_boltzmann.cl
// (pull streaming, halfway bounce-back, moving lid or Guo body force, shifted fp32 populations
// f - w_q in structure-of-arrays order), plus mass and velocity profiles and Poiseuille's law.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

struct LbmDomain {
  int q = 19;                // 9 (D2Q9, nz = 1) or 19 (D3Q19)
  int nx = 1, ny = 1, nz = 1;
  bool channel = false;      // periodic in x and z, walls in y, body force; else lid-driven cavity
  float omega = 1.0f;        // 1 / tau
  float lid_u = 0.0f;        // cavity: the wall beyond y = ny-1 moves at lid_u in x
  float force_x = 0.0f;      // channel: body force per cell in x
  size_t cells() const { return static_cast<size_t>(nx) * ny * nz; }
};

// Shifted equilibrium populations (f_eq - w_q) of per-cell density rho = 1 + rho_minus_1 and velocity u.
std::vector<float> lbm_equilibrium(const LbmDomain& d, const std::vector<float>& rho_minus_1,
                                   const std::vector<float>& ux, const std::vector<float>& uy,
                                   const std::vector<float>& uz);

// `steps` time steps from `f` (shifted populations, q * cells + cell).
std::vector<float> lbm_run(const LbmDomain& d, const std::vector<float>& f, int steps);

// Total mass sum over cells and directions of f (unshifted), in double.
double lbm_mass(const LbmDomain& d, const std::vector<float>& f);

// Mean velocity u_x per row y (averaged over x and z); the channel's includes half the force (Guo).
std::vector<double> lbm_velocity_profile(const LbmDomain& d, const std::vector<float>& f);

// Poiseuille: u(y) = F / (2 nu) (y + 1/2) (ny - y - 1/2), walls halfway beyond the first and last
// rows, nu = (1/omega - 1/2) / 3, density 1.
std::vector<double> poiseuille_profile(const LbmDomain& d);

}  // namespace ref
