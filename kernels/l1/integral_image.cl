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
