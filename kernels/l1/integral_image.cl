// Integral image of an 8-bit image (width x height, row-major): sum(x, y) = the sum of in over
// x' <= x, y' <= y, in uint (wrapping past 2^32: window differences stay exact) and, with SQUARED,
// sq(x, y) the same over in^2 in ulong (exact). Same size as the image, inclusive, no zero border.
// rows_cols: integral_image_rows (one work group per row, WG items x 4 pixels per step), then
// integral_image_cols (each column split in SEGS segments, scanned in two passes).
// fused: one launch; work groups take bands of BAND rows in ticket order, publish the band's bottom
// row of the integral (chained: band b waits for band b-1's), then write their rows.
#ifndef WG
#define WG 256
#endif
#ifndef SEGS
#define SEGS 16
#endif
#ifndef COLS
#define COLS 32
#endif
#ifndef BAND
#define BAND 32
#endif

#if defined(SQUARED) && defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

// ---- work-group exclusive scan (Blelloch, work-efficient), one value per work item ----------------
#define PADDED(i) ((i) + ((i) >> 5))
#define LOCAL_SLOTS (PADDED(WG) + 1)
#define DEFINE_GROUP_SCAN(NAME, T)                                \
  T NAME(T x, __local T* s, T* total) {                           \
    const uint lid = get_local_id(0);                             \
    s[PADDED(lid)] = x;                                           \
    for (uint d = 1; d < WG; d <<= 1) {                           \
      barrier(CLK_LOCAL_MEM_FENCE);                               \
      const uint i = (lid + 1) * 2 * d - 1;                       \
      if (i < WG) s[PADDED(i)] += s[PADDED(i - d)];               \
    }                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                 \
    if (lid == 0) {                                               \
      s[PADDED(WG)] = s[PADDED(WG - 1)];                          \
      s[PADDED(WG - 1)] = 0;                                      \
    }                                                             \
    for (uint d = WG / 2; d > 0; d >>= 1) {                       \
      barrier(CLK_LOCAL_MEM_FENCE);                               \
      const uint i = (lid + 1) * 2 * d - 1;                       \
      if (i < WG) {                                               \
        const T left = s[PADDED(i - d)];                          \
        s[PADDED(i - d)] = s[PADDED(i)];                          \
        s[PADDED(i)] += left;                                     \
      }                                                           \
    }                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                 \
    const T r = s[PADDED(lid)];                                   \
    *total = s[PADDED(WG)];                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                 \
    return r;                                                     \
  }
DEFINE_GROUP_SCAN(group_scan_uint, uint)
DEFINE_GROUP_SCAN(group_scan_ulong, ulong)

// ---- 4-pixel helpers (zeros past the row's end; rows need not be 4-aligned) ----------------------
uint4 load4(__global const uchar* row, const uint x, const uint width) {
  if (x + 4 <= width) return convert_uint4(vload4(0, row + x));
  uint4 v = (uint4)(0);
  if (x < width) v.s0 = row[x];
  if (x + 1 < width) v.s1 = row[x + 1];
  if (x + 2 < width) v.s2 = row[x + 2];
  return v;
}
#define INCLUSIVE4(T4, v) ((v) + (T4)(0, (v).s0, (v).s0 + (v).s1, (v).s0 + (v).s1 + (v).s2))
// Guarded stores of 4 values at p[x..x+3] (vector store when whole; scalar for volatile pointers).
#define STORE4(v, p, x, width)                             \
  do {                                                     \
    if ((x) + 4 <= (width)) {                              \
      vstore4((v), 0, (p) + (x));                          \
    } else {                                               \
      STORE4_SCALAR(v, p, x, width);                       \
    }                                                      \
  } while (0)
#define STORE4_SCALAR(v, p, x, width)                 \
  do {                                                \
    if ((x) < (width)) (p)[(x)] = (v).s0;             \
    if ((x) + 1 < (width)) (p)[(x) + 1] = (v).s1;     \
    if ((x) + 2 < (width)) (p)[(x) + 2] = (v).s2;     \
    if ((x) + 3 < (width)) (p)[(x) + 3] = (v).s3;     \
  } while (0)
