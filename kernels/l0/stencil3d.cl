// A 7-point stencil on an n^3 grid, one work item per cell of a 3-D NDRange (padded to whole work
// groups: items past the edge return), neighbours clamped at the faces. With inputs that are
// multiples of 1/16 below 1, the weights 1/2 and 1/16 make every sum exact in float.
__kernel void stencil3d(__global const float* in, __global float* out, const uint n) {
  const uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= n || y >= n || z >= n) return;
  const size_t row = (size_t)n, plane = (size_t)n * n;
  const size_t i = z * plane + y * row + x;
  const float xm = in[i - (x > 0)], xp = in[i + (x + 1 < n)];
  const float ym = in[i - (y > 0) * row], yp = in[i + (y + 1 < n) * row];
  const float zm = in[i - (z > 0) * plane], zp = in[i + (z + 1 < n) * plane];
  out[i] = 0.5f * in[i] + 0.0625f * (((xm + xp) + (ym + yp)) + (zm + zp));
}
