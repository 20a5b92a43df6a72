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

// (u, v, d) interpolated at the point (px, py).
float3 sample_at(__global const float* restrict u, __global const float* restrict v,
                 __global const float* restrict d, const float px, const float py) {
  const float flx = floor(px), fly = floor(py);
  const int x0 = (int)flx, y0 = (int)fly;
  const float fx = px - flx, fy = py - fly;
  return (float3)(bilinear(u, x0, y0, fx, fy), bilinear(v, x0, y0, fx, fy), bilinear(d, x0, y0, fx, fy));
}

// Each cell takes the values found dt * u upstream.
__kernel void stable_fluids_advect(__global const float* restrict u, __global const float* restrict v,
                                   __global const float* restrict d, __global float* restrict u_out,
                                   __global float* restrict v_out, __global float* restrict d_out,
                                   const float dt) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= NX || y >= NY) return;
  const int i = y * NX + x;
  const float3 s = sample_at(u, v, d, (float)x - dt * u[i], (float)y - dt * v[i]);
  u_out[i] = s.x;
  v_out[i] = s.y;
  d_out[i] = s.z;
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

#ifdef ROWS
// ---- blocked: each work item updates a block of 4 x ROWS cells -----------------------------------
// The same arithmetic as the kernels above (bit for bit), with a float4 per row of a block and
// the block's rows unrolled: a work item has ROWS rows of loads in flight instead of one cell's,
// and each row's vertical neighbours are the block's own rows. NX is a multiple of 4, so a block's
// float4 never wraps; its horizontal neighbours across the block edge are scalars. Vectors are
// built element by element: Oclgrind's --uninitialized crashes on swizzled constructors.
#define ROW4(f, y) (((__global const float4*)((f) + ((y) & (NY - 1)) * NX))[xv])
#define OUT4(f, y) (((__global float4*)((f) + ((y) & (NY - 1)) * NX))[xv])
#define BLOCK_COORDS                                              \
  const int xv = get_global_id(0), y0 = get_global_id(1) * ROWS; \
  if (xv >= NX / 4 || y0 >= NY) return;                           \
  const int x0 = 4 * xv

__kernel void stable_fluids_advect_blocked(__global const float* restrict u, __global const float* restrict v,
                                           __global const float* restrict d, __global float* restrict u_out,
                                           __global float* restrict v_out, __global float* restrict d_out,
                                           const float dt) {
  BLOCK_COORDS;
  float4 uc[ROWS], vc[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    uc[r] = ROW4(u, y0 + r);
    vc[r] = ROW4(v, y0 + r);
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float4 px = (float4)(x0, x0 + 1, x0 + 2, x0 + 3) - dt * uc[r], py = (float)(y0 + r) - dt * vc[r];
    const float3 s0 = sample_at(u, v, d, px.x, py.x), s1 = sample_at(u, v, d, px.y, py.y);
    const float3 s2 = sample_at(u, v, d, px.z, py.z), s3 = sample_at(u, v, d, px.w, py.w);
    OUT4(u_out, y0 + r) = (float4)(s0.x, s1.x, s2.x, s3.x);
    OUT4(v_out, y0 + r) = (float4)(s0.y, s1.y, s2.y, s3.y);
    OUT4(d_out, y0 + r) = (float4)(s0.z, s1.z, s2.z, s3.z);
  }
}

__kernel void stable_fluids_divergence_blocked(__global const float* restrict u, __global const float* restrict v,
                                               __global float* restrict div, __global float* restrict p) {
  BLOCK_COORDS;
  float4 vc = ROW4(v, y0);
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float4 uc = ROW4(u, y0 + r), vn = ROW4(v, y0 + r + 1);
    const float4 ue = (float4)(uc.y, uc.z, uc.w, AT(u, x0 + 4, y0 + r));
    const float4 value = (ue - uc) + (vn - vc);
    OUT4(div, y0 + r) = value;
    OUT4(p, y0 + r) = -0.25f * value;
    vc = vn;
  }
}

__kernel void stable_fluids_jacobi_blocked(__global const float* restrict p, __global const float* restrict div,
                                           __global float* restrict p_out) {
  BLOCK_COORDS;
  float4 up = ROW4(p, y0 - 1), mid = ROW4(p, y0);
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float4 down = ROW4(p, y0 + r + 1);
    const float4 west = (float4)(AT(p, x0 - 1, y0 + r), mid.x, mid.y, mid.z);
    const float4 east = (float4)(mid.y, mid.z, mid.w, AT(p, x0 + 4, y0 + r));
    OUT4(p_out, y0 + r) = 0.25f * (((west + east) + (up + down)) - ROW4(div, y0 + r));
    up = mid;
    mid = down;
  }
}

__kernel void stable_fluids_project_blocked(__global float* restrict u, __global float* restrict v,
                                            __global const float* restrict p) {
  BLOCK_COORDS;
  float4 up = ROW4(p, y0 - 1);
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float4 pc = ROW4(p, y0 + r), west = (float4)(AT(p, x0 - 1, y0 + r), pc.x, pc.y, pc.z);
    OUT4(u, y0 + r) = ROW4(u, y0 + r) - (pc - west);
    OUT4(v, y0 + r) = ROW4(v, y0 + r) - (pc - up);
    up = pc;
  }
}
#endif  // ROWS
