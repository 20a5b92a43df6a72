// Box filter: out(x, y) = mean of in over the (2 RADIUS + 1)^2 window centred on (x, y), with
// clamp-to-edge borders (coordinates outside the image read the nearest edge pixel).
// Pixels: float (one channel), or with RGBA8 uchar4, summed exactly (uint4; the tiled variants'
// horizontal sums in float4) and rounded as (sum + AREA / 2) / AREA. Intermediate sums (TEMP):
// float, or ushort4 (<= 63 * 255 fits).
// Variants: _naive (the whole window per pixel), _rows + _cols (separable, two kernels),
// _fused (both passes over a local-memory tile of LX x (LY * ROWS) outputs), _slide_cols +
// _slide_rows (running sums: two reads per pixel and pass whatever the radius), _strip (ROWS
// outputs down a column per work item from a register window, no local memory), _strip_vec
// (the same over COLS adjacent columns, with vector loads and stores), _tiled_slide (one pass:
// a work group walks a tile's rows keeping running column sums, then slides along the rows; the
// leaving rows loaded again), and _tiled_ring (the same walk, the leaving rows kept in a register
// ring).
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

// A build compiles one variant's kernels when the host names it (-DONLY_NAIVE ...): at large
// radii the unrolled taps of the others cost the compiler tens of seconds per build. Without one,
// every variant.
#if !defined(ONLY_NAIVE) && !defined(ONLY_SEPARABLE) && !defined(ONLY_FUSED) && !defined(ONLY_SLIDING) && \
    !defined(ONLY_STRIP) && !defined(ONLY_STRIP_VEC) && !defined(ONLY_TILED_SLIDE) && !defined(ONLY_TILED_RING)
#define ONLY_NAIVE
#define ONLY_SEPARABLE
#define ONLY_FUSED
#define ONLY_SLIDING
#define ONLY_STRIP
#define ONLY_STRIP_VEC
#define ONLY_TILED_SLIDE
#define ONLY_TILED_RING
#endif

#ifdef ONLY_NAIVE
// ---- naive ------------------------------------------------------------------------------------
__kernel void box_filter_naive(__global const PIXEL* in, __global PIXEL* out, const uint width,
                               const uint height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= (int)width || y >= (int)height) return;
  SUM s = ZERO;
#if DIAMETER <= 7
#pragma unroll
#else
#pragma unroll 1
#endif
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    __global const PIXEL* row = in + (size_t)CLAMP_Y(y + dy) * width;
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) s += LOAD(row[CLAMP_X(x + dx)]);
  }
  out[(size_t)y * width + x] = FINISH(s);
}

#endif  // ONLY_NAIVE

#ifdef ONLY_SEPARABLE
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

#endif  // ONLY_SEPARABLE

#ifdef ONLY_FUSED
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

#endif  // ONLY_FUSED

#ifdef ONLY_SLIDING
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

#endif  // ONLY_SLIDING

#ifdef ONLY_STRIP
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

#endif  // ONLY_STRIP

#ifdef ONLY_STRIP_VEC
// ---- strip_vec: COLS adjacent columns x ROWS rows per work item, vector loads and stores -------
// Work item (i, s) writes the outputs x0 .. x0 + COLS - 1 (x0 = i * COLS) of rows s * ROWS ..
// s * ROWS + ROWS - 1. Per input row it loads the COLS pixels as one vector (a warp's neighbouring
// items take neighbouring vectors: 32 * 4 * COLS contiguous bytes) and the RADIUS halo pixels on
// each side as scalars, forms the COLS horizontal sums in registers, and once DIAMETER rows are in,
// writes an output row as one vector store. Per output: (ROWS + 2 RADIUS) / ROWS * (1 + 2 RADIUS /
// COLS) / COLS load instructions (radius 1, 4 x 16: 0.84; strip: 3.75).
// The host passes COLS (1, 2, 4 or 8), ROWS, AHEAD (rows of loads issued ahead of the row being
// summed; default: all) and VEC_ALIGNED when width % COLS == 0 (every row then starts on a vector
// boundary and the loads and stores go through vector pointers; otherwise vloadn / vstoren, which
// only assume the element's alignment and may compile to scalar accesses).
// RGBA8 sums per pixel in two 16-bit lanes of a uint pair (bytes 0 and 2, bytes 1 and 3: SWAR,
// half the adds of uint4), exact while AREA * 255 + AREA / 2 < 65536, and rounds each channel as
// (sum + AREA / 2) / AREA like the other variants.
// The check applies to strip_vec's builds (the host passes COLS to those only): the same file
// builds naive and the others up to radius 31.
#ifdef COLS
#if defined(RGBA8) && AREA * 255 + AREA / 2 >= 65536
#error "strip_vec's 16-bit RGBA8 lanes need AREA * 255 + AREA / 2 < 65536 (radius <= 7)"
#endif
#else
#define COLS 4
#endif
#define SV_IN_ROWS (ROWS + 2 * RADIUS)
#ifndef AHEAD
#define AHEAD SV_IN_ROWS
#endif
#define SV_AHEAD (AHEAD < SV_IN_ROWS ? AHEAD : SV_IN_ROWS)
#define SV_CAT2(a, b) a##b
#define SV_CAT(a, b) SV_CAT2(a, b)

