// Matrix multiply C = A*B, row-major, TYPE float or double: a naive kernel, a local-memory tiled
// one, a register-blocked one with vector loads, a warp-tiled one, and the warp-tiled one fed by
// asynchronous copies from a transposed A. Knobs are build options (defaults below).
//
// Every kernel takes M, N, K and leading dimensions lda, ldb, ldc in elements. The host rounds
// the leading dimensions up to a multiple of 4 and zero-fills the padding, so that a row starts
// aligned for VW-wide vector loads and a vector that straddles column K (or N) reads zeros.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef TYPE
#define TYPE float
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

// A build compiles one variant's kernels when the host names it (-DONLY_NAIVE, -DONLY_TILED,
// -DONLY_REGBLOCK, -DONLY_WARPTILE, -DONLY_WARPTILE_ASYNC, -DONLY_MMA): compiling all six for every
// shape would multiply the compiler's work. Without one, every variant (gemm_marker is always
// there).
#if !defined(ONLY_NAIVE) && !defined(ONLY_TILED) && !defined(ONLY_REGBLOCK) && !defined(ONLY_WARPTILE) && \
    !defined(ONLY_WARPTILE_ASYNC) && !defined(ONLY_MMA)
#define ONLY_NAIVE
#define ONLY_TILED
#define ONLY_REGBLOCK
#define ONLY_WARPTILE
#define ONLY_WARPTILE_ASYNC
#ifdef cl_khr_fp64
#define ONLY_MMA
#endif
#endif

#if defined(ONLY_WARPTILE) || defined(ONLY_WARPTILE_ASYNC) || defined(ONLY_MMA)
// The group's block of C as (block row, block column) when blocks run in bands of `group_m` block
// rows, column by column (Triton's grouped order): the launch order of groups (x fastest) walks
// the bands; the last band may be shorter.
int2 banded_block_at(const int block, const int blocks_n, const int blocks_m, const int group_m) {
  const int first_m = block / (group_m * blocks_n) * group_m;
  const int band_m = min(blocks_m - first_m, group_m);
  const int in_band = block - first_m * blocks_n;
  return (int2)(first_m + in_band % band_m, in_band / band_m);
}
int2 banded_block(const int group_m) {
  const int blocks_n = get_num_groups(0), blocks_m = get_num_groups(1);
  return banded_block_at(get_group_id(1) * blocks_n + get_group_id(0), blocks_n, blocks_m, group_m);
}
#endif

// ---- naive: one work item per element of C, operands straight from global memory --------------
// Work item (x, y) computes C[y][x]: along x, neighbours read neighbouring B and write
// neighbouring C; the work-group shape decides how the caches see A and B.
#ifdef ONLY_NAIVE
__kernel void gemm_naive(const int M, const int N, const int K,
                         __global const TYPE* restrict A, const int lda,
                         __global const TYPE* restrict B, const int ldb,
                         __global TYPE* restrict C, const int ldc) {
  const int col = get_global_id(0), row = get_global_id(1);
  if (row >= M || col >= N) return;
  __global const TYPE* a = A + (size_t)row * lda;
  __global const TYPE* b = B + col;
  TYPE acc = 0;
  for (int k = 0; k < K; ++k) acc = fma(a[k], b[(size_t)k * ldb], acc);
  C[(size_t)row * ldc + col] = acc;
}
#endif  // ONLY_NAIVE

// ---- tiled: one work item per element of C; TILE_Y x TILE_K of A and TILE_K x TILE_X of B are
// staged in local memory, so each global element is read M/TILE_Y or N/TILE_X times, not M or N.
// The work group is TILE_X x TILE_Y: its shape is the tile's.
#ifndef TILE_X
#define TILE_X 16
#endif
#ifndef TILE_Y
#define TILE_Y 16
#endif
#ifndef TILE_K
#define TILE_K 16
#endif

#ifdef ONLY_TILED
__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void gemm_tiled(const int M, const int N, const int K,
                __global const TYPE* restrict A, const int lda,
                __global const TYPE* restrict B, const int ldb,
                __global TYPE* restrict C, const int ldc) {
  // One element of padding per row of A: work items of one column of the group read one column
  // of As, which without it would fall into one bank every TILE_K / banks rows.
  __local TYPE As[TILE_Y][TILE_K + 1];
  __local TYPE Bs[TILE_K][TILE_X];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = ty * TILE_X + tx;
  const int row0 = get_group_id(1) * TILE_Y, col0 = get_group_id(0) * TILE_X;
  TYPE acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE_K) {
    // Any group shape loads any tile: each work item takes every THREADS-th element.
    for (int i = lid; i < TILE_Y * TILE_K; i += TILE_X * TILE_Y) {
      const int r = i / TILE_K, c = i % TILE_K;
      As[r][c] = (row0 + r < M && k0 + c < K) ? A[(size_t)(row0 + r) * lda + k0 + c] : 0;
    }
    for (int i = lid; i < TILE_K * TILE_X; i += TILE_X * TILE_Y) {
      const int r = i / TILE_X, c = i % TILE_X;
      Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(size_t)(k0 + r) * ldb + col0 + c] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kk = 0; kk < TILE_K; ++kk) acc = fma(As[ty][kk], Bs[kk][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row0 + ty < M && col0 + tx < N) C[(size_t)(row0 + ty) * ldc + col0 + tx] = acc;
}
#endif  // ONLY_TILED

// ---- register-blocked: a work group of WG_X x WG_Y work items computes a TILE_M x TILE_N block
// of C, each work item WPT_M x WPT_N of it held in registers. K is walked in steps of RB_TILE_K:
// the next step's A and B tiles are loaded from global memory (VW-wide vectors) into registers
// while the current step is computed from local memory, then stored into the other of two local
// buffers (one barrier per step). A's tile is stored transposed (k-major), so that one vector
// read of local memory gives VW rows of A for one k, as a vector read of B's tile gives VW
// columns. A work item's rows and columns are VW-wide strips WG_Y*VW (WG_X*VW) apart: the work
// items of a warp then read neighbouring vectors of B's tile (no bank conflicts) and write
// neighbouring vectors of C.
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
#ifndef WPT_M
#define WPT_M 8
#endif
#ifndef WPT_N
#define WPT_N 8
#endif
#ifndef RB_TILE_K
#define RB_TILE_K 8
#endif
#ifndef VW
#define VW 4
#endif
// Padding of As's rows (elements, a multiple of VW): the transposing stores into As would
// otherwise meet in one bank.
#ifndef PAD_A
#define PAD_A VW
#endif

