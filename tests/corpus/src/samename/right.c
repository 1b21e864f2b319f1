/* Same static names as left.c, on the same lines, with different bodies;
 * noinline keeps both pairs of symbols at every optimisation level. */
#include "samename.h"

static __attribute__((noinline)) long mix(long h, long v)
{
	return (h + v) * 17 - (v | 1);
}

static __attribute__((noinline)) int step(int i)
{
	if (i & 1)
		return i >> 1;
	return i * 3 - 2;
}

long right_run(int n)
{
	long h = 1;
	int i;

	for (i = 0; i < n; i++)
		h = mix(h, step(i)) & 0xffffffffffL;
	return h;
}