#ifdef RGBA8
#define SV_ELEM uint   // one RGBA8 pixel, its bytes in memory order
#define SV_HSUM uint2  // .x: bytes 0 and 2, .y: bytes 1 and 3, each in a 16-bit lane
#define SV_UNPACK(p) ((uint2)((p) & 0x00ff00ffu, ((p) >> 8) & 0x00ff00ffu))
#define SV_ZERO ((uint2)(0u))
__attribute__((always_inline)) inline uint sv_finish(uint2 s) {
  const uint2 n = s + (uint2)((uint)(AREA / 2) * 0x00010001u);
  return ((n.x & 0xffffu) / (uint)AREA) | (((n.y & 0xffffu) / (uint)AREA) << 8) |
         (((n.x >> 16) / (uint)AREA) << 16) | (((n.y >> 16) / (uint)AREA) << 24);
}
#define SV_FINISH(s) sv_finish(s)
#else
#define SV_ELEM float
#define SV_HSUM float
#define SV_UNPACK(p) (p)
#define SV_ZERO 0.0f
#define SV_FINISH(s) ((s) / (float)AREA)
#endif

#if COLS == 1
#define SV_VEC SV_ELEM
#define SV_SPLIT(v, a, o) a[(o)] = (v);
#define SV_JOIN(a) (a[0])
#define SV_VLOAD(p) (*(p))
#define SV_VSTORE(v, p) (*(p) = (v))
#elif COLS == 2
#define SV_VEC SV_CAT(SV_ELEM, 2)
#define SV_SPLIT(v, a, o) a[(o)] = (v).s0; a[(o) + 1] = (v).s1;
#define SV_JOIN(a) ((SV_VEC)(a[0], a[1]))
#define SV_VLOAD(p) vload2(0, p)
#define SV_VSTORE(v, p) vstore2(v, 0, p)
#elif COLS == 4
#define SV_VEC SV_CAT(SV_ELEM, 4)
#define SV_SPLIT(v, a, o) a[(o)] = (v).s0; a[(o) + 1] = (v).s1; a[(o) + 2] = (v).s2; a[(o) + 3] = (v).s3;
#define SV_JOIN(a) ((SV_VEC)(a[0], a[1], a[2], a[3]))
#define SV_VLOAD(p) vload4(0, p)
#define SV_VSTORE(v, p) vstore4(v, 0, p)
#elif COLS == 8
#define SV_VEC SV_CAT(SV_ELEM, 8)
#define SV_SPLIT(v, a, o)                                                                    \
  a[(o)] = (v).s0; a[(o) + 1] = (v).s1; a[(o) + 2] = (v).s2; a[(o) + 3] = (v).s3;            \
  a[(o) + 4] = (v).s4; a[(o) + 5] = (v).s5; a[(o) + 6] = (v).s6; a[(o) + 7] = (v).s7;
#define SV_JOIN(a) ((SV_VEC)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]))
#define SV_VLOAD(p) vload8(0, p)
#define SV_VSTORE(v, p) vstore8(v, 0, p)
#else
#error "strip_vec: COLS must be 1, 2, 4 or 8"
#endif

// The row y's pixels x0 - RADIUS .. x0 + COLS + RADIUS - 1 (clamped) into a: the COLS as one
// vector in the interior, pixel by pixel at the edges; halo: the clamped halo columns.
__attribute__((always_inline)) inline void strip_vec_load(__global const SV_ELEM* restrict in, const int width,
                                                          const int height, const int xv, const int y,
                                                          const int* halo, const bool interior, SV_ELEM* a) {
  const int x0 = xv * COLS;
  __global const SV_ELEM* row = in + (size_t)CLAMP_Y(y) * width;
  if (interior) {
#ifdef VEC_ALIGNED
    const SV_VEC v = ((__global const SV_VEC*)row)[xv];
#else
    const SV_VEC v = SV_VLOAD(row + x0);
#endif
    SV_SPLIT(v, a, RADIUS)
  } else {
#pragma unroll
    for (int c = 0; c < COLS; ++c) a[RADIUS + c] = row[CLAMP_X(x0 + c)];
  }
#pragma unroll
  for (int d = 0; d < RADIUS; ++d) {
    a[d] = row[halo[d]];
    a[RADIUS + COLS + d] = row[halo[RADIUS + d]];
  }
}

