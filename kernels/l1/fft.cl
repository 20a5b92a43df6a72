// Complex single-precision FFTs (float2 = re, im) as Stockham passes of radix 2..32 in local memory:
// fft_rows (short transforms, one read + one write), fft_rows_multi (one transform per group, several
// butterflies per work item) and fft_cols_multi (the same on 2-D columns), fft_cols (one pass of a
// global Stockham FFT: long 1-D transforms and 2-D columns) and fft_transpose (the 2-D four-kernel
// pipeline).
//
// Knobs (build options; the host passes the derived ones):
//   N               points of the transform done in local memory (fft_rows: the length; fft_cols: P)
//   RADIX           radix of every pass but the first: 4, 8, 16 or 32 (fft_rows also 64); THREADS = N / RADIX
//                   per transform
//   FIRST_RADIX     radix of the first pass, N = FIRST_RADIX * RADIX^(PASSES - 1); 2..RADIX
//   PASSES          number of radix passes
//   SIGN            -1: forward (e^-2pi i nk/N), +1: inverse (unscaled unless SCALE says so)
//   SCALE           applied on the final store (1.0f, or 1/N as a hex float for the inverse)
//   TWIDDLE         0: cospi/sinpi of the exact angle, 1: native_cos/native_sin, 2: table (host, double)
//   ROWS_PER_GROUP  fft_rows: transforms per work group (work group = THREADS * ROWS_PER_GROUP)
//   COLS_PER_GROUP  fft_cols, fft_cols_multi: adjacent columns per work group (work group = THREADS *
//                   COLS_PER_GROUP; fft_cols_multi: N / POINTS * COLS_PER_GROUP)
//   PIECES          fft_cols: local memory holds COLS_PER_GROUP / PIECES columns; each exchange
//                   between passes goes through it one piece of columns at a time (more columns
//                   per group, so longer global runs, than local memory holds at once).
//                   fft_rows (ROWS_PER_GROUP 1, PIECES <= RADIX): local memory holds N / PIECES
//                   points; each exchange goes through it one piece of points at a time (a
//                   transform longer than local memory holds, in one pass over global memory);
//                   fft_rows_multi and fft_cols_multi likewise (PIECES up to RADIX and to the
//                   butterflies per item)
//   GLOBAL_TWIDDLE  fft_cols: multiply the input by the inter-pass twiddles of a global Stockham pass
//   STORE_CONTIGUOUS fft_cols: first global pass (ns = 1): the output block is contiguous, stored
//                   through local memory so that neighbouring work items write neighbouring points
//   INTERLEAVE_LOG2 fft_cols: log2 of how many transforms lie interleaved, point-wise (the columns of
//                   a 2-D array that wide: column j = point-block * width + x); the host scales stride
//                   and ns by the width, so only the inter-pass twiddle needs to drop x (0: none)
//   LDS_PAD         one float2 of padding every 16 in local memory (bank conflicts of strided stores;
//                   fft_rows_multi: one or two, per exchange; fft_cols_multi: one per column after
//                   every radix points)
//   WIDTH           fft_cols_multi: points per row of the 2-D array (the columns' stride), a constant
//                   so that every access is the work item's address plus a compile-time offset
//   TILE, TILE_ROWS fft_transpose: tile edge and rows per work item step
//   ROWS_T          1: build fft_rows_t (ROWS_PER_GROUP rows per group, PIECES turns through local memory)
//   POINTS          fft_rows_multi, fft_cols_multi: points per work item (POINTS / RADIX butterflies
//                   per pass)
//   BUILD_ROWS, BUILD_COLS, BUILD_TRANSPOSE, BUILD_ROWS_MULTI, BUILD_COLS_MULTI: build only that kernel
//                   (ROWS_T builds only fft_rows_t; fft_rows_multi and fft_cols_multi are built only
//                   when asked for)
#ifndef N
#define N 1024
#endif
#ifndef RADIX
#define RADIX 16
#endif
#ifndef FIRST_RADIX
#define FIRST_RADIX 4
#endif
#ifndef PASSES
#define PASSES 3
#endif
#ifndef SIGN
#define SIGN -1
#endif
#ifndef SCALE
#define SCALE 1.0f
#endif
#ifndef TWIDDLE
#define TWIDDLE 2
#endif
#ifndef ROWS_PER_GROUP
#define ROWS_PER_GROUP 4
#endif
#ifndef COLS_PER_GROUP
#define COLS_PER_GROUP 4
#endif
#ifndef PIECES
#define PIECES 1
#endif
#ifndef GLOBAL_TWIDDLE
#define GLOBAL_TWIDDLE 0
#endif
#ifndef STORE_CONTIGUOUS
#define STORE_CONTIGUOUS 0
#endif
#ifndef INTERLEAVE_LOG2
#define INTERLEAVE_LOG2 0
#endif
#ifndef LDS_PAD
#define LDS_PAD 1
#endif
#ifndef WIDTH
#define WIDTH 4
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

#if PASSES < 2
#error "fft.cl needs at least two radix passes (N >= FIRST_RADIX * RADIX)"
#endif

#define THREADS (N / RADIX)               // work items per transform
#define SUB (RADIX / FIRST_RADIX)         // first-pass butterflies per work item
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define DFT_FIRST CAT(dft, FIRST_RADIX)
#define DFT_MAIN CAT(dft, RADIX)

#if LDS_PAD
#define LIDX(i) ((i) + ((i) >> 4))
#else
#define LIDX(i) (i)
#endif

