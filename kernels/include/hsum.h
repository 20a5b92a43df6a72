// HSUM(v): the sum of a float vector of WIDTH lanes (1, 2, 4, 8 or 16), pairwise in lane order,
// ((s0 + s1) + (s2 + s3)) ..., the order the host references replay.
#define HSUM4(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#if WIDTH == 1
#define HSUM(v) (v)
#elif WIDTH == 2
#define HSUM(v) ((v).s0 + (v).s1)
#elif WIDTH == 4
#define HSUM(v) HSUM4(v)
#elif WIDTH == 8
#define HSUM(v) HSUM4((v).lo + (v).hi)
#elif WIDTH == 16
#define HSUM(v) HSUM4(((v).lo.lo + (v).lo.hi) + ((v).hi.lo + (v).hi.hi))
#endif
