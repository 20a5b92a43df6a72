// Reduction of n TYPE values to one ACC value (sum, min or max), in two kernels: reduction_*
// leaves one partial per work group, reduction_*_final reduces the partials in one work group.
// Variants: _local (a tree in local memory) and _subgroup (sub-group reductions, then local memory
// across the sub-groups). Knobs: TYPE/VEC (float/float4 or int/int4), ACC (float or long for int
// sums, so they are exact), OP (OP_SUM, OP_MIN, OP_MAX), WG (work-group size, a power of two),
// UNROLL (independent vector loads in flight per work item).
#ifndef TYPE
#define TYPE float
#define VEC float4
#define ACC float
#endif
#ifndef WG
#define WG 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#if !defined(OP_SUM) && !defined(OP_MIN) && !defined(OP_MAX)
#define OP_SUM
#endif

#include "include/subgroups.h"

// IS_INT (set by the host for int input) picks the identities of min and max.
#if defined(OP_SUM)
#define IDENTITY ((ACC)0)
#define COMBINE(a, b) ((a) + (b))
#define SG_REDUCE(x) sub_group_reduce_add(x)
#elif defined(OP_MIN)
#ifdef IS_INT
#define IDENTITY ((ACC)INT_MAX)
#else
#define IDENTITY ((ACC)INFINITY)
#endif
#define COMBINE(a, b) min(a, b)
#define SG_REDUCE(x) sub_group_reduce_min(x)
#else
#ifdef IS_INT
#define IDENTITY ((ACC)INT_MIN)
#else
#define IDENTITY ((ACC)(-INFINITY))
#endif
#define COMBINE(a, b) max(a, b)
#define SG_REDUCE(x) sub_group_reduce_max(x)
#endif
// The four lanes of a vector, combined in ACC.
#define REDUCE4(v) COMBINE(COMBINE((ACC)(v).s0, (ACC)(v).s1), COMBINE((ACC)(v).s2, (ACC)(v).s3))

// Each work item combines a grid-strided share of the VEC elements, UNROLL loads at a time, and
// the tail of fewer than 4 elements goes to the first work items.
ACC thread_reduce(__global const TYPE* in, const ulong n) {
  const size_t gid = get_global_id(0), stride = get_global_size(0);
  __global const VEC* in4 = (__global const VEC*)in;
  const size_t n4 = n / 4;
  ACC acc = IDENTITY;
  size_t i = gid;
  for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
    VEC v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc = COMBINE(acc, REDUCE4(v[u]));
  }
  for (; i < n4; i += stride) acc = COMBINE(acc, REDUCE4(in4[i]));
  if (gid < n - n4 * 4) acc = COMBINE(acc, (ACC)in[n4 * 4 + gid]);
  return acc;
}

// Tree over the WG values in local memory; the result is valid in every work item.
ACC group_reduce_local(ACC x, __local ACC* scratch) {
  const uint lid = get_local_id(0);
  scratch[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] = COMBINE(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const ACC r = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);  // scratch may be reused
  return r;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduction_local(__global const TYPE* in, const ulong n, __global ACC* partials) {
  __local ACC scratch[WG];
  const ACC r = group_reduce_local(thread_reduce(in, n), scratch);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = r;
}

// One work group: the partials (count of them) to result[0].
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduction_local_final(__global const ACC* partials, const uint count, __global ACC* result) {
  __local ACC scratch[WG];
  ACC acc = IDENTITY;
  for (uint i = get_local_id(0); i < count; i += WG) acc = COMBINE(acc, partials[i]);
  const ACC r = group_reduce_local(acc, scratch);
  if (get_local_id(0) == 0) result[0] = r;
}

#ifdef HAVE_SUBGROUPS
// Sub-group reduction, one value per sub-group into local memory, then the first sub-group
// combines them (in steps of its size, so any sub-group size works).
ACC group_reduce_subgroup(ACC x, __local ACC* scratch) {
  x = SG_REDUCE(x);
  if (get_sub_group_local_id() == 0) scratch[get_sub_group_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  ACC r = IDENTITY;
  if (get_sub_group_id() == 0) {
    for (uint i = get_sub_group_local_id(); i < get_num_sub_groups(); i += get_sub_group_size())
      r = COMBINE(r, scratch[i]);
    r = SG_REDUCE(r);
  }
  return r;  // valid in sub-group 0
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduction_subgroup(__global const TYPE* in, const ulong n, __global ACC* partials) {
  __local ACC scratch[WG];
  const ACC r = group_reduce_subgroup(thread_reduce(in, n), scratch);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = r;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduction_subgroup_final(__global const ACC* partials, const uint count, __global ACC* result) {
  __local ACC scratch[WG];
  ACC acc = IDENTITY;
  for (uint i = get_local_id(0); i < count; i += WG) acc = COMBINE(acc, partials[i]);
  const ACC r = group_reduce_subgroup(acc, scratch);
  if (get_local_id(0) == 0) result[0] = r;
}
#endif