#define LOAD4_SCALAR(v, p, x, width)                  \
  do {                                                \
    if ((x) < (width)) (v).s0 = (p)[(x)];             \
    if ((x) + 1 < (width)) (v).s1 = (p)[(x) + 1];     \
    if ((x) + 2 < (width)) (v).s2 = (p)[(x) + 2];     \
    if ((x) + 3 < (width)) (v).s3 = (p)[(x) + 3];     \
  } while (0)

// Prefix over a WG * 4 chunk of a row, 4 values per work item: out = carry + the inclusive prefix
// up to each value; carry advances past the chunk. The scans' barriers make sharing carries safe.
#define CHUNK_PREFIX_UINT(v, carry, out)                                   \
  {                                                                        \
    const uint4 incl = INCLUSIVE4(uint4, v);                               \
    uint chunk;                                                            \
    const uint excl = group_scan_uint(incl.s3, s32, &chunk);               \
    out = (uint4)(carry + excl) + incl;                                    \
    carry += chunk;                                                        \
  }
#define CHUNK_PREFIX_ULONG(v, carry, out)                                  \
  {                                                                        \
    const ulong4 incl = INCLUSIVE4(ulong4, v);                             \
    ulong chunk;                                                           \
    const ulong excl = group_scan_ulong(incl.s3, s64, &chunk);             \
    out = (ulong4)(carry + excl) + incl;                                   \
    carry += chunk;                                                        \
  }
// The row prefix of 4 pixels v (and of their squares when SQUARED).
#ifdef SQUARED
#define ROW_PREFIX4(v, carry, carry2, prefix, prefix2) \
  CHUNK_PREFIX_UINT(v, carry, prefix)                  \
  CHUNK_PREFIX_ULONG(convert_ulong4((v) * (v)), carry2, prefix2)
#else
#define ROW_PREFIX4(v, carry, carry2, prefix, prefix2) CHUNK_PREFIX_UINT(v, carry, prefix)
#endif

// ---- rows then columns ----------------------------------------------------------------------------
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void integral_image_rows(__global const uchar* in, const uint width, __global uint* sum, __global ulong* sq) {
  __local uint s32[LOCAL_SLOTS];
  __local ulong s64[LOCAL_SLOTS];
  const size_t row = (size_t)get_group_id(0) * width;
  uint carry = 0;
  ulong carry2 = 0;
  for (uint x0 = 0; x0 < width; x0 += WG * 4) {
    const uint x = x0 + get_local_id(0) * 4;
    const uint4 v = load4(in + row, x, width);
    uint4 prefix;
    ulong4 prefix2;
    ROW_PREFIX4(v, carry, carry2, prefix, prefix2)
    STORE4(prefix, sum + row, x, width);
#ifdef SQUARED
    STORE4(prefix2, sq + row, x, width);
#endif
  }
}

// In place over the row prefixes: segment sums, their exclusive scan per column, then the
// running sums. Work groups are COLS x SEGS; the y dimension of the grid is SEGS.
__kernel __attribute__((reqd_work_group_size(COLS, SEGS, 1)))
void integral_image_cols(__global uint* sum, __global ulong* sq, const uint width, const uint height) {
  __local uint seg_sum[SEGS][COLS];
  __local ulong seg_sq[SEGS][COLS];
  const uint x = get_global_id(0), lx = get_local_id(0), seg = get_local_id(1);
  const uint length = (height + SEGS - 1) / SEGS;
  const uint y0 = min(height, seg * length), y1 = min(height, y0 + length);
  uint a = 0;
  ulong a2 = 0;
  if (x < width) {
#pragma unroll 8
    for (uint y = y0; y < y1; ++y) {
      a += sum[(size_t)y * width + x];
#ifdef SQUARED
      a2 += sq[(size_t)y * width + x];
#endif
    }
  }
  seg_sum[seg][lx] = a;
  seg_sq[seg][lx] = a2;
  barrier(CLK_LOCAL_MEM_FENCE);
  a = 0;
  a2 = 0;
  for (uint s = 0; s < seg; ++s) {
    a += seg_sum[s][lx];
    a2 += seg_sq[s][lx];
  }
  if (x >= width) return;
#pragma unroll 8
  for (uint y = y0; y < y1; ++y) {
    const size_t i = (size_t)y * width + x;
    a += sum[i];
    sum[i] = a;
#ifdef SQUARED
    a2 += sq[i];
    sq[i] = a2;
#endif
  }
}

