// Exclusive prefix sum: out[i] = in[0] + ... + in[i-1], over tiles of TILE = WG * 4 * SUBTILES
// elements (each work item loads a VEC of 4 per sub-tile, so loads are coalesced).
// Multi-level (scan_*_reduce, then scan_*_tiles from the top level down): tile sums are scanned
// recursively and added back. Single pass (scan_lookback): tiles take tickets in order and find
// their prefix by decoupled look-back over the tiles before them.
// The group-wide scan is a work-efficient Blelloch tree in local memory (_local) or sub-group scans
// (_subgroup). Knobs: TYPE/VEC (uint/uint4 for ints: wrapping, exact; or float/float4), WG (a power
// of two), SUBTILES; for the register variants below TRANSPOSE and LOOKBACK_WINDOW.
#ifndef TYPE
#define TYPE float
#define VEC float4
#endif
#ifndef WG
#define WG 256
#endif
#ifndef SUBTILES
#define SUBTILES 4
#endif
#define TILE (WG * 4 * SUBTILES)

#include "include/subgroups.h"
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

// ---- group-wide exclusive scans: one value per work item; *total gets the group's sum ----------
#define PADDED(i) ((i) + ((i) >> 5))  // one spare slot per 32 against bank conflicts
#define LOCAL_SLOTS (PADDED(WG) + 1)

