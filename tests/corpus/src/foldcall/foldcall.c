/* A helper inlined early with a constant argument (hunt seed 1178's
 * shape): in h(255u), `return x & x;` becomes the constant 255, a PHI
 * argument on the arc out of h's test, its block gone, while
 * `return (x % (x | 1u)) >> ...` folds to 0. The machine keeps
 * `li a0,255` under the folded statement's row, a line no gcno block
 * lists: read as the call site's line it matched the wrong arc of h's
 * test, counting its false way's runs as its true way's. */
#include <stdio.h>
static unsigned g_arr[16];
static unsigned g_rs = 777u;

static unsigned rnd(void)
{
	g_rs = g_rs * 1103515245u + 12345u;
	return (g_rs >> 8) % 1000u;
}

static unsigned h(unsigned x)
{
	if (g_arr[x & 15u] > x)
		return (x & x);
	return ((x % (x | 1u)) >> ((x + x) & 7u));
}

static __attribute__((noinline)) unsigned walk(unsigned a, unsigned b)
{
	unsigned x3 = b >> 3;
	unsigned i = 0;
	do {
		i++;
		if ((x3 ^ a) > 6u || (b & 3u) == 1u) {
			if (b + i > 600u || x3 < (g_arr[i & 15u] >> 2))
				return h(255u);
			a |= 100u;
		}
		b = (b * 7u + i) % 1000u;
	} while (i < 3u);
	return a ^ h(b);
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned k = 0; k < 80u; k++) {
		for (unsigned i = 0; i < 16u; i++)
			g_arr[i] = rnd();
		sum += walk(rnd(), rnd());
	}
	printf("%u\n", sum);
	return 0;
}
