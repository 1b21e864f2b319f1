/* An inlined copy's `?:` ending a chain of tests on one line, `(x2 + b) >
 * 2u && low(1u) > 6u ? (!(x2 % 10u > 0u) ? x0 : cnt) : a` with x0 == a:
 * gcc sets the join's register to a before the tests (the outer else arm,
 * an empty block), to cnt before the last test, and on the last test's
 * fallthrough moves a in again (`mv a5,a4`), falling into the join that
 * the earlier tests' exits land on too. The last test's taken way lands
 * with the earlier exits, yet it is the join, not the chain's exit:
 * gcda_chain.c's last_exit_way knows so when the other way runs into the
 * landing through copies (runs_into). In progen.py seed 879 (-O2) DWARF
 * gave that one move the line of another inlined function (the caller's
 * rnd(), whose value it copies), so the copy's spans skipped it and
 * runs_into could not follow it: the exit read wrong, the pin swapped
 * (ours 1 where the twin counts 0). A way leaving the spans now runs into
 * the landing through copies read from the image (copies_into). This
 * compile keeps the move on the `?:`'s line: the program keeps the shape
 * under test; the seed is the regression test of the claim. */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x3c6ef372fe94f82bull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 11) % 64u;
}

static unsigned low(unsigned x) { return (x & 63u) < 10u ? x + cnt : 3u; }

static unsigned mix(unsigned a, unsigned b)
{
	unsigned x0 = a, x2 = a + 2u, x3 = a ^ b;
	switch (tab[b & 15u] % 4u) {
	case 0u:
		b += cnt;
		x3 |= ((x2 + b) > 2u && low(1u) > 6u ? (!(x2 % 10u > 0u) ? x0 : cnt) : a);
		break;
	case 1u:
		x3 += low(b) * 3u;
		break;
	case 2u:
		tab[x3 & 15u] = b;
		break;
	default:
		x3 -= tab[a & 15u] > b ? a : 7u;
		break;
	}
	return x3 ^ (x0 << 3);
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 200u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + mix(a, b);
		cnt += (a & 1u) + (it == 100u ? 4u : 0u);
	}
	printf("sum=%u cnt=%u\n", sum, cnt);
	return 0;
}