// One strip: ROWS + 2 RADIUS input rows, each loaded AHEAD rows before its sums are formed, so
// AHEAD rows of loads are in flight while earlier rows are summed and stored. The order is in the
// source, not left to the compiler: a store may alias a later load as far as PTX knows, and
// stores wait on their loads, so rows loaded after the previous row's store would each pay a
// full memory latency. AHEAD = ROWS + 2 RADIUS issues every load first (like strip).
// `interior`: all COLS x ROWS outputs lie inside the image (every strip but those at the right and
// bottom edges when the image is not a multiple of COLS x ROWS); the edge strips load pixel by
// pixel and guard their stores. Called with a constant, so each call inlines to its own code.
__attribute__((always_inline)) inline void strip_vec_body(__global const SV_ELEM* restrict in,
                                                          __global SV_ELEM* restrict out, const int width,
                                                          const int height, const int xv, const int y0,
                                                          const bool interior) {
  const int x0 = xv * COLS;
  int halo[2 * RADIUS];  // the clamped halo columns: x0 - RADIUS .. x0 - 1, x0 + COLS .. x0 + COLS + RADIUS - 1
#pragma unroll
  for (int d = 0; d < RADIUS; ++d) {
    halo[d] = CLAMP_X(x0 - RADIUS + d);
    halo[RADIUS + d] = CLAMP_X(x0 + COLS + d);
  }
  SV_ELEM a[SV_IN_ROWS][COLS + 2 * RADIUS];  // the input rows (registers after unrolling)
  SV_HSUM hs[SV_IN_ROWS][COLS];              // their horizontal sums
#pragma unroll
  for (int i = 0; i < SV_AHEAD; ++i) strip_vec_load(in, width, height, xv, y0 - RADIUS + i, halo, interior, a[i]);
#pragma unroll
  for (int i = 0; i < SV_IN_ROWS; ++i) {
    if (i + SV_AHEAD < SV_IN_ROWS)
      strip_vec_load(in, width, height, xv, y0 - RADIUS + i + SV_AHEAD, halo, interior, a[i + SV_AHEAD]);
    SV_HSUM u[COLS + 2 * RADIUS];
#pragma unroll
    for (int j = 0; j < COLS + 2 * RADIUS; ++j) u[j] = SV_UNPACK(a[i][j]);
#pragma unroll
    for (int c = 0; c < COLS; ++c) {
      SV_HSUM s = SV_ZERO;
#pragma unroll
      for (int d = 0; d < DIAMETER; ++d) s += u[c + d];
      hs[i][c] = s;
    }
    // Output row r = i - 2 RADIUS has its DIAMETER rows of horizontal sums now.
    const int r = i - 2 * RADIUS;
    if (r >= 0 && (interior || y0 + r < height)) {
      SV_ELEM o[COLS];
#pragma unroll
      for (int c = 0; c < COLS; ++c) {
        SV_HSUM s = SV_ZERO;
#pragma unroll
        for (int d = 0; d < DIAMETER; ++d) s += hs[r + d][c];
        o[c] = SV_FINISH(s);
      }
      __global SV_ELEM* dst = out + (size_t)(y0 + r) * width;
      if (interior) {
#ifdef VEC_ALIGNED
        ((__global SV_VEC*)dst)[xv] = SV_JOIN(o);
#else
        SV_VSTORE(SV_JOIN(o), dst + x0);
#endif
      } else {
#pragma unroll
        for (int c = 0; c < COLS; ++c)
          if (x0 + c < width) dst[x0 + c] = o[c];
      }
    }
  }
}

__kernel void box_filter_strip_vec(__global const SV_ELEM* restrict in, __global SV_ELEM* restrict out,
                                   const uint width, const uint height) {
  const int xv = get_global_id(0), x0 = xv * COLS, y0 = get_global_id(1) * ROWS;
  if (x0 >= (int)width || y0 >= (int)height) return;
  if (x0 + COLS <= (int)width && y0 + ROWS <= (int)height)
    strip_vec_body(in, out, (int)width, (int)height, xv, y0, true);
  else
    strip_vec_body(in, out, (int)width, (int)height, xv, y0, false);
}
#endif  // ONLY_STRIP_VEC

#if defined(RGBA8) && (defined(ONLY_TILED_SLIDE) || defined(ONLY_TILED_RING))
// ---- RGBA8 lane arithmetic of the tiled variants ----------------------------------------------
// A column's vertical sums are uint2 of 16-bit lanes (bytes 0 and 2, 1 and 3). The horizontal
// sums are float4, one channel each: integers below 2^20, exact in float in any order, so the
// slide's adds and the division run on the FP32 pipe (Hopper: 128 lanes a clock per SM, the
// integer pipe 64). A 16-bit lane v becomes a float without a conversion instruction: the bits
// 0x4B000000 | v are the float 2^23 + v, and the 2^23 comes off in a float add.
// Every byte move here (unpacking a pixel into lanes, a lane into a float, four bytes into a
// pixel) is one PRMT on NVIDIA, which picks any four bytes of two words; its compiler does not
// find them in the shifts and masks, so there the moves are written as PRMTs (inline PTX;
// __NV_CL_C_VERSION is NVIDIA's compiler). H200, r15 480x256, of copy: integer sums 0.46, with
// PRMTs 0.52; float sums 0.45 with shifts and masks, 0.55 with PRMTs, 0.40 with OpenCL's shuffle2
// (the same byte moves, which this compiler does not make PRMTs either). Other compilers take the
// shifts and masks.
#ifdef __NV_CL_C_VERSION
// Byte i of the result is byte (select >> 4 i) & 7 of a (0 .. 3) and b (4 .. 7).
__attribute__((always_inline)) inline uint rgba8_prmt(uint a, uint b, uint select) {
  uint r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(select));
  return r;
}
#define RGBA8_EVEN(p) rgba8_prmt((p), 0u, 0x4240u)  // bytes 0 and 2 in 16-bit lanes
#define RGBA8_ODD(p) rgba8_prmt((p), 0u, 0x4341u)   // bytes 1 and 3
#define RGBA8_F_LO(v) as_float(rgba8_prmt((v), 0x4B000000u, 0x7410u))  // 2^23 + the low lane
#define RGBA8_F_HI(v) as_float(rgba8_prmt((v), 0x4B000000u, 0x7432u))  // 2^23 + the high lane
#define RGBA8_PACK(q) rgba8_prmt(rgba8_prmt((q).x, (q).y, 0x0040u), rgba8_prmt((q).z, (q).w, 0x0040u), 0x5410u)
#else
#define RGBA8_EVEN(p) ((p) & 0x00ff00ffu)
#define RGBA8_ODD(p) (((p) >> 8) & 0x00ff00ffu)
#define RGBA8_F_LO(v) as_float(0x4B000000u | ((v) & 0xffffu))
#define RGBA8_F_HI(v) as_float(0x4B000000u | ((v) >> 16))
#define RGBA8_PACK(q) (((q).x & 0xffu) | ((q).y & 0xffu) << 8 | ((q).z & 0xffu) << 16 | (q).w << 24)  // low bytes
#endif
#define RGBA8_LANES(v) ((float4)(RGBA8_F_LO((v).x), RGBA8_F_LO((v).y), RGBA8_F_HI((v).x), RGBA8_F_HI((v).y)))
#define RGBA8_H_OF(v) (RGBA8_LANES(v) - (float4)(8388608.0f))
// A step's new - old: per lane new + 0x4000 - old, within [1, 32767] (both below 2^14) so no lane
// borrows: two integer adds for the four channels; the bias comes off with the 2^23.
#define RGBA8_STEP(n, o) (RGBA8_LANES((n) + (uint2)(0x40004000u) - (o)) - (float4)(8388608.0f + 16384.0f))
// (s + AREA / 2) / AREA is s / AREA rounded to nearest: AREA is odd, so s / AREA is never an
// integer and a half. It is the low byte of fma(s, r, 2^23), r = 1 / AREA rounded to float: the
// fma rounds 2^23 + s r once to an integer (the float's unit at 2^23), the nearest to s / AREA,
// because s r is within s / AREA * 2^-24 < 2^-16 of s / AREA (s <= 255 AREA), and s / AREA is
// at least 1 / (2 AREA) >= 2^-13 from a half ((2 s - (2m + 1) AREA) / (2 AREA), an odd numerator).
// Checked on the host for every s at radii 1 .. 31, and with r one unit off either way.
#define RGBA8_OUT(s) RGBA8_PACK(as_uint4(fma((s), (float4)(1.0f / AREA), (float4)(8388608.0f))))
#if DIAMETER * 255 * 4 >= 65536 || AREA > 4096
#error "tiled box filters: RGBA8 sums four vertical sums in 16-bit lanes, and rounds with AREA <= 4096"
#endif
#endif