#if VW == 1
#define TYPEV TYPE
#define COMP(v, i) (v)
#elif VW == 2
#define TYPEV CAT(TYPE, 2)
#define COMP(v, i) ((i) == 0 ? (v).s0 : (v).s1)
#elif VW == 4
#define TYPEV CAT(TYPE, 4)
#define COMP(v, i) ((i) == 0 ? (v).s0 : (i) == 1 ? (v).s1 : (i) == 2 ? (v).s2 : (v).s3)
#else
#error "VW must be 1, 2 or 4"
#endif

#define TILE_M (WG_Y * WPT_M)
#define TILE_N (WG_X * WPT_N)
#define THREADS (WG_X * WG_Y)
#define VEC_M (WPT_M / VW)                   // VW-wide strips of rows per work item
#define VEC_N (WPT_N / VW)                   // and of columns
#define AS_VECS ((TILE_M + PAD_A) / VW)      // vectors per row (one k) of As
#define BS_VECS (TILE_N / VW)                // vectors per row of Bs
#define A_VECS (TILE_M * RB_TILE_K / VW)     // vectors in one tile of A
#define B_VECS (RB_TILE_K * TILE_N / VW)
#define A_LOADS ((A_VECS + THREADS - 1) / THREADS)  // per work item and step
#define B_LOADS ((B_VECS + THREADS - 1) / THREADS)

#if WPT_M % VW != 0 || WPT_N % VW != 0 || RB_TILE_K % VW != 0 || PAD_A % VW != 0
#error "WPT_M, WPT_N, RB_TILE_K and PAD_A must be multiples of VW"
#endif

#ifdef ONLY_REGBLOCK
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_regblock(const int M, const int N, const int K,
                   __global const TYPE* restrict A, const int lda,
                   __global const TYPE* restrict B, const int ldb,
                   __global TYPE* restrict C, const int ldc) {
  __local TYPEV As[2][RB_TILE_K][AS_VECS];  // As[buf][k][m / VW]
  __local TYPEV Bs[2][RB_TILE_K][BS_VECS];  // Bs[buf][k][n / VW]
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = ty * WG_X + tx;
  const int row0 = get_group_id(1) * TILE_M, col0 = get_group_id(0) * TILE_N;

  TYPEV acc[WPT_M][VEC_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < VEC_N; ++j) acc[i][j] = 0;

  // This work item's share of each step's tiles: A's tile is TILE_M rows of RB_TILE_K/VW vectors
  // (one row's vectors on neighbouring work items), B's is RB_TILE_K rows of TILE_N/VW vectors.
  // Shares past the tile (when THREADS does not divide it) and reads past M, N or K are zeros.
  TYPEV ra[A_LOADS], rb[B_LOADS];
  int a_row[A_LOADS], a_col[A_LOADS], b_row[B_LOADS], b_col[B_LOADS];
  bool a_in[A_LOADS], b_in[B_LOADS];
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l) {
    const int i = lid + l * THREADS;
    a_row[l] = i / (RB_TILE_K / VW);
    a_col[l] = (i % (RB_TILE_K / VW)) * VW;
    a_in[l] = (A_VECS % THREADS == 0 || i < A_VECS) && row0 + a_row[l] < M;
  }
#pragma unroll
  for (int l = 0; l < B_LOADS; ++l) {
    const int i = lid + l * THREADS;
    b_row[l] = i / BS_VECS;
    b_col[l] = (i % BS_VECS) * VW;
    b_in[l] = (B_VECS % THREADS == 0 || i < B_VECS) && col0 + b_col[l] < N;
  }
  __global const TYPE* a_base = A + (size_t)row0 * lda;
  __global const TYPE* b_base = B + col0;

  // Step 0's loads; then one barrier per step: the buffer stored at step s was last read by
  // step s-2's compute, which every work item finished before passing step s-1's barrier.
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l)
    ra[l] = a_in[l] && a_col[l] < K
                ? *(__global const TYPEV*)(a_base + (size_t)a_row[l] * lda + a_col[l])
                : (TYPEV)0;
#pragma unroll
  for (int l = 0; l < B_LOADS; ++l)
    rb[l] = b_in[l] && b_row[l] < K
                ? *(__global const TYPEV*)(b_base + (size_t)b_row[l] * ldb + b_col[l])
                : (TYPEV)0;

  const int steps = (K + RB_TILE_K - 1) / RB_TILE_K;
  for (int step = 0; step < steps; ++step) {
    const int k0 = step * RB_TILE_K;
    const int cur = step & 1;
    __local TYPE* as = (__local TYPE*)As[cur];
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      if (A_VECS % THREADS == 0 || lid + l * THREADS < A_VECS) {
#pragma unroll
        for (int v = 0; v < VW; ++v)
          as[(a_col[l] + v) * (AS_VECS * VW) + a_row[l]] = COMP(ra[l], v);
      }
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l)
      if (B_VECS % THREADS == 0 || lid + l * THREADS < B_VECS)
        Bs[cur][b_row[l]][b_col[l] / VW] = rb[l];
    barrier(CLK_LOCAL_MEM_FENCE);

    // The next step's loads are in flight while this step computes.
    if (step + 1 < steps) {
      const int k1 = k0 + RB_TILE_K;
#pragma unroll
      for (int l = 0; l < A_LOADS; ++l)
        ra[l] = a_in[l] && k1 + a_col[l] < K
                    ? *(__global const TYPEV*)(a_base + (size_t)a_row[l] * lda + k1 + a_col[l])
                    : (TYPEV)0;
#pragma unroll
      for (int l = 0; l < B_LOADS; ++l)
        rb[l] = b_in[l] && k1 + b_row[l] < K
                    ? *(__global const TYPEV*)(b_base + (size_t)(k1 + b_row[l]) * ldb + b_col[l])
                    : (TYPEV)0;
    }

