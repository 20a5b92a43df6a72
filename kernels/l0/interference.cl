// Interference: the reference kernel measured beside competing work, and the competitor's small
// kernel that another process (a second OpenCL context) submits at a set rate.

// The reference: memory-bound. Each of the G work items folds the N-element buffer's elements
// w, w + G, w + 2G, ... into acc = acc * 3 + x, `passes` times, each pass starting `shift`
// elements further on (mod N, a power of two: mask = N - 1), so no pass reads what the one before
// read at the same step and the buffer (larger than a GPU's L2) streams from memory every pass;
// unsigned arithmetic wraps, so the folds are exact and their order matters: a skipped, repeated
// or reordered pass or element changes the result.
__kernel void interference_stream(__global const uint* in, __global uint* out, const uint mask, const uint passes,
                                  const uint shift) {
  const uint items = get_global_size(0), w = get_global_id(0);
  uint acc = w;
  for (uint p = 0; p < passes; ++p) {
    const uint offset = p * shift;
    for (uint i = w; i <= mask; i += items) acc = acc * 3u + in[(i + offset) & mask];
  }
  out[w] = acc;
}

// The competitor: a small kernel, like a UI's frame (the seed's context switch). Every launch
// adds 1 to each of its counters, so after L launches each holds L: a dropped launch shows.
__kernel void interference_tick(__global uint* counts) { counts[get_global_id(0)] += 1u; }
