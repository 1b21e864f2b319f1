/* A nested one-line `?:` inlined early, `(x & 4u) ? (x % 10u < 1u ?
 * g_zero[x & 3u] : x) : 0u`, whose caller adds the result: g_zero is
 * never written (gcc reads it as 0), so adding 0 or g_zero[..] is nothing
 * and the caller's `+=` is kept on the `: x` way only. The chain's last
 * test then leaves for the join on the way that skips that add, where the
 * first test's other way lands too: read as the way to the first test's
 * destination (gcda_chain.c: last_exit_way), though the add on the other
 * way is the join's code, not the arm's (tests/gcda/hunt/progen.py seed
 * 516 at -O2). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned g_zero[4];
static unsigned g_cnt;
static unsigned long long g_rs = 0x0f1e2d3c4b5a6978ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned pick(unsigned x) { return (x & 4u) ? (x % 10u < 1u ? g_zero[x & 3u] : x) : 0u; }

__attribute__((noinline)) static unsigned sum_picks(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++) {
		g_cnt += i & 1u;
		s += pick(g_arr[i & 15u] + i);
	}
	return s;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned it = 0; it < 200u; it++) {
		g_arr[it & 15u] = rnd();
		sum = sum * 31u + sum_picks(it % 9u + 1u);
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
