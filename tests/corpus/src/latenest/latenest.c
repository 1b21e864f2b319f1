/* A helper inlined early everywhere (`clip`) called by main itself and
 * inside `mixw`, a pure function (it only reads `tab`: its call gets no
 * fake arc, so it ends no gcno block) that gcc inlines into main late,
 * after the profiling pass: the clip copies inside mixw's code in main
 * are mixw's counters, though main's gcno lists clip's line for its own
 * early copy (gcda_late.c: in_late). And `(hi & 3u) == 1u` tested twice
 * with `lo < hi` between: where `lo < hi` fails, jump threading sends the
 * way straight to `tail`'s code or past it, whichever the first test
 * said, so the second test's branch runs only after mixw's code
 * (gcda_named.c: gm_passed_after_arc). */
#include <stdio.h>

static unsigned tab[16];
static unsigned acc;
static unsigned long long st = 0x9e3779b97f4a7c15ull;

static unsigned draw(void)
{
	st ^= st << 7;
	st ^= st >> 9;
	return (unsigned)(st >> 24) % 997u;
}

static unsigned clip(unsigned x) { return (x & 31u) < 7u ? 1u : x + 50u; }

static __attribute__((noinline)) unsigned head(unsigned lo, unsigned hi)
{
	return tab[(lo + hi) & 15u] ^ (hi >> 2);
}

static unsigned mixw(unsigned lo, unsigned hi)
{
	unsigned x = lo * 3u + 1u, y = hi >> 3;
	if ((lo & 15u) < 6u || lo % 7u == 3u)
		x |= y & lo;
	for (unsigned i = 0; i < (hi & 7u); i++)
		x += clip(x ^ y) ^ tab[(i + lo) & 15u];
	return x - y;
}

static unsigned tail(unsigned lo, unsigned hi)
{
	unsigned x = clip(tab[5] ^ hi);
	for (unsigned i = 0; i < (lo & 3u); i++)
		x ^= tab[(x + i) & 15u];
	return x;
}

int main(void)
{
	unsigned p = 0, q = 0, r = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = draw();
	for (unsigned k = 0; k < 150u; k++) {
		unsigned lo = draw(), hi = draw();
		if ((hi & 3u) == 1u) p = p * 17u + head(lo, hi);
		if (lo < hi) r = r * 17u + mixw(lo, hi);
		acc += hi & 1u;
		if ((hi & 3u) == 1u) q = q * 17u + tail(lo, hi);
		acc += clip(lo + k);
	}
	printf("%u %u %u %u\n", p, q, r, acc);
	return 0;
}
