// Integral image of an 8-bit image (width x height, row-major): sum(x, y) = the sum of in over
// x' <= x, y' <= y, in uint (wrapping past 2^32: window differences stay exact) and, with SQUARED,
// sq(x, y) the same over in^2 in ulong (exact). Same size as the image, inclusive, no zero border.
// rows_cols: integral_image_rows (one work group per row, WG items x 4 pixels per step), then
// integral_image_cols (each column split in SEGS segments, scanned in two passes).
// fused: one launch; work groups take bands of BAND rows in ticket order, publish the band's bottom
// row of the integral (chained: band b waits for band b-1's), then write their rows.
// tiles (three kernels) and lookback_tiles (one pass, decoupled look-back): their sections below.
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
// holds columns 16i..16i+15 of the tile), the write's of 2 * NX (columns 4i..4i+3 and the same
// in the tile's second half); items walk down the tile's rows. With colabove(x) = the sum of
// column x above the tile and left(y) = I(y, x0 - 1) (the integral just left of it):
//   I(y, x) = left(y) + sum over x0 <= x' <= x of C(y, x'), C(y, x') = colabove(x') + the column's
//   sum in the tile down to y.
// integral_image_tiles_reduce: each tile's column sums, row sums and total.
// integral_image_tiles_scan: column sums -> colabove (down the tile rows), totals -> the totals of
// the tiles above, row sums -> the sums of the tiles to the left (along each row); exclusive.
// integral_image_tiles_write: C in registers, 8 columns an item, advanced row by row; the sums over
// the columns to the left come from one exclusive scan per BATCH rows (a table of the 4-column
// groups' totals of C, row by row), plus left(y) = the corner (the totals above of the tiles to
// the left) plus the running sum of the row offsets. Sums of squares of one tile fit in uint
// (TR * TC * 255^2 < 2^32, checked below): only carries and outputs are ulong.
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
#error "the reduce's column sums are 16-bit (its lanes, colsum): at most 257 rows"
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

