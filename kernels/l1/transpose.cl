// Matrix transpose of a row-major float matrix, height x width -> width x height:
// out[x * height + y] = in[y * width + x]. Edges are guarded (global sizes are padded).

// One element per work item: reads along a row (coalesced), writes down a column (strided), or the
// other way round, depending on the work-group shape.
__kernel void transpose_naive(__global const float* in, __global float* out, const uint width,
                              const uint height) {
  const uint x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height) out[(size_t)x * height + y] = in[(size_t)y * width + x];
}

// A TILE x TILE block goes through local memory so both the read and the write are row-wise.
// The work group is TILE x ROWS items; each item moves TILE / ROWS elements. PAD = 1 shifts each
// tile row by one bank, so the column-wise reads of the tile hit TILE different banks.
#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef PAD
#define PAD 1
#endif

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_tiled(__global const float* in, __global float* out, const uint width, const uint height) {
  __local float tile[TILE][TILE + PAD];
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const uint bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
#pragma unroll
  for (uint j = ty; j < TILE; j += ROWS) {
    const uint x = bx + tx, y = by + j;
    if (x < width && y < height) tile[j][tx] = in[(size_t)y * width + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint j = ty; j < TILE; j += ROWS) {
    const uint x = by + tx, y = bx + j;  // x < height (a column of in), y < width (a row of in)
    if (x < height && y < width) out[(size_t)y * height + x] = tile[tx][j];
  }
}

// ---- float4 accesses (tiled_vec, registers4x4) ------------------------------------------------
// p[i .. i+3] of a row whose last element is p[end - 1]. A float4 pointer (one 16-byte access) is
// used only where the address is 16-byte aligned; a row of a width that is not a multiple of 4
// starts unaligned, so there vload4 / vstore4; a float4 that runs past the row's end goes element
// by element (missing elements read as 0).
inline float4 transpose_load4(__global const float* p, const size_t i, const size_t end) {
  if (i + 4 <= end) return (i & 3) == 0 ? *(__global const float4*)(p + i) : vload4(0, p + i);
  float4 v = (float4)(0.0f);
  if (i < end) v.s0 = p[i];
  if (i + 1 < end) v.s1 = p[i + 1];
  if (i + 2 < end) v.s2 = p[i + 2];
  return v;
}

inline void transpose_store4(const float4 v, __global float* p, const size_t i, const size_t end) {
  if (i + 4 <= end) {
    if ((i & 3) == 0)
      *(__global float4*)(p + i) = v;
    else
      vstore4(v, 0, p + i);
    return;
  }
  if (i < end) p[i] = v.s0;
  if (i + 1 < end) p[i + 1] = v.s1;
  if (i + 2 < end) p[i + 2] = v.s2;
}

// A VT x VT tile (VT = 4 * VEC_X) through local memory, with float4 global accesses on both sides.
// Load: item (tx, ty) reads the float4 at columns 4tx .. 4tx+3 of tile rows ty, ty + VEC_Y, ...
// Store: each item assembles output float4s from 4 tile rows (one column of them) and writes them
// along output rows; a warp's 32 items take 8 float4s x 4 output rows (128 bytes per row, whole
// sectors), which is what makes the local reads below conflict-free.
// Local layout: no padding (a row of float4s must stay 16-byte aligned for the float4 local
// store); instead the float4 group g of row i is stored at group g ^ (i / 4). Load: 8 items of a
// quarter warp store 8 distinct groups of one row (conflict-free 128-bit stores). Store: item
// (gx, r) reads column r of rows 4gx + k, found at column r ^ 4gx; over a warp (r: 4 consecutive
// values from a multiple of 4, gx: 8 consecutive from a multiple of 8) the bank (r ^ 4gx) mod 32
// takes 32 distinct values, as rows are VT = 0 mod 32 floats apart. A padding cannot do both: the
// float4 store needs a row stride of 4s floats, and then rows 4gx + k are 16s gx = 0 or 16 banks
// apart, so a warp's reads fall on 8 banks (4-way).
// VEC_X >= 8 and VEC_Y a multiple of 4 (both powers of two).
#ifndef VEC_X
#define VEC_X 16
#endif
#ifndef VEC_Y
#define VEC_Y 8
#endif
#define VT (4 * VEC_X)

__kernel __attribute__((reqd_work_group_size(VEC_X, VEC_Y, 1)))
void transpose_tiled_vec(__global const float* in, __global float* out, const uint width, const uint height) {
  __local float4 tile[VT][VEC_X];
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const uint bx = get_group_id(0) * VT, by = get_group_id(1) * VT;
#pragma unroll
  for (uint n = 0; n < VT / VEC_Y; ++n) {  // a fixed trip count: the loads unroll, all in flight
    const uint j = ty + n * VEC_Y, y = by + j;
    float4 v = (float4)(0.0f);  // rows past the bottom: zeros, so the tile is all initialised
    if (y < height) v = transpose_load4(in, (size_t)y * width + bx + 4 * tx, (size_t)y * width + width);
    tile[j][tx ^ (j >> 2)] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // (gx, r0): a permutation of the work group's items, 8 x 4 per warp of 32 consecutive ids.
  const uint l = tx + VEC_X * ty, warp = l >> 5;
  const uint gx = (l & 7) | (warp % (VEC_X / 8)) << 3;
  const uint r0 = (l >> 3 & 3) | (warp / (VEC_X / 8)) << 2;
  __local const float* t = (__local const float*)tile;
#pragma unroll
  for (uint n = 0; n < VT / VEC_Y; ++n) {
    const uint r = r0 + n * VEC_Y, x = bx + r;  // r: a column of the tile, x: a column of in, a row of out
    if (x < width) {
      const uint c = r ^ (gx << 2), row = 4 * gx * VT;
      const float4 v = (float4)(t[row + c], t[row + VT + c], t[row + 2 * VT + c], t[row + 3 * VT + c]);
      transpose_store4(v, out, (size_t)x * height + by + 4 * gx, (size_t)x * height + height);
    }
  }
}

// No local memory: each item reads a 4 x 4 block as 4 float4 rows and writes its transpose as 4
// float4 rows. With a narrow work group (x: 2 .. 8 items, y: many), each load of a warp covers
// 32 / x rows with 16x contiguous bytes each (whole 32-byte sectors), each store x output rows
// with 512 / x bytes each.
__kernel void transpose_registers4x4(__global const float* in, __global float* out, const uint width,
                                     const uint height) {
  const uint x0 = 4 * get_global_id(0), y0 = 4 * get_global_id(1);
  if (x0 >= width || y0 >= height) return;
  float4 r[4];
#pragma unroll
  for (uint k = 0; k < 4; ++k) {
    const size_t row = (size_t)(y0 + k) * width;
    r[k] = y0 + k < height ? transpose_load4(in, row + x0, row + width) : (float4)(0.0f);
  }
  const float4 c[4] = {(float4)(r[0].s0, r[1].s0, r[2].s0, r[3].s0), (float4)(r[0].s1, r[1].s1, r[2].s1, r[3].s1),
                       (float4)(r[0].s2, r[1].s2, r[2].s2, r[3].s2), (float4)(r[0].s3, r[1].s3, r[2].s3, r[3].s3)};
#pragma unroll
  for (uint k = 0; k < 4; ++k) {
    const size_t row = (size_t)(x0 + k) * height;
    if (x0 + k < width) transpose_store4(c[k], out, row + y0, row + height);
  }
}
