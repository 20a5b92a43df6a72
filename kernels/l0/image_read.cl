// Image (texture) read bandwidth: each work item (x, y) sums ITEMS RGBA float pixels down a
// column, (x, y + k * rows), through a nearest-filtering sampler on unnormalised coordinates.
#ifndef ITEMS
#define ITEMS 8
#endif

__constant sampler_t image_read_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

__kernel void image_read_rgba_float(__read_only image2d_t img, __global float* sums,
                                    const int width, const int rows) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= rows) return;
  float4 acc = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) acc += read_imagef(img, image_read_sampler, (int2)(x, y + k * rows));
  sums[y * width + x] = (acc.s0 + acc.s1) + (acc.s2 + acc.s3);
}
