/* Two conditions on two lines that gcc merges into one range check:
 * `if (!((a & 31u) < 18u)) { if ((a & 31u) < 29u && ...` becomes
 * `(a & 31) - 18 <= 10`, one branch on the first line whose ways start the
 * second line and the shared join. It passes for the first condition's
 * test, yet its fall-through count is the executions that passed both;
 * the second condition keeps no branch. Neither condition's arcs may be
 * claimed (gcda_merged.c; found by tests/gcda/hunt/progen.py seed 14 at
 * -O1, which claimed the first condition's arc with 16, the twin's 22). */
#include <stdio.h>

static unsigned g_cnt;
static unsigned long long g_rs = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 65536u;
}

__attribute__((noinline)) static unsigned window(unsigned a, unsigned b)
{
	unsigned x3 = b >> 3;

	if (!((a & 31u) < 18u)) {
		if ((a & 31u) < 29u && (x3 & 7u) == 0u && (a * g_cnt) > 3u)
			return a;
	}
	g_cnt += a & 3u;
	return a ^ b;
}

/* The same pair as an else-if ladder's first rungs. */
__attribute__((noinline)) static unsigned band(unsigned v)
{
	if (v % 100u >= 40u) {
		if (v % 100u < 70u)
			return v / 3u;
	}
	return v + 1u;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = rnd(), b = rnd();

		sum = sum * 31u + window(a, b);
		sum ^= band(a ^ b);
		g_cnt += it & 1u;
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
