// Box filter: out(x, y) = mean of in over the (2 RADIUS + 1)^2 window centred on (x, y), with
// clamp-to-edge borders (coordinates outside the image read the nearest edge pixel).
// Pixels: float (one channel), or with RGBA8 uchar4, summed exactly in uint4 and rounded as
// (sum + AREA / 2) / AREA. Intermediate sums (TEMP): float, or ushort4 (<= 63 * 255 fits).
// Variants: _naive (the whole window per pixel), _rows + _cols (separable, two kernels),
// _fused (both passes over a local-memory tile of LX x (LY * ROWS) outputs), _slide_cols +
// _slide_rows (running sums: two reads per pixel and pass whatever the radius), and _strip (ROWS
// outputs down a column per work item from a register window, no local memory).
#ifndef RADIUS
#define RADIUS 1
#endif
#define DIAMETER (2 * RADIUS + 1)
#define AREA (DIAMETER * DIAMETER)

#ifdef RGBA8
#define PIXEL uchar4
#define SUM uint4
#define TEMP ushort4
#define ZERO ((uint4)(0))
#define LOAD(p) convert_uint4(p)
#define TO_TEMP(s) convert_ushort4(s)
#define FROM_TEMP(t) convert_uint4(t)
#define FINISH(s) convert_uchar4(((s) + (uint4)(AREA / 2)) / (uint4)(AREA))
#else
#define PIXEL float
#define SUM float
#define TEMP float
#define ZERO 0.0f
#define LOAD(p) (p)
#define TO_TEMP(s) (s)
#define FROM_TEMP(t) (t)
#define FINISH(s) ((s) / (float)AREA)
#endif

#define CLAMP_X(x) clamp((int)(x), 0, (int)width - 1)
#define CLAMP_Y(y) clamp((int)(y), 0, (int)height - 1)

// ---- naive ------------------------------------------------------------------------------------
__kernel void box_filter_naive(__global const PIXEL* in, __global PIXEL* out, const uint width,
                               const uint height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= (int)width || y >= (int)height) return;
  SUM s = ZERO;
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    __global const PIXEL* row = in + (size_t)CLAMP_Y(y + dy) * width;
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) s += LOAD(row[CLAMP_X(x + dx)]);
  }
  out[(size_t)y * width + x] = FINISH(s);
}

// ---- separable: horizontal sums into tmp, then vertical sums of tmp ---------------------------
__kernel void box_filter_rows(__global const PIXEL* in, __global TEMP* tmp, const uint width,
                              const uint height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= (int)width || y >= (int)height) return;
  __global const PIXEL* row = in + (size_t)y * width;
  SUM s = ZERO;
#pragma unroll
  for (int dx = -RADIUS; dx <= RADIUS; ++dx) s += LOAD(row[CLAMP_X(x + dx)]);
  tmp[(size_t)y * width + x] = TO_TEMP(s);
}

__kernel void box_filter_cols(__global const TEMP* tmp, __global PIXEL* out, const uint width,
                              const uint height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= (int)width || y >= (int)height) return;
  SUM s = ZERO;
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) s += FROM_TEMP(tmp[(size_t)CLAMP_Y(y + dy) * width + x]);
  out[(size_t)y * width + x] = FINISH(s);
}

// ---- fused: a tile with its halo in local memory, horizontal sums in local memory, then the
// vertical sums. The work group is LX x LY; each work item writes ROWS outputs down a column.
#ifndef LX
#define LX 32
#endif
#ifndef LY
#define LY 8
#endif
#ifndef ROWS
#define ROWS 4
#endif
#define TW LX
#define TH (LY * ROWS)
#define HALO_W (TW + 2 * RADIUS)
#define HALO_H (TH + 2 * RADIUS)

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void box_filter_fused(__global const PIXEL* in, __global PIXEL* out, const uint width, const uint height) {
  __local PIXEL tile[HALO_H][HALO_W];
  __local TEMP hsum[HALO_H][TW];
  const int lx = get_local_id(0), ly = get_local_id(1), lid = ly * LX + lx;
  const int x0 = get_group_id(0) * TW, y0 = get_group_id(1) * TH;
  for (int i = lid; i < HALO_H * HALO_W; i += LX * LY) {
    const int ty = i / HALO_W, tx = i - ty * HALO_W;
    tile[ty][tx] = in[(size_t)CLAMP_Y(y0 - RADIUS + ty) * width + CLAMP_X(x0 - RADIUS + tx)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < HALO_H * TW; i += LX * LY) {
    const int ty = i / TW, tx = i - ty * TW;
    SUM s = ZERO;
#pragma unroll
    for (int d = 0; d < DIAMETER; ++d) s += LOAD(tile[ty][tx + d]);
    hsum[ty][tx] = TO_TEMP(s);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + lx;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int ty = ly + r * LY, y = y0 + ty;
    if (x < (int)width && y < (int)height) {
      SUM s = ZERO;
#pragma unroll
      for (int d = 0; d < DIAMETER; ++d) s += FROM_TEMP(hsum[ty + d][lx]);
      out[(size_t)y * width + x] = FINISH(s);
    }
  }
}

// ---- sliding window: running sums ------------------------------------------------------------
// _slide_cols: work item (x, s) walks rows [s * SEG, (s + 1) * SEG) of column x, keeping the
// vertical window's sum: add the row entering, subtract the row leaving.
#ifndef SEG
#define SEG 64
#endif
__kernel void box_filter_slide_cols(__global const PIXEL* in, __global TEMP* tmp, const uint width,
                                    const uint height) {
  const int x = get_global_id(0), y0 = get_global_id(1) * SEG;
  if (x >= (int)width || y0 >= (int)height) return;
  const int y1 = min((int)height, y0 + SEG);
  SUM s = ZERO;
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) s += LOAD(in[(size_t)CLAMP_Y(y0 + dy) * width + x]);
  tmp[(size_t)y0 * width + x] = TO_TEMP(s);
  for (int y = y0 + 1; y < y1; ++y) {
    s = s + LOAD(in[(size_t)CLAMP_Y(y + RADIUS) * width + x]) - LOAD(in[(size_t)CLAMP_Y(y - RADIUS - 1) * width + x]);
    tmp[(size_t)y * width + x] = TO_TEMP(s);
  }
}