// ---- fused: chained bands ---------------------------------------------------------------------------
// bottom[b * width + x] (bottom_sq likewise): the integral's value on band b's last row, published
// with atomics; flags[b] == epoch once it is complete (epoch changes every launch).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void integral_image_fused(__global const uchar* in, const uint width, const uint height,
                          __global uint* sum, __global ulong* sq,
                          __global volatile uint* bottom, __global volatile ulong* bottom_sq,
                          __global volatile uint* flags, __global volatile uint* counter,
                          const uint bands, const uint epoch) {
  __local uint s32[LOCAL_SLOTS];
  __local ulong s64[LOCAL_SLOTS];
  __local uint ticket;
  __local uint row_carry[BAND];
  __local ulong row_carry2[BAND];
  const uint lid = get_local_id(0);
  if (lid == 0) {
    ticket = atomic_inc(counter);
    if (ticket == bands - 1) atomic_xchg(counter, 0u);  // every ticket is taken: ready for the next launch
  }
  for (uint r = lid; r < BAND; r += WG) row_carry[r] = 0, row_carry2[r] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint band = ticket;
  const uint y0 = band * BAND, y1 = min(height, y0 + BAND);
  __global volatile uint* mine = bottom + (size_t)band * width;
  __global volatile uint* above = bottom + (size_t)(band - 1) * width;  // used when band > 0
  __global volatile ulong* mine2 = bottom_sq + (size_t)band * width;
  __global volatile ulong* above2 = bottom_sq + (size_t)(band - 1) * width;

  // A: the band's own part of its bottom row = the row prefix of its column sums.
  uint carry = 0;
  ulong carry2 = 0;
  for (uint x0 = 0; x0 < width; x0 += WG * 4) {
    const uint x = x0 + lid * 4;
    uint4 c = (uint4)(0);
    ulong4 c2 = (ulong4)(0);
    for (uint y = y0; y < y1; ++y) {
      const uint4 v = load4(in + (size_t)y * width, x, width);
      c += v;
#ifdef SQUARED
      c2 += convert_ulong4(v * v);
#endif
    }
    uint4 prefix;
    CHUNK_PREFIX_UINT(c, carry, prefix)
    STORE4_SCALAR(prefix, mine, x, width);
#ifdef SQUARED
    ulong4 prefix2;
    CHUNK_PREFIX_ULONG(c2, carry2, prefix2)
    STORE4_SCALAR(prefix2, mine2, x, width);
#endif
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);

  // B: wait for the band above, add its bottom row, publish ours.
  if (band > 0) {
    if (lid == 0)
      while (atomic_or(&flags[band - 1], 0u) != epoch) {
      }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  }
  for (uint x = lid; x < width; x += WG) {
    uint a = mine[x];
    if (band > 0) a += above[x];
    atomic_xchg(&mine[x], a);
#ifdef SQUARED
    ulong a2 = mine2[x];
    if (band > 0) a2 += above2[x];
    atom_xchg(&mine2[x], a2);
#endif
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) atomic_xchg(&flags[band], epoch);

  // C: the band's rows: the bottom row above plus running sums of the row prefixes.
  for (uint x0 = 0; x0 < width; x0 += WG * 4) {
    const uint x = x0 + lid * 4;
    uint4 run = (uint4)(0);
    ulong4 run2 = (ulong4)(0);
    if (band > 0) {
      LOAD4_SCALAR(run, above, x, width);
#ifdef SQUARED
      LOAD4_SCALAR(run2, above2, x, width);
#endif
    }
    for (uint y = y0; y < y1; ++y) {
      const uint4 v = load4(in + (size_t)y * width, x, width);
      uint c1 = row_carry[y - y0];
      ulong c2 = row_carry2[y - y0];
      uint4 prefix;
      ulong4 prefix2;
      ROW_PREFIX4(v, c1, c2, prefix, prefix2)
      if (lid == 0) row_carry[y - y0] = c1, row_carry2[y - y0] = c2;
      run += prefix;
      STORE4(run, sum + (size_t)y * width, x, width);
#ifdef SQUARED
      run2 += prefix2;
      STORE4(run2, sq + (size_t)y * width, x, width);
#endif
    }
  }
}

