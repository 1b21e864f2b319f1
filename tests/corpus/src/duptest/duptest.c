/* Jump threading copies an inlined test: `if (u > v) swap;` before
 * link(), whose `n >= MAXL || u == v` gives up. On the swap's path
 * u == v is known false, so gcc gives that path its own copy of
 * `n >= MAXL`, whose way on runs the swap's moves (sunk below the test,
 * the caller's lines) into link()'s body: both of its ways seem to leave
 * the copy, and its lines match no condition, or the equality test's.
 * The copy compares the same registers as the other copy of the test and
 * jumps to the same place (gcda_duptest.c). */
#include <stdio.h>

#define MAXL 700

static int nl;
static int from[MAXL], to[MAXL], deg[64];
static unsigned seed = 2463534242u;

static unsigned rnd(unsigned n)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return (seed >> 4) % n;
}

static int link(int u, int v)
{
	if (nl >= MAXL || u == v)
		return 0;
	from[nl] = u;
	to[nl] = v;
	nl++;
	deg[v]++;
	return 1;
}

static __attribute__((noinline)) int fill(int up, int m)
{
	int made = 0;
	for (int i = 0; i < m; i++) {
		int u = (int)rnd(64), v = (int)rnd(64);
		if (up && u > v) {
			int t = u;
			u = v;
			v = t;
		}
		made += link(u, v);
	}
	return made;
}

int main(void)
{
	int total = 0;
	for (int k = 0; k < 6; k++) {
		nl = 0;
		total += fill(k & 1, 300 + 100 * k);
	}
	long s = 0;
	for (int i = 0; i < 64; i++)
		s = s * 7 + deg[i];
	printf("%d %d %ld\n", total, nl, s);
	return 0;
}
