/* `return !(tab[a & 15u] > x3) ? b : cnt;` in a loop of a function gcc
 * inlines into main's `sum = sum * 31u + scan(a, b)`: the load of cnt
 * happens before the test, the `b` arm is one move on the fallthrough
 * (on the return's line) that runs on into main's code, where the taken
 * way lands too. Which arm a lone edge copy sits on, the lines cannot
 * tell (gcda_moves.c: gm_edge_copies), but the move's next address lay
 * outside the copy's spans and gm_edge_copies did not see the way end
 * where the other lands: the line match paired the move's line with the
 * arm block listing it (the `cnt` arm's load), swapped (progen.py seed
 * 986, -O1: ours 61 / 58 where the twin counts 58 / 61). */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x9b05688c2b3e6c1full;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned scan(unsigned a, unsigned b)
{
	unsigned x2 = b >> 2, x3 = b >> 3;
	for (unsigned i = 0; i < 2u; i++)
		x3 += tab[(x2 + i) & 15u] >> 3;
	unsigned i2 = 0;
	do {
		i2++;
		if (!(tab[x2 & 15u] > x3 && (b & 15u) < 4u))
			return !(tab[a & 15u] > x3) ? b : cnt;
	} while (i2 < (b & 15u));
	return a ^ b ^ x2 ^ x3;
}

int main(void)
{
	unsigned sum = 0, mix = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 150u; it++) {
		unsigned a = next(), b = next();
		cnt += a & 1u;
		sum = sum * 31u + scan(a, b);
		mix = (mix ^ b) + cnt;
	}
	printf("sum=%u mix=%u\n", sum, mix);
	return 0;
}
