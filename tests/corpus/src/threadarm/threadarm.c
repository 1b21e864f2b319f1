/* `if (c1 && c2 && tab[k0 & 15u] > k)` (k == k0 there) guarding a call,
 * and after the if/else `if (tab[k0 & 15u] > k0) tab[y & 15u] += ...;`:
 * the third test decides the later one on its path, so jump threading
 * gives that path its own copy of the later then-statement (interleaved
 * with the inlined twice()'s code, other registers), which runs without
 * passing the later test's branch; that test's true arc counts both.
 * The copy is neither the landing's code in the same encodings
 * (gcda_ways.c: same_code) nor a run leaving for the same place (it goes
 * on past `k0 > 5u`, which the path also knows): same_shape reads the
 * operations and immediates without registers. In progen.py seed 1052
 * (-O2) the arc was claimed at its branch's count, 330 where the twin
 * counts 344. */
#include <stdio.h>

static unsigned tab[16];
static unsigned hits;
static unsigned long long seed = 0x6a09e667bb67ae85ull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 11) % 64u;
}

static unsigned twice(unsigned x) { return (x & 63u) < 6u ? (tab[x & 3u] + x) : (x + x); }

static unsigned halve(unsigned x)
{
	if ((x >> 5) & 1u)
		return x % (x | 1u);
	return 9u;
}

static __attribute__((noinline)) unsigned step(unsigned k, unsigned v)
{
	unsigned k0 = k, y = v, w = k + 3u;
	if ((k0 & 1u) == 0u) {
		if (tab[w & 15u] * 2u > 5u && ((k >> 4) & 1u) && tab[k0 & 15u] > k)
			y = twice(2u);
	} else {
		tab[2] ^= (hits & (v * 100u));
		for (unsigned i = 0; i < 2u && (v & 1u) == 0u; i++)
			k ^= halve(tab[i & 3u] >> i);
	}
	if (tab[k0 & 15u] > k0)
		tab[y & 15u] += k >> (k0 & 7u);
	y += 5u;
	if (k0 > 5u) {
		y = halve(w);
		tab[2] = halve(tab[k0 & 3u] + k) ^ 2u;
	}
	return k0 ^ y ^ w;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 400u; it++) {
		unsigned k = next(), v = next();
		sum = sum * 31u + step(k, v);
		hits += k & 1u;
		if (it % 8u == 0u)
			tab[it & 15u] = next();
	}
	printf("sum=%u hits=%u\n", sum, hits);
	return 0;
}