// ---- complex arithmetic and small DFTs in registers ------------------------------------------
float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a * (SIGN * i): by -i forward, by +i inverse.
float2 mul_si(float2 a) {
#if SIGN < 0
  return (float2)(a.y, -a.x);
#else
  return (float2)(-a.y, a.x);
#endif
}
// a * exp(SIGN * 2 pi i * e / 16) for the constant e of the radix-8 and radix-16 butterflies.
#define C16_1 0.92387953251128674f
#define C16_2 0.70710678118654752f
#define C16_3 0.38268343236508978f
float2 w16(float2 a, float c, float s) { return cmul(a, (float2)(c, SIGN * s)); }

void dft2(float2* v) {
  float2 a = v[0], b = v[1];
  v[0] = a + b;
  v[1] = a - b;
}

void dft4(float2* v) {
  float2 t0 = v[0] + v[2], t1 = v[0] - v[2];
  float2 t2 = v[1] + v[3], t3 = mul_si(v[1] - v[3]);
  v[0] = t0 + t2;
  v[2] = t0 - t2;
  v[1] = t1 + t3;
  v[3] = t1 - t3;
}

// 8 = 4 x 2: DFT4 over the even and the odd points, twiddles W8^k on the odd ones, then DFT2.
void dft8(float2* v) {
  float2 e[4] = {v[0], v[2], v[4], v[6]};
  float2 o[4] = {v[1], v[3], v[5], v[7]};
  dft4(e);
  dft4(o);
  o[1] = w16(o[1], C16_2, C16_2);
  o[2] = mul_si(o[2]);
  o[3] = w16(o[3], -C16_2, C16_2);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = e[k] + o[k];
    v[k + 4] = e[k] - o[k];
  }
}

// 16 = 4 x 4: DFT4 over n1 for each n2 (points n2 + 4 n1), twiddles W16^(n2 k1), DFT4 over n2;
// the output lands in natural order k1 + 4 k2.
void dft16(float2* v) {
  float2 a[4][4];
#pragma unroll
  for (int n2 = 0; n2 < 4; ++n2) {
#pragma unroll
    for (int n1 = 0; n1 < 4; ++n1) a[n2][n1] = v[n2 + 4 * n1];
    dft4(a[n2]);
  }
  a[1][1] = w16(a[1][1], C16_1, C16_3);
  a[1][2] = w16(a[1][2], C16_2, C16_2);
  a[1][3] = w16(a[1][3], C16_3, C16_1);
  a[2][1] = w16(a[2][1], C16_2, C16_2);
  a[2][2] = mul_si(a[2][2]);
  a[2][3] = w16(a[2][3], -C16_2, C16_2);
  a[3][1] = w16(a[3][1], C16_3, C16_1);
  a[3][2] = w16(a[3][2], -C16_2, C16_2);
  a[3][3] = w16(a[3][3], -C16_1, -C16_3);
#pragma unroll
  for (int k1 = 0; k1 < 4; ++k1) {
    float2 b[4] = {a[0][k1], a[1][k1], a[2][k1], a[3][k1]};
    dft4(b);
#pragma unroll
    for (int k2 = 0; k2 < 4; ++k2) v[k1 + 4 * k2] = b[k2];
  }
}

// 32 = 16 x 2: DFT16 over the even and the odd points, twiddles W32^k on the odd ones, then DFT2.
// cos(2 pi k / 32), k = 0..8; sin(2 pi k / 32) = cos(2 pi (8 - k) / 32).
__constant float kCos32[9] = {1.0f, 0.98078528040323043f, 0.92387953251128674f, 0.83146961230254524f,
                              0.70710678118654752f, 0.55557023301960218f, 0.38268343236508978f,
                              0.19509032201612826f, 0.0f};
void dft32(float2* v) {
  float2 e[16], o[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    e[k] = v[2 * k];
    o[k] = v[2 * k + 1];
  }
  dft16(e);
  dft16(o);
#pragma unroll
  for (int k = 1; k < 16; ++k) {
    // W32^k = (cos, SIGN sin) of 2 pi k / 32; for k > 8 the cosine is -cos(2 pi (16 - k) / 32).
    const float c = k <= 8 ? kCos32[k] : -kCos32[16 - k];
    const float sn = k <= 8 ? kCos32[8 - k] : kCos32[k - 8];
    o[k] = w16(o[k], c, sn);
  }
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    v[k] = e[k] + o[k];
    v[k + 16] = e[k] - o[k];
  }
}

// 64 = 8 x 8, as dft16: DFT8 over n1 for each n2 (points n2 + 8 n1), twiddles W64^(n2 k1), DFT8
// over n2; the output lands in natural order k1 + 8 k2. fft_rows only (a transform of 16384 points
// in 256 work items: 4 x 64 x 64).
// cos(2 pi e / 64), e = 0..16; sin(2 pi e / 64) = cos(2 pi (16 - e) / 64).
__constant float kCos64[17] = {1.0f, 0.99518472667219689f, 0.98078528040323043f, 0.95694033573220882f,
                               0.92387953251128674f, 0.88192126434835503f, 0.83146961230254524f,
                               0.77301045336273697f, 0.70710678118654752f, 0.63439328416364549f,
                               0.55557023301960218f, 0.47139673682599764f, 0.38268343236508978f,
                               0.29028467725446233f, 0.19509032201612826f, 0.09801714032956060f, 0.0f};
