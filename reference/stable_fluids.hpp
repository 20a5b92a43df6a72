// Host reference for L2/StableFluids: the step of kernels/l2/stable_fluids.cl (advection,
// divergence, Jacobi iterations, projection on a periodic grid), in fp32 in the device's order.
#pragma once
#include <vector>

namespace ref {

struct FluidState {
  int nx = 0, ny = 0;  // powers of two
  std::vector<float> u, v, d;  // velocity and dye, row-major, x fastest
};

// One step: advect (u, v, d) by dt * u, then `jacobi` iterations (the first from p = 0) and the
// projection. `divergence_before`, when given, receives the advected field's divergence.
void stable_fluids_step(FluidState& s, float dt, int jacobi, std::vector<float>* divergence_before = nullptr);

// Forward-difference divergence (u[x+1] - u[x]) + (v[y+1] - v[y]) of a periodic field.
std::vector<float> fluid_divergence(int nx, int ny, const std::vector<float>& u, const std::vector<float>& v);

}  // namespace ref
