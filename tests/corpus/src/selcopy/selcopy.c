/* `f0(c ? x2 : x3, ...)` whose arms are registers: gcc loads x3 into the
 * argument register, tests, and on one way copies x2 over it. The
 * alignment left the gcno block of the arm (no lines) empty and started
 * the join with the copy, so the function was claimed exact with the
 * arms' counts swapped. A branch with a way of only edge copies now keeps
 * a function from exact (gcda_triangle.c: gm_triangle_moves_placed;
 * tests/gcda/hunt/progen.py seed 474 at -O1: 56 against the twin's 1). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 0xa54ff53a5f1d36f1ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned h0(unsigned x) { return x <= 3u ? x : (x * 13u); }

__attribute__((noinline)) static unsigned f0(unsigned a, unsigned b)
{
	g_cnt += a & 7u;
	return a ^ (b << 1);
}

__attribute__((noinline)) static unsigned f1(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a ^ b;
	unsigned x3 = a + 3u;

	a += f0(g_cnt, (x2 + a));
	a = h0((g_s[x1 & 3u] >> 3u));
	x2 = h0((x3 % 255u));
	x1 += f0((g_arr[x3 & 15u] > a ? x2 : x3), g_cnt);
	return x0 ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd() % 40u;
	for (unsigned i = 0; i < 4u; i++)
		g_s[i] = rnd();
	for (unsigned it = 0; it < 200u; it++)
		sum = sum * 31u + f1(rnd(), rnd());
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
