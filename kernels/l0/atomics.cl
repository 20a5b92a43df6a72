// Atomic add throughput, from no contention to every work item on one address. Global: work item
// gid adds ITERS values to counters[gid % addresses]; local: to a local counter lid % addresses,
// and the group's counters are stored at the end. Sharers of an address are spread across the
// grid (or the group), not neighbours. COUNTER_INT, COUNTER_FLOAT_CAS (a compare-and-swap loop
// on the float's bits, OpenCL 1.1 atomics only) or COUNTER_FLOAT_NATIVE (cl_ext_float_atomics,
// OpenCL C 2.0 or later) picks the operation.
#ifndef ITERS
#define ITERS 16
#endif
#ifndef GROUP
#define GROUP 256  // work items per group: the local kernel holds at most one counter per item
#endif

// Values 1..4: integers, so float sums are exact (and independent of order) below 2^24. The last
// iteration adds 1, so no whole number of 4-cycles makes up a sum: fewer iterations, scaled, differ.
#define VALUE(gid, i) ((i) + 1 == ITERS ? 1u : (((gid) + (i)) & 3u) + 1u)

#if defined(COUNTER_INT)
#define COUNTER int
#define ADD_GLOBAL(p, v) atomic_add((p), (int)(v))
#define ADD_LOCAL(p, v) atomic_add((p), (int)(v))

#elif defined(COUNTER_FLOAT_CAS)
#define COUNTER float
void add_global_cas(volatile __global float* p, float v) {
  volatile __global uint* bits = (volatile __global uint*)p;
  uint seen = *bits, expected;
  do {
    expected = seen;
    seen = atomic_cmpxchg(bits, expected, as_uint(as_float(expected) + v));
  } while (seen != expected);
}
void add_local_cas(volatile __local float* p, float v) {
  volatile __local uint* bits = (volatile __local uint*)p;
  uint seen = *bits, expected;
  do {
    expected = seen;
    seen = atomic_cmpxchg(bits, expected, as_uint(as_float(expected) + v));
  } while (seen != expected);
}
#define ADD_GLOBAL(p, v) add_global_cas((p), (float)(v))
#define ADD_LOCAL(p, v) add_local_cas((p), (float)(v))

#elif defined(COUNTER_FLOAT_NATIVE)
#define COUNTER float
#define ADD_GLOBAL(p, v)                                                                        \
  atomic_fetch_add_explicit((volatile __global atomic_float*)(p), (float)(v), memory_order_relaxed, \
                            memory_scope_device)
#define ADD_LOCAL(p, v)                                                                        \
  atomic_fetch_add_explicit((volatile __local atomic_float*)(p), (float)(v), memory_order_relaxed, \
                            memory_scope_work_group)
#else
#error "define COUNTER_INT, COUNTER_FLOAT_CAS or COUNTER_FLOAT_NATIVE"
#endif

__kernel void atomics_global(__global COUNTER* counters, const uint addresses) {
  const uint gid = get_global_id(0);
  __global COUNTER* p = counters + gid % addresses;
  for (uint i = 0; i < ITERS; ++i) ADD_GLOBAL(p, VALUE(gid, i));
}

__kernel void atomics_local(__global COUNTER* out, const uint addresses) {
  __local COUNTER counters[GROUP];
  const uint lid = get_local_id(0), lsize = get_local_size(0), gid = get_global_id(0);
  for (uint a = lid; a < addresses; a += lsize) counters[a] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local COUNTER* p = counters + lid % addresses;
  for (uint i = 0; i < ITERS; ++i) ADD_LOCAL(p, VALUE(gid, i));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint a = lid; a < addresses; a += lsize) out[get_group_id(0) * addresses + a] = counters[a];
}