// exp(SIGN * 2 pi i * e / 64) for a compile-time e (constants once the loops are unrolled).
float2 root64(const int e) {
  const int m = e & 15, r = (e >> 4) & 3;  // quadrant r, 16 r + m
  const float cm = kCos64[m], sm = kCos64[16 - m];
  const float c = r == 0 ? cm : r == 1 ? -sm : r == 2 ? -cm : sm;
  const float sn = r == 0 ? sm : r == 1 ? cm : r == 2 ? -sm : -cm;
  return (float2)(c, SIGN * sn);
}
void dft64(float2* v) {
  float2 a[8][8];
#pragma unroll
  for (int n2 = 0; n2 < 8; ++n2) {
#pragma unroll
    for (int n1 = 0; n1 < 8; ++n1) a[n2][n1] = v[n2 + 8 * n1];
    dft8(a[n2]);
  }
#pragma unroll
  for (int n2 = 1; n2 < 8; ++n2)
#pragma unroll
    for (int k1 = 1; k1 < 8; ++k1) a[n2][k1] = cmul(a[n2][k1], root64(n2 * k1));  // W64^(n2 k1)
#pragma unroll
  for (int k1 = 0; k1 < 8; ++k1) {
    float2 b[8];
#pragma unroll
    for (int n2 = 0; n2 < 8; ++n2) b[n2] = a[n2][k1];
    dft8(b);
#pragma unroll
    for (int k2 = 0; k2 < 8; ++k2) v[k1 + 8 * k2] = b[k2];
  }
}

// ---- twiddles -------------------------------------------------------------------------------
// exp(SIGN * 2 pi i * m / period) for m < period, period a power of two dividing N. The table
// holds exp(+2 pi i * m / N), m < N, computed on the host in double.
float2 twiddle(uint m, uint period, __global const float2* table) {
#if TWIDDLE == 2
  const float2 w = table[m * (N / period)];
  return (float2)(w.x, SIGN * w.y);
#else
  const int signed_m = 2 * m > period ? (int)m - (int)period : (int)m;  // angle in [-pi, pi]
  const float f = (float)signed_m / (float)period;  // exact: period is a power of two
#if TWIDDLE == 1
  const float a = 6.28318530717958648f * f;
  return (float2)(native_cos(a), SIGN * native_sin(a));
#else
  return (float2)(cospi(2.0f * f), SIGN * sinpi(2.0f * f));
#endif
#endif
}

// w[r] = W^(k r), r < RADIX, period a power of two: W^(k 2^i) from twiddle(), the others their
// products (at most log2(RADIX) - 1 roundings more: 4 loads a radix-16 butterfly instead of 15).
void power_twiddles(float2* w, const uint k, const uint period, __global const float2* table) {
  w[0] = (float2)(1.0f, 0.0f);
#pragma unroll
  for (int r = 1; r < RADIX; ++r) {
    const int high = r & (r - 1);  // r less its lowest set bit
    w[r] = high == 0 ? twiddle(k * r, period, table) : cmul(w[high], w[r - high]);
  }
}

// The inter-pass twiddle of a global Stockham pass, exp(SIGN * 2 pi i * e / 2^log2_period) with
// e < 2^log2_period (up to the whole transform length). In table mode two look-ups: the table
// holds exp(+2 pi i * lo / period) for lo < 2^split, then exp(+2 pi i * (hi << split) / period).
float2 global_twiddle(uint e, uint log2_period, uint split, __global const float2* table) {
#if TWIDDLE == 2
  const uint fine = 1u << split;
  const float2 w = cmul(table[e & (fine - 1)], table[fine + (e >> split)]);
  return (float2)(w.x, SIGN * w.y);
#else
  const int signed_e = (e >> (log2_period - 1)) ? (int)e - (int)(1u << log2_period) : (int)e;
  const float f = ldexp((float)signed_e, -(int)log2_period);  // exact
#if TWIDDLE == 1
  const float a = 6.28318530717958648f * f;
  return (float2)(native_cos(a), SIGN * native_sin(a));
#else
  return (float2)(cospi(2.0f * f), SIGN * sinpi(2.0f * f));
#endif
#endif
}

// One kernel per program where the host asks for it (BUILD_ROWS, BUILD_COLS, BUILD_TRANSPOSE,
// ROWS_T): a program that compiled all of them would cost NVIDIA's compiler two to three times
// the time. With none of them, every kernel but fft_rows_t is built.
#if defined(BUILD_ROWS) || defined(BUILD_COLS) || defined(BUILD_TRANSPOSE) || defined(BUILD_ROWS_MULTI) || \
    defined(BUILD_COLS_MULTI) || \
    (defined(ROWS_T) && ROWS_T)
#define BUILD_ONE 1
#endif

// ---- fft_rows: ROWS_PER_GROUP contiguous transforms of N points per work group ----------------
// The first pass reads global memory directly (neighbouring work items read neighbouring points),
// the inner passes exchange through local memory, the last pass writes global memory directly.
//
// PIECES > 1 (one transform per group, PIECES <= RADIX): a transform longer than local memory
// holds. Every point stays in its work item's registers, and each exchange goes through local
// memory in PIECES turns of PIECE_POINTS points, its register slots in PIECES blocks of PIECE_LOADS
// (slot x in block x / PIECE_LOADS): in a turn, a work item stores the values of one block of its
// slots, and after the barrier loads the values of the same block, so that no register is loaded
// before its value is stored (holding both would take twice the registers). Why the blocks line up:
// an exchange takes output q of the writer's butterfly (point d + q s, s the sub-transform length
// before the writer's pass) to input j of the reader's (point id + THREADS j). Point m goes in turn
//   (m / PIECE_POINTS + ((m / s) % RADIX) / PIECE_LOADS) % PIECES,
// the block of its input slot j = m / THREADS plus the block of its output slot q = (m / s) % RADIX
// (s RADIX <= THREADS). For the writer, m / PIECE_POINTS is its butterfly's top field (rot =
// id / (THREADS / PIECES)); for the reader, the block of q is its butterfly's field at
// s PIECE_LOADS. So each exchange relabels the butterflies: the work item that wrote as id reads
// as `next`, id with those two fields swapped (the same where they coincide, as in the last
// exchange), and both sides rotate by rot: the work item stores and loads block b in turn
// (b + rot) % PIECES. The first pass's outputs (slot i FIRST_RADIX + q of butterfly t + i THREADS,
// point (t + i THREADS) FIRST_RADIX + q) are the same with s = 1 and a field of FIRST_RADIX /
// PIECE_LOADS values (none where FIRST_RADIX <= PIECE_LOADS). In a turn, point m lies at
// m % PIECE_POINTS. rot is the same over runs of work items (a warp's where its bits lie at or
// above 32), so the blocks' conditions are mostly uniform branches; every register index stays
// compile-time.
#define ROW_SPAN (LIDX(N - 1) + 1)
#define PIECE_POINTS (N / PIECES)    // fft_rows: points of a transform in local memory at once
#define PIECE_LOADS (RADIX / PIECES)  // fft_rows: slots per block (stored and loaded per turn)
#define PIECE_SPAN (LIDX(PIECE_POINTS - 1) + 1)
#if PIECES == 1
#define IN_PIECE(m) (m)
#else
#define IN_PIECE(m) ((m) % PIECE_POINTS)
#endif

