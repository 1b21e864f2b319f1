#ifndef UTIL_H
#define UTIL_H
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(x, lo, hi) MIN(MAX((x), (lo)), (hi))
static inline unsigned lcg(unsigned *s) { *s = *s * 1664525u + 1013904223u; return *s >> 9; }
static inline int sgn(long v) { return (v > 0) - (v < 0); }
#endif
