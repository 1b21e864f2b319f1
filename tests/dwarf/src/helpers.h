/* Static inline helpers included by the DWARF test programs: their code is
 * inlined into callers at -O2, so the line table names this header and the
 * inline stacks have several levels. */
#ifndef DWARF_TEST_HELPERS_H
#define DWARF_TEST_HELPERS_H

static inline unsigned mix(unsigned x)
{
	x ^= x >> 7;
	x *= 0x9e3779b1u;
	return x ^ (x >> 13);
}

static inline unsigned mix2(unsigned a, unsigned b)
{
	unsigned r = mix(a);
	if (b & 1)
		r += mix(b);
	return r;
}

static inline int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

#endif
