/* `(t[x2 & 15u] > x2 && b <= cnt + a) || ...` then, inside, `((s[a &
 * 3u] ^ x3) > 5u || t[x2 & 15u] > x2) && ...`: on the path where the
 * first condition held, jump threading knows the inner `||`'s second test
 * true and skips both its tests, falling into the code after them; the
 * second test's way on there, on the other path, is a jump to that code.
 * The second test's pin (the other path's branch alone) is then a lower
 * bound: the twin counts the skipped executions on that arc too.
 * gcda_ways.c took ways landing on one code as skipping a test only when
 * the skipping arc led into the test's block through single successors
 * (not through the `||`'s first test), and not for a way landing on a
 * jump there. In progen.py seed 895 (-O2) the pin was claimed: 0 where the
 * twin counts 54. Here the function has a transfer into the middle of a
 * block, which withholds the claims already: the program keeps the shape
 * under test; the seed is the regression test of the claim. */
#include <stdio.h>

static unsigned tab[16];
static unsigned sv[4];
static unsigned cnt;
static unsigned long long seed = 0xbb67ae8584caa73bull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static __attribute__((noinline)) unsigned both(unsigned a, unsigned b)
{
	unsigned x1 = b, x2 = b >> 2, x3 = a ^ b;
	if ((tab[x2 & 15u] > x2 && b <= cnt + a) || (a > 5u || (x3 & 3u) == 0u ? 1u : x1) > 1u) {
		if (((sv[a & 3u] ^ x3) > 5u || tab[x2 & 15u] > x2) && ((x1 >> 5) & 1u)) {
			x1 += tab[(a | 5u) & 15u];
			tab[b & 15u] += x1 | cnt;
		}
		if ((x1 & 3u) == 1u)
			sv[a & 3u] ^= cnt & x3;
		else
			x1 = x3 - b;
	}
	return a ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned i = 0; i < 4u; i++)
		sv[i] = next() & 7u;
	for (unsigned it = 0; it < 150u; it++) {
		unsigned a = next(), b = next() >> 2;
		sum = sum * 31u + both(a, b);
		cnt += a & 3u;
	}
	printf("sum=%u\n", sum);
	return 0;
}
