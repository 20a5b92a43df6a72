// Viola-Jones face detection: grayscale, integral and squared-integral images, and the Haar cascade
// at every window of every scale (features scaled, not the image), either fused (all stages per
// window) or one kernel per stage with the survivors compacted between stages.
// Knobs: WG (work-group size of the scans and of the staged kernels' compaction), CHUNK (rows per
// work item in the integral's column pass).
#ifndef WG
#define WG 128
#endif
#ifndef CHUNK
#define CHUNK 32
#endif

// ---- grayscale ---------------------------------------------------------------------------------
__kernel void face_detection_grayscale(__global const uchar4* restrict rgba, __global uchar* restrict gray,
                                       const uint pixels) {
  const uint i = get_global_id(0);
  if (i >= pixels) return;
  const uint4 p = convert_uint4(rgba[i]);
  gray[i] = (uchar)((77u * p.x + 150u * p.y + 29u * p.z + 128u) >> 8);
}

// ---- integral images: (height + 1) x (width + 1), first row and column zero ---------------------
// Sums are uint (differences over any window up to 4096^2 pixels stay exact modulo 2^32); squared
// sums are ulong. Three passes: column prefix sums within chunks of CHUNK rows (one work item per
// column and chunk), the chunks' exclusive offsets (one work item per column), then a row scan per
// row (one work group per row) that adds each chunk's offset.

// Work item (x, c): rows [c * CHUNK, (c + 1) * CHUNK) of column x; totals[c][x] = the chunk's sum.
__kernel void face_detection_integral_columns(__global const uchar* restrict gray, __global uint* restrict sum,
                                              __global ulong* restrict sqsum, __global uint* restrict totals,
                                              __global ulong* restrict sqtotals, const int width,
                                              const int height) {
  const int x = get_global_id(0), c = get_global_id(1);
  if (x >= width || c * CHUNK >= height) return;
  const int stride = width + 1;
  uint s = 0;
  ulong s2 = 0;
  const int end = min(height, (c + 1) * CHUNK);
  for (int y = c * CHUNK; y < end; ++y) {
    const uint v = gray[y * width + x];
    s += v;
    s2 += v * v;
    sum[(y + 1) * stride + x + 1] = s;
    sqsum[(y + 1) * stride + x + 1] = s2;
  }
  totals[c * width + x] = s;
  sqtotals[c * width + x] = s2;
}

// Work item x: totals[c][x] becomes the sum of the chunks above c; also zeroes row 0.
__kernel void face_detection_integral_offsets(__global uint* restrict sum, __global ulong* restrict sqsum,
                                              __global uint* restrict totals, __global ulong* restrict sqtotals,
                                              const int width, const int height) {
  const int x = get_global_id(0);
  if (x > width) return;
  sum[x] = 0;
  sqsum[x] = 0;
  if (x == width) return;
  uint s = 0;
  ulong s2 = 0;
  const int chunks = (height + CHUNK - 1) / CHUNK;
  for (int c = 0; c < chunks; ++c) {
    const uint t = totals[c * width + x];
    const ulong t2 = sqtotals[c * width + x];
    totals[c * width + x] = s;
    sqtotals[c * width + x] = s2;
    s += t;
    s2 += t2;
  }
}