#pragma unroll
    for (int kk = 0; kk < RB_TILE_K; ++kk) {
      TYPEV a[VEC_M], b[VEC_N];
#pragma unroll
      for (int v = 0; v < VEC_M; ++v) a[v] = As[cur][kk][v * WG_Y + ty];
#pragma unroll
      for (int v = 0; v < VEC_N; ++v) b[v] = Bs[cur][kk][v * WG_X + tx];
#pragma unroll
      for (int i = 0; i < WPT_M; ++i) {
        const TYPE ai = COMP(a[i / VW], i % VW);
#pragma unroll
        for (int j = 0; j < VEC_N; ++j) acc[i][j] = fma((TYPEV)(ai), b[j], acc[i][j]);
      }
    }
  }

  // Row i of the work item is strip i / VW, lane i % VW; column strip j starts at j*WG_X*VW.
  // Column indices are multiples of VW and ldc is too, so a vector is either inside C's padded
  // row or entirely beyond N.
#pragma unroll
  for (int i = 0; i < WPT_M; ++i) {
    const int row = row0 + (i / VW) * (WG_Y * VW) + ty * VW + i % VW;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < VEC_N; ++j) {
      const int col = col0 + j * (WG_X * VW) + tx * VW;
      if (col < N) *(__global TYPEV*)(C + (size_t)row * ldc + col) = acc[i][j];
    }
  }
}
#endif  // ONLY_REGBLOCK

// ---- warp-tiled: regblock's block tile, K steps and staging (the same knobs, but WT_TILE_K for
// the step), with the work items mapped onto the block by warps. LANES = LANES_M x LANES_N
// consecutive work items (a warp; the warp size is only a knob: any sub-group size computes the
// right C, only the speed assumes 32) form a lane grid over a compact warp tile of
// (LANES_M*WPT_M) x (LANES_N*WPT_N); a lane's WPT_M x WPT_N are VEC_M x VEC_N sub-blocks of
// VW x VW, LANES_M*VW rows and LANES_N*VW columns apart. Per k and sub-block a warp reads
// LANES_M neighbouring vectors of As and LANES_N of Bs.
#ifndef LANES_M
#define LANES_M 4
#endif
#ifndef LANES_N
#define LANES_N 8
#endif
// Lanes fill the grid LANE_ILV rows at a time, column by column (CUTLASS's interleaved lane
// layout). What a warp's 16-byte local read costs depends on which lanes share an address, not
// only on how many distinct ones it reads: on the H200 the 4x8 grid filled row by row reads Bs in
// 4 cycles per warp (as 32 distinct vectors take) and As in 2.2; filled two rows at a time, both
// in 2.2.
#ifndef LANE_ILV
#define LANE_ILV 2
#endif
#ifndef WT_TILE_K
#define WT_TILE_K 16
#endif
// Blocks run in bands of GROUP_M block rows, column by column (Triton's grouped order): the
// blocks resident at once share fewer strips of A and B in L2 than a whole block row, which
// reads all of B.
#ifndef GROUP_M
#define GROUP_M 4
#endif

// The block and lane mapping, shared by warptile and warptile_async.
#if defined(ONLY_WARPTILE) || defined(ONLY_WARPTILE_ASYNC)
#define LANES (LANES_M * LANES_N)
#define WARP_M (LANES_M * WPT_M)  // the warp tile
#define WARP_N (LANES_N * WPT_N)
#define WARPS_N (TILE_N / WARP_N)  // warp tiles per row of the block
#if WG_Y % LANES_M != 0 || WG_X % LANES_N != 0
#error "the block must be whole warp tiles: WG_Y a multiple of LANES_M, WG_X of LANES_N"
#endif
#if LANES_M % LANE_ILV != 0
#error "LANES_M must be a multiple of LANE_ILV"
#endif
#if WT_TILE_K % VW != 0
#error "WT_TILE_K must be a multiple of VW"
#endif

// Declares row0 and col0, the group's block of C (blocks in bands of GROUP_M block rows), and a_vec
// and b_vec, the lane's first vector of As and of Bs (its warp tile's corner, then its place in
// the lane grid).
#define WARPTILE_PLACE(lid)                                                                        \
  const int2 block_rc = banded_block(GROUP_M);                                                     \
  const int row0 = block_rc.x * TILE_M, col0 = block_rc.y * TILE_N;                                \
  const int warp = (lid) / LANES, lane = (lid) % LANES;                                           \
  const int a_vec = (warp / WARPS_N) * (WARP_M / VW) + lane / (LANE_ILV * LANES_N) * LANE_ILV + lane % LANE_ILV; \
  const int b_vec = (warp % WARPS_N) * (WARP_N / VW) + lane / LANE_ILV % LANES_N;

// One K step from the local tiles `as`, `bs` (k-major, VW-wide vectors): the lane's VEC_M vectors of
// A and VEC_N of B per k, WPT_M x WPT_N FMAs into acc. Shared by warptile and warptile_async (a
// macro, so that each kernel compiles the same text it had).
#define WARPTILE_STEP(as, bs)                                                                      \
  _Pragma("unroll") for (int kk = 0; kk < WT_TILE_K; ++kk) {                                      \
    TYPEV a[VEC_M], b[VEC_N];                                                                      \
    _Pragma("unroll") for (int v = 0; v < VEC_M; ++v) a[v] = (as)[kk][a_vec + v * LANES_M];       \
    _Pragma("unroll") for (int v = 0; v < VEC_N; ++v) b[v] = (bs)[kk][b_vec + v * LANES_N];       \
    _Pragma("unroll") for (int i = 0; i < WPT_M; ++i) {                                           \
      const TYPE ai = COMP(a[i / VW], i % VW);                                                     \
      _Pragma("unroll") for (int j = 0; j < VEC_N; ++j) acc[i][j] = fma((TYPEV)(ai), b[j], acc[i][j]); \
    }                                                                                              \
  }
// acc into C. Row i of the lane is sub-block row i / VW, row i % VW of it; as in regblock, a vector
// of C is either inside its padded row or entirely beyond N.
#define WARPTILE_STORE_C()                                                                         \
  _Pragma("unroll") for (int i = 0; i < WPT_M; ++i) {                                             \
    const int row = row0 + (a_vec + (i / VW) * LANES_M) * VW + i % VW;                             \
    if (row >= M) continue;                                                                        \
    _Pragma("unroll") for (int j = 0; j < VEC_N; ++j) {                                           \
      const int col = col0 + (b_vec + j * LANES_N) * VW;                                           \
      if (col < N) *(__global TYPEV*)(C + (size_t)row * ldc + col) = acc[i][j];                    \
    }                                                                                              \
  }
