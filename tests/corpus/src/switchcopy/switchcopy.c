/* A helper gcc finds pure, called twice in a row in a recursive
 * function: `x = pick(3u)` inlined early (its lines in the caller's
 * gcno), then `switch (pick(y))`, a call the gcno kept and gcc inlined
 * late. The switch's block lists only the call's line and borders the
 * early copy's last block, as an early copy's own statements would: the
 * gcno cannot tell that copy early or late. It was taken for early and
 * left out, and the helper's other copies' sum claimed (progen.py seed
 * 327 at -O2: 77 against the twin's 134). A copy left out as maybe early
 * that ran now keeps the function from claims (gcda_early_inlined's
 * 2; gcda.c: ran_any). */
#include <stdio.h>

static unsigned tab[16];
static unsigned mix;

static unsigned pick(unsigned x)
{
	if ((x >> 7) & 1u)
		return x;
	if (x & 1u)
		x = x + x;
	return (3u + mix) - tab[x & 3u];
}

static unsigned walk(unsigned n, unsigned x)
{
	unsigned y = x;

	if (n == 0u)
		return tab[y & 15u] + 5u;
	if (n <= x + n || y % 5u == 0u) {
		y = (mix & x) % ((mix ^ y) | 1u);
		if ((y & 7u) == 0u)
			return y;
		x = pick(3u);
	}
	switch (pick(y)) {
	case 1u:
		tab[y & 15u] = (10u * tab[n & 15u]) % (y | 1u);
		break;
	case 40u:
		if ((n & 3u) == 1u || (y & 15u) < 10u)
			return x;
		y -= x;
		break;
	default:
		x += 1u;
		if (!((x & 63u) < 8u))
			return tab[x & 15u];
		break;
	}
	y += walk(n - 1u, y);
	return y;
}

int main(void)
{
	unsigned sum = 0, s = 7u;
	for (unsigned i = 0; i < 16u; i++) {
		s = s * 1664525u + 1013904223u;
		tab[i] = s >> 24;
	}
	for (unsigned it = 0; it < 80u; it++) {
		s = s * 1664525u + 1013904223u;
		sum = sum * 31u + walk((s >> 8) & 3u, s >> 12);
		mix += pick(s >> 20);
	}
	printf("%u %u\n", sum, mix);
	return 0;
}
