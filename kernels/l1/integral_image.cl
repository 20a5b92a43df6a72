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
// Tiles of TR rows x TC = 16 * NX columns, one per work group: the reduce's of NX items (item i
// holds columns 16i..16i+15 of the tile), the write's of 2 * NX (8 columns each); items walk down
// the tile's rows. With colabove(x) = the sum of column x above the
// tile and left(y) = I(y, x0 - 1) (the integral just left of it):
//   I(y, x) = left(y) + sum over x0 <= x' <= x of C(y, x'), C(y, x') = colabove(x') + the column's
//   sum in the tile down to y.
// integral_image_tiles_reduce: each tile's column sums, row sums and total.
// integral_image_tiles_scan: column sums -> colabove (down the tile rows), totals -> the totals of
// the tiles above, row sums -> the sums of the tiles to the left (along each row); exclusive.
// integral_image_tiles_write: C in registers, 8 columns an item, advanced row by row; the sums over
// the items to the left come from one exclusive scan per BATCH rows (a table of the items' totals of
// C, row by row), plus left(y) = the corner (the totals above of the tiles to the left) plus the
// running sum of the row offsets. Sums of squares of one tile fit in uint (TR * TC * 255^2 < 2^32,
// checked below): only carries and outputs are ulong.
#ifdef TILES
#ifndef NX
#define NX 64
#endif
#ifndef TR
#define TR 64
#endif
#ifndef BATCH
#define BATCH 8
#endif
#ifndef REDUCE_BATCH
#define REDUCE_BATCH BATCH  // the reduce's rows of loads in flight (it keeps no table per batch)
#endif
#define TC (16 * NX)
#define TSTRIDE (NX + 1)                    // odd: items reading down a table column hit distinct banks
#define RPARTS (NX >= TR ? NX / TR : 1)     // reduce: items summing each tile row
#define RLEN (NX / RPARTS)                  // reduce: entries each of them sums
#define SCAN_COLS 32
#define SCAN_SEGS 8
#if TR % REDUCE_BATCH != 0
#error "REDUCE_BATCH must divide TR"
#endif
#if NX % BATCH != 0 || TR % BATCH != 0 || (NX % TR != 0 && TR % NX != 0)
#error "BATCH must divide NX and TR, and one of NX and TR the other"
#endif
#if TR > 256
#error "the reduce's column sums live in 16-bit lanes: at most 257 rows"
#endif
#if defined(SQUARED) && TR * TC > 66052
#error "a tile's sum of squares must fit in uint (TR * TC * 255^2 < 2^32)"
#endif

// 16 pixels at in[i] (x: the first one's column) as 4 little-endian words, zeros past the row's end.
// A row starts 16-aligned when y * width is: then one aligned 16-byte load (vload16 promises only
// byte alignment, which costs byte loads).
uint4 tiles_load16(__global const uchar* in, const size_t i, const uint x, const uint width) {
  if (x + 16 <= width) {
    if ((i & 15) == 0) return *(__global const uint4*)(in + i);
    return as_uint4(vload16(0, in + i));
  }
  uint w[4] = {0, 0, 0, 0};
  for (uint k = 0; k < 16; ++k)
    if (x + k < width) w[k / 4] |= (uint)in[i + k] << (8 * (k % 4));
  return (uint4)(w[0], w[1], w[2], w[3]);
}
#define PX_WORD(v, m) ((m) == 0 ? (v).s0 : (m) == 1 ? (v).s1 : (m) == 2 ? (v).s2 : (v).s3)
#define PX_BYTE(v, k) ((PX_WORD(v, (k) / 4) >> (8 * ((k) % 4))) & 0xffu)
// Bytes 0 and 2 (LO8) and 1 and 3 (HI8) of a word in 16-bit lanes.
#define LO8(w) ((w) & 0x00ff00ffu)
#define HI8(w) (((w) >> 8) & 0x00ff00ffu)
uint tiles_sum16(const uint4 v) {
  const uint s = LO8(v.s0) + HI8(v.s0) + LO8(v.s1) + HI8(v.s1) + LO8(v.s2) + HI8(v.s2) + LO8(v.s3) + HI8(v.s3);
  return (s & 0xffffu) + (s >> 16);
}
uint tiles_sum_sq16(const uint4 v) {
  uint s = 0;
#pragma unroll
  for (uint k = 0; k < 16; ++k) s += PX_BYTE(v, k) * PX_BYTE(v, k);
  return s;
}

