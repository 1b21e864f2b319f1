/* A loop-invariant `goto` test merged into the loop's last test (hunt
 * seed 1226's shape): `if ((x & 1u) == 1u) goto out; } while (i < 8u &&
 * (b & 63u) < 16u);` becomes, after the `i < 8u` test, one test of
 * `(b & 48) | (x & 1)`, x & 1 computed once before the loop. The goto's
 * exits then leave through the loop's tests: the `i < 8u` test counts
 * runs the twin's goto ended before it, and the merged test's exit counts
 * the gotos as its own (the loop's exit and the goto's label are one
 * place). */
#include <stdio.h>
static unsigned t[16];
static unsigned cnt;
static unsigned rs = 2024u;

static unsigned rnd(void)
{
	rs = rs * 1664525u + 1013904223u;
	return (rs >> 10) % 1000u;
}

static unsigned h(unsigned x) { return t[x & 15u] > x ? x + (t[x & 7u] & 7u) : x * 3u; }

static __attribute__((noinline)) unsigned walk(unsigned a, unsigned b)
{
	unsigned x0 = a, x3 = b >> 2, i1 = 0;
	do {
		i1++;
		b = h((cnt > 4u ? x0 : t[(a + i1) & 15u]));
		x3 |= h((1u >> (x0 & 7u)));
		if ((x0 & 1u) == 1u)
			goto out;
	} while (i1 < 8u && (b & 63u) < 16u);
out:
	return x3 ^ b;
}

int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 16u; k++)
		t[k] = rnd();
	for (unsigned k = 0; k < 120u; k++) {
		cnt = k % 9u;
		s += walk(rnd(), rnd());
	}
	printf("%u\n", s);
	return 0;
}
