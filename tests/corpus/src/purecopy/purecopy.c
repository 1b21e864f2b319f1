/* A helper that only reads memory (gcc finds it pure, so the gcno gives
 * its calls no fake arc to EXIT and they do not end their blocks),
 * inlined late at several calls of one caller after einline had already
 * put one call with a constant argument into that caller's gcno
 * function. The caller's gcno then lists the helper's lines (the early
 * copy), and the late copies were taken for early ones too: only the
 * copy in main was summed and the helper's branch counters claimed from
 * that part (tests/gcda/hunt/progen.py seed 114 at -O2: 16 against the
 * twin's 27). A late copy's call line now needs no fake arc, only no
 * helper line on or beside its blocks (gcda_early.c: call_kept). Copies
 * hold the helper's values in other registers: their branches are all
 * one condition's (gcda_pin.c: first_regs compares within a copy). */
#include <stdio.h>

static unsigned tab[16];
static unsigned lim;
static unsigned long long seed = 0x9e3779b97f4a7c15ull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 64u;
}

static unsigned pick(unsigned x)
{
	if (tab[x & 15u] > x)
		return x | lim;
	return (x & 3u) != 1u ? tab[x & 15u] + x : 0u;
}

static unsigned walk(unsigned a, unsigned b)
{
	unsigned acc = a ^ b, i = 0;
	do {
		i++;
		if ((a & 7u) > 2u && tab[acc & 15u] > b) {
			b = pick(0u);
			if (acc % 3u == 1u)
				return acc + b;
			a = pick(acc + b);
		}
		for (unsigned k = 0; k < (a & 3u) + 1u; k++) {
			if (k % 5u == 4u && tab[k] > a)
				continue;
			acc = pick(b - k) ^ (acc >> 1);
		}
	} while (i < 4u && (acc & 1u));
	return acc ^ pick(lim - tab[a & 15u]);
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 60u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + walk(a, b);
		lim += pick(a ^ it);
		tab[it & 15u] ^= sum & 31u;
	}
	printf("%u %u\n", sum, lim);
	return 0;
}
