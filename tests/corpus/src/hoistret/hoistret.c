/* A loop test of values the loop does not change (`b % 10u != 2u || a <=
 * (b >> 2 ^ 2u)`, returning), which gcc evaluates once before the loop,
 * in a function inlined into its only caller; the loop's other exit is a
 * return too. Every way out of the loop leaves the inlined copy into the
 * caller's code, which the check for a hoisted test (gcda_hoist.c: reach)
 * took as code that may lead back to the test: the test's branch, run
 * once per call, was claimed as the count of the arc that stays in the
 * loop (tests/gcda/hunt/progen.py seed 812 at -O2: 2 against the twin's
 * 8). Leaving the copy on a line only blocks list from which the gcno
 * cannot come back to the test is leaving the call (leaves_call). */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x853c49e6748fea9bull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned scan(unsigned a, unsigned b)
{
	unsigned x0 = a, x2 = b >> 2;
	for (unsigned i = 0; i < (b & 15u); i++) {
		if ((i >> 2) & 1u)
			return cnt | b;
		x0 ^= (i & b) & tab[a & 15u];
		if (b % 10u != 2u || a <= (x2 ^ 2u))
			return x0;
	}
	for (unsigned j = 0; j < (x0 & 7u); j++)
		tab[j] += x0 >> j;
	return x0 ^ x2;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 60u; it++) {
		unsigned a = next(), b = next();
		if (it % 3u == 0u)
			b = 10u * (b / 10u) + 2u; /* b % 10 == 2: the loop runs on */
		sum = sum * 31u + scan(a, b);
		cnt += sum & 1u;
	}
	printf("sum=%u\n", sum);
	return 0;
}