#if !defined(BUILD_ONE) || defined(BUILD_ROWS)
#if PIECES > 1 && (ROWS_PER_GROUP != 1 || PIECES > RADIX || (PIECES & (PIECES - 1)))
#error "fft_rows: PIECES > 1 needs ROWS_PER_GROUP 1 and PIECES a power of two <= RADIX"
#endif
__kernel __attribute__((reqd_work_group_size(THREADS * ROWS_PER_GROUP, 1, 1)))
void fft_rows(__global const float2* restrict in, __global float2* restrict out,
              __global const float2* restrict table, const uint transforms) {
  __local float2 lds[ROWS_PER_GROUP * PIECE_SPAN];
  const uint lid = get_local_id(0);
  const uint t = lid % THREADS, row = lid / THREADS;
  const uint transform = get_group_id(0) * ROWS_PER_GROUP + row;
  const bool active = transform < transforms;
  const size_t base = (size_t)min(transform, transforms - 1) * N;
  __local float2* L = lds + row * PIECE_SPAN;
  float2 v[RADIX];

  // Pass 0 (stride 1 so no twiddles): butterfly j = t + i THREADS reads points j + p N/FIRST_RADIX.
#pragma unroll
  for (int i = 0; i < SUB; ++i)
#pragma unroll
    for (int p = 0; p < FIRST_RADIX; ++p) v[i * FIRST_RADIX + p] = in[base + t + THREADS * (i + p * SUB)];
#pragma unroll
  for (int i = 0; i < SUB; ++i) DFT_FIRST(v + i * FIRST_RADIX);

  uint id = t;            // the butterfly this work item does (PIECES > 1: relabelled per exchange)
  uint ns = FIRST_RADIX;  // length of the sub-transforms done so far
#pragma unroll
  for (int pass = 1; pass < PASSES; ++pass) {
    // Exchange: the previous pass's outputs to this pass's inputs, a piece at a time.
    const uint ns_prev = ns / RADIX, kp = id & (ns_prev - 1);
    const uint d = (id - kp) * RADIX + kp;  // pass > 1: outputs d + q ns_prev
#if PIECES == 1
    const uint rot = 0, next = id;
#else
    const uint width = pass == 1 ? (FIRST_RADIX > PIECE_LOADS ? FIRST_RADIX / PIECE_LOADS : 1) : PIECES;
    const uint lo = (pass == 1 ? 1 : ns_prev) * PIECE_LOADS, hi = THREADS / width;
    const uint rot = id / hi, field = (id / lo) % width;
    const uint next = id + (rot - field) * lo + (field - rot) * hi;  // fields at hi and lo swapped
#endif
#pragma unroll
    for (int turn = 0; turn < PIECES; ++turn) {
      if (pass > 1 || turn > 0) barrier(CLK_LOCAL_MEM_FENCE);  // readers of the last turn done
#pragma unroll
      for (int b = 0; b < PIECES; ++b)
        if (((b + rot) & (PIECES - 1)) == (uint)turn)
#pragma unroll
          for (int r = 0; r < PIECE_LOADS; ++r) {
            const int sl = b * PIECE_LOADS + r;
            if (pass == 1)
              L[LIDX(IN_PIECE((id + (sl / FIRST_RADIX) * THREADS) * FIRST_RADIX) + sl % FIRST_RADIX)] = v[sl];
            else
              L[LIDX(IN_PIECE(d) + sl * ns_prev)] = v[sl];
          }
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int b = 0; b < PIECES; ++b)
        if (((b + rot) & (PIECES - 1)) == (uint)turn)
#pragma unroll
          for (int r = 0; r < PIECE_LOADS; ++r) v[b * PIECE_LOADS + r] = L[LIDX(next + THREADS * r)];
    }
    id = next;
    float2 w[RADIX];
    power_twiddles(w, id & (ns - 1), ns * RADIX, table);
#pragma unroll
    for (int p = 1; p < RADIX; ++p) v[p] = cmul(v[p], w[p]);
    DFT_MAIN(v);
    if (pass == PASSES - 1 && active)
#pragma unroll
      for (int q = 0; q < RADIX; ++q) out[base + id + THREADS * q] = v[q] * SCALE;
    ns *= RADIX;
  }
}
#endif