#ifdef ONLY_TILED_SLIDE
// ---- tiled_slide: one pass over a tile of TW columns x tile_h rows per work group --------------
// Work item t owns the input column pair x0 - TS_PAD + 2t, +1 (TS_PAD: RADIUS rounded up to even,
// so pairs stay 8-byte aligned; TS_ITEMS = TW / 2 + TS_PAD items) and walks the tile's rows keeping
// the pair's vertical window sums: add the row entering, subtract the row leaving. The leaving row
// is loaded again (the group read it DIAMETER rows earlier: an L1 or L2 hit), so registers do not
// grow with the radius. Every BAND rows the vertical sums go to local memory (vsum); the group
// sums each band row's segments of SPAN columns (tsum), then item (row, segment) slides along
// SPAN outputs of one row, its first window from the segment sums, writes them to local memory
// (osum), and the group stores the band's rows as coalesced pairs. The next band's rows are
// loaded before the barriers, so they are in flight while this band is summed and stored.
// Even tile rows walk down and odd ones up: two vertically adjacent tiles read their shared halo
// rows at the same time (both at their start or both at their end), so the second read hits L2.
// Window sums are exact (float: multiples of 2^-8, below 2^16; RGBA8: integers), so the order of
// the running updates does not matter; float divides by the area as a multiply by its rounded
// reciprocal (within 1.5 ulp of the exact mean).
// RGBA8: a pixel is a uint; a column's vertical sums are two uint of 16-bit lanes (bytes 0 and 2,
// 1 and 3: at most DIAMETER * 255 < 65536), the horizontal sums float4 (integers, exact).
// The width must be even (pairs of pixels are 8-byte aligned in every row).
#ifndef TW
#define TW 448
#endif
#ifndef BAND
#define BAND 8
#endif
#ifndef SPAN
#define SPAN 16
#endif
#define TS_PAD ((RADIUS + 1) / 2 * 2)
#define TS_OFF (TS_PAD - RADIUS)  // vsum column of output column 0's window start
#define TS_ITEMS (TW / 2 + TS_PAD)
#define TS_SEGMENTS (TW / SPAN)
// Row strides in pairs, 1 mod 16: the 8- or 16-byte accesses of a warp's lanes (BAND rows of
// a segment, then the next segment) fall in different banks.
#define TS_VSTRIDE ((TS_ITEMS + 15) / 16 * 16 + 1)
#define TS_OSTRIDE ((TW / 2 + 15) / 16 * 16 + 1)
#if TW % SPAN != 0 || SPAN % 2 != 0
#error "tiled_slide: SPAN must be even and divide TW"
#endif

#ifdef RGBA8
#define TS_PIX uint
#define TS_PIX2 uint2
#define TS_V uint2   // one column's vertical sums
#define TS_V2 uint4  // a pair's: .xy, .zw
#define TS_V_ZERO ((uint2)(0u))
#define TS_V2_ZERO ((uint4)(0u))
#define TS_V2_OF(p) ((uint4)(RGBA8_EVEN((p).x), RGBA8_ODD((p).x), RGBA8_EVEN((p).y), RGBA8_ODD((p).y)))
#define TS_LO(v) ((v).xy)
#define TS_HI(v) ((v).zw)
#define TS_H float4
#define TS_H_ZERO ((float4)(0.0f))
#define TS_H_OF(v) RGBA8_H_OF(v)
#define TS_STEP(n, o) RGBA8_STEP(n, o)
#define TS_OUT(s) RGBA8_OUT(s)
#else
#define TS_PIX float
#define TS_PIX2 float2
#define TS_V float
#define TS_V2 float2
#define TS_V_ZERO 0.0f
#define TS_V2_ZERO ((float2)(0.0f))
#define TS_V2_OF(p) (p)
#define TS_LO(v) ((v).x)
#define TS_HI(v) ((v).y)
#define TS_H float
#define TS_H_ZERO 0.0f
#define TS_H_OF(v) (v)
#define TS_STEP(n, o) ((n) - (o))
#define TS_OUT(s) ((s) * (1.0f / (float)AREA))
#endif