TYPE group_scan_local(TYPE x, __local TYPE* s, TYPE* total) {
  const uint lid = get_local_id(0);
  s[PADDED(lid)] = x;
  for (uint d = 1; d < WG; d <<= 1) {  // up-sweep: partial sums at the tree's nodes
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint i = (lid + 1) * 2 * d - 1;
    if (i < WG) s[PADDED(i)] += s[PADDED(i - d)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    s[PADDED(WG)] = s[PADDED(WG - 1)];
    s[PADDED(WG - 1)] = 0;
  }
  for (uint d = WG / 2; d > 0; d >>= 1) {  // down-sweep
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint i = (lid + 1) * 2 * d - 1;
    if (i < WG) {
      const TYPE left = s[PADDED(i - d)];
      s[PADDED(i - d)] = s[PADDED(i)];
      s[PADDED(i)] += left;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const TYPE r = s[PADDED(lid)];
  *total = s[PADDED(WG)];
  barrier(CLK_LOCAL_MEM_FENCE);  // s is reused by the caller's next scan
  return r;
}

#ifdef HAVE_SUBGROUPS
TYPE group_scan_subgroup(TYPE x, __local TYPE* s, TYPE* total) {
  const uint sg = get_sub_group_id(), lane = get_sub_group_local_id();
  const TYPE within = sub_group_scan_exclusive_add(x);
  const TYPE sg_sum = sub_group_reduce_add(x);
  if (lane == 0) s[sg] = sg_sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg == 0) {  // scans the sub-group sums, in steps of the sub-group size
    const uint count = get_num_sub_groups(), width = get_sub_group_size();
    TYPE carry = 0;
    for (uint base = 0; base < count; base += width) {
      const uint i = base + lane;
      const TYPE v = i < count ? s[i] : 0;
      const TYPE e = sub_group_scan_exclusive_add(v);
      if (i < count) s[i] = carry + e;
      carry += sub_group_reduce_add(v);
    }
    if (lane == 0) s[WG] = carry;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const TYPE r = s[sg] + within;
  *total = s[WG];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
#endif

// ---- tile helpers ---------------------------------------------------------------------------
// The 4 elements from index i (zeros past n); i is a multiple of 4 at every call. Whole runs go
// through a VEC pointer: vload4 promises only element alignment, so NVIDIA's compiler made four
// 32-bit loads of it (PTX of scan_lookback_window: no ld.global.v4), where this is one 128-bit load.
VEC load_run4(__global const TYPE* in, const ulong n, const ulong i) {
  if (i + 4 <= n) return ((__global const VEC*)in)[i / 4];
  VEC v = (VEC)(0);
  if (i < n) v.s0 = in[i];
  if (i + 1 < n) v.s1 = in[i + 1];
  if (i + 2 < n) v.s2 = in[i + 2];
  return v;
}

void store_run4(__global TYPE* out, const ulong n, const ulong i, const VEC v) {
  if (i + 4 <= n) {
    ((__global VEC*)out)[i / 4] = v;
    return;
  }
  if (i < n) out[i] = v.s0;
  if (i + 1 < n) out[i + 1] = v.s1;
  if (i + 2 < n) out[i + 2] = v.s2;
}

// The work item's 4 elements of sub-tile k of tile t: neighbouring work items, neighbouring runs.
ulong sub_tile_index(const ulong t, const uint k) { return t * TILE + (ulong)k * WG * 4 + get_local_id(0) * 4; }
VEC load4(__global const TYPE* in, const ulong n, const ulong t, const uint k) {
  return load_run4(in, n, sub_tile_index(t, k));
}
void store4(__global TYPE* out, const ulong n, const ulong t, const uint k, const VEC v) {
  store_run4(out, n, sub_tile_index(t, k), v);
}

#define SUM4(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
// Exclusive prefix of the 4 lanes, plus `base`.
#define EXCL4(v, base) ((VEC)((base), (base) + (v).s0, (base) + (v).s0 + (v).s1, (base) + (v).s0 + (v).s1 + (v).s2))

// Scans tile t held in registers: out gets offset + exclusive prefix. The scans of the sub-tiles
// run one after the other, carrying the running sum.
#define SCAN_TILE(GROUP_SCAN)                                                        \
  TYPE excl[SUBTILES];                                                               \
  TYPE aggregate = 0;                                                                \
  for (uint k = 0; k < SUBTILES; ++k) {                                              \
    TYPE sub_total;                                                                  \
    excl[k] = aggregate + GROUP_SCAN(SUM4(v[k]), scratch, &sub_total);               \
    aggregate += sub_total;                                                          \
  }

// ---- multi-level: reduce tiles, scan tiles with known offsets -------------------------------
#define DEFINE_MULTILEVEL(NAME, GROUP_SCAN)                                                        \
  /* sums[t] = the sum of tile t. */                                                               \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))                                         \
  void scan_##NAME##_reduce(__global const TYPE* in, const ulong n, __global TYPE* sums) {         \
    __local TYPE scratch[LOCAL_SLOTS];                                                             \
    const ulong t = get_group_id(0);                                                               \
    TYPE mine = 0;                                                                                 \
    for (uint k = 0; k < SUBTILES; ++k) {                                                          \
      const VEC v = load4(in, n, t, k);                                                            \
      mine += SUM4(v);                                                                             \
    }                                                                                              \
    TYPE total;                                                                                    \
    GROUP_SCAN(mine, scratch, &total);                                                             \
    if (get_local_id(0) == 0) sums[t] = total;                                                     \
  }                                                                                                \
  /* out = exclusive scan of in, plus offsets[t] per tile when has_offsets (in == out is fine). */ \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))                                         \
  void scan_##NAME##_tiles(__global const TYPE* in, __global TYPE* out, const ulong n,             \
                           __global const TYPE* offsets, const uint has_offsets) {                 \
    __local TYPE scratch[LOCAL_SLOTS];                                                             \
    const ulong t = get_group_id(0);                                                               \
    VEC v[SUBTILES];                                                                               \
    for (uint k = 0; k < SUBTILES; ++k) v[k] = load4(in, n, t, k);                                 \
    SCAN_TILE(GROUP_SCAN)                                                                          \
    const TYPE offset = has_offsets ? offsets[t] : 0;                                              \
    for (uint k = 0; k < SUBTILES; ++k) store4(out, n, t, k, EXCL4(v[k], offset + excl[k]));       \
  }

