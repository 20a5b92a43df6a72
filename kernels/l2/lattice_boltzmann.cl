// Lattice Boltzmann (BGK) on D2Q9 or D3Q19: one kernel per time step fusing streaming (pull from
// the neighbours) and collision. Populations are fp32, stored shifted (f - w_q, as FluidX3D does,
// for precision), structure of arrays f[q * CELLS + cell], two buffers in ping-pong.
// Knobs: Q (9 or 19), NX, NY, NZ (NZ 1 for D2Q9), FLOW_CHANNEL (else a lid-driven cavity).
//  - cavity: halfway bounce-back walls on every side; the wall beyond y = NY-1 moves at lid_u in x.
//  - channel: periodic in x and z, bounce-back walls beyond y = 0 and y = NY-1, body force
//    force_x (Guo forcing), for the Poiseuille profile.
// Bytes per cell update: Q loads + Q stores of 4 bytes (D3Q19: 152 B, D2Q9: 72 B).
#ifndef Q
#define Q 19
#endif
#ifndef NX
#define NX 64
#endif
#ifndef NY
#define NY 64
#endif
#ifndef NZ
#define NZ 64
#endif
#define CELLS ((uint)NX * (uint)NY * (uint)NZ)

#if Q == 9
__constant int CX[9] = {0, 1, -1, 0, 0, 1, -1, 1, -1};
__constant int CY[9] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
__constant int CZ[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
__constant float W[9] = {4.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f,  1.0f / 9.0f, 1.0f / 9.0f,
                         1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
#elif Q == 19
__constant int CX[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0};
__constant int CY[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 1, -1};
__constant int CZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, -1, 1, -1, 1};
__constant float W[19] = {1.0f / 3.0f,  1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                          1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                          1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                          1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
#else
#error "Q must be 9 or 19"
#endif
// Directions come in opposite pairs (1,2), (3,4), ...
#define OPP(q) ((q) == 0 ? 0 : ((q) & 1) ? (q) + 1 : (q) - 1)


__kernel void lattice_boltzmann_step(__global const float* restrict src, __global float* restrict dst,
                                     const float omega, const float lid_u, const float force_x) {
  const uint n = get_global_id(0);
  if (n >= CELLS) return;
  const uint x = n % NX, y = (n / NX) % NY, z = n / (NX * NY);

  // Offset to the neighbour at -1 and +1 along each axis (wrapping round: periodic), and whether
  // that neighbour lies beyond a wall.
  const int dxm = x == 0 ? NX - 1 : -1, dxp = x == NX - 1 ? -(NX - 1) : 1;
  const int dym = y == 0 ? (NY - 1) * NX : -NX, dyp = y == NY - 1 ? -(NY - 1) * NX : NX;
  const int dzm = z == 0 ? (NZ - 1) * NX * NY : -NX * NY;
  const int dzp = z == NZ - 1 ? -(NZ - 1) * NX * NY : NX * NY;
#ifdef FLOW_CHANNEL
  const bool wxm = false, wxp = false, wzm = false, wzp = false;
  (void)lid_u;
#else
  const bool wxm = x == 0, wxp = x == NX - 1;
  const bool wzm = NZ > 1 && z == 0, wzp = NZ > 1 && z == NZ - 1;
  (void)force_x;
#endif
  const bool wym = y == 0, wyp = y == NY - 1;

  // Streaming (pull): population q arrives from the cell at -c_q. Where that cell is a wall, the
  // population leaving this cell towards it (opposite direction) bounces back, plus the moving
  // lid's momentum 6 w_q (c_q . u_lid) (rho_wall = 1).
  float f[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const int off = (CX[q] > 0 ? dxm : CX[q] < 0 ? dxp : 0) + (CY[q] > 0 ? dym : CY[q] < 0 ? dyp : 0) +
                    (CZ[q] > 0 ? dzm : CZ[q] < 0 ? dzp : 0);
    const bool wall = (CX[q] > 0 && wxm) || (CX[q] < 0 && wxp) || (CY[q] > 0 && wym) ||
                      (CY[q] < 0 && wyp) || (CZ[q] > 0 && wzm) || (CZ[q] < 0 && wzp);
    const __global float* src_q = src + (size_t)q * CELLS;
    const int index = wall ? (OPP(q) - q) * (int)CELLS + (int)n : (int)n + off;
    float value = src_q[index];
#ifndef FLOW_CHANNEL
    if (CY[q] < 0 && wyp) value += 6.0f * W[q] * (float)CX[q] * lid_u;
#endif
    f[q] = value;
  }

  // Collision (BGK) on shifted populations: rho - 1 = sum f, j = sum c f (sum w c = 0).
  float rhom1 = 0.0f, jx = 0.0f, jy = 0.0f, jz = 0.0f;
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    rhom1 += f[q];
    jx += (float)CX[q] * f[q];
    jy += (float)CY[q] * f[q];
    jz += (float)CZ[q] * f[q];
  }
#ifdef FLOW_CHANNEL
  jx += 0.5f * force_x;  // Guo: the velocity includes half the force
#endif
  const float rho = 1.0f + rhom1, inv_rho = 1.0f / rho;
  const float ux = jx * inv_rho, uy = jy * inv_rho, uz = jz * inv_rho;
  const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const float cu = 3.0f * ((float)CX[q] * ux + (float)CY[q] * uy + (float)CZ[q] * uz);
    // Shifted equilibrium: w (rho - 1) + w rho (3 c.u + 4.5 (c.u)^2 - 1.5 u^2)
    const float feq = W[q] * rhom1 + W[q] * rho * (cu + 0.5f * cu * cu - usq);
    float out = f[q] + omega * (feq - f[q]);
#ifdef FLOW_CHANNEL
    out += (1.0f - 0.5f * omega) * W[q] * (3.0f * ((float)CX[q] - ux) + 3.0f * cu * (float)CX[q]) * force_x;
#endif
    dst[(size_t)q * CELLS + n] = out;
  }
}