// The band's horizontal step in two phases between barriers. Segment j of a band row is the SPAN
// vsum columns TS_OFF + j SPAN .. + SPAN - 1 (output j SPAN's window starts at its first). A
// window's DIAMETER columns are the TS_MSEG segments from its start less the TS_EXCESS columns
// past its end, so an item's first window costs TS_MSEG local reads, not DIAMETER column sums
// (radius 31, span 16: 4 reads and one column against 63 columns).
#define TS_MSEG ((DIAMETER + SPAN - 1) / SPAN)
#define TS_EXCESS (TS_MSEG * SPAN - DIAMETER)
#define TS_TSEGS (TS_SEGMENTS + TS_MSEG - 1)  // segments the windows reach: the last TS_MSEG - 1 in the right halo
#define TS_TSTRIDE (TS_TSEGS | 1)
#ifdef RGBA8
#define TS_GROUP (65535 / (DIAMETER * 255))  // vertical sums whose sum fits a 16-bit lane (r15: 8, r31: 4)
#else
#define TS_GROUP SPAN
#endif
#if TS_OFF + TS_TSEGS * SPAN > 2 * TS_ITEMS || BAND * TS_TSEGS > TS_ITEMS
#error "tiled_slide: the windows' segments must lie in the group's columns, one item each"
#endif

// Phase one: the segment sums of every band row into tsum, item t taking row t % BAND and
// segment t / BAND (RGBA8: in groups of TS_GROUP columns, whose sums still fit a 16-bit lane).
__attribute__((always_inline)) inline void tiled_slide_segments(__local const TS_V2* vsum, __local TS_H* tsum,
                                                                const uint t) {
  if (t >= BAND * TS_TSEGS) return;
  const uint row = t % BAND, seg = t / BAND;
  __local const TS_V2* v = vsum + row * TS_VSTRIDE + seg * (SPAN / 2);
  TS_H sum = TS_H_ZERO;
  TS_V q = TS_V_ZERO;
#pragma unroll
  for (int p = TS_OFF / 2; p <= (SPAN - 1 + TS_OFF) / 2; ++p) {
    const TS_V2 pair = v[p];
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int c = 2 * p + e - TS_OFF;  // the column's place in the segment
      if (c >= 0 && c < SPAN) {
        const TS_V a = e ? TS_HI(pair) : TS_LO(pair);
        q = c % TS_GROUP == 0 ? a : q + a;
        if (c % TS_GROUP == TS_GROUP - 1 || c == SPAN - 1) sum += TS_H_OF(q);
      }
    }
  }
  tsum[row * TS_TSTRIDE + seg] = sum;
}

// Phase two: item h < BAND * TS_SEGMENTS slides along outputs (h / BAND) * SPAN .. + SPAN - 1 of
// row h % BAND: the first window from the segment sums, then step k (1 .. SPAN - 1) adds column
// TS_ENTER0 + k - 1 of the window's start and subtracts column TS_LEAVE0 + k - 1, read from vsum
// (kept in registers across the barrier instead, radius 31 held 146 registers, not 128, and ran
// 10% slower on the H200). Two steps and one output pair a loop
// turn. TS_UNROLL (a tuning parameter): 0 reads every pair before the first step (the most loads
// in flight, and the most registers: 254 at radius 31, band 16), n > 0 streams the pairs with n
// turns unrolled (140 registers there); which is faster depends on the tile (the host's table:
// bench/tuning/box_filter.hpp).
#define TS_ENTER0 (TS_OFF + DIAMETER)
#define TS_LEAVE0 TS_OFF
#ifndef TS_UNROLL
#define TS_UNROLL 0
#endif
#define TS_PRAGMA(x) _Pragma(#x)
#define TS_UNROLL_PRAGMA(n) TS_PRAGMA(unroll n)
#if TS_UNROLL == 0
#define TS_ENTER_PAIR(i) enter_pairs[(i) - (TS_ENTER0 >> 1)]
#define TS_LEAVE_PAIR(i) leave_pairs[(i) - (TS_LEAVE0 >> 1)]
#define TS_TURNS_PRAGMA _Pragma("unroll")
#else
#define TS_ENTER_PAIR(i) v[i]
#define TS_LEAVE_PAIR(i) v[i]
#define TS_TURNS_PRAGMA TS_UNROLL_PRAGMA(TS_UNROLL)
#endif
#define TS_COL(pair_at, c) (((c) & 1) ? TS_HI(pair_at((c) >> 1)) : TS_LO(pair_at((c) >> 1)))  // c: a constant
// Columns c - 1 and c of a stream (c = start + 2m): one pair where c - 1 is even, else the
// previous turn's pair (carried in `prev`) and this one's.
#define TS_STREAM(pair_at, start, m, prev, first, second)                            \
  if ((start) & 1) {                                                                 \
    const TS_V2 pair = pair_at(((start) - 1) / 2 + (m));                             \
    first = TS_LO(pair);                                                             \
    second = TS_HI(pair);                                                            \
  } else {                                                                           \
    const TS_V2 pair = pair_at((start) / 2 + (m));                                   \
    first = TS_HI(prev);                                                             \
    second = TS_LO(pair);                                                            \
    prev = pair;                                                                     \
  }