// ---- tiles: reduce, scan the tile sums, write --------------------------------------------------
// Tiles of TR = GY * RPT rows x TC = 4 * GX columns, one per work group of GX x GY items; item
// (gx, gy) holds 4 columns x RPT rows. With colabove(x) = the sum of column x above the tile and
// left(y) = I(y, x0 - 1) (the integral just left of it):
//   I(y, x) = left(y) + sum over x0 <= x' <= x of (colabove(x') + the column's sum in the tile to y).
// integral_image_tiles_reduce: each tile's column sums, row sums and total.
// integral_image_tiles_scan: column sums -> colabove (down the tile rows), totals -> the totals of
// the tiles above, row sums -> the sums of the tiles to the left (along each row); exclusive.
// integral_image_tiles_write: left(y) = the corner (from the totals above of the tiles to the left)
// plus the running sum of the row offsets down the tile; in-tile sums as in the formula above: down
// the items' rows in registers, across the items through local memory. Sums of squares of one tile
// fit in uint (TR * TC * 255^2 < 2^32, checked below): only carries are ulong.
#ifdef TILES
#ifndef GX
#define GX 64
#endif
#ifndef GY
#define GY 4
#endif
#ifndef RPT
#define RPT 8
#endif
#define TC (4 * GX)
#define TR (GY * RPT)
#define TQ (GX * GY / TR)  // items scanning each tile row
#define TK (GX / TQ)       // quads each of them takes
#define RT_STRIDE (GX + 1) // odd: a warp down a column of the quad table hits distinct banks
#define SCAN_COLS 32
#define SCAN_SEGS 8
#if (GX * GY) % TR != 0 || GX % TQ != 0
#error "the quad table's rows must split evenly among the work items"
#endif
#if defined(SQUARED) && TR * TC > 66052
#error "a tile's sum of squares must fit in uint (TR * TC * 255^2 < 2^32)"
#endif

// Rows start 4-aligned when y * width is: then whole quads load and store as aligned vectors
// (vload4/vstore4 only promise element alignment, which costs scalar accesses).
#define TILES_LOAD4(T4, v, p, i, x, width)                  \
  do {                                                      \
    if ((x) + 4 <= (width)) {                               \
      if (((i) & 3) == 0) v = *(__global const T4*)((p) + (i)); \
      else v = vload4(0, (p) + (i));                        \
    } else {                                                \
      v = (T4)(0);                                          \
      if ((x) < (width)) v.s0 = (p)[(i)];                   \
      if ((x) + 1 < (width)) v.s1 = (p)[(i) + 1];           \
      if ((x) + 2 < (width)) v.s2 = (p)[(i) + 2];           \
    }                                                       \
  } while (0)
#define TILES_STORE4(T4, v, p, i, x, width)                 \
  do {                                                      \
    if ((x) + 4 <= (width)) {                               \
      if (((i) & 3) == 0) *(__global T4*)((p) + (i)) = (v); \
      else vstore4((v), 0, (p) + (i));                      \
    } else {                                                \
      if ((x) < (width)) (p)[(i)] = (v).s0;                 \
      if ((x) + 1 < (width)) (p)[(i) + 1] = (v).s1;         \
      if ((x) + 2 < (width)) (p)[(i) + 2] = (v).s2;         \
    }                                                       \
  } while (0)
#define HSUM4(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)

