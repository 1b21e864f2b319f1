/* `if ((b & 7u) < 3u) s = s * 31u + two(a, b); if (a > b) u = ...
 * three(a, b); ... if ((b & 7u) < 3u) t = t * 31u + four(a, b);` in a
 * loop: the third test repeats the first, b unchanged, so jump threading
 * resolves it on every path but the one through three's code, whose
 * branch alone counts it: its pin is a lower bound. Here the threaded
 * paths jump into the code right after that branch, which then runs more
 * often than the branch's way brings (other_arrivals sees it). In
 * progen.py seed 1018 (-O2) gcc gave the threaded paths their own copy of
 * that code (`t * 31u` and four's first load), which the scheduler mixed
 * with other lines' code differently from the branch's copy, so the copy
 * went unseen (run_exit differs) and main's counter 11 was claimed 17
 * where the twin counts 33. A copy is now also the same instructions of
 * the line in any order (gcda_ways.c: same_code). This compile keeps one
 * copy: the program keeps the shape under test; the seed is the
 * regression test of the claim. */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x1f83d9abfb41bd6bull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned small(unsigned x) { return (x & 63u) < 5u ? 2u : x + 100u; }

static __attribute__((noinline)) unsigned two(unsigned a, unsigned b)
{
	return tab[(a ^ b) & 15u] + (a >> 3);
}

static unsigned three(unsigned a, unsigned b)
{
	unsigned x = a + 3u, y = b >> 2;
	if (a % 3u == 2u || (a & 63u) < 18u)
		x = (y & a) | x;
	else if ((x & 7u) == 0u || y < small(tab[b & 15u]))
		y -= tab[a & 15u];
	for (unsigned i = 0; i < (a & 7u); i++)
		x ^= small(x | y) + tab[i & 15u];
	return x ^ y;
}

static unsigned four(unsigned a, unsigned b)
{
	unsigned x = small(tab[3] + a);
	x -= (b & 63u) < 15u ? b * b : a;
	for (unsigned i = 0; i < (a & 3u); i++)
		x += tab[(x + i) & 15u];
	return x;
}

int main(void)
{
	unsigned s = 0, t = 0, u = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 120u; it++) {
		unsigned a = next(), b = next();
		if ((b & 7u) < 3u) s = s * 31u + two(a, b);
		if (a > b) u = u * 31u + three(a, b);
		cnt += a & 1u;
		if ((b & 7u) < 3u) t = t * 31u + four(a, b);
		cnt += small(a ^ it);
	}
	printf("%u %u %u %u\n", s, t, u, cnt);
	return 0;
}