// ---- fft_rows_multi: one transform of N points per work group, POINTS points per work item ----
// Every point stays in its work item's registers (POINTS of them: slot m holds point
// t + M_THREADS m), and each pass does POINTS / radix butterflies per work item: butterfly b is
// j = t + M_THREADS b, its input r in slot b + (POINTS / radix) r (point j + r N / radix), its output
// r written back to the same slot. Small butterflies (radix 8) keep few temporaries beside the
// points, so that 512 work items fit the register file (VkFFT's shape for 16384 points: 32 points
// per item, four radix-8 butterflies per pass).
// Each exchange goes through local memory in PIECES turns of M_PIECE points (PIECES 1: at once).
// Point o lies in turn o / M_PIECE, at o % M_PIECE. The reader's slot m (point t + M_THREADS m) is
// in turn m / M_LOADS; the writer's butterfly b (output r at d + r s, d = (j - k) radix + k,
// k = j mod s, s the sub-transform length before its pass) is in turn b / ((POINTS / radix) /
// PIECES) where s radix <= M_PIECE and M_THREADS radix PIECES <= N (so that a turn takes whole
// butterflies). Both are compile-time, so a turn stores M_LOADS registers and loads M_LOADS new
// values: other slots than it stored, so the loads go to a second array, whose values take the
// registers of those stored before them (the barrier orders the stores first; no register holds
// two values). After the last pass, output r of butterfly b is point j + r N / radix: slot
// b + (POINTS / radix) r again, stored as read.
// Twiddles W^(k r) (period s RADIX): while s <= M_THREADS, k = t mod s for every butterfly of the
// work item, so one set per pass: W^(k 2^i) from twiddle() (W^k, W^2k, W^4k at radix 8), the
// others their products (one rounding more each: the table stays exact to about an ulp, with 3
// loads per pass instead of 7 per butterfly). Beyond, k = t +
// M_THREADS c with c = b mod (s / M_THREADS), and W^(k r) = W^(t r) W^(M_THREADS c r), the second a
// compile-time root of unity of order (s / M_THREADS) RADIX <= POINTS (root64).
// Local addresses: point i at MIDX(i, pad), pad float2 after every 16 (LDS_PAD): 1, but 2 after a
// pass on sub-transforms of 2 to 8 points, whose neighbouring groups of s work items store s radix
// points apart: with 1 two of them share banks, with 2 every store and load of the host's plans
// (16384, 8192, 1024) takes the fewest wavefronts. d mod 16 plus (r s) mod 16 stays below
// 16 (d = k mod s radix, k < s), and M_THREADS is a multiple of 16, so MIDX(d + r s) = MIDX(d) +
// MIDX(r s) and MIDX(t + M_THREADS i) = MIDX(t) + MIDX(M_THREADS i): one address per butterfly and
// turn, compile-time offsets.
//
// fft_cols_multi: the same transform on the columns of an array WIDTH wide, M_COLS adjacent
// columns per group (work item c + M_COLS t: neighbours take neighbouring columns, so global
// accesses come in runs of M_COLS float2; 4: one 32-byte sector), each column's N points in one
// pass over global memory, as VkFFT's column kernel. Local memory holds point i of column c at
// M_COLS (i + (i >> sh)) + c: the columns of a point side by side, one float2 per column after
// every 2^sh points, sh = log2 of the writer's radix (at least 2). After the first pass (s = 1)
// work item t stores point t radix + r at slot offset (t + r) mod 4 within 4 columns, so the 8
// work items of a warp per column (4 columns) take each offset twice: two wavefronts per 64-bit
// access, the fewest, as the later passes' runs of consecutive points and the loads do (checked
// for every plan the host builds). The same split into compile-time offsets holds (d mod 2^sh
// plus (r s) mod 2^sh stays below 2^sh).
#if defined(BUILD_ROWS_MULTI) || defined(BUILD_COLS_MULTI)
#if defined(BUILD_COLS_MULTI)
#define M_COLS COLS_PER_GROUP         // adjacent columns per group
#else
#define M_COLS 1
#endif
#define M_THREADS (N / POINTS)        // work items per transform
#define M_PIECE (N / PIECES)          // points of a transform in local memory at once
#define M_LOADS (POINTS / PIECES)     // slots stored and loaded per turn
#define MIDX(i, pad) ((i) + ((i) >> 4) * (pad))
#if M_COLS == 1
#define MOFF(i, space) MIDX(i, space)  // space: the pad per 16 points
#define M_SPAN (MIDX(M_PIECE - 1, 2 * LDS_PAD) + 1)
#else
#define MOFF(i, space) (M_COLS * ((i) + ((i) >> (space))))  // space: sh
#define M_SH_MIN (FIRST_RADIX >= 16 ? 4 : FIRST_RADIX >= 8 ? 3 : 2)  // the first exchange's sh
#define M_SPAN (LDS_PAD ? MOFF(M_PIECE - 1, M_SH_MIN) + M_COLS : M_COLS * M_PIECE)
#endif
#if POINTS % RADIX || POINTS % FIRST_RADIX || POINTS / RADIX < PIECES || POINTS / FIRST_RADIX < PIECES || \
    (PASSES > 2 && RADIX < PIECES) || (PIECES & (PIECES - 1)) || POINTS > 64 || M_THREADS % 16 || \
    (M_COLS > 1 && (M_THREADS % RADIX || RADIX < 4))
#error "fft_rows_multi: needs RADIX and FIRST_RADIX dividing POINTS <= 64, PIECES a power of two up to RADIX and to the butterflies per work item, 16 | N / POINTS (fft_cols_multi: and RADIX >= 4 dividing it)"
#endif