// colsum[ty * width + x]: the tile's column sums; rowsum[y * ntx + tx]: its row sums;
// tilesum[ty * ntx + tx]: its total (the *2 arrays: the same of the squares).
__kernel __attribute__((reqd_work_group_size(GX, GY, 1)))
void integral_image_tiles_reduce(__global const uchar* in, const uint width, const uint height,
                                 __global uint* colsum, __global uint* rowsum, __global uint* tilesum,
                                 __global ulong* colsum2, __global ulong* rowsum2, __global ulong* tilesum2) {
  __local uint4 cb[GY][GX];
  __local uint rt[TR * RT_STRIDE];
  __local uint part[TQ * TR];
  __local uint ts[GX];
#ifdef SQUARED
  __local uint4 cb2[GY][GX];
  __local uint rt2[TR * RT_STRIDE];
  __local uint part2[TQ * TR];
  __local uint ts2[GX];
#endif
  const uint gx = get_local_id(0), gy = get_local_id(1), lid = gy * GX + gx;
  const uint tx = get_group_id(0), ty = get_group_id(1), ntx = get_num_groups(0);
  const uint x = tx * TC + gx * 4, y0 = ty * TR;
  // Every load is issued before the first use (each sits in branches a use would wait behind).
  uchar4 px[RPT];
#pragma unroll
  for (uint r = 0; r < RPT; ++r) {
    const uint y = y0 + gy * RPT + r;
    const size_t i = (size_t)y * width + x;
    px[r] = (uchar4)(0);
    if (y < height) TILES_LOAD4(uchar4, px[r], in, i, x, width);
  }
  uint4 c = (uint4)(0), c2 = (uint4)(0);
#pragma unroll
  for (uint r = 0; r < RPT; ++r) {
    const uint4 v = convert_uint4(px[r]);
    c += v;
    rt[(gy * RPT + r) * RT_STRIDE + gx] = HSUM4(v);
#ifdef SQUARED
    const uint4 v2 = v * v;
    c2 += v2;
    rt2[(gy * RPT + r) * RT_STRIDE + gx] = HSUM4(v2);
#endif
  }
  cb[gy][gx] = c;
#ifdef SQUARED
  cb2[gy][gx] = c2;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  // Column sums (the first GX items) and the tile rows' segment sums (every item).
  if (lid < GX) {
    uint4 s = (uint4)(0), s2 = (uint4)(0);
    for (uint g = 0; g < GY; ++g) {
      s += cb[g][lid];
#ifdef SQUARED
      s2 += cb2[g][lid];
#endif
    }
    const uint xc = tx * TC + lid * 4;
    const size_t i = (size_t)ty * width + xc;
    TILES_STORE4(uint4, s, colsum, i, xc, width);
    ts[lid] = HSUM4(s);
#ifdef SQUARED
    const ulong4 s2l = convert_ulong4(s2);
    TILES_STORE4(ulong4, s2l, colsum2, i, xc, width);
    ts2[lid] = HSUM4(s2);
#endif
  }
  const uint sy = lid % TR, sq = lid / TR;
  uint a = 0, a2 = 0;
  for (uint k = 0; k < TK; ++k) {
    a += rt[sy * RT_STRIDE + sq * TK + k];
#ifdef SQUARED
    a2 += rt2[sy * RT_STRIDE + sq * TK + k];
#endif
  }
  part[sq * TR + sy] = a;
#ifdef SQUARED
  part2[sq * TR + sy] = a2;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  if (sq == 0 && y0 + sy < height) {
    a = 0, a2 = 0;
    for (uint q = 0; q < TQ; ++q) {
      a += part[q * TR + sy];
#ifdef SQUARED
      a2 += part2[q * TR + sy];
#endif
    }
    rowsum[(size_t)(y0 + sy) * ntx + tx] = a;
#ifdef SQUARED
    rowsum2[(size_t)(y0 + sy) * ntx + tx] = a2;
#endif
  }
  if (lid == 0) {
    a = 0, a2 = 0;
    for (uint g = 0; g < GX; ++g) {
      a += ts[g];
#ifdef SQUARED
      a2 += ts2[g];
#endif
    }
    tilesum[ty * ntx + tx] = a;
#ifdef SQUARED
    tilesum2[ty * ntx + tx] = a2;
#endif
  }
}

