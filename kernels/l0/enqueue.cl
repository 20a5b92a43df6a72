// Kernel launch overhead: a nearly empty kernel whose first work item counts its launch (so a
// dropped launch shows), and the small kernels that make up a frame.
#ifndef STAGE_STEPS
#define STAGE_STEPS 16
#endif

__kernel void enqueue_empty(__global uint* launches) {
  if (get_global_id(0) == 0) atomic_inc(launches);
}

// One stage of a frame: each work item writes a value that depends only on the stage and its
// position, so the result is the same whatever order frames run in (an out-of-order queue may
// overlap them), and work item 0 counts the launch in launches[1 + stage].
__kernel void enqueue_stage(__global float* out, __global uint* launches, const uint stage) {
  const uint gid = get_global_id(0);
  float x = (float)gid * 0x1p-12f + (float)stage;
  for (int i = 0; i < STAGE_STEPS; ++i) x = x * 0.75f + 0.5f;
  out[stage * get_global_size(0) + gid] = x;
  if (gid == 0) atomic_inc(launches + 1 + stage);
}