// colsum[ty * width + x]: the tile's column sums, in ushort (at most TR * 255; the squares' in uint),
// half the bytes of the uint sums the scan makes of them; rowsum[tx * height + y]: its row sums (a
// tile column's after another's: the scan along a row loads them coalesced); tilesum[ty * ntx + tx]:
// its total (the *2 arrays: the same of the squares).
// Column sums: in 16-bit lanes of registers, 2 a word; row sums: a table of the items' 16-pixel
// sums, row by row, summed across at the end.
__kernel __attribute__((reqd_work_group_size(NX, 1, 1)))
void integral_image_tiles_reduce(__global const uchar* in, const uint width, const uint height,
                                 __global ushort* colsum, __global uint* rowsum, __global uint* tilesum,
                                 __global uint* colsum2, __global ulong* rowsum2, __global ulong* tilesum2) {
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
    TILES_STORE(16, ushort4, c, colsum, i, x, width);
#ifdef SQUARED
    TILES_STORE(16, uint4, q, colsum2, i, x, width);
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
      rowsum[(size_t)tx * height + y0 + r] = s;
#ifdef SQUARED
      rowsum2[(size_t)tx * height + y0 + r] = s2;
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
// Exclusive scans of n values src[i0 + k * step] (and src2's) into dst (dst2) at the same places, in
// batches of SCAN_BATCH values whose loads are in flight together: pass 1 sums them; pass 2 writes
// the running sums from p (p2), last batch first, from the registers pass 1 left it in, so a scan
// of one batch loads once; earlier batches are loaded again (dst may be src: by then only later
// batches are written). The caller declares v, v2, s, s2 (a batch and its sum), t, t2 (the total)
// and last (the last batch's first value).
#ifndef SCAN_BATCH
#define SCAN_BATCH 8
#endif
#ifndef SCAN_MIN_LENGTH
#define SCAN_MIN_LENGTH 16
#endif
#ifdef SQUARED
#define SCAN_SQ(stmt) stmt
#else
#define SCAN_SQ(stmt)
#endif
#define SCAN_LOAD(src, src2, i0, step, n, b)                              \
  s = 0;                                                                  \
  SCAN_SQ(s2 = 0;)                                                        \
  _Pragma("unroll") for (uint k = 0; k < SCAN_BATCH; ++k) {               \
    const size_t i = (i0) + (size_t)((b) + k) * (step);                   \
    v[k] = (b) + k < (n) ? (src)[i] : 0;                                  \
    SCAN_SQ(v2[k] = (b) + k < (n) ? (src2)[i] : 0;)                       \
  }                                                                       \
  _Pragma("unroll") for (uint k = 0; k < SCAN_BATCH; ++k) {               \
    s += v[k];                                                            \
    SCAN_SQ(s2 += v2[k];)                                                 \
  }
#define SCAN_PASS1(src, src2, i0, step, n)                                \
  for (last = 0;; last += SCAN_BATCH) {                                   \
    SCAN_LOAD(src, src2, i0, step, n, last)                               \
    t += s;                                                               \
    SCAN_SQ(t2 += s2;)                                                    \
    if (last + SCAN_BATCH >= (n)) break;                                  \
  }
#define SCAN_PASS2(src, src2, dst, dst2, i0, step, n, p, p2)              \
  p += t - s;                                                             \
  SCAN_SQ(p2 += t2 - s2;)                                                 \
  for (uint b = last;; b -= SCAN_BATCH) {                                 \
    uint run = p;                                                         \
    SCAN_SQ(ulong run2 = p2;)                                             \
    _Pragma("unroll") for (uint k = 0; k < SCAN_BATCH; ++k) {             \
      const size_t i = (i0) + (size_t)(b + k) * (step);                   \
      if (b + k < (n)) {                                                  \
        (dst)[i] = run;                                                   \
        SCAN_SQ((dst2)[i] = run2;)                                        \
      }                                                                   \
      run += v[k];                                                        \
      SCAN_SQ(run2 += v2[k];)                                             \
    }                                                                     \
    if (b == 0) break;                                                    \
    SCAN_LOAD(src, src2, i0, step, n, b - SCAN_BATCH)                     \
    p -= s;                                                               \
    SCAN_SQ(p2 -= s2;)                                                    \
  }
// Down the columns of src (cols a row) from the group's columns x, each column in SCAN_SEGS
// segments of `length` rows: pass 1, the exchange of the segments' sums, pass 2. Reached by the
// whole group (it holds a barrier).
#define SCAN_DOWN(src, src2, dst, dst2, cols, x)                          \
  {                                                                       \
    const uint n = (x) < (cols) ? y1 - y0 : 0;                            \
    const size_t i0 = (size_t)y0 * (cols) + (x);                          \
    SCAN_PASS1(src, src2, i0, cols, n)                                    \
    seg[sg * SCAN_COLS + lx] = t;                                         \
    seg2[sg * SCAN_COLS + lx] = t2;                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                         \
    uint p = 0;                                                           \
    ulong p2 = 0;                                                         \
    for (uint j = 0; j < sg; ++j) {                                       \
      p += seg[j * SCAN_COLS + lx];                                       \
      p2 += seg2[j * SCAN_COLS + lx];                                     \
    }                                                                     \
    SCAN_PASS2(src, src2, dst, dst2, i0, cols, n, p, p2)                  \
  }

// Groups [0, col_groups): colsum into colabove; the next tile_groups: tilesum in place (down the
// columns, SCAN_COLS columns a group, segments of at least SCAN_MIN_LENGTH tile rows). The rest:
// rowsum in place, along each row (a row per item: the tile-column-major rows load coalesced).
__kernel __attribute__((reqd_work_group_size(SCAN_COLS, SCAN_SEGS, 1)))
void integral_image_tiles_scan(__global const ushort* colsum, __global uint* colabove, __global uint* rowsum,
                               __global uint* tilesum, __global const uint* colsum2, __global ulong* colabove2,
                               __global ulong* rowsum2, __global ulong* tilesum2, const uint width, const uint height,
                               const uint ntx, const uint nty, const uint col_groups, const uint tile_groups) {
  __local uint seg[SCAN_SEGS * SCAN_COLS];
  __local ulong seg2[SCAN_SEGS * SCAN_COLS];
  const uint g = get_group_id(0), lx = get_local_id(0), sg = get_local_id(1);
  const uint length = max((uint)SCAN_MIN_LENGTH, (nty + SCAN_SEGS - 1) / SCAN_SEGS);
  const uint y0 = min(nty, sg * length), y1 = min(nty, y0 + length);
  uint v[SCAN_BATCH], s, t = 0, last;
  ulong v2[SCAN_BATCH], s2, t2 = 0;
  if (g < col_groups) {
    SCAN_DOWN(colsum, colsum2, colabove, colabove2, width, g * SCAN_COLS + lx)
  } else if (g < col_groups + tile_groups) {
    SCAN_DOWN(tilesum, tilesum2, tilesum, tilesum2, ntx, (g - col_groups) * SCAN_COLS + lx)
  } else {
    const uint y = (g - col_groups - tile_groups) * (SCAN_COLS * SCAN_SEGS) + sg * SCAN_COLS + lx;
    const uint n = y < height ? ntx : 0;
    uint p = 0;
    ulong p2 = 0;
    SCAN_PASS1(rowsum, rowsum2, y, height, n)
    SCAN_PASS2(rowsum, rowsum2, rowsum, rowsum2, y, height, n, p, p2)
  }
}

// Over the scanned arrays: colabove, the row offsets = rowsum, the totals above = tilesum.
// The same tiles in groups of WX = 2 * NX items, each of two groups of 4 columns, one in each half
// of the tile (columns 4 * lid and 4 * (WX + lid)): a warp's loads and stores are contiguous (with
// 8 adjacent columns an item, two stores wrote the halves of each 32-byte sector of the output),
// and twice the reduce's warps hide the loads' latency. Tiles go in the reverse of the reduce's
// order: the image rows it read last are still in L2.
// Per BATCH rows: t[row][g] = the total of C over column group g (its running sum needs only the
// 4-pixel sums); an exclusive scan of each table row (SPR segments of WENT entries, one an item,
// from left(y)); then each item adds its pixels to C and writes C's prefix from its two table
// entries. The next batch's pixels (and row offsets) are loaded before this batch's barriers, so
// loads stay in flight through the scans. t is double-buffered: the next batch's totals are written
// while late items still read this batch's.
#define WX (2 * NX)
#define SPR (WX / BATCH)                    // write: scan segments per table row
#define WENT (2 * BATCH)                    // entries per segment (2 * WX a row)
#define TIDX(g) ((g) + (g) / WENT)          // entry g's place: a spare slot after each segment,
#define WSTRIDE (SPR * (WENT + 1))          // so that the scan's reads (a segment an item) hit distinct banks
#if WX % BATCH != 0
#error "BATCH must divide the write's items"
#endif

// 4 pixels at in[i] (x: the first one's column) as a little-endian word, zeros past the row's end.
uint tiles_load4(__global const uchar* in, const size_t i, const uint x, const uint width) {
  if (x + 4 <= width) {
    if ((i & 3) == 0) return *(__global const uint*)(in + i);
    return as_uint(vload4(0, in + i));
  }
  uint w = 0;
  for (uint k = 0; k < 3; ++k)
    if (x + k < width) w |= (uint)in[i + k] << (8 * k);
  return w;
}
// An item's 8 pixels of a row: its first group's (s0) and its second's (s1).
uint2 tiles_load_pair(__global const uchar* in, const size_t row, const uint xa, const uint xb, const uint width) {
  return (uint2)(tiles_load4(in, row + xa, xa, width), tiles_load4(in, row + xb, xb, width));
}
#define PX8_BYTE(v, k) ((((k) < 4 ? (v).s0 : (v).s1) >> (8 * ((k) % 4))) & 0xffu)
uint tiles_sum4(const uint w) {
  const uint s = LO8(w) + HI8(w);
  return (s & 0xffffu) + (s >> 16);
}
uint tiles_sum_sq4(const uint w) {
  uint s = 0;
#pragma unroll
  for (uint k = 0; k < 4; ++k) s += ((w >> (8 * k)) & 0xffu) * ((w >> (8 * k)) & 0xffu);
  return s;
}
// a[0..3] = p[i..i+3] (zeros past the row's end); a T4 vector when whole and 4-aligned.
#define TILES_LOAD4(T, T4, a, p, i, x, width)                                      \
  do {                                                                             \
    if ((x) + 4 <= (width) && ((i) & 3) == 0) {                                    \
      const T4 v = *(__global const T4*)((p) + (i));                               \
      (a)[0] = v.s0, (a)[1] = v.s1, (a)[2] = v.s2, (a)[3] = v.s3;                  \
    } else {                                                                       \
      _Pragma("unroll") for (uint k = 0; k < 4; ++k) (a)[k] = (x) + k < (width) ? (p)[(i) + k] : (T)0; \
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
  const uint xa = tx * TC + lid * 4, xb = xa + 4 * WX, y0 = ty * TR, yend = min(y0 + TR, height);
  const uint ga = TIDX(lid), gb = TIDX(WX + lid);  // the item's table entries
  const uint sr = lid / SPR, sk = lid % SPR;        // the table row and segment this item scans

  // The first batch's pixels and row offsets, then C at the tile's top and its totals, and
  // left(y0 - 1), the corner.
  uint2 pxn[BATCH];
#pragma unroll
  for (uint r = 0; r < BATCH; ++r) {
    const uint y = y0 + r;
    pxn[r] = y < height ? tiles_load_pair(in, (size_t)y * width, xa, xb, width) : (uint2)(0);
  }
  uint ron = 0;
#ifdef SQUARED
  ulong ron2 = 0;
#endif
  if (lid < BATCH && y0 + lid < height) {
    ron = rowoff[(size_t)tx * height + y0 + lid];
#ifdef SQUARED
    ron2 = rowoff2[(size_t)tx * height + y0 + lid];
#endif
  }
  const size_t top = (size_t)ty * width;
  uint c[8];
  TILES_LOAD4(uint, uint4, c, colabove, top + xa, xa, width);
  TILES_LOAD4(uint, uint4, c + 4, colabove, top + xb, xb, width);
  uint total_a = c[0] + c[1] + c[2] + c[3], total_b = c[4] + c[5] + c[6] + c[7], left = 0;
#ifdef SQUARED
  ulong c2[8];
  TILES_LOAD4(ulong, ulong4, c2, colabove2, top + xa, xa, width);
  TILES_LOAD4(ulong, ulong4, c2 + 4, colabove2, top + xb, xb, width);
  ulong total2_a = c2[0] + c2[1] + c2[2] + c2[3], total2_b = c2[4] + c2[5] + c2[6] + c2[7], left2 = 0;
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
        pxn[r] = y < height ? tiles_load_pair(in, (size_t)y * width, xa, xb, width) : (uint2)(0);
      }
      if (lid < BATCH) {
        const bool inside = yn + lid < height;
        ron = inside ? rowoff[(size_t)tx * height + yn + lid] : 0;
#ifdef SQUARED
        ron2 = inside ? rowoff2[(size_t)tx * height + yn + lid] : 0;
#endif
      }
    }
#pragma unroll
    for (uint r = 0; r < BATCH; ++r) {
      total_a += tiles_sum4(px[r].s0);
      total_b += tiles_sum4(px[r].s1);
      t[buf + r * WSTRIDE + ga] = total_a;
      t[buf + r * WSTRIDE + gb] = total_b;
#ifdef SQUARED
      total2_a += tiles_sum_sq4(px[r].s0);
      total2_b += tiles_sum_sq4(px[r].s1);
      t2[buf + r * WSTRIDE + ga] = total2_a;
      t2[buf + r * WSTRIDE + gb] = total2_b;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Row scans, 1: this segment's sum, and left(y) of its row; left advances past the batch.
    const uint segment = buf + sr * WSTRIDE + sk * (WENT + 1);
    uint v[WENT], s = 0, lrow = 0;
#ifdef SQUARED
    ulong v2[WENT], s2 = 0, lrow2 = 0;
#endif
#pragma unroll
    for (uint j = 0; j < WENT; ++j) {
      v[j] = t[segment + j];
      s += v[j];
#ifdef SQUARED
      v2[j] = t2[segment + j];
      s2 += v2[j];
#endif
    }
#pragma unroll
    for (uint j = 0; j < BATCH; ++j) {
      left += ro[j];
      if (j == sr) lrow = left;
#ifdef SQUARED
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
    for (uint j = 0; j < WENT; ++j) {
      t[segment + j] = lrow;
      lrow += v[j];
#ifdef SQUARED
      t2[segment + j] = lrow2;
      lrow2 += v2[j];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Outputs: C advanced by the row, its prefixes from the item's two table entries.
#pragma unroll
    for (uint r = 0; r < BATCH; ++r) {
      const uint y = yb + r;
      uint o[8], run_a = t[buf + r * WSTRIDE + ga], run_b = t[buf + r * WSTRIDE + gb];
#pragma unroll
      for (uint k = 0; k < 8; ++k) {
        c[k] += PX8_BYTE(px[r], k);
        if (k < 4) {
          run_a += c[k];
          o[k] = run_a;
        } else {
          run_b += c[k];
          o[k] = run_b;
        }
      }
#ifdef SQUARED
      ulong o2[8], run2_a = t2[buf + r * WSTRIDE + ga], run2_b = t2[buf + r * WSTRIDE + gb];
#pragma unroll
      for (uint k = 0; k < 8; ++k) {
        c2[k] += PX8_BYTE(px[r], k) * PX8_BYTE(px[r], k);
        if (k < 4) {
          run2_a += c2[k];
          o2[k] = run2_a;
        } else {
          run2_b += c2[k];
          o2[k] = run2_b;
        }
      }
#endif
      if (y < height) {
        const size_t row = (size_t)y * width;
        TILES_STORE(4, uint4, o, sum, row + xa, xa, width);
        TILES_STORE(4, uint4, (o + 4), sum, row + xb, xb, width);
#ifdef SQUARED
        TILES_STORE(4, ulong4, o2, sq, row + xa, xa, width);
        TILES_STORE(4, ulong4, (o2 + 4), sq, row + xb, xb, width);
#endif
      }
    }
  }
}
#endif  // TILES

// ---- lookback_tiles: one pass, decoupled look-back up the tile column and along the tile row -----
// Tiles of TILE_ROWS x TILE_COLS, one per work group of WG items, in row-major ticket order (an
// atomic counter: a tile waits only on lower tickets, above and to the left, held by groups that
// already run, so it cannot deadlock). Item (g, h) reads columns 4g..4g+3 of the tile's RP rows
// from h * RP once (a word of 4 pixels a row, kept in local memory until the outputs) and writes
// their outputs once (one 16-byte store a row, contiguous across a warp). With C(y, x) the sum of column x down to row y
// from the image's top, T(y) the sum of C(y, .) over the tile's columns and left(y) = I(y, x0 - 1):
//   I(y, x) = left(y) + sum over x0 <= x' <= x of C(y, x'),  left(y) = the sum of T(y) of the tiles to the left.
// 1. Up: the tile publishes its column sums (aggregate), walks up its tile column summing words
//    until an inclusive one (VWIN tiles a step) and publishes C at its bottom row (inclusive).
// 2. Along: a table of each row's 4-column totals of C, scanned along the row, gives each item the
//    sum over the columns to its left and the row's T(y); T(y) is published (aggregate), the walk
//    along the tile row (HWIN tiles a step, a row an item) gives left(y), and left(y) + T(y) is
//    published (inclusive). Then the outputs.
// Memory: the image read once, the integral written once (5 bytes a pixel), and status words of 4
// bytes a column per tile row and 8 a row per tile column: 4 / TILE_ROWS + 8 / TILE_COLS bytes a
// pixel written, read back from L2 by the next tiles.
// Column words: epoch << 25 | inclusive << 24 | value (the host keeps 255 * height below 2^24);
// row words, as scan.cl's: (epoch << 1 | inclusive) << 32 | value. The epoch (1..127) changes every
// launch, so a word from the last launch reads as not yet published.
#ifdef LOOKBACK_TILES
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#ifndef TILE_COLS
#define TILE_COLS 512
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 64
#endif
#ifndef VWIN
#define VWIN 4  // column words read at once per step up
#endif
#ifndef HWIN
#define HWIN 16  // row words read at once per step to the left
#endif
#define LT_GROUPS (TILE_COLS / 4)       // 4-column groups of a tile
#define LT_PARTS (WG / LT_GROUPS)       // row parts (h)
#define LT_RP (TILE_ROWS / LT_PARTS)    // rows an item holds
#define LT_VCOLS (TILE_COLS / WG)       // columns an item walks up
#define LT_SPR (WG / TILE_ROWS)         // table scan: segments (items) per row
#define LT_SEG (LT_GROUPS / LT_SPR)     // entries per segment
#define LT_TIDX(g) ((g) + (g) / LT_SEG) // a spare slot after each segment: the scan's reads, a
#define LT_STRIDE (LT_SPR * (LT_SEG + 1))  // segment an item, hit distinct banks
#if TILE_COLS % WG != 0 || WG % LT_GROUPS != 0 || TILE_ROWS % LT_PARTS != 0 || WG % TILE_ROWS != 0 || \
    LT_GROUPS % LT_SPR != 0
#error "TILE_COLS must be a multiple of WG, WG of TILE_COLS / 4 and of TILE_ROWS, TILE_ROWS of the parts"
#endif
#if LT_RP > 257
#error "an item's column sums are kept in 16-bit lanes: at most 257 rows"
#endif
#define V_WORD(e, incl, v) (((e) << 25) | ((incl) << 24) | (v))
#define H_WORD(e, incl, v) (((ulong)(((e) << 1) | (incl)) << 32) | (v))

// Byte moves and sums of a word of 4 pixels. NVIDIA's compiler does not find PRMT or DP4A in the
// shifts and masks (see box_filter.cl), so with PTX_BYTES (set by the host from sm_61) they are
// written as inline PTX: one instruction each.
#ifdef PTX_BYTES
__attribute__((always_inline)) inline uint lt_prmt(uint a, uint select) {
  uint r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(0u), "r"(select));
  return r;
}
// acc + the sum of w's bytes
__attribute__((always_inline)) inline uint lt_add_bytes(uint acc, uint w) {
  uint r;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(w), "r"(0x01010101u), "r"(acc));
  return r;
}
#define LT_LO8(w) lt_prmt((w), 0x4240u)
#define LT_HI8(w) lt_prmt((w), 0x4341u)
#define LT_BYTE(w, k) lt_prmt((w), 0x4440u + (k))
#else
#define LT_LO8(w) ((w) & 0x00ff00ffu)         // bytes 0 and 2 in 16-bit lanes
#define LT_HI8(w) (((w) >> 8) & 0x00ff00ffu)  // bytes 1 and 3
#define LT_BYTE(w, k) (((w) >> (8 * (k))) & 0xffu)
uint lt_add_bytes(const uint acc, const uint w) {
  const uint s = LT_LO8(w) + LT_HI8(w);
  return acc + ((s + (s >> 16)) & 0xffffu);
}
#endif

