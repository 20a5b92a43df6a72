// Stable fluids (Stam) on a periodic NX x NY grid (powers of two), unit cells, one step:
// semi-Lagrangian advection of velocity (u, v) and dye d with bilinear interpolation; the
// divergence (forward differences); Jacobi iterations of the 5-point Poisson equation
// L p = div; and the projection u -= grad p (backward differences), so that a converged p leaves
// the forward-difference divergence at zero. Row-major fields, x fastest.
#ifndef NX
#define NX 256
#endif
#ifndef NY
#define NY 256
#endif
#define AT(f, x, y) f[((y) & (NY - 1)) * NX + ((x) & (NX - 1))]

float bilinear(__global const float* restrict f, int x0, int y0, float fx, float fy) {
  const float a = AT(f, x0, y0), b = AT(f, x0 + 1, y0), c = AT(f, x0, y0 + 1), d = AT(f, x0 + 1, y0 + 1);
  return (1.0f - fy) * ((1.0f - fx) * a + fx * b) + fy * ((1.0f - fx) * c + fx * d);
}

// Each cell takes the values found dt * u upstream.
__kernel void stable_fluids_advect(__global const float* restrict u, __global const float* restrict v,
                                   __global const float* restrict d, __global float* restrict u_out,
                                   __global float* restrict v_out, __global float* restrict d_out,
                                   const float dt) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= NX || y >= NY) return;
  const int i = y * NX + x;
  const float px = (float)x - dt * u[i], py = (float)y - dt * v[i];
  const float flx = floor(px), fly = floor(py);
  const int x0 = (int)flx, y0 = (int)fly;
  const float fx = px - flx, fy = py - fly;
  u_out[i] = bilinear(u, x0, y0, fx, fy);
  v_out[i] = bilinear(v, x0, y0, fx, fy);
  d_out[i] = bilinear(d, x0, y0, fx, fy);
}

// div = forward-difference divergence; p = the first Jacobi iterate from p = 0 (-div / 4).
__kernel void stable_fluids_divergence(__global const float* restrict u, __global const float* restrict v,
                                       __global float* restrict div, __global float* restrict p) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= NX || y >= NY) return;
  const int i = y * NX + x;
  const float value = (AT(u, x + 1, y) - u[i]) + (AT(v, x, y + 1) - v[i]);
  div[i] = value;
  p[i] = -0.25f * value;
}

// One Jacobi iteration of (p[x-1] + p[x+1] + p[y-1] + p[y+1]) - 4 p = div.
__kernel void stable_fluids_jacobi(__global const float* restrict p, __global const float* restrict div,
                                   __global float* restrict p_out) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= NX || y >= NY) return;
  const int i = y * NX + x;
  p_out[i] = 0.25f * (((AT(p, x - 1, y) + AT(p, x + 1, y)) + (AT(p, x, y - 1) + AT(p, x, y + 1))) - div[i]);
}

// u -= backward-difference gradient of p, in place.
__kernel void stable_fluids_project(__global float* restrict u, __global float* restrict v,
                                    __global const float* restrict p) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= NX || y >= NY) return;
  const int i = y * NX + x;
  const float pc = p[i];
  u[i] -= pc - AT(p, x - 1, y);
  v[i] -= pc - AT(p, x, y - 1);
}
