/* Two loop-invariant tests, each a `continue;` on a line of its own,
 * that gcc -O1 merges into one test of `(b & 16) | a % 3` on the second's
 * line: that branch looks like the second condition's (its ways: the
 * loop's latch, where both `continue;` blocks lead, and the code after),
 * yet its counts are the pair's; the first condition keeps no branch
 * (gcda_merged.c; tests/gcda/hunt/progen.py seeds 319 and 343 at -O1
 * claimed the second condition's `continue` arc with every execution of
 * the merged test: 56 against the twin's 10). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned long long g_rs = 0x6a09e667f3bcc909ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned f1(unsigned a, unsigned b)
{
	unsigned x1 = b, x2 = a + 2u, x3 = 3u;

	for (unsigned i1 = 0; i1 < (x1 & 3u); i1++) {
		if ((x2 & 1u) == 0u) {
			if (a % 3u > 0u)
				continue;
			if (((b >> 4) & 1u))
				continue;
		} else {
			x3 += g_arr[i1 & 15u];
		}
		g_arr[(x3 + i1) & 15u] += 3u;
	}
	return x3 ^ x1;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = rnd(), b = rnd();

		if (a > b)
			sum = sum * 31u + f1(a, b);
	}
	printf("%u\n", sum);
	return 0;
}