#endif

#ifdef ONLY_WARPTILE
#define WT_A_VECS (TILE_M * WT_TILE_K / VW)
#define WT_B_VECS (WT_TILE_K * TILE_N / VW)
#define WT_A_LOADS ((WT_A_VECS + THREADS - 1) / THREADS)
#define WT_B_LOADS ((WT_B_VECS + THREADS - 1) / THREADS)

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_warptile(const int M, const int N, const int K,
                   __global const TYPE* restrict A, const int lda,
                   __global const TYPE* restrict B, const int ldb,
                   __global TYPE* restrict C, const int ldc) {
  __local TYPEV As[2][WT_TILE_K][AS_VECS];  // As[buf][k][m / VW]
  __local TYPEV Bs[2][WT_TILE_K][BS_VECS];  // Bs[buf][k][n / VW]
  const int lid = get_local_id(1) * WG_X + get_local_id(0);
  WARPTILE_PLACE(lid)

  TYPEV acc[WPT_M][VEC_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < VEC_N; ++j) acc[i][j] = 0;

  // The work item's share of each step's tiles, as in regblock.
  TYPEV ra[WT_A_LOADS], rb[WT_B_LOADS];
  int a_row[WT_A_LOADS], a_col[WT_A_LOADS], b_row[WT_B_LOADS], b_col[WT_B_LOADS];
  bool a_in[WT_A_LOADS], b_in[WT_B_LOADS];
#pragma unroll
  for (int l = 0; l < WT_A_LOADS; ++l) {
    const int i = lid + l * THREADS;
    a_row[l] = i / (WT_TILE_K / VW);
    a_col[l] = (i % (WT_TILE_K / VW)) * VW;
    a_in[l] = (WT_A_VECS % THREADS == 0 || i < WT_A_VECS) && row0 + a_row[l] < M;
  }
#pragma unroll
  for (int l = 0; l < WT_B_LOADS; ++l) {
    const int i = lid + l * THREADS;
    b_row[l] = i / BS_VECS;
    b_col[l] = (i % BS_VECS) * VW;
    b_in[l] = (WT_B_VECS % THREADS == 0 || i < WT_B_VECS) && col0 + b_col[l] < N;
  }
  __global const TYPE* a_base = A + (size_t)row0 * lda;
  __global const TYPE* b_base = B + col0;

#pragma unroll
  for (int l = 0; l < WT_A_LOADS; ++l)
    ra[l] = a_in[l] && a_col[l] < K
                ? *(__global const TYPEV*)(a_base + (size_t)a_row[l] * lda + a_col[l])
                : (TYPEV)0;
#pragma unroll
  for (int l = 0; l < WT_B_LOADS; ++l)
    rb[l] = b_in[l] && b_row[l] < K
                ? *(__global const TYPEV*)(b_base + (size_t)b_row[l] * ldb + b_col[l])
                : (TYPEV)0;

  // One barrier per step, as in regblock.
  const int steps = (K + WT_TILE_K - 1) / WT_TILE_K;
  for (int step = 0; step < steps; ++step) {
    const int k0 = step * WT_TILE_K;
    const int cur = step & 1;
    __local TYPE* as = (__local TYPE*)As[cur];
#pragma unroll
    for (int l = 0; l < WT_A_LOADS; ++l) {
      if (WT_A_VECS % THREADS == 0 || lid + l * THREADS < WT_A_VECS) {
#pragma unroll
        for (int v = 0; v < VW; ++v)
          as[(a_col[l] + v) * (AS_VECS * VW) + a_row[l]] = COMP(ra[l], v);
      }
    }
#pragma unroll
    for (int l = 0; l < WT_B_LOADS; ++l)
      if (WT_B_VECS % THREADS == 0 || lid + l * THREADS < WT_B_VECS)
        Bs[cur][b_row[l]][b_col[l] / VW] = rb[l];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (step + 1 < steps) {
      const int k1 = k0 + WT_TILE_K;
#pragma unroll
      for (int l = 0; l < WT_A_LOADS; ++l)
        ra[l] = a_in[l] && k1 + a_col[l] < K
                    ? *(__global const TYPEV*)(a_base + (size_t)a_row[l] * lda + k1 + a_col[l])
                    : (TYPEV)0;
#pragma unroll
      for (int l = 0; l < WT_B_LOADS; ++l)
        rb[l] = b_in[l] && k1 + b_row[l] < K
                    ? *(__global const TYPEV*)(b_base + (size_t)(k1 + b_row[l]) * ldb + b_col[l])
                    : (TYPEV)0;
    }

    WARPTILE_STEP(As[cur], Bs[cur])
  }

  WARPTILE_STORE_C()
}
#endif  // ONLY_WARPTILE

// ---- warp-tiled, staged by asynchronous copies (warptile_async): warptile's blocks, lanes and
// inner loop, with each K step's tiles copied straight from global into local memory. A first
// kernel (gemm_transpose_a) writes At = A transposed, k-major like As, so that each row of both
// tiles is contiguous in global memory and every VW-wide vector of a tile is copied whole
// (cp.async copies 16-byte chunks: it cannot transpose). STAGES buffers of As[k][m] and Bs[k][n] make
// a pipeline: STAGES-1 steps' copies are in flight while one step is computed, and no registers
// hold staged data. On NVIDIA's compiler with -DPTX_ASYNC (the host sets it from sm_80 on) the
// copies are PTX cp.async, which bypass registers; elsewhere each work item loads and stores its
// vectors itself (the same tiles, the same pipeline, waits and commits doing nothing).
#ifndef STAGES
#define STAGES 3
#endif
// At's tiles of 32 x 32, by groups of 32 x TRANSPOSE_ROWS work items.
#define TRANSPOSE_TILE 32
#ifndef TRANSPOSE_ROWS
#define TRANSPOSE_ROWS 8
#endif

#ifdef ONLY_WARPTILE_ASYNC
// cp.async.wait_group takes an immediate: STAGES - 2, spelt as a literal.
#if STAGES == 2
#define STAGES_LESS_2 0
#elif STAGES == 3
#define STAGES_LESS_2 1
#elif STAGES == 4
#define STAGES_LESS_2 2
#elif STAGES == 5
#define STAGES_LESS_2 3
#else
#error "STAGES must be 2 to 5"
#endif

