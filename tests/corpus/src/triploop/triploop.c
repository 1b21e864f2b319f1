/* Constant-trip inner loops gcc -O2 unrolls completely or folds into
 * the outer loop's arithmetic: the instrumented twin counts their bodies
 * trip times per entry while no machine code runs per round. */
#include <stdio.h>

static unsigned g[8];
static volatile unsigned seed = 7;

/* Body folded to `g[2] += 4` per outer round (or `4 * n` after it). */
__attribute__((noinline)) static unsigned folded(unsigned n, unsigned p)
{
	unsigned x = p;
	while (n--) {
		for (unsigned k = 0; k < 4u; k++)
			g[2]++;
		if ((x & 7u) == 3u)
			return x;
		x += 5u;
	}
	return x;
}

/* Unrolled: five rounds of a shift and xor, `<=` bound. */
__attribute__((noinline)) static unsigned unrolled(const unsigned *a, unsigned n)
{
	unsigned h = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned v = a[i & 7u];
		for (unsigned r = 1; r <= 5u; ++r)
			v = (v << 3) ^ (v >> r);
		if (v & 1u)
			h += v;
		else
			h ^= v;
	}
	return h;
}

int main(void)
{
	unsigned a[8], r = 0;
	for (unsigned i = 0; i < 8; i++)
		a[i] = seed * (i + 3u);
	for (unsigned i = 0; i < 30; i++)
		r += folded(1 + i % 9, i * seed);
	for (unsigned i = 0; i < 20; i++)
		r ^= unrolled(a, 3 + i % 5);
	printf("%u %u\n", r, g[2]);
	return 0;
}