__attribute__((always_inline)) inline void tiled_slide_rows(__local const TS_V2* vsum, __local const TS_H* tsum,
                                                            __local TS_PIX2* osum, const uint h) {
  if (h >= BAND * TS_SEGMENTS) return;
  const uint row = h % BAND, seg = h / BAND, first = seg * SPAN;
  __local const TS_V2* v = vsum + row * TS_VSTRIDE + first / 2;
  __local TS_PIX2* o = osum + row * TS_OSTRIDE + first / 2;
  TS_H s = TS_H_ZERO;
#pragma unroll
  for (int m = 0; m < TS_MSEG; ++m) s += tsum[row * TS_TSTRIDE + seg + m];
#if TS_UNROLL == 0
  TS_V2 enter_pairs[SPAN / 2], leave_pairs[SPAN / 2];
#pragma unroll
  for (int i = 0; i < SPAN / 2; ++i) {
    enter_pairs[i] = v[(TS_ENTER0 >> 1) + i];
    leave_pairs[i] = v[(TS_LEAVE0 >> 1) + i];
  }
#endif
  TS_V q = TS_V_ZERO;
#pragma unroll
  for (int c = 0; c < TS_EXCESS; ++c) {  // the columns past the first window's end
    q = c % TS_GROUP == 0 ? TS_COL(TS_ENTER_PAIR, TS_ENTER0 + c) : q + TS_COL(TS_ENTER_PAIR, TS_ENTER0 + c);
    if (c % TS_GROUP == TS_GROUP - 1 || c == TS_EXCESS - 1) s -= TS_H_OF(q);
  }
  const TS_PIX out0 = TS_OUT(s);
  s += TS_STEP(TS_COL(TS_ENTER_PAIR, TS_ENTER0), TS_COL(TS_LEAVE_PAIR, TS_LEAVE0));
  o[0] = (TS_PIX2)(out0, TS_OUT(s));
  TS_V2 enter_prev = TS_ENTER_PAIR(TS_ENTER0 / 2), leave_prev = TS_LEAVE_PAIR(TS_LEAVE0 / 2);  // where the start is even
  TS_TURNS_PRAGMA
  for (int m = 1; m < SPAN / 2; ++m) {  // steps 2m and 2m + 1: output pair m
    TS_V enter_a, enter_b, leave_a, leave_b;
    TS_STREAM(TS_ENTER_PAIR, TS_ENTER0, m, enter_prev, enter_a, enter_b)
    TS_STREAM(TS_LEAVE_PAIR, TS_LEAVE0, m, leave_prev, leave_a, leave_b)
    s += TS_STEP(enter_a, leave_a);
    const TS_PIX out = TS_OUT(s);
    s += TS_STEP(enter_b, leave_b);
    o[m] = (TS_PIX2)(out, TS_OUT(s));
  }
}

// The pair of columns x, x + 1 of row y: inside the image (`clamped` false: the whole tile and its
// halo are) one aligned load, else each coordinate clamped, the pair loaded whole where its
// columns are both inside.
__attribute__((always_inline)) inline TS_PIX2 tiled_slide_load(__global const TS_PIX* restrict in, const int w,
                                                               const int height, const int y, const int x,
                                                               const bool clamped) {
  if (!clamped) return *(__global const TS_PIX2*)(in + (size_t)y * w + x);
  __global const TS_PIX* row = in + (size_t)clamp(y, 0, height - 1) * w;
  if (x >= 0 && x + 1 < w) return *(__global const TS_PIX2*)(row + x);
  return (TS_PIX2)(row[clamp(x, 0, w - 1)], row[clamp(x + 1, 0, w - 1)]);
}