// In-place exclusive scan of n values a[i0 + k * step] (and a2's), from t (t2), SCAN_BATCH at a time:
// a batch's loads are issued before its stores (the compiler cannot tell that a store does not feed
// a later load of the same array, so a plain loop would wait a round trip per value).
#define SCAN_BATCH 8
#ifdef SQUARED
#define SCAN_BATCH_SQ(stmt) stmt
#else
#define SCAN_BATCH_SQ(stmt)
#endif
#define SCAN_IN_PLACE(a, a2, i0, step, n, t, t2)                          \
  for (uint b = 0; b < (n); b += SCAN_BATCH) {                            \
    uint v[SCAN_BATCH];                                                   \
    ulong v2[SCAN_BATCH];                                                 \
    _Pragma("unroll") for (uint k = 0; k < SCAN_BATCH; ++k) {             \
      const size_t i = (i0) + (size_t)(b + k) * (step);                   \
      v[k] = b + k < (n) ? (a)[i] : 0;                                    \
      SCAN_BATCH_SQ(v2[k] = b + k < (n) ? (a2)[i] : 0;)                   \
    }                                                                     \
    _Pragma("unroll") for (uint k = 0; k < SCAN_BATCH; ++k) {             \
      const size_t i = (i0) + (size_t)(b + k) * (step);                   \
      if (b + k < (n)) {                                                  \
        (a)[i] = t;                                                       \
        SCAN_BATCH_SQ((a2)[i] = t2;)                                      \
      }                                                                   \
      t += v[k];                                                          \
      SCAN_BATCH_SQ(t2 += v2[k];)                                         \
    }                                                                     \
  }

// Groups [0, col_groups): colsum; the next tile_groups: tilesum (exclusive scans down the columns,
// SCAN_COLS columns a group, each column in SCAN_SEGS segments: sum, exchange, rewrite). The rest:
// rowsum, an exclusive scan along each row, a row per item. One barrier, reached by every group.
__kernel __attribute__((reqd_work_group_size(SCAN_COLS, SCAN_SEGS, 1)))
void integral_image_tiles_scan(__global uint* colsum, __global uint* rowsum, __global uint* tilesum,
                               __global ulong* colsum2, __global ulong* rowsum2, __global ulong* tilesum2,
                               const uint width, const uint height, const uint ntx, const uint nty,
                               const uint col_groups, const uint tile_groups) {
  __local uint seg[SCAN_SEGS * SCAN_COLS];
  __local ulong seg2[SCAN_SEGS * SCAN_COLS];
  const uint g = get_group_id(0), lx = get_local_id(0), s = get_local_id(1);
  const bool down = g < col_groups + tile_groups, tiles = g >= col_groups;
  __global uint* a = tiles ? tilesum : colsum;
  __global ulong* a2 = tiles ? tilesum2 : colsum2;
  const uint cols = tiles ? ntx : width, x = (tiles ? g - col_groups : g) * SCAN_COLS + lx;
  const uint length = (nty + SCAN_SEGS - 1) / SCAN_SEGS;
  const uint y0 = min(nty, s * length), y1 = min(nty, y0 + length);
  uint t = 0;
  ulong t2 = 0;
  if (down && x < cols)
#pragma unroll 8
    for (uint y = y0; y < y1; ++y) {
      t += a[(size_t)y * cols + x];
#ifdef SQUARED
      t2 += a2[(size_t)y * cols + x];
#endif
    }
  seg[s * SCAN_COLS + lx] = t;
  seg2[s * SCAN_COLS + lx] = t2;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (down) {
    if (x >= cols) return;
    t = 0;
    t2 = 0;
    for (uint i = 0; i < s; ++i) {
      t += seg[i * SCAN_COLS + lx];
      t2 += seg2[i * SCAN_COLS + lx];
    }
    SCAN_IN_PLACE(a, a2, (size_t)y0 * cols + x, cols, y1 - y0, t, t2)
    return;
  }
  const uint y = (g - col_groups - tile_groups) * (SCAN_COLS * SCAN_SEGS) + s * SCAN_COLS + lx;
  if (y >= height) return;
  t = 0;
  t2 = 0;
  SCAN_IN_PLACE(rowsum, rowsum2, (size_t)y * ntx, 1, ntx, t, t2)
}