// The exchange after a pass of `radix` on sub-transforms of s points (see above); L: the work
// item's column.
void multi_exchange(float2* v, __local float2* L, const uint t, const int radix, const uint s) {
  const int per_item = POINTS / radix, per_turn = per_item / PIECES;  // butterflies
#if M_COLS == 1
  const uint space = LDS_PAD ? (s > 1 && s < 16 ? 2 : 1) : 0;
#else
  const uint space = LDS_PAD ? max(2, 31 - (int)clz(radix)) : 31;
#endif
  float2 next[POINTS];
#pragma unroll
  for (int turn = 0; turn < PIECES; ++turn) {
    if (s > 1 || turn > 0) barrier(CLK_LOCAL_MEM_FENCE);  // readers of the last turn done
#pragma unroll
    for (int b = turn * per_turn; b < (turn + 1) * per_turn; ++b) {
      const uint j = t + M_THREADS * b, k = j & (s - 1);
      __local float2* at = L + MOFF(((j - k) * radix + k) & (M_PIECE - 1), space);
#pragma unroll
      for (int r = 0; r < radix; ++r) at[MOFF(r * s, space)] = v[b + per_item * r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int i = 0; i < M_LOADS; ++i) next[turn * M_LOADS + i] = L[MOFF(t, space) + MOFF(M_THREADS * i, space)];
  }
#pragma unroll
  for (int m = 0; m < POINTS; ++m) v[m] = next[m];
}

// Every pass of the transform whose points v[m] = t + M_THREADS m the work item holds, in place.
void multi_passes(float2* v, __local float2* L, const uint t, __global const float2* table) {
  // Pass 0 (stride 1 so no twiddles).
#pragma unroll
  for (int b = 0; b < POINTS / FIRST_RADIX; ++b) {
    float2 x[FIRST_RADIX];
#pragma unroll
    for (int r = 0; r < FIRST_RADIX; ++r) x[r] = v[b + (POINTS / FIRST_RADIX) * r];
    DFT_FIRST(x);
#pragma unroll
    for (int r = 0; r < FIRST_RADIX; ++r) v[b + (POINTS / FIRST_RADIX) * r] = x[r];
  }
  multi_exchange(v, L, t, FIRST_RADIX, 1);

  uint s = FIRST_RADIX;  // length of the sub-transforms done so far
#pragma unroll
  for (int pass = 1; pass < PASSES; ++pass) {
    float2 w[RADIX];
    power_twiddles(w, t & (s - 1), s * RADIX, table);
#pragma unroll
    for (int b = 0; b < POINTS / RADIX; ++b) {
      // k = t + M_THREADS c beyond s = M_THREADS: W^(k r) = W^(t r) root64(64 M_THREADS c r / (s RADIX)).
      const int c = s > M_THREADS ? b % (s / M_THREADS) : 0;
      float2 x[RADIX];
      x[0] = v[b];
#pragma unroll
      for (int r = 1; r < RADIX; ++r) {
        const float2 wr = c == 0 ? w[r] : cmul(w[r], root64((int)(64 * c * r / (s / M_THREADS * RADIX))));
        x[r] = cmul(v[b + (POINTS / RADIX) * r], wr);
      }
      DFT_MAIN(x);
#pragma unroll
      for (int r = 0; r < RADIX; ++r) v[b + (POINTS / RADIX) * r] = x[r];
    }
    if (pass < PASSES - 1) multi_exchange(v, L, t, RADIX, s);
    s *= RADIX;
  }
}

#if defined(BUILD_ROWS_MULTI)
__kernel __attribute__((reqd_work_group_size(M_THREADS, 1, 1)))
void fft_rows_multi(__global const float2* restrict in, __global float2* restrict out,
                    __global const float2* restrict table, const uint transforms) {
  __local float2 L[M_SPAN];
  const uint t = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * N;  // one transform per group, `transforms` groups
  float2 v[POINTS];
#pragma unroll
  for (int m = 0; m < POINTS; ++m) v[m] = in[base + t + M_THREADS * m];
  multi_passes(v, L, t, table);
#pragma unroll
  for (int m = 0; m < POINTS; ++m) out[base + t + M_THREADS * m] = v[m] * SCALE;
}
#else
// Groups (WIDTH / M_COLS, batch): column x = group x M_COLS + c of 2-D transform `batch`.
__kernel __attribute__((reqd_work_group_size(M_THREADS * M_COLS, 1, 1)))
void fft_cols_multi(__global const float2* restrict in, __global float2* restrict out,
                    __global const float2* restrict table) {
  __local float2 L[M_SPAN];
  const uint c = get_local_id(0) % M_COLS, t = get_local_id(0) / M_COLS;
  const size_t base = ((size_t)get_group_id(1) * N + t) * WIDTH + get_group_id(0) * M_COLS + c;  // point t
  float2 v[POINTS];
#pragma unroll
  for (int m = 0; m < POINTS; ++m) v[m] = in[base + (size_t)M_THREADS * WIDTH * m];
  multi_passes(v, L + c, t, table);
#pragma unroll
  for (int m = 0; m < POINTS; ++m) out[base + (size_t)M_THREADS * WIDTH * m] = v[m] * SCALE;
}
#endif
#endif

// ---- fft_cols: one pass of a global Stockham FFT of stride * N points per batch member -------
// Columns j (COLS_PER_GROUP adjacent ones per work group) read x[j + n stride], n < N, are
// twiddled by W_(ns N)^((j mod ns) n) (GLOBAL_TWIDDLE), transformed in local memory and written
// to y[(j - j mod ns) N + j mod ns + q ns]. With ns = stride this is a plain column FFT (2-D).
// Neighbouring work items take neighbouring columns, so global accesses come in runs of
// COLS_PER_GROUP points. Each exchange between radix passes goes through local memory in PIECES
// turns, COLS_IN_LDS columns (c / COLS_IN_LDS == piece) at a time; the other work items wait at
// the barriers, the data of every column staying in its work items' registers meanwhile.
// Local layout: point m of column c at m * COLS_IN_LDS + c mod COLS_IN_LDS. STORE_CONTIGUOUS
// regroups column-major ([c][q], one more float2 per column against bank conflicts).
// Interleaved transforms (INTERLEAVE_LOG2, the 2-D column FFT split into global passes): stride
// and ns_global come multiplied by the width, so neighbouring j are neighbouring x of one row.
#define COLS_IN_LDS (COLS_PER_GROUP / PIECES)
#define COL_SPAN (LIDX(N * COLS_IN_LDS - 1) + 1 + COLS_IN_LDS)
#define CIDX(m, c) LIDX((m) * COLS_IN_LDS + (c))
#define SIDX(c, q) (LIDX((c) * N + (q)) + (c))

#if !defined(BUILD_ONE) || defined(BUILD_COLS)
#if COLS_IN_LDS * PIECES != COLS_PER_GROUP
#error "PIECES must divide COLS_PER_GROUP"
#endif
__kernel __attribute__((reqd_work_group_size(THREADS * COLS_PER_GROUP, 1, 1)))
void fft_cols(__global const float2* restrict in, __global float2* restrict out,
              __global const float2* restrict table, __global const float2* restrict global_table,
              const uint stride, const uint ns_global, const uint log2_period, const uint split) {
  __local float2 L[COL_SPAN];
  const uint lid = get_local_id(0);
  const uint c = lid % COLS_PER_GROUP, t = lid / COLS_PER_GROUP;
  const uint piece = c / COLS_IN_LDS, cl = c % COLS_IN_LDS;
  const uint j = get_group_id(0) * COLS_PER_GROUP + c;
  const size_t base = (size_t)get_group_id(1) * stride * N;
  const uint kg = j & (ns_global - 1);
  float2 v[RADIX];

#pragma unroll
  for (int i = 0; i < SUB; ++i)
#pragma unroll
    for (int p = 0; p < FIRST_RADIX; ++p) {
      const uint n = t + THREADS * (i + p * SUB);
      v[i * FIRST_RADIX + p] = in[base + j + (size_t)n * stride];
#if GLOBAL_TWIDDLE
      v[i * FIRST_RADIX + p] =
          cmul(v[i * FIRST_RADIX + p], global_twiddle((kg >> INTERLEAVE_LOG2) * n, log2_period, split, global_table));
#endif
    }
#pragma unroll
  for (int i = 0; i < SUB; ++i) DFT_FIRST(v + i * FIRST_RADIX);

  uint ns = FIRST_RADIX;  // length of the sub-transforms done so far
#pragma unroll
  for (int pass = 1; pass < PASSES; ++pass) {
    // Exchange: the previous pass's outputs (sub-transforms of ns / RADIX points, or the first
    // pass's) to this pass's inputs, one piece of columns at a time.
#pragma unroll
    for (int turn = 0; turn < PIECES; ++turn) {
      if (pass > 1 || turn > 0) barrier(CLK_LOCAL_MEM_FENCE);  // readers of the last turn done
      if (piece == turn) {
        if (pass == 1) {
#pragma unroll
          for (int i = 0; i < SUB; ++i)
#pragma unroll
            for (int q = 0; q < FIRST_RADIX; ++q)
              L[CIDX((t + i * THREADS) * FIRST_RADIX + q, cl)] = v[i * FIRST_RADIX + q];
        } else {
          const uint ns_prev = ns / RADIX, kp = t & (ns_prev - 1);
          const uint d = (t - kp) * RADIX + kp;
#pragma unroll
          for (int q = 0; q < RADIX; ++q) L[CIDX(d + q * ns_prev, cl)] = v[q];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (piece == turn)
#pragma unroll
        for (int p = 0; p < RADIX; ++p) v[p] = L[CIDX(t + THREADS * p, cl)];
    }
    const uint k = t & (ns - 1);
#pragma unroll
    for (int p = 1; p < RADIX; ++p) v[p] = cmul(v[p], twiddle(k * p, ns * RADIX, table));
    DFT_MAIN(v);
    if (pass == PASSES - 1) {
#if STORE_CONTIGUOUS
      // ns_global == 1: column j's output is y[j N + q], so the group's output is one block, and
      // a piece's columns one block of it: each piece through local memory in turn, stored by
      // every work item.
      const size_t block = base + (size_t)get_group_id(0) * COLS_PER_GROUP * N;
#pragma unroll
      for (int turn = 0; turn < PIECES; ++turn) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (piece == turn)
#pragma unroll
          for (int q = 0; q < RADIX; ++q) L[SIDX(cl, t + THREADS * q)] = v[q];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int m = 0; m < RADIX / PIECES; ++m) {
          const uint e = lid + m * THREADS * COLS_PER_GROUP;  // = column of the piece * N + point
          out[block + (size_t)turn * COLS_IN_LDS * N + e] = L[SIDX(e / N, e % N)] * SCALE;
        }
      }
#else
      const size_t dst = base + (size_t)(j - kg) * N + kg;
#pragma unroll
      for (int q = 0; q < RADIX; ++q) out[dst + (size_t)(t + THREADS * q) * ns_global] = v[q] * SCALE;
#endif
    }
    ns *= RADIX;
  }
}
#endif

// ---- fft_transpose: out (width x height) = in (height x width) transposed, through a tile ---
#if !defined(BUILD_ONE) || defined(BUILD_TRANSPOSE)
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void fft_transpose(__global const float2* restrict in, __global float2* restrict out,
                   const uint width, const uint height) {
  __local float2 tile[TILE][TILE + 1];
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const size_t batch = (size_t)get_group_id(2) * width * height;
  uint x = get_group_id(0) * TILE + lx, y = get_group_id(1) * TILE + ly;
#pragma unroll
  for (int r = 0; r < TILE; r += TILE_ROWS)
    if (x < width && y + r < height) tile[ly + r][lx] = in[batch + (size_t)(y + r) * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE + lx;
  y = get_group_id(0) * TILE + ly;
#pragma unroll
  for (int r = 0; r < TILE; r += TILE_ROWS)
    if (x < height && y + r < width) out[batch + (size_t)(y + r) * height + x] = tile[lx][ly + r];
}
#endif

// ---- fft_rows_t: ROWS_PER_GROUP transforms of N points, written transposed ------------------
// Row r of the group (global row row0 + r, `rows` rows in all) is read contiguously and its
// output point k written to out[k * rows + row0 + r]: a 2-D FFT is then two launches (rows of the
// input -> columns-as-rows of a temporary -> rows of the result), the transpose fused into the
// store. Work items t + THREADS * r (rows slowest: a row's work items are whole warps); each work
// item keeps its row's RADIX points in registers, and the exchanges between radix passes go
// through local memory PIECES turns of ROWS_IN_LDS rows (all ROWS_PER_GROUP rows of 2048 points
// do not fit in 48 KiB). The store goes through local memory in PIECES chunks of RADIX / PIECES
// outputs per work item, regrouped so that neighbouring work items write neighbouring rows:
// runs of ROWS_PER_GROUP float2 (4 rows: one 32-byte sector). Built only with -DROWS_T=1.
#if defined(ROWS_T) && ROWS_T
#define ROWS_IN_LDS (ROWS_PER_GROUP / PIECES)
#define RT_GROUP (THREADS * ROWS_PER_GROUP)
#define RT_Q (RADIX / PIECES)                                 // outputs per work item per store chunk
#define RT_TSTRIDE (RT_Q * THREADS + 16 / ROWS_PER_GROUP)     // row stride of the store tile
#define RT_SPAN (ROWS_IN_LDS * ROW_SPAN > ROWS_PER_GROUP * RT_TSTRIDE ? ROWS_IN_LDS * ROW_SPAN : ROWS_PER_GROUP * RT_TSTRIDE)

__kernel __attribute__((reqd_work_group_size(RT_GROUP, 1, 1)))
void fft_rows_t(__global const float2* restrict in, __global float2* restrict out,
                __global const float2* restrict table, const uint rows) {
#if ROWS_IN_LDS * PIECES != ROWS_PER_GROUP || RT_Q * PIECES != RADIX || ROWS_PER_GROUP > 16
#error "fft_rows_t: PIECES must divide ROWS_PER_GROUP and RADIX; ROWS_PER_GROUP <= 16"
#endif
  __local float2 lds[RT_SPAN];
  const uint lid = get_local_id(0);
  const uint t = lid % THREADS, r = lid / THREADS;
  const uint piece = r / ROWS_IN_LDS;
  const uint row0 = get_group_id(0) * ROWS_PER_GROUP;
  const uint row = min(row0 + r, rows - 1);
  __local float2* L = lds + (r % ROWS_IN_LDS) * ROW_SPAN;
  float2 v[RADIX];

  // Pass 0 from global memory (stride 1, no twiddles), as fft_rows.
#pragma unroll
  for (int i = 0; i < SUB; ++i)
#pragma unroll
    for (int p = 0; p < FIRST_RADIX; ++p) v[i * FIRST_RADIX + p] = in[(size_t)row * N + t + THREADS * (i + p * SUB)];
#pragma unroll
  for (int i = 0; i < SUB; ++i) DFT_FIRST(v + i * FIRST_RADIX);

  uint ns = FIRST_RADIX;  // length of the sub-transforms done so far
#pragma unroll
  for (int pass = 1; pass < PASSES; ++pass) {
#pragma unroll
    for (int turn = 0; turn < PIECES; ++turn) {
      if (pass > 1 || turn > 0) barrier(CLK_LOCAL_MEM_FENCE);
      if (piece == turn) {
        if (pass == 1) {
#pragma unroll
          for (int i = 0; i < SUB; ++i)
#pragma unroll
            for (int q = 0; q < FIRST_RADIX; ++q) L[LIDX((t + i * THREADS) * FIRST_RADIX + q)] = v[i * FIRST_RADIX + q];
        } else {
          const uint ns_prev = ns / RADIX, kp = t & (ns_prev - 1);
          const uint d = (t - kp) * RADIX + kp;
#pragma unroll
          for (int q = 0; q < RADIX; ++q) L[LIDX(d + q * ns_prev)] = v[q];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (piece == turn)
#pragma unroll
        for (int p = 0; p < RADIX; ++p) v[p] = L[LIDX(t + THREADS * p)];
    }
    const uint k = t & (ns - 1);
#pragma unroll
    for (int p = 1; p < RADIX; ++p) v[p] = cmul(v[p], twiddle(k * p, ns * RADIX, table));
    DFT_MAIN(v);
    ns *= RADIX;
  }

  // Transposed store: output k = t + THREADS * q of row r; chunk c holds q in [c RT_Q, (c+1) RT_Q)
  // as tile[r][k - c RT_Q THREADS] (row stride padded so that reads across rows miss no bank).
#pragma unroll
  for (int c = 0; c < PIECES; ++c) {
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int q = 0; q < RT_Q; ++q) lds[r * RT_TSTRIDE + t + THREADS * q] = v[c * RT_Q + q];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int m = 0; m < RT_Q; ++m) {
      const uint e = lid + m * RT_GROUP;  // = kk * ROWS_PER_GROUP + rr
      const uint rr = e % ROWS_PER_GROUP, kk = e / ROWS_PER_GROUP;
      if (row0 + rr < rows) out[(size_t)(c * RT_Q * THREADS + kk) * rows + row0 + rr] = lds[rr * RT_TSTRIDE + kk] * SCALE;
    }
  }
}
#endif  // ROWS_T
