// Matrix transpose of a row-major float matrix, height x width -> width x height:
// out[x * height + y] = in[y * width + x]. Edges are guarded (global sizes are padded).

// One element per work item: reads along a row (coalesced), writes down a column (strided), or the
// other way round, depending on the work-group shape.
__kernel void transpose_naive(__global const float* in, __global float* out, const uint width,
                              const uint height) {
  const uint x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height) out[(size_t)x * height + y] = in[(size_t)y * width + x];
}

// A TILE x TILE block goes through local memory so both the read and the write are row-wise.
// The work group is TILE x ROWS items; each item moves TILE / ROWS elements. PAD = 1 shifts each
// tile row by one bank, so the column-wise reads of the tile hit TILE different banks.
#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef PAD
#define PAD 1
#endif

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_tiled(__global const float* in, __global float* out, const uint width, const uint height) {
  __local float tile[TILE][TILE + PAD];
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const uint bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
#pragma unroll
  for (uint j = ty; j < TILE; j += ROWS) {
    const uint x = bx + tx, y = by + j;
    if (x < width && y < height) tile[j][tx] = in[(size_t)y * width + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (uint j = ty; j < TILE; j += ROWS) {
    const uint x = by + tx, y = bx + j;  // x < height (a column of in), y < width (a row of in)
    if (x < height && y < width) out[(size_t)y * height + x] = tile[tx][j];
  }
}