// Work group per row y = 1..height (group id + 1): the row's prefix over x, in chunks of WG.
__kernel void face_detection_integral_rows(__global uint* restrict sum, __global ulong* restrict sqsum,
                                           __global const uint* restrict totals,
                                           __global const ulong* restrict sqtotals, const int width) {
  __local uint ls[WG];
  __local ulong ls2[WG];
  const int y = get_group_id(0) + 1, lid = get_local_id(0), stride = width + 1;
  const int chunk_row = ((y - 1) / CHUNK) * width;
  uint carry = 0;
  ulong carry2 = 0;
  for (int base = 0; base < stride; base += WG) {
    const int x = base + lid;
    uint v = 0;
    ulong v2 = 0;
    if (x >= 1 && x < stride) {
      v = sum[y * stride + x] + totals[chunk_row + x - 1];
      v2 = sqsum[y * stride + x] + sqtotals[chunk_row + x - 1];
    }
    // Inclusive scan in local memory (Hillis-Steele).
    ls[lid] = v;
    ls2[lid] = v2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < WG; d <<= 1) {
      const uint a = lid >= d ? ls[lid - d] : 0;
      const ulong a2 = lid >= d ? ls2[lid - d] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      ls[lid] += a;
      ls2[lid] += a2;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (x < stride) {
      sum[y * stride + x] = carry + ls[lid];
      sqsum[y * stride + x] = carry2 + ls2[lid];
    }
    carry += ls[WG - 1];
    carry2 += ls2[WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// ---- the cascade ---------------------------------------------------------------------------------
// Scale k's eight ints in `scales`: first window, windows across, step, and the variance window's
// top-left offset, width, height * stride and area. `rects`: per scale, 3 int4 per node (top-left
// offset, width, height * stride, weight's bits), offsets relative to the window's top-left in the
// integral image; a weight of 0 marks an absent third rect. `nodes`: (threshold, left, right, 0).
// `stages`: (first node, node count); `stage_thresholds`.
#define SCALE_INTS 8

typedef struct {
  __global const uint* sum;
  __global const ulong* sqsum;
  __global const int* scales;
  __global const int4* rects;
  __global const float4* nodes;
  __global const int2* stages;
  __global const float* stage_thresholds;
  int nodes_per_scale, stride;
} Cascade;

uint rect_sum(__global const uint* ii, uint base, int4 r) {
  const uint tl = base + r.x;
  return ii[tl] - ii[tl + r.y] - ii[tl + r.z] + ii[tl + r.z + r.y];
}

// Scale and top-left integral offset of window `id`.
void locate(const Cascade* c, int scale_count, uint id, int* scale, uint* base) {
  int k = 0;  // most windows are at the first scales
  while (k + 1 < scale_count && id >= (uint)c->scales[(k + 1) * SCALE_INTS]) ++k;
  __global const int* s = c->scales + k * SCALE_INTS;
  const uint local_id = id - (uint)s[0], nx = (uint)s[1], step = (uint)s[2];
  const uint iy = local_id / nx, ix = local_id - iy * nx;
  *scale = k;
  *base = iy * step * (uint)c->stride + ix * step;
}

// sqrt(area * sqsum - sum^2) over the variance window: area x the standard deviation (1 if flat).
float window_norm(const Cascade* c, int scale, uint base) {
  __global const int* s = c->scales + scale * SCALE_INTS;
  const uint tl = base + s[3], w = s[4], hs = s[5];
  const uint sum = c->sum[tl] - c->sum[tl + w] - c->sum[tl + hs] + c->sum[tl + hs + w];
  const ulong sq = c->sqsum[tl] - c->sqsum[tl + w] - c->sqsum[tl + hs] + c->sqsum[tl + hs + w];
  const ulong nf2 = (ulong)s[6] * sq - (ulong)sum * sum;  // >= 0 (Cauchy-Schwarz)
  return nf2 > 0 ? sqrt((float)nf2) : 1.0f;
}

// Sum of the stage's leaves >= its threshold. Every work item of a warp reads the same node.
bool pass_stage(const Cascade* c, int stage, int scale, uint base, float norm) {
  const int2 range = c->stages[stage];
  __global const int4* rects = c->rects + (size_t)scale * c->nodes_per_scale * 3;
  float sum = 0.0f;
  for (int n = range.x; n < range.x + range.y; ++n) {
    const float4 node = c->nodes[n];
    const int4 r0 = rects[3 * n], r1 = rects[3 * n + 1], r2 = rects[3 * n + 2];
    const float t = node.x * norm;
    float value = as_float(r0.w) * (float)rect_sum(c->sum, base, r0) + as_float(r1.w) * (float)rect_sum(c->sum, base, r1);
    if (r2.w != 0) value += as_float(r2.w) * (float)rect_sum(c->sum, base, r2);
    sum += value < t ? node.y : node.z;
  }
  return sum >= c->stage_thresholds[stage];
}

#define CASCADE_ARGS                                                                               \
  __global const uint *restrict sum, __global const ulong *restrict sqsum,                         \
      __global const int *restrict scales, const int scale_count, __global const int4 *restrict rects, \
      __global const float4 *restrict nodes, const int nodes_per_scale,                            \
      __global const int2 *restrict stages, __global const float *restrict stage_thresholds,       \
      const int stage_count, const int stride, const uint windows
#define CASCADE_INIT \
  const Cascade c = {sum, sqsum, scales, rects, nodes, stages, stage_thresholds, nodes_per_scale, stride}

// Fused: every stage for one window; depth[id] = stages passed.
__kernel void face_detection_fused(CASCADE_ARGS, __global uchar* restrict depth) {
  CASCADE_INIT;
  const uint id = get_global_id(0);
  if (id >= windows) return;
  int scale;
  uint base;
  locate(&c, scale_count, id, &scale, &base);
  const float norm = window_norm(&c, scale, base);
  int d = 0;
  while (d < stage_count && pass_stage(&c, d, scale, base, norm)) ++d;
  depth[id] = (uchar)d;
}

// counts[1 ..] = 0 at the start of each pipeline run (counts[s + 1]: survivors of stage s).
__kernel void face_detection_reset(__global uint* counts, const int n) {
  const int i = get_global_id(0);
  if (i < n) counts[i] = 0;
}

// One stage over the survivors of the previous one (stage 0: every window), in a grid-stride loop
// over a count read from the device (no host sync). Survivors (window id, norm bits) are appended
// to `out` through one global atomic per work group. depth: stage 0 writes every window's, later
// stages raise their survivors'.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void face_detection_stage(
    CASCADE_ARGS, const int stage, __global const uint2* restrict in, __global uint2* restrict out,
    __global uint* restrict counts, __global uchar* restrict depth) {
  CASCADE_INIT;
  (void)stage_count;  // one stage per launch
  __local uint local_count, local_base;
  const uint lid = get_local_id(0);
  const uint count = stage == 0 ? windows : counts[stage];
  for (uint first = get_group_id(0) * WG; first < count; first += get_num_groups(0) * WG) {
    if (lid == 0) local_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint i = first + lid;
    bool pass = false;
    uint id = 0;
    float norm = 0.0f;
    if (i < count) {
      int scale;
      uint base;
      if (stage == 0) {
        id = i;
        locate(&c, scale_count, id, &scale, &base);
        norm = window_norm(&c, scale, base);
      } else {
        const uint2 e = in[i];
        id = e.x;
        norm = as_float(e.y);
        locate(&c, scale_count, id, &scale, &base);
      }
      pass = pass_stage(&c, stage, scale, base, norm);
      if (stage == 0) depth[id] = pass ? 1 : 0;
    }
    uint slot = 0;
    if (pass) slot = atomic_inc(&local_count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) local_base = atomic_add(&counts[stage + 1], local_count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (pass) {
      out[local_base + slot] = (uint2)(id, as_uint(norm));
      if (stage > 0) depth[id] = (uchar)(stage + 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // local_count is reset next round
  }
}
