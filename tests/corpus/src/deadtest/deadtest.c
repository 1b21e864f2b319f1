/* deadtest: tests whose two ways meet with no code between, which gcc
 * deletes with their condition even at -O0 in the plain build (the
 * instrumented twin keeps the branch to count its arcs): `if (c)
 * continue;` ending a loop body, alone in its block or after other
 * code of the block, and `if (a || b) continue;` (two tests). The
 * split of such a test's ways is gone from the machine code; every
 * other counter is not. */
#include <stdio.h>

static unsigned g[8];
static unsigned long sink;

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 3u + 1u;
}

/* The test alone in its block (a join before it). */
__attribute__((noinline)) static unsigned tail(const unsigned *a, unsigned p)
{
	unsigned x = p, n = 6u;
	do {
		if ((p & 3u) == 1u)
			x += h(a[x & 7u]);
		if ((a[(x + n) & 7u] >> 1) < p)
			continue;
	} while (--n);
	return x;
}

/* The test after other code of its block, in a for loop. */
__attribute__((noinline)) static unsigned after(const unsigned *a, unsigned p)
{
	unsigned x = 0;
	for (unsigned i = 0; i < 5u; i++) {
		x += a[(i + p) & 7u];
		if (a[i & 7u] > p)
			continue;
	}
	return x;
}

/* Two tests deleted: `a || b` whose both ways go on to the loop's
 * test. */
__attribute__((noinline)) static unsigned both(const unsigned *a, unsigned p)
{
	unsigned x = 0, i = 0;
	while (i < 7u) {
		x += a[(i * 3u + p) & 7u];
		i++;
		if ((a[i & 7u] & 3u) == 1u || x > p)
			continue;
	}
	return x;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 30; i++) {
		g[i & 7u] = i * 5u + 1u;
		r += tail(g, i);
		r += after(g, i * 2u);
		r += both(g, i * 9u);
	}
	printf("%u %lu\n", r, sink);
	return 0;
}