// Over the scanned arrays: colabove = colsum, the row offsets = rowsum, the totals above = tilesum.
// Tiles go in the reverse of the reduce's order: the image rows it read last are still in L2.
__kernel __attribute__((reqd_work_group_size(GX, GY, 1)))
void integral_image_tiles_write(__global const uchar* in, const uint width, const uint height,
                                __global const uint* colabove, __global const uint* rowoff,
                                __global const uint* above, __global const ulong* colabove2,
                                __global const ulong* rowoff2, __global const ulong* above2,
                                __global uint* sum, __global ulong* sq) {
  __local uint4 cb[GY][GX];
  __local uint rt[TR * RT_STRIDE];
  __local uint part[TQ * TR];
  __local uint left[TR];
  __local uint lva[GY], lvb[GY];
#ifdef SQUARED
  __local uint4 cb2[GY][GX];
  __local ulong rt2[TR * RT_STRIDE];
  __local ulong part2[TQ * TR];
  __local ulong left2[TR];
  __local ulong lva2[GY], lvb2[GY];
#endif
  const uint gx = get_local_id(0), gy = get_local_id(1), lid = gy * GX + gx;
  const uint ntx = get_num_groups(0), nty = get_num_groups(1);
  const uint tx = ntx - 1 - get_group_id(0), ty = nty - 1 - get_group_id(1);
  const uint x = tx * TC + gx * 4, y0 = ty * TR, yb = y0 + gy * RPT;

  // The item's pixels, its block's column sums, and (column 0) the row offsets and the corner's parts.
  uchar4 px[RPT];
  // Every load is issued before the first use (each sits in branches a use would wait behind).
#pragma unroll
  for (uint r = 0; r < RPT; ++r) {
    const size_t i = (size_t)(yb + r) * width + x;
    px[r] = (uchar4)(0);
    if (yb + r < height) TILES_LOAD4(uchar4, px[r], in, i, x, width);
  }
  uint4 carry;
  const size_t ia = (size_t)ty * width + x;
  TILES_LOAD4(uint4, carry, colabove, ia, x, width);
#ifdef SQUARED
  ulong4 carry2;
  TILES_LOAD4(ulong4, carry2, colabove2, ia, x, width);
#endif
  if (gx == 0) {
    uint va = 0, vb = 0;
    ulong va2 = 0, vb2 = 0;
#pragma unroll 4
    for (uint i = gy; i < tx; i += GY) {
      va += above[ty * ntx + i];
#ifdef SQUARED
      va2 += above2[ty * ntx + i];
#endif
    }
#pragma unroll
    for (uint r = 0; r < RPT; ++r)
      if (yb + r < height) {
        vb += rowoff[(size_t)(yb + r) * ntx + tx];
#ifdef SQUARED
        vb2 += rowoff2[(size_t)(yb + r) * ntx + tx];
#endif
      }
    lva[gy] = va;
    lvb[gy] = vb;
#ifdef SQUARED
    lva2[gy] = va2;
    lvb2[gy] = vb2;
#endif
  }
  uint4 c = (uint4)(0), c2 = (uint4)(0);
#pragma unroll
  for (uint r = 0; r < RPT; ++r) {
    const uint4 v = convert_uint4(px[r]);
    c += v;
#ifdef SQUARED
    c2 += v * v;
#endif
  }
  cb[gy][gx] = c;
#ifdef SQUARED
  cb2[gy][gx] = c2;
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  // The column carries, the quad table (each quad's row total of the sums down the columns from the
  // image's top) and, in column 0, left(y).
  for (uint g = 0; g < gy; ++g) {
    carry += cb[g][gx];
#ifdef SQUARED
    carry2 += convert_ulong4(cb2[g][gx]);
#endif
  }
  {
    uint t = HSUM4(carry);
#ifdef SQUARED
    ulong t2 = HSUM4(carry2);
#endif
#pragma unroll
    for (uint r = 0; r < RPT; ++r) {
      const uint4 v = convert_uint4(px[r]);
      t += HSUM4(v);
      rt[(gy * RPT + r) * RT_STRIDE + gx] = t;
#ifdef SQUARED
      t2 += HSUM4(v * v);
      rt2[(gy * RPT + r) * RT_STRIDE + gx] = t2;
#endif
    }
  }
  if (gx == 0) {
    uint l = 0;
    ulong l2 = 0;
    for (uint g = 0; g < GY; ++g) {
      l += lva[g];
#ifdef SQUARED
      l2 += lva2[g];
#endif
    }
    for (uint g = 0; g < gy; ++g) {
      l += lvb[g];
#ifdef SQUARED
      l2 += lvb2[g];
#endif
    }
#pragma unroll
    for (uint r = 0; r < RPT; ++r) {
      if (yb + r < height) {
        l += rowoff[(size_t)(yb + r) * ntx + tx];
#ifdef SQUARED
        l2 += rowoff2[(size_t)(yb + r) * ntx + tx];
#endif
      }
      left[gy * RPT + r] = l;
#ifdef SQUARED
      left2[gy * RPT + r] = l2;
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // Exclusive scan of each tile row of the quad table, from left(y): TQ items a row, TK quads each.
  const uint sy = lid % TR, sq_ = lid / TR;
  {
    uint a = 0;
    ulong a2 = 0;
    for (uint k = 0; k < TK; ++k) {
      a += rt[sy * RT_STRIDE + sq_ * TK + k];
#ifdef SQUARED
      a2 += rt2[sy * RT_STRIDE + sq_ * TK + k];
#endif
    }
    part[sq_ * TR + sy] = a;
#ifdef SQUARED
    part2[sq_ * TR + sy] = a2;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    uint a = left[sy];
    ulong a2 = 0;
#ifdef SQUARED
    a2 = left2[sy];
#endif
    for (uint q = 0; q < sq_; ++q) {
      a += part[q * TR + sy];
#ifdef SQUARED
      a2 += part2[q * TR + sy];
#endif
    }
    for (uint k = 0; k < TK; ++k) {
      const uint i = sy * RT_STRIDE + sq_ * TK + k;
      const uint v = rt[i];
      rt[i] = a;
      a += v;
#ifdef SQUARED
      const ulong v2 = rt2[i];
      rt2[i] = a2;
      a2 += v2;
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // Outputs: the row's quads to the left (and left(y)) + this quad's prefix of the column sums.
  const uint4 pc = INCLUSIVE4(uint4, carry);
#ifdef SQUARED
  const ulong4 pc2 = INCLUSIVE4(ulong4, carry2);
#endif
  uint4 run = (uint4)(0), run2 = (uint4)(0);
#pragma unroll
  for (uint r = 0; r < RPT; ++r) {
    const uint y = yb + r;
    const uint4 v = convert_uint4(px[r]);
    run += v;
    const uint4 out = (uint4)(rt[(gy * RPT + r) * RT_STRIDE + gx]) + pc + INCLUSIVE4(uint4, run);
#ifdef SQUARED
    run2 += v * v;
    const ulong4 out2 = (ulong4)(rt2[(gy * RPT + r) * RT_STRIDE + gx]) + pc2 + convert_ulong4(INCLUSIVE4(uint4, run2));
#endif
    if (y < height) {
      const size_t i = (size_t)y * width + x;
      TILES_STORE4(uint4, out, sum, i, x, width);
#ifdef SQUARED
      TILES_STORE4(ulong4, out2, sq, i, x, width);
#endif
    }
  }
}
#endif  // TILES