// The walk of one tile: `rows` output rows from ystart in direction dir. Called with a constant
// `clamped`, so each call inlines to its own code.
__attribute__((always_inline)) inline void tiled_slide_walk(__global const TS_PIX* restrict in,
                                                            __global TS_PIX* restrict out, const int w,
                                                            const int height, const int x0, const int ystart,
                                                            const int dir, const int rows, __local TS_V2* vsum,
                                                            __local TS_H* tsum, __local TS_PIX2* osum,
                                                            const bool clamped) {
  const int t = get_local_id(0);
  const int x = x0 - TS_PAD + 2 * t;  // the pair's first column
#define TS_LOAD(i) tiled_slide_load(in, w, height, ystart + dir * (i), x, clamped)  // row of step offset i
  // Step i adds the row entering, offset i + RADIUS, and subtracts the one leaving, offset
  // i - RADIUS - 1. The window before step 0 is the rows at offsets -RADIUS - 1 .. RADIUS - 1,
  // summed four ways (independent adds; the sums are exact in any order).
  TS_V2 part[4] = {TS_V2_ZERO, TS_V2_ZERO, TS_V2_ZERO, TS_V2_ZERO};
#pragma unroll
  for (int i = 0; i < DIAMETER; ++i) part[i % 4] += TS_V2_OF(TS_LOAD(i - RADIUS - 1));
  TS_V2 vertical = (part[0] + part[1]) + (part[2] + part[3]);
  TS_PIX2 enter[BAND], leave[BAND];
#pragma unroll
  for (int j = 0; j < BAND; ++j) {
    enter[j] = TS_LOAD(j + RADIUS);
    leave[j] = TS_LOAD(j - RADIUS - 1);
  }
  for (int first = 0; first < rows; first += BAND) {
#pragma unroll
    for (int j = 0; j < BAND; ++j) {
      vertical = vertical + TS_V2_OF(enter[j]) - TS_V2_OF(leave[j]);  // no lane goes below 0
      vsum[j * TS_VSTRIDE + t] = vertical;
    }
    if (first + BAND < rows) {  // the next band's rows, in flight during this band's sums
#pragma unroll
      for (int j = 0; j < BAND; ++j) {
        enter[j] = TS_LOAD(first + BAND + j + RADIUS);
        leave[j] = TS_LOAD(first + BAND + j - RADIUS - 1);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    tiled_slide_segments(vsum, tsum, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    tiled_slide_rows(vsum, tsum, osum, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < TW / 2 && x0 + 2 * t < w) {  // the band's rows, coalesced pairs (w is even)
      __global TS_PIX2* dst = (__global TS_PIX2*)(out + (size_t)(ystart + dir * first) * w + x0) + t;
      const long step = dir * (long)(w / 2);  // one output row on
      if (first + BAND <= rows) {  // a whole band: no row checks, the pointer stepped
#pragma unroll
        for (int r = 0; r < BAND; ++r, dst += step) *dst = osum[r * TS_OSTRIDE + t];
      } else {
#pragma unroll
        for (int r = 0; r < BAND; ++r, dst += step)
          if (first + r < rows) *dst = osum[r * TS_OSTRIDE + t];
      }
    }
  }
#undef TS_LOAD
}

__kernel __attribute__((reqd_work_group_size(TS_ITEMS, 1, 1)))
void box_filter_tiled_slide(__global const TS_PIX* restrict in, __global TS_PIX* restrict out, const uint width,
                            const uint height, const uint tile_h) {
  __local TS_V2 vsum[BAND * TS_VSTRIDE];
  __local TS_H tsum[BAND * TS_TSTRIDE];
  __local TS_PIX2 osum[BAND * TS_OSTRIDE];
  const int w = (int)width, h = (int)height;
  const int x0 = get_group_id(0) * TW, y0 = get_group_id(1) * tile_h;
  const int rows = min((int)tile_h, h - y0);
  const int dir = (get_group_id(1) & 1) ? -1 : 1;
  const int ystart = dir > 0 ? y0 : y0 + rows - 1;  // output row of step i: ystart + dir * i
  // Every load inside the image: columns x0 - TS_PAD .. x0 + TW + TS_PAD - 1, rows at offsets
  // -RADIUS - 1 .. RADIUS - 1 + the rows rounded up to whole bands, from ystart.
  const int lo = ystart + dir * (-RADIUS - 1), hi = ystart + dir * ((rows + BAND - 1) / BAND * BAND - 1 + RADIUS);
  const bool inside = x0 - TS_PAD >= 0 && x0 + TW + TS_PAD <= w && min(lo, hi) >= 0 && max(lo, hi) < h;
  if (inside)
    tiled_slide_walk(in, out, w, h, x0, ystart, dir, rows, vsum, tsum, osum, false);
  else
    tiled_slide_walk(in, out, w, h, x0, ystart, dir, rows, vsum, tsum, osum, true);
}
#endif  // ONLY_TILED_SLIDE

#ifdef ONLY_TILED_RING
// ---- tiled_ring: one pass over a tile of TW columns x tile_h rows per work group ---------------
// Tiled_slide's walk with one column per item, the leaving rows kept in registers, not loaded
// again. Work item t owns input column x0 - RADIUS + t (TR_ITEMS = TW + 2 RADIUS items) and walks the
// tile's rows keeping its column's vertical window sum: add the row entering, subtract the row
// leaving, whose pixel it kept in a register ring (TR_RING >= DIAMETER slots, indices fixed at
// compile time by unrolling RING rows), so every input pixel of the tile and its halo is loaded
// once. Every BAND rows the vertical sums go to local memory (vsum); item (row, segment) then
// slides along SPAN outputs of one row (DIAMETER + SPAN - 1 local reads), writes them to local
// memory (osum), and the group stores the band's rows coalesced. The next band's input rows are
// loaded before the barriers, so they are in flight while this band is summed and stored.
// Even tile rows walk down and odd ones up: two vertically adjacent tiles read their shared halo
// rows at the same time (both at their start or both at their end), so the second read hits L2.
// Window sums are exact (float: multiples of 2^-8, below 2^16; RGBA8: integers), so the order of
// the running updates does not matter.
// RGBA8: a pixel is a uint; the vertical sums are two uint of 16-bit lanes (bytes 0 and 2, 1 and
// 3: at most DIAMETER * 255 < 65536), the horizontal sums float4 (integers, exact).
#ifndef TW
#define TW 224
#endif
#ifndef BAND
#define BAND 16
#endif
#ifndef SPAN
#define SPAN 16
#endif
#define TR_ITEMS (TW + 2 * RADIUS)
#define TR_RING ((DIAMETER + BAND - 1) / BAND * BAND)
#define TR_SEGMENTS (TW / SPAN)
#define TR_VSTRIDE (TR_ITEMS | 1)  // odd strides: an item per row of the band reads a bank of its own
#define TR_OSTRIDE (TW | 1)
#if TW % SPAN != 0 || BAND * TR_SEGMENTS > TR_ITEMS
#error "tiled_ring: SPAN must divide TW, and BAND * TW / SPAN items must fit in the group"
#endif

#ifdef RGBA8
#define TR_PIX uint
#define TR_V uint2
#define TR_V_ZERO ((uint2)(0u))
#define TR_V_OF(p) ((uint2)(RGBA8_EVEN(p), RGBA8_ODD(p)))
#define TR_H float4
#define TR_H_ZERO ((float4)(0.0f))
#define TR_H_OF(v) RGBA8_H_OF(v)
#define TR_STEP(n, o) RGBA8_STEP(n, o)
#define TR_OUT(s) RGBA8_OUT(s)
#else
#define TR_PIX float
#define TR_V float
#define TR_V_ZERO 0.0f
#define TR_V_OF(p) (p)
#define TR_H float
#define TR_H_ZERO 0.0f
#define TR_H_OF(v) (v)
#define TR_STEP(n, o) ((n) - (o))
#define TR_OUT(s) ((s) / (float)AREA)
#endif

// The band's horizontal step: item h < BAND * TR_SEGMENTS takes row h % BAND (a warp's lanes
// take BAND rows, so with odd strides their reads hit different banks) and outputs
// (h / BAND) * SPAN .. + SPAN - 1 of it.
__attribute__((always_inline)) inline void tiled_ring_rows(__local const TR_V* vsum, __local TR_PIX* osum,
                                                           const uint h) {
  if (h >= BAND * TR_SEGMENTS) return;
  const uint row = h % BAND, first = (h / BAND) * SPAN;
  __local const TR_V* v = vsum + row * TR_VSTRIDE + first;
  __local TR_PIX* o = osum + row * TR_OSTRIDE + first;
  TR_V kept[SPAN];  // the window's first values: they leave it in the next steps
  TR_H s = TR_H_ZERO;
  // The first window in groups of four (RGBA8: four 16-bit sums still fit a lane).
#pragma unroll
  for (int g = 0; g < DIAMETER; g += 4) {
    TR_V q = TR_V_ZERO;
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (g + e < DIAMETER) {
        const TR_V a = v[g + e];
        if (g + e < SPAN) kept[g + e] = a;
        q += a;
      }
    s += TR_H_OF(q);
  }
  o[0] = TR_OUT(s);
#pragma unroll
  for (int k = 1; k < SPAN; ++k) {
    const TR_V enter = v[k + 2 * RADIUS];
    if (k + 2 * RADIUS < SPAN) kept[k + 2 * RADIUS] = enter;
    s += TR_STEP(enter, kept[k - 1]);
    o[k] = TR_OUT(s);
  }
}

__kernel __attribute__((reqd_work_group_size(TR_ITEMS, 1, 1)))
void box_filter_tiled_ring(__global const TR_PIX* restrict in, __global TR_PIX* restrict out, const uint width,
                           const uint height, const uint tile_h) {
  __local TR_V vsum[BAND * TR_VSTRIDE];
  __local TR_PIX osum[BAND * TR_OSTRIDE];
  const int t = get_local_id(0), w = (int)width;
  const int x0 = get_group_id(0) * TW, y0 = get_group_id(1) * tile_h;
  const int rows = min((int)tile_h, (int)height - y0);
  const int dir = (get_group_id(1) & 1) ? -1 : 1;
  const int ystart = dir > 0 ? y0 : y0 + rows - 1;  // output row of step i: ystart + dir * i
  __global const TR_PIX* column = in + CLAMP_X(x0 - RADIUS + t);
#define TR_LOAD(i) column[(size_t)CLAMP_Y(ystart + dir * ((i) + RADIUS)) * w]  // the row entering at step i

  // Step i adds the pixel loaded for it (kept in ring[i mod TR_RING]) and subtracts the one loaded
  // for step i - DIAMETER. The window before step 0 is the pixels of steps -DIAMETER .. -1.
  TR_PIX ring[TR_RING];
  TR_V vertical = TR_V_ZERO;
#pragma unroll
  for (int i = -DIAMETER; i < 0; ++i) {
    ring[TR_RING + i] = TR_LOAD(i);
    vertical += TR_V_OF(ring[TR_RING + i]);
  }
  TR_PIX next[BAND];
#pragma unroll
  for (int j = 0; j < BAND; ++j) next[j] = TR_LOAD(j);

  for (int base = 0; base < rows; base += TR_RING) {
#pragma unroll
    for (int band = 0; band < TR_RING / BAND; ++band) {
      const int first = base + band * BAND;
      if (first < rows) {  // the same for the whole group
#pragma unroll
        for (int j = 0; j < BAND; ++j) {
          const int slot = band * BAND + j, leaving = (slot - DIAMETER + TR_RING) % TR_RING;
          vertical = vertical + TR_V_OF(next[j]) - TR_V_OF(ring[leaving]);  // no lane goes below 0
          ring[slot] = next[j];
          vsum[j * TR_VSTRIDE + t] = vertical;
        }
#pragma unroll
        for (int j = 0; j < BAND; ++j) next[j] = TR_LOAD(first + BAND + j);
        barrier(CLK_LOCAL_MEM_FENCE);
        tiled_ring_rows(vsum, osum, t);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = t; i < BAND * TW; i += TR_ITEMS) {  // the band's rows, coalesced
          const int r = i / TW, c = i % TW, x = x0 + c;
          if (first + r < rows && x < w) out[(size_t)(ystart + dir * (first + r)) * w + x] = osum[r * TR_OSTRIDE + c];
        }
      }
    }
  }
#undef TR_LOAD
}
#endif  // ONLY_TILED_RING
