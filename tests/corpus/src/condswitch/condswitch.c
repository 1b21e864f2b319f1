/* condswitch: a `?:` whose condition is `a && b` (or `a || b`) on the
 * line right before a `switch`: the switch's gcno block also lists the
 * `?:` line (the join where x gets its value), so that line's tests sit
 * next to the switch's comparison tree without being part of it. */
#include <stdio.h>

static unsigned g[8];
static unsigned long sink;

__attribute__((noinline)) static unsigned pick(const unsigned *a, unsigned p, unsigned q)
{
	unsigned x = p;
	x = ((a[p & 7u] + 3u) == 12u) && ((q & 3u) != 1u) ? (g[1]) : (g[1] & 15u);
	switch ((x + q) % 5u) {
	case 0:
		sink += x;
		break;
	case 1:
		x = a[q & 7u] * 3u;
		break;
	case 2:
		g[2]++;
		__attribute__((fallthrough));
	case 3:
		x ^= q;
		break;
	default:
		x += 7u;
		break;
	}
	return x;
}

__attribute__((noinline)) static unsigned pick2(const unsigned *a, unsigned p)
{
	unsigned y = ((p & 1u) == 0) || (a[p & 7u] > 20u) ? p * 3u : p + 5u;
	switch (y & 3u) {
	case 0:
		return y + a[1];
	case 1:
		g[3]++;
		return y;
	default:
		return y ^ 9u;
	}
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 40; i++) {
		g[i & 7u] = i * 7u + 2u;
		g[1] = i ^ 5u;
		r += pick(g, i, i * 5u);
		r += pick2(g, i);
	}
	printf("%u %lu %u %u\n", r, sink, g[2], g[3]);
	return 0;
}