#endif  // ONLY_WARPTILE_ASYNC

#if defined(ONLY_WARPTILE_ASYNC) || defined(ONLY_MMA)
// Asynchronous copies of 16 bytes from global into local memory (warptile_async, mma). dst and src
// 16-byte aligned; src must be a valid address even when src_bytes is 0.
#ifdef PTX_ASYNC
// The 32-bit shared-memory address that cp.async takes: NVIDIA's OpenCL keeps a __local pointer
// (address space 3) as its offset in the shared window, so the pointer's value is that address.
// (Were it a generic address, cvta.to.shared would convert it.)
uint shared_address(__local const void* p) { return (uint)(size_t)p; }
// dst's 16 bytes: the first src_bytes (0 to 16) from src, zeros after them.
void async_copy16(__local void* dst, __global const void* src, const uint src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
               :: "r"(shared_address(dst)), "l"((ulong)src), "r"(src_bytes) : "memory");
}
// Closes the group of the copies issued since the last commit.
void async_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Waits until at most n (a literal) of this work item's groups are unfinished; the copies it
// waited for are visible to this work item (a barrier then shows them to the group).
#define ASYNC_WAIT_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define ASYNC_WAIT(n) ASYNC_WAIT_(n)
#else
void async_copy16(__local void* dst, __global const void* src, const uint src_bytes) {
  // The kernel asks for 0 or 16 bytes only.
  *(__local uint4*)dst = src_bytes ? *(__global const uint4*)src : (uint4)0;
}
void async_commit(void) {}
#define ASYNC_WAIT(n)
#endif

#endif

#ifdef ONLY_WARPTILE_ASYNC
// One vector of a tile, as 16-byte chunks (TYPEV must be a multiple of 16 bytes: float4,
// double2, double4), each taking `bytes` (16 or 0) from src.
void async_copy_vector(__local TYPEV* dst, __global const TYPEV* src, const uint bytes) {
  for (int c = 0; c < (int)(sizeof(TYPEV) / 16); ++c)
    async_copy16((__local uchar*)dst + 16 * c, (__global const uchar*)src + 16 * c, bytes);
}

#define AT_VECS (TILE_M / VW)  // vectors per row (one k) of As: At's row, unpadded (no stores meet)
#define ASYNC_A_VECS (WT_TILE_K * AT_VECS)  // vectors of one stage's tile of A
#define ASYNC_B_VECS (WT_TILE_K * BS_VECS)
#define ASYNC_A_COPIES ((ASYNC_A_VECS + THREADS - 1) / THREADS)  // per work item and stage
#define ASYNC_B_COPIES ((ASYNC_B_VECS + THREADS - 1) / THREADS)

// At[k][m] = A[m][k], At K_pad rows (K rounded up to WT_TILE_K) of ldat (M rounded up to 4):
// zeros outside A, so that the GEMM's copies of At need no bounds check along K.
__kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_ROWS, 1)))
void gemm_transpose_a(const int M, const int K, __global const TYPE* restrict A, const int lda,
                      __global TYPE* restrict At, const int ldat, const int K_pad) {
  __local TYPE tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];  // +1: a column read spans the banks
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int m0 = get_group_id(0) * TRANSPOSE_TILE, k0 = get_group_id(1) * TRANSPOSE_TILE;
  // Read along A's rows (k), write along At's rows (m): both coalesced.
  for (int r = ty; r < TRANSPOSE_TILE; r += TRANSPOSE_ROWS) {
    const int m = m0 + r, k = k0 + tx;
    tile[r][tx] = m < M && k < K ? A[(size_t)m * lda + k] : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = ty; r < TRANSPOSE_TILE; r += TRANSPOSE_ROWS) {
    const int k = k0 + r, m = m0 + tx;
    if (k < K_pad && m < ldat) At[(size_t)k * ldat + m] = tile[tx][r];
  }
}