// p[i..i+N-1] = a[0..N-1] (up to the row's end; N a multiple of 4); T4 vectors when whole and
// 4-aligned.
#define TILES_STORE(N, T4, a, p, i, x, width)                                      \
  do {                                                                             \
    if ((x) + (N) <= (width) && ((i) & 3) == 0) {                                  \
      _Pragma("unroll") for (uint m = 0; m < (N) / 4; ++m)                         \
        *(__global T4*)((p) + (i) + 4 * m) = (T4)(a[4 * m], a[4 * m + 1], a[4 * m + 2], a[4 * m + 3]); \
    } else {                                                                       \
      _Pragma("unroll") for (uint k = 0; k < (N); ++k) if ((x) + k < (width)) (p)[(i) + k] = a[k]; \
    }                                                                              \
  } while (0)

// colsum[ty * width + x]: the tile's column sums; rowsum[y * ntx + tx]: its row sums;
// tilesum[ty * ntx + tx]: its total (the *2 arrays: the same of the squares).
// Column sums: in 16-bit lanes of registers, 2 a word; row sums: a table of the items' 16-pixel
// sums, row by row, summed across at the end.
__kernel __attribute__((reqd_work_group_size(NX, 1, 1)))
void integral_image_tiles_reduce(__global const uchar* in, const uint width, const uint height,
                                 __global uint* colsum, __global uint* rowsum, __global uint* tilesum,
                                 __global ulong* colsum2, __global ulong* rowsum2, __global ulong* tilesum2) {
  __local uint rt[TR * TSTRIDE];
  __local uint part[RPARTS * TR];
  __local uint rs[TR];
#ifdef SQUARED
  __local uint rt2[TR * TSTRIDE];
  __local uint part2[RPARTS * TR];
  __local uint rs2[TR];
  uint q[16];
#pragma unroll
  for (uint k = 0; k < 16; ++k) q[k] = 0;
#endif
  const uint lid = get_local_id(0), tx = get_group_id(0), ty = get_group_id(1), ntx = get_num_groups(0);
  const uint x = tx * TC + lid * 16, y0 = ty * TR;
  uint lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
  for (uint yb = 0; yb < TR; yb += REDUCE_BATCH) {
    uint4 px[REDUCE_BATCH];
#pragma unroll
    for (uint r = 0; r < REDUCE_BATCH; ++r) {
      const uint y = y0 + yb + r;
      px[r] = y < height ? tiles_load16(in, (size_t)y * width + x, x, width) : (uint4)(0);
    }
#pragma unroll
    for (uint r = 0; r < REDUCE_BATCH; ++r) {
      rt[(yb + r) * TSTRIDE + lid] = tiles_sum16(px[r]);
#pragma unroll
      for (uint m = 0; m < 4; ++m) lo[m] += LO8(PX_WORD(px[r], m)), hi[m] += HI8(PX_WORD(px[r], m));
#ifdef SQUARED
      rt2[(yb + r) * TSTRIDE + lid] = tiles_sum_sq16(px[r]);
#pragma unroll
      for (uint k = 0; k < 16; ++k) q[k] += PX_BYTE(px[r], k) * PX_BYTE(px[r], k);
#endif
    }
  }
  {
    uint c[16];
#pragma unroll
    for (uint m = 0; m < 4; ++m) {
      c[4 * m] = lo[m] & 0xffffu, c[4 * m + 1] = hi[m] & 0xffffu;
      c[4 * m + 2] = lo[m] >> 16, c[4 * m + 3] = hi[m] >> 16;
    }
    const size_t i = (size_t)ty * width + x;
    TILES_STORE(16, uint4, c, colsum, i, x, width);
#ifdef SQUARED
    ulong c2[16];
#pragma unroll
    for (uint k = 0; k < 16; ++k) c2[k] = q[k];
    TILES_STORE(16, ulong4, c2, colsum2, i, x, width);
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint j = lid; j < TR * RPARTS; j += NX) {
    const uint r = j % TR, p = j / TR;
    uint s = 0, s2 = 0;
    for (uint k = 0; k < RLEN; ++k) {
      s += rt[r * TSTRIDE + p * RLEN + k];
#ifdef SQUARED
      s2 += rt2[r * TSTRIDE + p * RLEN + k];
#endif
    }
    part[p * TR + r] = s;
#ifdef SQUARED
    part2[p * TR + r] = s2;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint r = lid; r < TR; r += NX) {
    uint s = 0, s2 = 0;
    for (uint p = 0; p < RPARTS; ++p) {
      s += part[p * TR + r];
#ifdef SQUARED
      s2 += part2[p * TR + r];
#endif
    }
    rs[r] = s;
#ifdef SQUARED
    rs2[r] = s2;
#endif
    if (y0 + r < height) {
      rowsum[(size_t)(y0 + r) * ntx + tx] = s;
#ifdef SQUARED
      rowsum2[(size_t)(y0 + r) * ntx + tx] = s2;
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint s = 0, s2 = 0;
    for (uint r = 0; r < TR; ++r) {
      s += rs[r];
#ifdef SQUARED
      s2 += rs2[r];
#endif
    }
    tilesum[ty * ntx + tx] = s;
#ifdef SQUARED
    tilesum2[ty * ntx + tx] = s2;
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
// SCAN_COLS columns a group, each column in SCAN_SEGS segments of at least two batches, so that the
// carry between batches is taken at every size: sum, exchange, rewrite). The rest:
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
  const uint length = max(2u * SCAN_BATCH, (nty + SCAN_SEGS - 1) / SCAN_SEGS);
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
// The same tiles in groups of WX = 2 * NX items of 8 columns each (twice the reduce's): a shorter
// chain of adds per row and twice the warps to hide the loads' latency. Tiles go in the reverse of
// the reduce's order: the image rows it read last are still in L2.
// Per BATCH rows: t[row][item] = the item's total of C (its running sum needs only the 8-pixel
// sums); an exclusive scan of each table row (SPR items a row, BATCH entries each, from left(y));
// then each item adds its pixels to C and writes C's prefix from its table entry. The next batch's
// pixels (and row offsets) are loaded before this batch's barriers, so loads stay in flight through
// the scans. t is double-buffered: the next batch's totals are written while late items still read
// this batch's.
#define WX (2 * NX)
#define WSTRIDE (WX + 1)
#define SPR (WX / BATCH)                    // write: scan segments per table row (BATCH entries each)
#if WX % BATCH != 0
#error "BATCH must divide the write's items"
#endif

// 8 pixels at in[i] (x: the first one's column) as 2 little-endian words, zeros past the row's end.
uint2 tiles_load8(__global const uchar* in, const size_t i, const uint x, const uint width) {
  if (x + 8 <= width) {
    if ((i & 7) == 0) return *(__global const uint2*)(in + i);
    return as_uint2(vload8(0, in + i));
  }
  uint w[2] = {0, 0};
  for (uint k = 0; k < 8; ++k)
    if (x + k < width) w[k / 4] |= (uint)in[i + k] << (8 * (k % 4));
  return (uint2)(w[0], w[1]);
}
#define PX8_BYTE(v, k) ((((k) < 4 ? (v).s0 : (v).s1) >> (8 * ((k) % 4))) & 0xffu)
uint tiles_sum8(const uint2 v) {
  const uint s = LO8(v.s0) + HI8(v.s0) + LO8(v.s1) + HI8(v.s1);
  return (s & 0xffffu) + (s >> 16);
}
uint tiles_sum_sq8(const uint2 v) {
  uint s = 0;
#pragma unroll
  for (uint k = 0; k < 8; ++k) s += PX8_BYTE(v, k) * PX8_BYTE(v, k);
  return s;
}
// a[0..7] = p[i..i+7] (zeros past the row's end); T4 vectors when whole and 4-aligned.
#define TILES_LOAD8(T, T4, a, p, i, x, width)                                      \
  do {                                                                             \
    if ((x) + 8 <= (width) && ((i) & 3) == 0) {                                    \
      _Pragma("unroll") for (uint m = 0; m < 2; ++m) {                             \
        const T4 v = *(__global const T4*)((p) + (i) + 4 * m);                     \
        a[4 * m] = v.s0, a[4 * m + 1] = v.s1, a[4 * m + 2] = v.s2, a[4 * m + 3] = v.s3; \
      }                                                                            \
    } else {                                                                       \
      _Pragma("unroll") for (uint k = 0; k < 8; ++k) a[k] = (x) + k < (width) ? (p)[(i) + k] : (T)0; \
    }                                                                              \
  } while (0)

__kernel __attribute__((reqd_work_group_size(WX, 1, 1)))
void integral_image_tiles_write(__global const uchar* in, const uint width, const uint height,
                                __global const uint* colabove, __global const uint* rowoff,
                                __global const uint* above, __global const ulong* colabove2,
                                __global const ulong* rowoff2, __global const ulong* above2,
                                __global uint* sum, __global ulong* sq) {
  __local uint t[2 * BATCH * WSTRIDE];
  __local uint seg[BATCH * SPR];
  __local uint ro[BATCH];
#ifdef SQUARED
  __local ulong t2[2 * BATCH * WSTRIDE];
  __local ulong seg2[BATCH * SPR];
  __local ulong ro2[BATCH];
#endif
  const uint lid = get_local_id(0);
  const uint ntx = get_num_groups(0), nty = get_num_groups(1);
  const uint tx = ntx - 1 - get_group_id(0), ty = nty - 1 - get_group_id(1);
  const uint x = tx * TC + lid * 8, y0 = ty * TR, yend = min(y0 + TR, height);
  const uint sr = lid / SPR, sk = lid % SPR;  // the table row and segment this item scans

  // The first batch's pixels and row offsets, then C at the tile's top and its total, and
  // left(y0 - 1), the corner.
  uint2 pxn[BATCH];
#pragma unroll
  for (uint r = 0; r < BATCH; ++r) {
    const uint y = y0 + r;
    pxn[r] = y < height ? tiles_load8(in, (size_t)y * width + x, x, width) : (uint2)(0);
  }
  uint ron = 0;
#ifdef SQUARED
  ulong ron2 = 0;
#endif
  if (lid < BATCH && y0 + lid < height) {
    ron = rowoff[(size_t)(y0 + lid) * ntx + tx];
#ifdef SQUARED
    ron2 = rowoff2[(size_t)(y0 + lid) * ntx + tx];
#endif
  }
  uint c[8];
  TILES_LOAD8(uint, uint4, c, colabove, (size_t)ty * width + x, x, width);
  uint total = 0, left = 0;
#pragma unroll
  for (uint k = 0; k < 8; ++k) total += c[k];
#ifdef SQUARED
  ulong c2[8];
  TILES_LOAD8(ulong, ulong4, c2, colabove2, (size_t)ty * width + x, x, width);
  ulong total2 = 0, left2 = 0;
#pragma unroll
  for (uint k = 0; k < 8; ++k) total2 += c2[k];
#endif
#pragma unroll 8
  for (uint j = 0; j < tx; ++j) {
    left += above[ty * ntx + j];
#ifdef SQUARED
    left2 += above2[ty * ntx + j];
#endif
  }

  uint buf = 0;
  for (uint yb = y0; yb < yend; yb += BATCH, buf ^= BATCH * WSTRIDE) {
    uint2 px[BATCH];
#pragma unroll
    for (uint r = 0; r < BATCH; ++r) px[r] = pxn[r];
    if (lid < BATCH) {
      ro[lid] = ron;
#ifdef SQUARED
      ro2[lid] = ron2;
#endif
    }
    // The next batch's loads, in flight through this batch's scans and stores.
    const uint yn = yb + BATCH;
    if (yn < yend) {
#pragma unroll
      for (uint r = 0; r < BATCH; ++r) {
        const uint y = yn + r;
        pxn[r] = y < height ? tiles_load8(in, (size_t)y * width + x, x, width) : (uint2)(0);
      }
      if (lid < BATCH) {
        const bool inside = yn + lid < height;
        ron = inside ? rowoff[(size_t)(yn + lid) * ntx + tx] : 0;
#ifdef SQUARED
        ron2 = inside ? rowoff2[(size_t)(yn + lid) * ntx + tx] : 0;
#endif
      }
    }
#pragma unroll
    for (uint r = 0; r < BATCH; ++r) {
      total += tiles_sum8(px[r]);
      t[buf + r * WSTRIDE + lid] = total;
#ifdef SQUARED
      total2 += tiles_sum_sq8(px[r]);
      t2[buf + r * WSTRIDE + lid] = total2;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Row scans, 1: this segment's sum, and left(y) of its row; left advances past the batch.
    uint v[BATCH], s = 0, lrow = 0;
#ifdef SQUARED
    ulong v2[BATCH], s2 = 0, lrow2 = 0;
#endif
#pragma unroll
    for (uint j = 0; j < BATCH; ++j) {
      v[j] = t[buf + sr * WSTRIDE + sk * BATCH + j];
      s += v[j];
      left += ro[j];
      if (j == sr) lrow = left;
#ifdef SQUARED
      v2[j] = t2[buf + sr * WSTRIDE + sk * BATCH + j];
      s2 += v2[j];
      left2 += ro2[j];
      if (j == sr) lrow2 = left2;
#endif
    }
    seg[sr * SPR + sk] = s;
#ifdef SQUARED
    seg2[sr * SPR + sk] = s2;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2: the exclusive sums, from left(y) and the segments to the left.
    for (uint k = 0; k < sk; ++k) {
      lrow += seg[sr * SPR + k];
#ifdef SQUARED
      lrow2 += seg2[sr * SPR + k];
#endif
    }
#pragma unroll
    for (uint j = 0; j < BATCH; ++j) {
      t[buf + sr * WSTRIDE + sk * BATCH + j] = lrow;
      lrow += v[j];
#ifdef SQUARED
      t2[buf + sr * WSTRIDE + sk * BATCH + j] = lrow2;
      lrow2 += v2[j];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Outputs: C advanced by the row, its prefix from the item's table entry.
#pragma unroll
    for (uint r = 0; r < BATCH; ++r) {
      const uint y = yb + r;
      uint o[8], run = t[buf + r * WSTRIDE + lid];
#pragma unroll
      for (uint k = 0; k < 8; ++k) {
        c[k] += PX8_BYTE(px[r], k);
        run += c[k];
        o[k] = run;
      }
#ifdef SQUARED
      ulong o2[8], run2 = t2[buf + r * WSTRIDE + lid];
#pragma unroll
      for (uint k = 0; k < 8; ++k) {
        c2[k] += PX8_BYTE(px[r], k) * PX8_BYTE(px[r], k);
        run2 += c2[k];
        o2[k] = run2;
      }
#endif
      if (y < height) {
        const size_t i = (size_t)y * width + x;
        TILES_STORE(8, uint4, o, sum, i, x, width);
#ifdef SQUARED
        TILES_STORE(8, ulong4, o2, sq, i, x, width);
#endif
      }
    }
  }
}
#endif  // TILES
