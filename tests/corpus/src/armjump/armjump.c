/* `else if (b > 3u) tab[b & 15u] = 0u;` then `x1 = pick(tab[x1 & 15u])`
 * with x1 == b and pick a one-line `?:` inlined early: on that path gcc
 * knows the value 0, resolves pick's test and falls into its true arm's
 * code past the arm's first instruction (`and a2,a5,15`), which the
 * test's own way runs before jumping there. The arm's count is the
 * test's way plus the threaded path's: the test's pin is a lower bound.
 * gcda_ways.c's jumps_on_into saw such a path only behind a bare jump; it
 * now looks past up to two instructions of the arm's lines. In progen.py
 * seed 952 (-O2) the pin was claimed: 63 where the twin counts 143. Here
 * the arm's way is marked shared as there, but the claim is withheld
 * already (pick's test has two copies, and the function has a transfer
 * into the middle of a block): the program keeps the shape under test;
 * the seed is the regression test of the claim. */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x510e527fade682d1ull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 11) % 16u;
}

static unsigned pick(unsigned x) { return (x & 31u) < 14u ? (x & tab[x & 15u]) : x; }

static __attribute__((noinline)) unsigned walk(unsigned a, unsigned b)
{
	unsigned x1 = b, x2 = a ^ b, x3 = 3u;
	if (((b >> 4) & 1u) && a > 9u) {
		x3 = tab[a & 15u] + 1u;
		if (x3 % 5u > 2u)
			return x3;
	} else if ((x2 & 7u) == 5u && a < 4u) {
		for (unsigned i = 0; i < (a & 7u); i++)
			x3 += tab[(i + b) & 15u];
		x2 = tab[(cnt * cnt) & 15u];
	} else if (b > 3u) {
		tab[b & 15u] = 0u;
	} else {
		x3 += a;
	}
	x1 = pick(tab[x1 & 15u]);
	return a ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next() * 7u;
	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + walk(a, b);
		cnt += a & 1u;
		if (it % 16u == 0u)
			tab[it & 15u] = next() * 5u;
	}
	printf("sum=%u\n", sum);
	return 0;
}
