// Kernel compile time: a short program (one small kernel) and, with LONG, a long one: TENS x 10
// generated functions of 64 unrolled integer steps each, all called from one kernel. SALT enters
// the result, so a build with a new SALT is new code to every compiler cache on the way.
#ifndef SALT
#define SALT 1u
#endif
#ifndef TENS
#define TENS 1  // the long program has 10 * TENS functions (1 to 10)
#endif

#ifndef LONG
__kernel void compile_time_short(__global uint* out) {
  const uint gid = get_global_id(0);
  out[gid] = gid * 2654435761u + SALT;
}
#else
// Step k: x = (x * (2k + 1)) ^ ((x >> 7) + k); function 10 * t + d runs k = 64 * (10 * t + d) + s.
#define STEP(k) x = (x * (2u * (k) + 1u)) ^ ((x >> 7) + (k));
#define STEP4(k) STEP(k) STEP((k) + 1u) STEP((k) + 2u) STEP((k) + 3u)
#define STEP16(k) STEP4(k) STEP4((k) + 4u) STEP4((k) + 8u) STEP4((k) + 12u)
#define STEP64(k) STEP16(k) STEP16((k) + 16u) STEP16((k) + 32u) STEP16((k) + 48u)
#define FUNC(t, d) \
  uint compile_time_f##t##d(uint x) { STEP64(((t) * 10u + (d)) * 64u) return x; }
#define FUNC10(t) \
  FUNC(t, 0) FUNC(t, 1) FUNC(t, 2) FUNC(t, 3) FUNC(t, 4) FUNC(t, 5) FUNC(t, 6) FUNC(t, 7) FUNC(t, 8) FUNC(t, 9)
#define CALL10(t)                                                                                 \
  x = compile_time_f##t##0(x); x = compile_time_f##t##1(x); x = compile_time_f##t##2(x);         \
  x = compile_time_f##t##3(x); x = compile_time_f##t##4(x); x = compile_time_f##t##5(x);         \
  x = compile_time_f##t##6(x); x = compile_time_f##t##7(x); x = compile_time_f##t##8(x);         \
  x = compile_time_f##t##9(x);

#if TENS > 0
FUNC10(0)
#endif
#if TENS > 1
FUNC10(1)
#endif
#if TENS > 2
FUNC10(2)
#endif
#if TENS > 3
FUNC10(3)
#endif
#if TENS > 4
FUNC10(4)
#endif
#if TENS > 5
FUNC10(5)
#endif
#if TENS > 6
FUNC10(6)
#endif
#if TENS > 7
FUNC10(7)
#endif
#if TENS > 8
FUNC10(8)
#endif
#if TENS > 9
FUNC10(9)
#endif

__kernel void compile_time_long(__global uint* out) {
  const uint gid = get_global_id(0);
  uint x = gid;
#if TENS > 0
  CALL10(0)
#endif
#if TENS > 1
  CALL10(1)
#endif
#if TENS > 2
  CALL10(2)
#endif
#if TENS > 3
  CALL10(3)
#endif
#if TENS > 4
  CALL10(4)
#endif
#if TENS > 5
  CALL10(5)
#endif
#if TENS > 6
  CALL10(6)
#endif
#if TENS > 7
  CALL10(7)
#endif
#if TENS > 8
  CALL10(8)
#endif
#if TENS > 9
  CALL10(9)
#endif
  out[gid] = x + SALT;
}
#endif