DEFINE_MULTILEVEL(local, group_scan_local)
#ifdef HAVE_SUBGROUPS
DEFINE_MULTILEVEL(subgroup, group_scan_subgroup)
#endif

// ---- single pass with decoupled look-back -----------------------------------------------------
// status[t] packs (epoch << 2 | flag) in the high 32 bits and the value's bits in the low 32:
// flag 1 = the tile's own sum, 2 = the inclusive prefix up to and including the tile. `epoch`
// changes with every launch, so words left from an earlier launch read as "not yet". The tile
// counter is reset by the work group that takes the last ticket.
#if defined(cl_khr_int64_base_atomics)
#define FLAG_AGGREGATE 1u
#define FLAG_INCLUSIVE 2u
#if defined(IS_FLOAT_TYPE)
#define BITS(x) as_uint(x)
#define VALUE(b) as_float(b)
#else
#define BITS(x) (x)
#define VALUE(b) (b)
#endif

ulong pack(const uint epoch, const uint flag, const TYPE value) {
  return ((ulong)((epoch << 2) | flag) << 32) | (ulong)BITS(value);
}

// The group's tile, in ticket order: work item 0 takes it (the group taking the last ticket
// resets the counter for the next launch) and every work item returns it.
uint take_ticket(__global volatile uint* counter, const uint tiles, __local uint* ticket) {
  if (get_local_id(0) == 0) {
    *ticket = atomic_inc(counter);
    if (*ticket == tiles - 1) atomic_xchg(counter, 0u);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return *ticket;
}

#define DEFINE_LOOKBACK(NAME, GROUP_SCAN)                                                          \
  __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))                                         \
  void scan_##NAME(__global const TYPE* in, __global TYPE* out, const ulong n,                     \
                   __global volatile ulong* status, __global volatile uint* counter,               \
                   const uint tiles, const uint epoch) {                                           \
    __local TYPE scratch[LOCAL_SLOTS];                                                             \
    __local uint ticket;                                                                           \
    __local TYPE tile_prefix;                                                                      \
    const uint t = take_ticket(counter, tiles, &ticket);                                           \
    VEC v[SUBTILES];                                                                               \
    for (uint k = 0; k < SUBTILES; ++k) v[k] = load4(in, n, t, k);                                 \
    SCAN_TILE(GROUP_SCAN)                                                                          \
    if (get_local_id(0) == 0) {                                                                    \
      TYPE prefix = 0;                                                                             \
      if (t == 0) {                                                                                \
        atom_xchg(&status[0], pack(epoch, FLAG_INCLUSIVE, aggregate));                             \
      } else {                                                                                     \
        atom_xchg(&status[t], pack(epoch, FLAG_AGGREGATE, aggregate));                             \
        for (uint j = t - 1;;) {                                                                   \
          const ulong word = status[j];                                                            \
          const uint high = (uint)(word >> 32);                                                    \
          if ((high >> 2) != epoch) continue; /* not published yet: spin */                       \
          prefix = VALUE((uint)word) + prefix;                                                     \
          if ((high & 3u) == FLAG_INCLUSIVE) break;                                                \
          --j;                                                                                     \
        }                                                                                          \
        atom_xchg(&status[t], pack(epoch, FLAG_INCLUSIVE, prefix + aggregate));                    \
      }                                                                                            \
      tile_prefix = prefix;                                                                        \
    }                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    const TYPE offset = tile_prefix;                                                               \
    for (uint k = 0; k < SUBTILES; ++k) store4(out, n, t, k, EXCL4(v[k], offset + excl[k]));       \
  }

DEFINE_LOOKBACK(lookback, group_scan_local)
#endif

