/* Same static names as right.c, on the same lines, with different bodies;
 * noinline keeps both pairs of symbols at every optimisation level. */
#include "samename.h"

static __attribute__((noinline)) long mix(long h, long v)
{
	return (h ^ v) * 31 + (v & 7);
}

static __attribute__((noinline)) int step(int i)
{
	if (i % 3 == 0)
		return i / 3;
	return i * 2 + 1;
}

long left_run(int n)
{
	long h = 0;
	int i;

	for (i = 0; i < n; i++)
		h = mix(h, step(i));
	return h;
}