// Issues stage `t`'s copies into buffer `buf` (nothing past the last step), then commits them as
// one group: an empty one past the last step, so that every step waits on the same count.
#define ASYNC_ISSUE(t, buf)                                                                        \
  do {                                                                                             \
    if ((t) < steps) {                                                                             \
      const size_t a_step = (size_t)(t) * WT_TILE_K * ldat;                                        \
      for (int l = 0; l < ASYNC_A_COPIES; ++l)                                                     \
        if (ASYNC_A_VECS % THREADS == 0 || lid + l * THREADS < ASYNC_A_VECS)                       \
          async_copy_vector(As[buf][a_row[l]] + a_col[l], (__global const TYPEV*)(a_src[l] + a_step), \
                            a_bytes[l]);                                                           \
      for (int l = 0; l < ASYNC_B_COPIES; ++l) {                                                   \
        if (ASYNC_B_VECS % THREADS == 0 || lid + l * THREADS < ASYNC_B_VECS) {                     \
          const int k = (t) * WT_TILE_K + b_row[l];                                                \
          async_copy_vector(Bs[buf][b_row[l]] + b_col[l],                                         \
                            (__global const TYPEV*)(b_src[l] + (k < K ? (size_t)k * ldb : 0)),     \
                            k < K ? b_bytes[l] : 0);                                               \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    async_commit();                                                                                \
  } while (0)

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_warptile_async(const int M, const int N, const int K,
                         __global const TYPE* restrict At, const int ldat,
                         __global const TYPE* restrict B, const int ldb,
                         __global TYPE* restrict C, const int ldc) {
  __local TYPEV As[STAGES][WT_TILE_K][AT_VECS];  // As[buf][k][m / VW]
  __local TYPEV Bs[STAGES][WT_TILE_K][BS_VECS];  // Bs[buf][k][n / VW]
  const int lid = get_local_id(1) * WG_X + get_local_id(0);
  WARPTILE_PLACE(lid)

  TYPEV acc[WPT_M][VEC_N];
#pragma unroll
  for (int i = 0; i < WPT_M; ++i)
#pragma unroll
    for (int j = 0; j < VEC_N; ++j) acc[i][j] = 0;

  // The work item's vectors of each stage's tiles: neighbouring work items copy neighbouring
  // vectors of a row of At or B. A vector past M or N copies no bytes (zeros) from the start of
  // its row; rows of At past K are zeros, rows of B past K are skipped the same way.
  int a_row[ASYNC_A_COPIES], a_col[ASYNC_A_COPIES], b_row[ASYNC_B_COPIES], b_col[ASYNC_B_COPIES];
  uint a_bytes[ASYNC_A_COPIES], b_bytes[ASYNC_B_COPIES];
  __global const TYPE* a_src[ASYNC_A_COPIES];  // at step 0
  __global const TYPE* b_src[ASYNC_B_COPIES];  // at row 0
#pragma unroll
  for (int l = 0; l < ASYNC_A_COPIES; ++l) {
    const int i = lid + l * THREADS;
    a_row[l] = i / AT_VECS;
    a_col[l] = i % AT_VECS;
    const bool in = row0 + a_col[l] * VW < M;
    a_bytes[l] = in ? 16 : 0;
    a_src[l] = At + (size_t)a_row[l] * ldat + (in ? row0 + a_col[l] * VW : 0);
  }
#pragma unroll
  for (int l = 0; l < ASYNC_B_COPIES; ++l) {
    const int i = lid + l * THREADS;
    b_row[l] = i / BS_VECS;
    b_col[l] = i % BS_VECS;
    const bool in = col0 + b_col[l] * VW < N;
    b_bytes[l] = in ? 16 : 0;
    b_src[l] = B + (in ? col0 + b_col[l] * VW : 0);
  }

  // Stages 0 .. STAGES-2 in flight, then one barrier per step: after it, every work item's
  // copies of this step have landed, and every work item has finished the previous step's
  // compute, whose buffer then takes stage step+STAGES-1 while this step is computed.
  const int steps = (K + WT_TILE_K - 1) / WT_TILE_K;
  for (int t = 0; t < STAGES - 1; ++t) ASYNC_ISSUE(t, t);
  int cur = 0, next = STAGES - 1;  // the buffers of this step and of the stage issued in it
  for (int step = 0; step < steps; ++step) {
    ASYNC_WAIT(STAGES_LESS_2);
    barrier(CLK_LOCAL_MEM_FENCE);
    ASYNC_ISSUE(step + STAGES - 1, next);

    WARPTILE_STEP(As[cur], Bs[cur])
    cur = cur + 1 == STAGES ? 0 : cur + 1;
    next = next + 1 == STAGES ? 0 : next + 1;
  }

  WARPTILE_STORE_C()
}
#endif  // ONLY_WARPTILE_ASYNC

// ---- mma (double only): matrix-multiply-accumulate instructions over warps. A 1-D group of
// MMA_WARPS_M x MMA_WARPS_N warps of 32 work items computes a block of C; each warp a tile of
// MMA_TM x MMA_TN 8x8 sub-tiles. Per 4 of K, each pair of sub-tiles one above the other is one
// warp-wide D (16x8) += A (16x4) B (4x8): on NVIDIA's compiler with -DPTX_MMA (the host sets it
// from sm_80 on), PTX's mma.sync.m16n8k4.f64 (sm_90), which runs on the FP64 tensor cores at twice
// the FMA units' rate on an H100/H200, or with -DPTX_MMA_M8 (sm_80-89) two m8n8k4 (on sm_90 those
// run at half the m16 rate); elsewhere the same products as FMAs, so that every device computes
// and checks the same tiles. Work item `lane` holds the fragments PTX defines, with quad =
// lane/4, in_quad = lane%4: A at rows quad (+8), column in_quad; B at row in_quad, column quad; D
// at rows quad (+8), columns 2 in_quad + {0, 1}.
// Staging: each step of MMA_TILE_K (8) of A and B is copied as it is (row-major) into one of
// MMA_STAGES local buffers (3, or 2 where 3 do not fit), by cp.async with -DPTX_ASYNC (sm_80 on),
// elsewhere by each work item's own loads and stores: no registers hold staged data, and a step's
// copies start once its buffer is free, two steps before it is computed with 3 stages. One
// barrier per step. A step runs two sub-steps of 4 of K, each loading the next one's fragments
// before its own mma; the barrier sits before the last sub-step, whose loads are the next step's
// first fragments (MMA_ISSUE_AT_BARRIER: where the copies go). No warp waits on its fragment
// loads after the barrier (all warps loading at once there cost 25% of the time at 8192^3 on an
// H200). The buffers are unpadded and swizzled in 16-byte chunks so that a half warp's fragment
// read meets every bank once: chunk c of A's row m at c ^ MMA_A_SWZ(m), column n of B's row k at
// n ^ MMA_B_SWZ(k).
// Launches: the blocks in banded order from block_first, one group each (k_parts 1), or k_parts
// groups each, group p summing steps [p steps / k_parts, (p + 1) steps / k_parts) of K into its
// own whole block of `partial` (k_parts > 1), which gemm_mma_reduce adds into C. The host splits
// the blocks of a last, partly filled wave of groups so (a wave of 4 blocks on 132 SMs would
// otherwise take a whole block's time).
#ifndef MMA_WARPS_M
#define MMA_WARPS_M 2
#endif
#ifndef MMA_WARPS_N
#define MMA_WARPS_N 4
#endif
#ifndef MMA_TM
#define MMA_TM 8
#endif
#ifndef MMA_TN
#define MMA_TN 4
#endif
#ifndef MMA_TILE_K
#define MMA_TILE_K 8
#endif
#ifndef MMA_GROUP_M
#define MMA_GROUP_M 8
#endif

#ifdef ONLY_MMA
#define MMA_THREADS (32 * MMA_WARPS_M * MMA_WARPS_N)
#define MMA_BM (MMA_WARPS_M * MMA_TM * 8)  // the block of C
#define MMA_BN (MMA_WARPS_N * MMA_TN * 8)
#define MMA_A_CHUNKS (MMA_BM * MMA_TILE_K / 2 / MMA_THREADS)  // 16-byte copies per work item and step
#define MMA_B_CHUNKS (MMA_TILE_K * MMA_BN / 2 / MMA_THREADS)
#define MMA_SUBSTEPS (MMA_TILE_K / 4)  // mma steps of 4 of K in a step
#if (MMA_BM * MMA_TILE_K / 2) % MMA_THREADS != 0 || (MMA_TILE_K * MMA_BN / 2) % MMA_THREADS != 0 || \
    MMA_TILE_K != 8 || MMA_TM % 2 != 0 || MMA_BN % 16 != 0
#error "a step's tiles must be whole 16-byte copies per work item, MMA_TILE_K 8 (A's swizzle), MMA_TM even"
#endif
#ifndef MMA_STAGES
#define MMA_STAGES 3
#endif
#if MMA_STAGES == 2  // cp.async.wait_group takes a literal: MMA_STAGES - 2, and - 1
#define MMA_STAGES_LESS_2 0
#define MMA_STAGES_LESS_1 1
#elif MMA_STAGES == 3
#define MMA_STAGES_LESS_2 1
#define MMA_STAGES_LESS_1 2
#else
#error "MMA_STAGES must be 2 or 3"
#endif
// Where a step's copies are issued on the tensor-core path: with 3 buffers after the mma of the
// sub-step that frees their buffer (issued before it, they queue ahead of the fragment loads those
// mma wait for: 4096^3 45.9-46.3 TFLOP/s against 48.3-48.6 on an H200); with 2 right at that
// barrier, since they have one step to land (after the mma, 1x8 ran 34.2 against 38.8-39.0).
#if defined(PTX_MMA) && MMA_STAGES == 2
#define MMA_ISSUE_AT_BARRIER 1
#else
#define MMA_ISSUE_AT_BARRIER 0
#endif
#define MMA_A_SWZ(m) ((((m) >> 1) & 1) << 1)  // in chunks: rows m and m + 2 of a half warp apart
#define MMA_B_SWZ(k) (((k) & 3) << 2)         // in doubles, whole chunks: the 4 k rows of a fragment apart
#define MMA_A_AT(buf, m, k) As[buf][m][2 * (((k) >> 1) ^ MMA_A_SWZ(m)) + ((k) & 1)]
#define MMA_B_AT(buf, k, n) Bs[buf][k][(n) ^ MMA_B_SWZ(k)]

__kernel __attribute__((reqd_work_group_size(MMA_THREADS, 1, 1)))
void gemm_mma(const int M, const int N, const int K,
              __global const double* restrict A, const int lda,
              __global const double* restrict B, const int ldb,
              __global double* restrict C, const int ldc,
              const int block_first, const int k_parts, __global double* restrict partial) {
  // cp.async's 16-byte chunks need 16-byte aligned buffers (a double array's alignment is 8).
  __local double As[MMA_STAGES][MMA_BM][MMA_TILE_K] __attribute__((aligned(16)));
  __local double Bs[MMA_STAGES][MMA_TILE_K][MMA_BN] __attribute__((aligned(16)));
  const int lid = get_local_id(0), lane = lid % 32, warp = lid / 32;
  const int quad = lane / 4, in_quad = lane % 4;  // the fragments' coordinates
  const int wm = (warp / MMA_WARPS_N) * (MMA_TM * 8), wn = (warp % MMA_WARPS_N) * (MMA_TN * 8);
  const int group = get_group_id(0), part = group % k_parts;
  const int2 block_rc = banded_block_at(block_first + group / k_parts, (N + MMA_BN - 1) / MMA_BN,
                                        (M + MMA_BM - 1) / MMA_BM, MMA_GROUP_M);
  const int row0 = block_rc.x * MMA_BM, col0 = block_rc.y * MMA_BN;
  const int all_steps = (K + MMA_TILE_K - 1) / MMA_TILE_K;
  const int step0 = part * all_steps / k_parts, steps = (part + 1) * all_steps / k_parts - step0;

  double acc[MMA_TM][MMA_TN][2];
#pragma unroll
  for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
    for (int j = 0; j < MMA_TN; ++j) acc[i][j][0] = acc[i][j][1] = 0;

  // The work item's 16-byte chunks of each step (neighbouring items, neighbouring chunks of a row).
  int a_row[MMA_A_CHUNKS], a_chunk[MMA_A_CHUNKS], b_row[MMA_B_CHUNKS], b_chunk[MMA_B_CHUNKS];
  __global const double* a_src[MMA_A_CHUNKS];  // the chunk at step 0 (A itself past M)
  __global const double* b_src[MMA_B_CHUNKS];  // the chunk in row 0 (B itself past N)
#pragma unroll
  for (int l = 0; l < MMA_A_CHUNKS; ++l) {
    const int i = lid + l * MMA_THREADS;
    a_row[l] = i / (MMA_TILE_K / 2);
    a_chunk[l] = i % (MMA_TILE_K / 2);
    a_src[l] = row0 + a_row[l] < M ? A + (size_t)(row0 + a_row[l]) * lda + 2 * a_chunk[l] : A;
  }
#pragma unroll
  for (int l = 0; l < MMA_B_CHUNKS; ++l) {
    const int i = lid + l * MMA_THREADS;
    b_row[l] = i / (MMA_BN / 2);
    b_chunk[l] = i % (MMA_BN / 2);
    b_src[l] = col0 + 2 * b_chunk[l] < N ? B + col0 + 2 * b_chunk[l] : B;
  }
  // Step s's copies (of K at step0 + s) into buffer s % MMA_STAGES (none past the last step),
  // committed as one group (an empty one past the last step, so that every wait counts alike). A
  // chunk past M, N or K copies no bytes (zeros); one that starts before K or N ends in the zero
  // padding of its row.
#define MMA_ISSUE(s)                                                                                    \
  do {                                                                                                  \
    if ((s) < steps) {                                                                                  \
      const int k0 = (step0 + (s)) * MMA_TILE_K, buf = (s) % MMA_STAGES;                                \
      _Pragma("unroll") for (int l = 0; l < MMA_A_CHUNKS; ++l) {                                        \
        const bool in = row0 + a_row[l] < M && k0 + 2 * a_chunk[l] < K;                                 \
        async_copy16(&As[buf][a_row[l]][2 * (a_chunk[l] ^ MMA_A_SWZ(a_row[l]))], in ? a_src[l] + k0 : A, \
                     in ? 16 : 0);                                                                      \
      }                                                                                                 \
      _Pragma("unroll") for (int l = 0; l < MMA_B_CHUNKS; ++l) {                                        \
        const int k = k0 + b_row[l];                                                                    \
        const bool in = col0 + 2 * b_chunk[l] < N && k < K;                                             \
        async_copy16(&Bs[buf][b_row[l]][(2 * b_chunk[l]) ^ MMA_B_SWZ(b_row[l])],                        \
                     in ? b_src[l] + (size_t)k * ldb : B, in ? 16 : 0);                                 \
      }                                                                                                 \
    }                                                                                                   \
    async_commit();                                                                                     \
  } while (0)
  for (int s = 0; s < MMA_STAGES; ++s) MMA_ISSUE(s);
  ASYNC_WAIT(MMA_STAGES_LESS_1);  // step 0 landed
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef PTX_MMA
  // Two sets of fragments: sub-step u's, and u + 1's, loaded while u's mma run.
  double fa[2][MMA_TM], fb[2][MMA_TN];
#define MMA_FRAGS(set, buf, kk)                                                   \
  _Pragma("unroll") for (int i = 0; i < MMA_TM; ++i)                              \
      fa[set][i] = MMA_A_AT(buf, wm + i * 8 + quad, (kk) + in_quad);             \
  _Pragma("unroll") for (int j = 0; j < MMA_TN; ++j)                              \
      fb[set][j] = MMA_B_AT(buf, (kk) + in_quad, wn + j * 8 + quad);
  MMA_FRAGS(0, 0, 0)
#endif

  for (int step = 0; step < steps; ++step) {
    const int cur = step % MMA_STAGES;
#pragma unroll
    for (int u = 0; u < MMA_SUBSTEPS; ++u) {
#ifdef PTX_MMA
      if (u == MMA_SUBSTEPS - 1) {  // the next step landed (every item's copies); this one's fragments read
        ASYNC_WAIT(MMA_STAGES_LESS_2);
        barrier(CLK_LOCAL_MEM_FENCE);
#if MMA_ISSUE_AT_BARRIER
        MMA_ISSUE(step + MMA_STAGES);
#endif
      }
      if (u + 1 < MMA_SUBSTEPS) {
        MMA_FRAGS((u + 1) & 1, cur, (u + 1) * 4)
      } else if (step + 1 < steps) {
        MMA_FRAGS(0, (step + 1) % MMA_STAGES, 0)
      }
#pragma unroll
      for (int i = 0; i < MMA_TM; i += 2)
#pragma unroll
        for (int j = 0; j < MMA_TN; ++j) {
#ifdef PTX_MMA_M8  // sm_80-89: the f64 shape they have (on sm_90 half the rate of m16n8k4)
          asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                       : "+d"(acc[i][j][0]), "+d"(acc[i][j][1])
                       : "d"(fa[u & 1][i]), "d"(fb[u & 1][j]));
          asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                       : "+d"(acc[i + 1][j][0]), "+d"(acc[i + 1][j][1])
                       : "d"(fa[u & 1][i + 1]), "d"(fb[u & 1][j]));
#else
          asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                       : "+d"(acc[i][j][0]), "+d"(acc[i][j][1]), "+d"(acc[i + 1][j][0]), "+d"(acc[i + 1][j][1])
                       : "d"(fa[u & 1][i]), "d"(fa[u & 1][i + 1]), "d"(fb[u & 1][j]));
#endif
        }
#else
      const int kk = u * 4;
#pragma unroll
      for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
        for (int j = 0; j < MMA_TN; ++j)
#pragma unroll
          for (int t = 0; t < 4; ++t)
#pragma unroll
            for (int c = 0; c < 2; ++c)
              acc[i][j][c] = fma(MMA_A_AT(cur, wm + i * 8 + quad, kk + t),
                                 MMA_B_AT(cur, kk + t, wn + j * 8 + 2 * in_quad + c), acc[i][j][c]);
      if (u == MMA_SUBSTEPS - 1) {  // read from local memory to the last: the barrier after
        ASYNC_WAIT(MMA_STAGES_LESS_2);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
#endif
      // This step's buffer, free since the barrier, takes step + MMA_STAGES's copies (here: after the mma).
#if !MMA_ISSUE_AT_BARRIER
      if (u == MMA_SUBSTEPS - 1) MMA_ISSUE(step + MMA_STAGES);
#endif
    }
  }

  if (k_parts > 1) {  // the whole block, row-major, to this group's place in `partial`
    __global double* at = partial + (size_t)group * (MMA_BM * MMA_BN);
#pragma unroll
    for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
      for (int j = 0; j < MMA_TN; ++j)
        vstore2((double2)(acc[i][j][0], acc[i][j][1]), 0, at + (wm + i * 8 + quad) * MMA_BN + wn + j * 8 + 2 * in_quad);
    return;
  }
  // A pair starts at an even column and ldc is a multiple of 4: it is inside C's padded row or
  // entirely beyond N.
#pragma unroll
  for (int i = 0; i < MMA_TM; ++i) {
    const int row = row0 + wm + i * 8 + quad;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < MMA_TN; ++j) {
      const int col = col0 + wn + j * 8 + 2 * in_quad;
      if (col < N) vstore2((double2)(acc[i][j][0], acc[i][j][1]), 0, C + (size_t)row * ldc + col);
    }
  }
}