// ---- single pass, items in registers (scan_lookback_registers) --------------------------------
// Each work item owns ITEMS = 4 * SUBTILES consecutive elements of the tile (TILE = WG * ITEMS,
// 4096 for WG 256 and SUBTILES 4). Loads and stores stay coalesced: VEC loads as in load4 go
// through a padded local-memory transpose (TRANSPOSE 1; 0 loads the ITEMS elements directly with
// VEC loads, strided across the work items). The work item scans its elements in registers, one
// raking scan of the WG per-item totals follows (3 barriers), then the look-back as in
// scan_lookback. About 6 barriers per tile against ~70 for scan_lookback's 4 tree scans.
#if defined(cl_khr_int64_base_atomics)
#ifndef TRANSPOSE
#define TRANSPOSE 1
#endif
#define ITEMS (4 * SUBTILES)
#define TPAD(i) ((i) + ((i) >> 5))  // one spare slot per 32: the strided reads hit distinct banks
#define RAKERS (WG < 32 ? WG : 32)
#define SEGMENT (WG / RAKERS)

// Exclusive scan of one value per work item; *total gets the sum. The first RAKERS work items
// scan SEGMENT values each, then add the sum of the segments before theirs.
TYPE group_scan_raking(TYPE x, __local TYPE* s, __local TYPE* segs, TYPE* total) {
  const uint lid = get_local_id(0);
  s[PADDED(lid)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  TYPE own[SEGMENT];
  TYPE seg_sum = 0;
  if (lid < RAKERS) {
    for (uint k = 0; k < SEGMENT; ++k) own[k] = s[PADDED(lid * SEGMENT + k)];
    for (uint k = 0; k < SEGMENT; ++k) {
      const TYPE v = own[k];
      own[k] = seg_sum;
      seg_sum += v;
    }
    segs[lid] = seg_sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < RAKERS) {
    TYPE before = 0;
    for (uint r = 0; r < RAKERS; ++r)
      if (r < lid) before += segs[r];
    for (uint k = 0; k < SEGMENT; ++k) s[PADDED(lid * SEGMENT + k)] = before + own[k];
    if (lid == RAKERS - 1) segs[RAKERS] = before + seg_sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *total = segs[RAKERS];
  return s[PADDED(lid)];
}

// The register variants' tile in three steps. load_tile issues the work item's loads of tile t:
// TRANSPOSE, load4's coalesced layout; else its own ITEMS consecutive elements (VEC loads, strided
// across the work items). own_items puts the work item's ITEMS consecutive elements in x
// (TRANSPOSE: through the stage; the caller makes sure nobody still reads it). store_tile writes
// x + excl + the tile's prefix (read from local memory after the barrier in it).
void load_tile(__global const TYPE* in, const ulong n, const uint t, VEC* v) {
  for (uint k = 0; k < SUBTILES; ++k)
#if TRANSPOSE
    v[k] = load4(in, n, t, k);
#else
    v[k] = load_run4(in, n, (ulong)t * TILE + get_local_id(0) * ITEMS + k * 4);
#endif
}

void own_items(const VEC* v, __local TYPE* staged, TYPE* x) {
  const uint lid = get_local_id(0);
#if TRANSPOSE
  for (uint k = 0; k < SUBTILES; ++k) {  // scattered into the stage, read back item-major
    const uint i = k * WG * 4 + lid * 4;
    staged[TPAD(i)] = v[k].s0;
    staged[TPAD(i + 1)] = v[k].s1;
    staged[TPAD(i + 2)] = v[k].s2;
    staged[TPAD(i + 3)] = v[k].s3;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < ITEMS; ++k) x[k] = staged[TPAD(lid * ITEMS + k)];
#else
  for (uint k = 0; k < SUBTILES; ++k) {
    x[4 * k] = v[k].s0;
    x[4 * k + 1] = v[k].s1;
    x[4 * k + 2] = v[k].s2;
    x[4 * k + 3] = v[k].s3;
  }
#endif
}

// Exclusive scan of x in place; returns the sum.
TYPE scan_items(TYPE* x) {
  TYPE sum = 0;
  for (uint k = 0; k < ITEMS; ++k) {
    const TYPE v = x[k];
    x[k] = sum;
    sum += v;
  }
  return sum;
}

void store_tile(__global TYPE* out, const ulong n, const uint t, __local TYPE* staged, const TYPE* x,
                const TYPE excl, __local const TYPE* tile_prefix) {
  const uint lid = get_local_id(0);
#if TRANSPOSE
  // The work item overwrites only the slots it read itself in own_items: no barrier needed before.
  for (uint k = 0; k < ITEMS; ++k) staged[TPAD(lid * ITEMS + k)] = excl + x[k];
  barrier(CLK_LOCAL_MEM_FENCE);  // the stage and tile_prefix are complete
  const TYPE offset = *tile_prefix;
  for (uint k = 0; k < SUBTILES; ++k) {
    const uint i = k * WG * 4 + lid * 4;
    const VEC v = (VEC)(staged[TPAD(i)], staged[TPAD(i + 1)], staged[TPAD(i + 2)], staged[TPAD(i + 3)]);
    store4(out, n, t, k, v + offset);
  }
#else
  barrier(CLK_LOCAL_MEM_FENCE);  // tile_prefix is complete
  const TYPE offset = *tile_prefix + excl;
  for (uint k = 0; k < SUBTILES; ++k)
    store_run4(out, n, (ulong)t * TILE + lid * ITEMS + k * 4,
               (VEC)(x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]) + offset);
#endif
}

// Loads tile t and scans it: x gets the work item's exclusive prefixes, the return value is the
// sum of the work items before it, *aggregate the tile's sum.
TYPE load_and_scan_tile(__global const TYPE* in, const ulong n, const uint t, __local TYPE* staged,
                        __local TYPE* scratch, __local TYPE* segs, TYPE* x, TYPE* aggregate) {
  VEC loaded[SUBTILES];
  load_tile(in, n, t, loaded);
  own_items(loaded, staged, x);
  return group_scan_raking(scan_items(x), scratch, segs, aggregate);
}

#if TRANSPOSE
#define STAGE_DECLARATION __local TYPE staged[TPAD(TILE)]
#else
#define STAGE_DECLARATION __local TYPE* const staged = 0
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_lookback_registers(__global const TYPE* in, __global TYPE* out, const ulong n,
                             __global volatile ulong* status, __global volatile uint* counter,
                             const uint tiles, const uint epoch) {
  STAGE_DECLARATION;
  __local TYPE scratch[LOCAL_SLOTS];
  __local TYPE segs[RAKERS + 1];
  __local uint ticket;
  __local TYPE tile_prefix;
  const uint lid = get_local_id(0);
  const uint t = take_ticket(counter, tiles, &ticket);
  TYPE x[ITEMS], aggregate;
  const TYPE excl = load_and_scan_tile(in, n, t, staged, scratch, segs, x, &aggregate);
  if (lid == 0) {  // publish the aggregate at once, then look back
    TYPE prefix = 0;
    if (t == 0) {
      atom_xchg(&status[0], pack(epoch, FLAG_INCLUSIVE, aggregate));
    } else {
      atom_xchg(&status[t], pack(epoch, FLAG_AGGREGATE, aggregate));
      for (uint j = t - 1;;) {
        const ulong word = status[j];
        const uint high = (uint)(word >> 32);
        if ((high >> 2) != epoch) continue;  // not published yet: spin
        prefix = VALUE((uint)word) + prefix;
        if ((high & 3u) == FLAG_INCLUSIVE) break;
        --j;
      }
      atom_xchg(&status[t], pack(epoch, FLAG_INCLUSIVE, prefix + aggregate));
    }
    tile_prefix = prefix;
  }
  store_tile(out, n, t, staged, x, excl, &tile_prefix);
}
#endif

// ---- single pass, items in registers, look-back in windows (scan_lookback_window) -------------
// As scan_lookback_registers (left as it is, for comparison), but the whole work group looks back:
// each step reads LOOKBACK_WINDOW status words at once (work items lid < LOOKBACK_WINDOW read
// status[j - lid]) instead of one dependent L2 round trip per predecessor. NVIDIA's OpenCL has no
// sub-groups for a CUB-like warp-wide look-back, so the window is found with local atomics and
// summed with a short tree in local memory, all work items in uniform control flow.
#if defined(cl_khr_int64_base_atomics)
#ifndef LOOKBACK_WINDOW
#define LOOKBACK_WINDOW (WG < 32 ? WG : 32)
#endif
#ifndef LOOKBACK_SERIAL  // 1: look_back_serial (one work item walks the window) instead of the tree
#define LOOKBACK_SERIAL 0
#endif
#if LOOKBACK_WINDOW < 2 || LOOKBACK_WINDOW > WG || (LOOKBACK_WINDOW & (LOOKBACK_WINDOW - 1))
#error "LOOKBACK_WINDOW must be a power of two from 2 to WG"
#endif

// *prefix = the sum of tiles 0 .. t-1 (t >= 1); every work item must call it. The running sum
// stays in local memory, written by work item 0 only: kept private, carried across the loop's
// barriers and changed in work item 0 alone, it came back as 0 on PoCL 3.1's CPU device.
// Window position p is tile j - p (positions past tile 0 read as an inclusive 0). Each step finds
// the nearest unpublished position and the nearest inclusive one: an inclusive one before any
// unpublished ends the walk (its value and the aggregates between are summed); otherwise the
// aggregates before the first unpublished are summed and the window moves to start there, so an
// unpublished predecessor is re-read (spun on) without re-reading the ones already summed.
// A tile waits only for lower tickets, taken by groups that already run: forward progress holds.
void look_back_window(__global volatile ulong* status, const uint t, const uint epoch,
                      __local TYPE* window, __local uint* nearest, __local TYPE* prefix) {
  const uint lid = get_local_id(0);
  __local uint* const nearest_unpublished = nearest;
  __local uint* const nearest_inclusive = nearest + 1;
  uint j = t - 1;  // the tile at window position 0
  if (lid == 0) {
    *prefix = 0;
    *nearest_unpublished = *nearest_inclusive = LOOKBACK_WINDOW;
  }
  for (;;) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the reset of `nearest` and the last step's sums are done
    if (lid < LOOKBACK_WINDOW) {
      const ulong word = lid <= j ? status[j - lid] : pack(epoch, FLAG_INCLUSIVE, (TYPE)0);
      const uint high = (uint)(word >> 32);
      window[lid] = VALUE((uint)word);  // stale bits if unpublished: zeroed below, never summed
      if ((high >> 2) != epoch)
        atomic_min(nearest_unpublished, lid);
      else if ((high & 3u) == FLAG_INCLUSIVE)
        atomic_min(nearest_inclusive, lid);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint unpublished = *nearest_unpublished, inclusive = *nearest_inclusive;
    const bool found = inclusive < unpublished;  // the same in every work item: the loop stays uniform
    const uint count = found ? inclusive + 1 : unpublished;  // positions 0 .. count-1 are summed
    if (lid < LOOKBACK_WINDOW && lid >= count) window[lid] = 0;
    // A fixed tree for a given window, so float sums do not depend on the order of work items.
    for (uint d = LOOKBACK_WINDOW / 2; d > 0; d >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);  // also orders everyone's reads of `nearest` before its reset
      if (lid < d) window[lid] += window[lid + d];
    }
    if (lid == 0) {  // work item 0 made the tree's last addition itself: no barrier needed to read it
      *prefix = window[0] + *prefix;
      *nearest_unpublished = *nearest_inclusive = LOOKBACK_WINDOW;
    }
    if (found) return;
    j -= count;  // stays >= 0: tile 0 publishes only inclusive, so a window reaching it ends the walk
  }
}