// 4 pixels at p (x: the first one's column) as a little-endian word, zeros past the row's end; and
// 4 sums stored at p (up to the row's end). Rows walked by pointer: alignment tested on the
// pointers (buffers are aligned far beyond 16 bytes), not on a row index the loads and the stores
// would share, kept in registers between them.
uint lt_load4(__global const uchar* p, const uint x, const uint width) {
  if (x + 4 <= width) return ((size_t)p & 3) == 0 ? *(__global const uint*)p : as_uint(vload4(0, p));
  uint w = 0;
  for (uint k = 0; k < 3; ++k)
    if (x + k < width) w |= (uint)p[k] << (8 * k);
  return w;
}
void lt_store4(__global uint* p, const uint4 v, const uint x, const uint width) {
  if (x + 4 <= width && ((size_t)p & 15) == 0) {
    *(__global uint4*)p = v;
    return;
  }
  if (x < width) p[0] = v.s0;
  if (x + 1 < width) p[1] = v.s1;
  if (x + 2 < width) p[2] = v.s2;
  if (x + 3 < width) p[3] = v.s3;
}

// above[c] = the sum of column words vstat[k * stride + col + c * WG] over the n tile rows k < n
// above (n >= 1): from the nearest, VWIN a step, up to and including the first inclusive one. A
// step stops at an unpublished word, so the next one reads it again (spins on it). Tile row 0
// publishes inclusive words only, so every walk ends. The item's columns walk together, their
// loads in flight at once. (Indices in 32 bits: 64-bit ones took twice the registers.)
void lt_look_up(__global volatile const uint* vstat, const uint col, const uint stride, const uint n0, const uint epoch,
                uint* above) {
  uint n[LT_VCOLS], done = 0;
#pragma unroll
  for (uint c = 0; c < LT_VCOLS; ++c) n[c] = n0, above[c] = 0;
  while (done != (1u << LT_VCOLS) - 1) {
    uint w[LT_VCOLS][VWIN];
#pragma unroll
    for (uint c = 0; c < LT_VCOLS; ++c)
#pragma unroll
      for (uint i = 0; i < VWIN; ++i)
        w[c][i] = !((done >> c) & 1) && i < n[c] ? vstat[(n[c] - 1 - i) * stride + col + c * WG] : 0;
#pragma unroll
    for (uint c = 0; c < LT_VCOLS; ++c) {
      uint taken = 0, inclusive = (done >> c) & 1;
#pragma unroll
      for (uint i = 0; i < VWIN; ++i)
        if (!inclusive && taken == i && i < n[c] && (w[c][i] >> 25) == epoch) {
          above[c] += w[c][i] & 0xffffffu;
          inclusive = (w[c][i] >> 24) & 1;
          ++taken;
        }
      n[c] -= taken;
      done |= inclusive << c;
    }
  }
}