// _slide_rows: a work group of WGS items takes SPAN * WGS outputs of one row: the segment and its
// halo are read into local memory (coalesced), each item slides along its SPAN outputs, and the
// results go back through local memory so the global writes are coalesced too.
#ifndef WGS
#define WGS 128
#endif
#ifndef SPAN
#define SPAN 16
#endif
#define SEGW (WGS * SPAN)
#define PADDED(i) ((i) + ((i) >> 5))  // one spare slot per 32: the items' strided reads miss each other's banks

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void box_filter_slide_rows(__global const TEMP* tmp, __global PIXEL* out, const uint width, const uint height) {
  __local TEMP line[PADDED(SEGW + 2 * RADIUS) + 1];
  __local PIXEL result[PADDED(SEGW) + 1];
  const int lid = get_local_id(0), x0 = get_group_id(0) * SEGW, y = get_group_id(1);
  __global const TEMP* row = tmp + (size_t)y * width;
  for (int i = lid; i < SEGW + 2 * RADIUS; i += WGS) line[PADDED(i)] = row[CLAMP_X(x0 - RADIUS + i)];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int first = lid * SPAN;
  SUM s = ZERO;
  for (int d = 0; d < DIAMETER; ++d) s += FROM_TEMP(line[PADDED(first + d)]);
  result[PADDED(first)] = FINISH(s);
  for (int k = 1; k < SPAN; ++k) {
    s = s + FROM_TEMP(line[PADDED(first + k + 2 * RADIUS)]) - FROM_TEMP(line[PADDED(first + k - 1)]);
    result[PADDED(first + k)] = FINISH(s);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global PIXEL* dst = out + (size_t)y * width;
  for (int i = lid; i < SEGW && x0 + i < (int)width; i += WGS) dst[x0 + i] = result[PADDED(i)];
}

// ---- strip: register window down a column ------------------------------------------------------
// Work item (x, s) writes the ROWS outputs (x, s * ROWS .. s * ROWS + ROWS - 1). It reads the
// ROWS + 2 RADIUS input rows of its window once each, keeps their horizontal sums in registers
// (compile-time indices after unrolling) and sums DIAMETER of them per output. No local memory, no
// barriers: a warp's 32 neighbouring columns make each row load coalesced, and the horizontal halo
// (x - RADIUS .. x + RADIUS) is the neighbours' pixels, served by the L1 cache. Each input pixel is
// loaded (ROWS + 2 RADIUS) / ROWS times per output row band instead of AREA times. The host passes
// ROWS (the fused kernel's default above does not apply to it).
__kernel void box_filter_strip(__global const PIXEL* restrict in, __global PIXEL* restrict out,
                               const uint width, const uint height) {
  const int x = get_global_id(0), y0 = get_global_id(1) * ROWS;
  if (x >= (int)width || y0 >= (int)height) return;
  int cols[DIAMETER];
#pragma unroll
  for (int d = 0; d < DIAMETER; ++d) cols[d] = CLAMP_X(x - RADIUS + d);
  SUM h[ROWS + 2 * RADIUS];
#pragma unroll
  for (int i = 0; i < ROWS + 2 * RADIUS; ++i) {
    __global const PIXEL* row = in + (size_t)CLAMP_Y(y0 - RADIUS + i) * width;
    SUM s = ZERO;
#pragma unroll
    for (int d = 0; d < DIAMETER; ++d) s += LOAD(row[cols[d]]);
    h[i] = s;
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    if (y0 + r < (int)height) {
      SUM s = ZERO;
#pragma unroll
      for (int d = 0; d < DIAMETER; ++d) s += h[r + d];
      out[(size_t)(y0 + r) * width + x] = FINISH(s);
    }
  }
}