// The same walk with 3 barriers per step instead of 7: work items lid < LOOKBACK_WINDOW copy the
// window's status words to local memory, work item 0 walks them in order (stopping at the first
// unpublished or inclusive word) and leaves the step's outcome in `state` for all to read.
// state[0]: 1 when the walk is over; state[1]: positions consumed this step.
void look_back_serial(__global volatile ulong* status, const uint t, const uint epoch,
                      __local ulong* words, __local uint* state, __local TYPE* prefix) {
  const uint lid = get_local_id(0);
  uint j = t - 1;  // the tile at window position 0
  if (lid == 0) *prefix = 0;
  for (;;) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the last step's state has been read by everyone
    if (lid < LOOKBACK_WINDOW)
      words[lid] = lid <= j ? status[j - lid] : pack(epoch, FLAG_INCLUSIVE, (TYPE)0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      TYPE sum = 0;
      uint count = 0, done = 0;
      for (; count < LOOKBACK_WINDOW; ++count) {
        const ulong word = words[count];
        const uint high = (uint)(word >> 32);
        if ((high >> 2) != epoch) break;  // unpublished: the next step starts here
        sum += VALUE((uint)word);
        if ((high & 3u) == FLAG_INCLUSIVE) {
          done = 1;
          ++count;
          break;
        }
      }
      *prefix = *prefix + sum;
      state[0] = done;
      state[1] = count;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (state[0]) return;
    j -= state[1];
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_lookback_window(__global const TYPE* in, __global TYPE* out, const ulong n,
                          __global volatile ulong* status, __global volatile uint* counter,
                          const uint tiles, const uint epoch) {
  STAGE_DECLARATION;
  __local TYPE scratch[LOCAL_SLOTS];
  __local TYPE segs[RAKERS + 1];
#if LOOKBACK_SERIAL
  __local ulong words[LOOKBACK_WINDOW];
  __local uint state[2];
#else
  __local TYPE window[LOOKBACK_WINDOW];
  __local uint nearest[2];
#endif
  __local uint ticket;
  __local TYPE tile_prefix;
  const uint lid = get_local_id(0);
  const uint t = take_ticket(counter, tiles, &ticket);
  TYPE x[ITEMS], aggregate;
  const TYPE excl = load_and_scan_tile(in, n, t, staged, scratch, segs, x, &aggregate);
  if (t == 0) {  // t is the same in every work item: the look-back's barriers stay uniform
    if (lid == 0) {
      atom_xchg(&status[0], pack(epoch, FLAG_INCLUSIVE, aggregate));
      tile_prefix = 0;
    }
  } else {
    if (lid == 0) atom_xchg(&status[t], pack(epoch, FLAG_AGGREGATE, aggregate));  // at once
#if LOOKBACK_SERIAL
    look_back_serial(status, t, epoch, words, state, &tile_prefix);
#else
    look_back_window(status, t, epoch, window, nearest, &tile_prefix);
#endif
    if (lid == 0) atom_xchg(&status[t], pack(epoch, FLAG_INCLUSIVE, tile_prefix + aggregate));
  }
  store_tile(out, n, t, staged, x, excl, &tile_prefix);
}
#endif

// ---- single pass, persistent work groups, the next tile loaded during the look-back ------------
// (scan_lookback_pipelined) A grid of a few work groups per compute unit, each looping over tiles
// taken by ticket (counter[0]). A group holds a current tile t (scanned in registers, aggregate
// published) and per step: 1. takes the next ticket t2 and issues t2's loads into a second set
// of registers (their values unused yet); 2. looks back for t (look_back_window), publishes t's
// inclusive prefix and stores t (through the stage if TRANSPOSE); 3. scans t2 in registers,
// publishes its aggregate at once and makes it current. The loads of t2 are in flight while the
// group waits in t's look-back, where scan_lookback_window's tiles have nothing in flight.
// The price: t2's aggregate goes out only after t's look-back and stores, later than in
// scan_lookback_window (right after the tile's own loads and scan), so t2's successors may wait
// on it longer.
// The first tile is taken, loaded, scanned and published before any look-back (the loop's first
// pass has no current tile); tile 0 publishes its inclusive prefix directly.
//
// Forward progress. A group waits only in the look-back for its current tile t, and only on the
// status words of tickets below t; never on its own prefetched tile t2 > t. Tickets are taken only
// by running groups (a group not started holds none; on a GPU a started group stays resident
// until it exits, on PoCL's CPU device it runs to completion on its thread), so it is enough that
// the lowest ticket m whose inclusive prefix is not yet published always advances. Its holder has
// it either as its current tile: m's aggregate is published and its look-back reads only tiles
// below m, all inclusive, so it ends; or as its prefetched tile: the holder's current tile c < m
// is then inclusive already (published before c's stores), so the holder is storing c or scanning
// m, steps that wait on nothing, and m becomes current. Taking a ticket, loading and scanning wait
// on nothing either. So waits only point to lower tickets held by running groups: no cycle.
//
// Counters without the host: each group, on exit (after its last ticket, >= tiles), increments
// counter[1]; the group that sees groups - 1 is the last, every group has stopped taking tickets,
// and it resets both counters to 0 for the next launch. Epochs change per launch as above.
#if defined(cl_khr_int64_base_atomics)
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_lookback_pipelined(__global const TYPE* in, __global TYPE* out, const ulong n,
                             __global volatile ulong* status, __global volatile uint* counter,
                             const uint tiles, const uint epoch) {
  STAGE_DECLARATION;
  __local TYPE scratch[LOCAL_SLOTS];
  __local TYPE segs[RAKERS + 1];
  __local TYPE window[LOOKBACK_WINDOW];
  __local uint nearest[2];
  __local uint ticket;
  // Work item 0's values kept in local memory, not private (see look_back_window on PoCL).
  __local TYPE tile_prefix, tile_aggregate;
  const uint lid = get_local_id(0);
  VEC next[SUBTILES];  // the next tile's loads (TRANSPOSE: load4's layout; else the item's own)
  TYPE x[ITEMS];       // the current tile: the item's exclusive scan in registers
  TYPE excl = 0;       // the current tile: the sum of the items before this one
  uint t = tiles;      // the current tile; tiles: none yet
  for (;;) {
    // 1. The next ticket, its loads issued. Every work item read the last ticket before step 3's
    // barriers, so work item 0 may overwrite it.
    if (lid == 0) ticket = atomic_inc(&counter[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint t2 = ticket;
    if (t2 < tiles) load_tile(in, n, t2, next);  // uniform
    // 2. The current tile: look back, publish its inclusive prefix, store it.
    if (t < tiles) {  // uniform
      if (t == 0) {
        if (lid == 0) tile_prefix = 0;  // its inclusive prefix went out with its scan
      } else {
        look_back_window(status, t, epoch, window, nearest, &tile_prefix);
        if (lid == 0) atom_xchg(&status[t], pack(epoch, FLAG_INCLUSIVE, tile_prefix + tile_aggregate));
      }
      store_tile(out, n, t, staged, x, excl, &tile_prefix);
    }
    if (t2 >= tiles) break;  // uniform: every work item read the same ticket
    // 3. The next tile becomes current: scan in registers, publish its aggregate at once.
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read the stage for step 2's stores
    own_items(next, staged, x);
    const TYPE mine = scan_items(x);
    TYPE aggregate;
    excl = group_scan_raking(mine, scratch, segs, &aggregate);
    if (lid == 0) {
      tile_aggregate = aggregate;
      atom_xchg(&status[t2], pack(epoch, t2 == 0 ? FLAG_INCLUSIVE : FLAG_AGGREGATE, aggregate));
    }
    t = t2;
  }
  if (lid == 0) {  // the last group to finish resets the counters
    mem_fence(CLK_GLOBAL_MEM_FENCE);  // after this group's last ticket
    if (atomic_inc(&counter[1]) == get_num_groups(0) - 1) {
      atomic_xchg(&counter[0], 0u);
      atomic_xchg(&counter[1], 0u);
    }
  }
}
#endif
