/* Point generation and hashing for the multitu corpus program. */
#include "shapes.h"

static unsigned int state;	/* generator state, reset by gen_points */

/* Returns the next pseudo-random value in [0, 2^15). */
static unsigned int rnd(void)
{
	state = state * 214013u + 2531011u;
	return (state >> 16) & 0x7fff;
}

void gen_points(struct pt *p, int n, unsigned int seed)
{
	int i;

	state = seed;
	for (i = 0; i < n; i++) {
		p[i].x = (long)(rnd() % 2001) - 1000;
		p[i].y = (long)(rnd() % 2001) - 1000;
	}
}

unsigned long hash_points(const struct pt *p, int n)
{
	unsigned long h = 1469598103934665603ul;
	int i;

	for (i = 0; i < n; i++) {
		h = (h ^ (unsigned long)p[i].x) * 1099511628211ul;
		h = (h ^ (unsigned long)p[i].y) * 1099511628211ul;
	}
	return h;
}