// The sum of the row words hstat[k * stride + row] over the n tiles k < n to the left (n >= 1), as
// lt_look_up.
uint lt_look_left(__global volatile const ulong* hstat, const uint row, const uint stride, uint n, const uint epoch) {
  uint sum = 0;
  for (;;) {
    ulong w[HWIN];
#pragma unroll
    for (uint i = 0; i < HWIN; ++i) w[i] = i < n ? hstat[(n - 1 - i) * stride + row] : 0;
    uint taken = 0, inclusive = 0;
#pragma unroll
    for (uint i = 0; i < HWIN; ++i)
      if (!inclusive && taken == i && i < n && (uint)(w[i] >> 33) == epoch) {
        sum += (uint)w[i];
        inclusive = (uint)(w[i] >> 32) & 1;
        ++taken;
      }
    if (inclusive) return sum;
    n -= taken;
  }
}

// vstat[ty * ntx * TILE_COLS + x]: column x's word of tile row ty; hstat[tx * nty * TILE_ROWS + y]:
// row y's word of tile column tx; counter: the next ticket (reset by the group taking the last).
// The pixels wait for the outputs in local memory: kept in registers (16 to 32 words an item),
// they left room for 2 groups an SM where local memory allows 4 or 5. The code also keeps values
// that the compiler would otherwise carry from the loads to the stores, one a row: the item's
// table entries and pixels through one pointer each (row r at a constant offset), rows walked by
// pointer, the bottom rows' tests in a copy of the loops of their own.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void integral_image_lookback_tiles(__global const uchar* in, const uint width, const uint height, __global uint* sum,
                                   __global volatile uint* vstat, __global volatile ulong* hstat,
                                   __global volatile uint* counter, const uint ntx, const uint tiles,
                                   const uint epoch) {
  __local uint pixels[TILE_ROWS * LT_GROUPS];  // row y, group g: its 4 pixels
  __local uint t[TILE_ROWS * LT_STRIDE];       // row y, group g: the sum over g's 4 columns of C(y, .) - K(g)
  __local uint colpart[LT_PARTS * TILE_COLS];  // part h, column x: its sum over h's rows, then C above them
  __local uint k_item[WG];                      // K(g) of item (g, h): C above its rows, summed over its columns
  __local uint segsum[WG];
  __local uint left[TILE_ROWS];
  __local uint ticket;
  const uint lid = get_local_id(0);
  if (lid == 0) {
    ticket = atomic_inc(counter);
    if (ticket == tiles - 1) atomic_xchg(counter, 0u);  // every ticket is taken: ready for the next launch
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = ticket, tx = tile % ntx, ty = tile / ntx;
  const uint g = lid % LT_GROUPS, h = lid / LT_GROUPS;
  const uint x = tx * TILE_COLS + 4 * g, yh = ty * TILE_ROWS + h * LT_RP;
  const bool inside = yh + LT_RP <= height;  // all the item's rows in the image (else: the last tile row)
  uint px[LT_RP];
  {
    __global const uchar* src = in + (size_t)yh * width + x;
    if (inside) {
#pragma unroll
      for (uint r = 0; r < LT_RP; ++r, src += width) px[r] = lt_load4(src, x, width);
    } else {
#pragma unroll
      for (uint r = 0; r < LT_RP; ++r, src += width) px[r] = yh + r < height ? lt_load4(src, x, width) : 0;
    }
  }
  // The item's pixels kept, its column sums (in 16-bit lanes) and its table entries: the running
  // sum of its pixels.
  __local uint* const my_pixels = pixels + h * LT_RP * LT_GROUPS + g;  // row r at r * LT_GROUPS
  __local uint* const my_entries = t + h * LT_RP * LT_STRIDE + LT_TIDX(g);  // row r at r * LT_STRIDE
  {
    uint lo = 0, hi = 0, s = 0;
#pragma unroll
    for (uint r = 0; r < LT_RP; ++r) {
      my_pixels[r * LT_GROUPS] = px[r];
      lo += LT_LO8(px[r]);
      hi += LT_HI8(px[r]);
      s = lt_add_bytes(s, px[r]);
      my_entries[r * LT_STRIDE] = s;
    }
    vstore4((uint4)(lo & 0xffffu, hi & 0xffffu, lo >> 16, hi >> 16), 0, colpart + h * TILE_COLS + 4 * g);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // 1. Up: this tile's column sums out at once, then C above the tile, then C at its bottom.
  const uint vrow = ntx * TILE_COLS;  // words of a tile row (the host keeps every index below 2^32)
  __global volatile uint* const vmine = vstat + (ty * vrow + tx * TILE_COLS + lid);
  uint agg[LT_VCOLS], above[LT_VCOLS];
#pragma unroll
  for (uint c = 0; c < LT_VCOLS; ++c) {
    uint a = 0;
#pragma unroll
    for (uint k = 0; k < LT_PARTS; ++k) a += colpart[k * TILE_COLS + c * WG + lid];
    agg[c] = a;
    atomic_xchg(vmine + c * WG, V_WORD(epoch, ty == 0 ? 1u : 0u, a));
  }
  if (ty > 0) {  // uniform
    lt_look_up(vstat, tx * TILE_COLS + lid, vrow, ty, epoch, above);
#pragma unroll
    for (uint c = 0; c < LT_VCOLS; ++c) atomic_xchg(vmine + c * WG, V_WORD(epoch, 1u, above[c] + agg[c]));
  } else {
#pragma unroll
    for (uint c = 0; c < LT_VCOLS; ++c) above[c] = 0;
  }
#pragma unroll
  for (uint c = 0; c < LT_VCOLS; ++c) {  // each part's entry becomes C on the row above its first
    uint run = above[c];
#pragma unroll
    for (uint k = 0; k < LT_PARTS; ++k) {
      const uint i = k * TILE_COLS + c * WG + lid, v = colpart[i];
      colpart[i] = run;
      run += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint4 c_top = vload4(0, colpart + h * TILE_COLS + 4 * g);
  k_item[lid] = c_top.s0 + c_top.s1 + c_top.s2 + c_top.s3;
  barrier(CLK_LOCAL_MEM_FENCE);

  // 2. Along: exclusive scans of the table's rows plus K, a segment an item; the last segment's
  // item has T(y), publishes it, looks back for left(y) and publishes left(y) + T(y).
  const uint sr = lid / LT_SPR, sk = lid % LT_SPR;
  __local uint* const seg = t + sr * LT_STRIDE + sk * (LT_SEG + 1);
  __local const uint* const kseg = k_item + sr / LT_RP * LT_GROUPS + sk * LT_SEG;
  uint run = 0;
#pragma unroll
  for (uint j = 0; j < LT_SEG; ++j) run += seg[j] + kseg[j];
  segsum[lid] = run;
  barrier(CLK_LOCAL_MEM_FENCE);
  run = 0;
#pragma unroll
  for (uint k = 0; k < LT_SPR; ++k)
    if (k < sk) run += segsum[sr * LT_SPR + k];
#pragma unroll
  for (uint j = 0; j < LT_SEG; ++j) {
    const uint v = seg[j] + kseg[j];
    seg[j] = run;
    run += v;
  }
  if (sk == LT_SPR - 1) {  // run = T(y)
    const uint hcol = tiles / ntx * TILE_ROWS, y = ty * TILE_ROWS + sr;  // words of a tile column
    __global volatile ulong* const hmine = hstat + (tx * hcol + y);
    uint l = 0;
    if (tx == 0) {
      atom_xchg(hmine, H_WORD(epoch, 1u, run));
    } else {
      atom_xchg(hmine, H_WORD(epoch, 0u, run));
      l = lt_look_left(hstat, y, hcol, tx, epoch);
      atom_xchg(hmine, H_WORD(epoch, 1u, l + run));
    }
    left[sr] = l;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // The outputs: C advanced row by row, its prefix over the item's columns, plus the sums to the left.
  uint c0 = c_top.s0, c1 = c_top.s1, c2 = c_top.s2, c3 = c_top.s3;
  __local const uint* const left_mine = left + h * LT_RP;
  __global uint* dst = sum + (size_t)yh * width + x;
#define LT_OUTPUTS(STORED)                                            \
  _Pragma("unroll") for (uint r = 0; r < LT_RP; ++r, dst += width) { \
    const uint w = my_pixels[r * LT_GROUPS];                          \
    c0 += LT_BYTE(w, 0);                                              \
    c1 += LT_BYTE(w, 1);                                              \
    c2 += LT_BYTE(w, 2);                                              \
    c3 += LT_BYTE(w, 3);                                              \
    uint4 o;                                                          \
    o.s0 = left_mine[r] + my_entries[r * LT_STRIDE] + c0;                   \
    o.s1 = o.s0 + c1;                                                 \
    o.s2 = o.s1 + c2;                                                 \
    o.s3 = o.s2 + c3;                                                 \
    if (STORED) lt_store4(dst, o, x, width);                          \
  }
  if (inside) {
    LT_OUTPUTS(true)
  } else {
    // A test of its own, not the loads'; signed (Oclgrind 21.10 lacks the saturating
    // subtraction LLVM makes of height > yh ? height - yh : 0).
    const int rows = (int)height - (int)yh;
    LT_OUTPUTS((int)r < rows)
  }
}
#endif  // LOOKBACK_TILES
