/* A small helper inlined early, `if (t[x & 15] > x) return A; return B;`,
 * whose caller combines the result on its own line: gcc folds the caller's
 * operation for one return value (0 % m is 0, 1 ^ 100 is 101) and keeps
 * it, with the caller's line, on the other way only. The helper's test
 * then skips a few instructions of the caller's line, which the
 * condition's block and the join both list: code sunk from the
 * condition's block or the join's own code kept on one way, the lines
 * cannot tell. It was read as the condition block's code sunk below the
 * test, the arms' counts swapped and claimed (gcda_triangle.c:
 * sunk_from; tests/gcda/hunt/progen.py seeds 165, 255, 362 and 554 at
 * -O2). */
#include <stdio.h>

static unsigned g_tab[16];
static unsigned g_cnt;
static unsigned long long g_rs = 0x2545f4914f6cdd1dull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned keep(unsigned x)
{
	if (g_tab[x & 15u] > x)
		return x;
	return 0u;
}

static unsigned limit(unsigned x)
{
	if (g_tab[x & 15u] > x)
		return (x & 63u) < 10u ? 100u : x;
	return g_cnt;
}

/* keep()'s `return 0` way: 0 % m folded, the `%` only on the other. */
__attribute__((noinline)) static unsigned mods(unsigned a, unsigned n)
{
	unsigned k = a ^ n;
	for (unsigned i = 0; i < n; i++) {
		unsigned v = g_tab[i & 15u];
		if (a % 3u > 1u)
			g_tab[k & 15u] |= keep(v + 64u) % (v | 1u);
		a += 7u;
	}
	return k;
}

/* limit(7)'s constant way: 1 ^ 100 folded, `1 ^ g_cnt` on the other. */
__attribute__((noinline)) static unsigned xors(unsigned a, unsigned b)
{
	unsigned x = a ^ b;
	if (b & 4u)
		g_tab[x & 15u] += (1u ^ limit(70u));
	g_cnt += a & 3u;
	return x;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned it = 0; it < 300u; it++) {
		for (unsigned i = 0; i < 16u; i++)
			g_tab[i] = rnd() % 60u;
		sum = sum * 31u + mods(rnd(), it % 5u);
		sum = sum * 31u + xors(rnd(), rnd());
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
