/* loopchain: loop conditions written as a chain on one line, `a && b`,
 * whose machine tests do not come in source order: a loop written with
 * a backward goto, `if (++i < n && c) goto again;`, that gcc enters at
 * its counter test, so each test goes straight on into the other (a
 * cycle of tests, no first one), and a `for` whose second condition does
 * not change in the loop, tested once before it (unswitched), the
 * counter test inside going straight on to the body like the other;
 * a `for (i = 0; i < 8 && c; i++)` whose first test of c, its counter
 * test known true, falls into the loop's setup on the `for` line;
 * and a `c ? v : w` on one line whose cheap arm gcc computes before the
 * test, so that only the other arm's code is left on a way of its own. */
#include <stdio.h>

static unsigned long sink;
static unsigned g[8];

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v & 7u;
}

/* x & 3 does not change in the loop. */
__attribute__((noinline)) static unsigned gotoloop(unsigned n, unsigned p)
{
	unsigned x = p, i1 = 0;
again:
	sink += (p & 15u);
	if (++i1 < n && ((x & 15u) & 3u) == 0)
		goto again;
	return x ^ i1;
}

/* a[0] < 9 does not change in the loop: h writes only sink. */
__attribute__((noinline)) static unsigned hoistfor(const unsigned *a, unsigned q)
{
	unsigned y = q;
	for (unsigned i1 = 0; i1 < 8u && a[0] < 9u; i1++) {
		y += h(g[1] >> 1);
	}
	return y;
}

/* (y ^ y) & 3 is 0: gcc folds the chain to `(y & 1) == 0 ? a[0] & 15 :
 * y & 15`, computes y & 15 before the test and loads a[0] on the way of
 * its own; the arms' blocks list one line. */
__attribute__((noinline)) static unsigned onearm(const unsigned *a, unsigned p,
                                                 unsigned y)
{
	unsigned x = p;
	x = ((y & 15u) & 1u) == 0 ? (a[0] & 15u) : ((y ^ y) & 3u) == 0 ? (y & 15u) : (p ^ y) < (y ^ y) ? (x % 13u) : (p & 15u);
	y += h(x * 7u);
	return x ^ y;
}

/* The first test of (y * 7) & 3 skips i2 < 8 and runs into the setup
 * of the loop's counter, which has the line of both conditions. */
__attribute__((noinline)) static unsigned entered(const unsigned *a, unsigned n,
                                                  unsigned y)
{
	unsigned i1 = 0;
	while (i1 < n && a[i1 & 31] != 12u) {
		i1++;
		for (unsigned i2 = 0; i2 < 8u && ((y * 7u) & 3u) == 0; i2++) {
			y += h(g[1] ^ y);
		}
	}
	return y + i1;
}

int main(void)
{
	unsigned a[32];
	unsigned s = 12345u, t = 0;
	for (int r = 0; r < 60; r++) {
		for (int i = 0; i < 32; i++) {
			s = s * 1103515245u + 12345u;
			a[i] = (s >> 16) % 23u;
		}
		g[1] = a[7];
		t += gotoloop((unsigned)(r % 11) + 1u, a[3] + (unsigned)r);
		t += hoistfor(a, a[5]);
		t += onearm(a, a[3], a[9]);
		t += entered(a, (unsigned)(r % 11) + 1u, a[5] + (unsigned)r);
	}
	printf("%u %lu\n", t, sink);
	return 0;
}