// C's blocks block_first.. of gemm_mma's split launch: a work item per pair of C, the sum of the
// block's k_parts partial blocks in order.
__kernel void gemm_mma_reduce(const int M, const int N, __global double* restrict C, const int ldc,
                              const int block_first, const int k_parts, __global const double* restrict partial) {
  const int pairs = MMA_BM * MMA_BN / 2, i = get_global_id(0) % pairs, b = get_global_id(0) / pairs;
  const int r = i / (MMA_BN / 2), c = 2 * (i % (MMA_BN / 2));
  const int2 block_rc = banded_block_at(block_first + b, (N + MMA_BN - 1) / MMA_BN, (M + MMA_BM - 1) / MMA_BM,
                                        MMA_GROUP_M);
  const int row = block_rc.x * MMA_BM + r, col = block_rc.y * MMA_BN + c;
  if (row >= M || col >= N) return;
  __global const double* at = partial + (size_t)b * k_parts * (MMA_BM * MMA_BN) + r * MMA_BN + c;
  double2 sum = vload2(0, at);
  for (int p = 1; p < k_parts; ++p) sum += vload2(0, at + (size_t)p * (MMA_BM * MMA_BN));
  vstore2(sum, 0, C + (size_t)row * ldc + col);
}
#endif  // ONLY_MMA

// An empty kernel: enqueued before a library call whose own event covers only its last kernel,
// so that a batch's time starts before the library's first command.
__kernel void gemm_marker(void) {}
