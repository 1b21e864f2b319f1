/* One-line helpers `return x == 4u ? x + x : x % m;` inlined early: the
 * gcno has a block for the `%` arm, none for `x + x` (a constant once
 * x == 4 is known, a PHI argument on the arc to the join). Out of SSA the
 * constant is loaded on its way with the helper's line, the condition's
 * line and the `%` block's as well, so the branch's taken way, running
 * that load first, was matched to the `%` block's arc in the loose match
 * and the two ways' counts claimed swapped (gcda_pin.c: one_arm_block;
 * tests/gcda/hunt/progen.py seeds 231 and 618 at -O2). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned h2(unsigned x) { return (x & 1u) ? (g_s[x & 3u] - g_arr[x & 15u]) : x; }

static unsigned h3(unsigned x) { return x == 4u ? (x + x) : (x % (g_s[x & 3u] | 1u)); }

static unsigned h1(unsigned x)
{
	if (x <= 15u)
		return x + x;
	return x % 5u < 2u ? x : g_arr[x & 15u];
}

__attribute__((noinline)) static unsigned f0(unsigned a, unsigned b)
{
	unsigned x2 = h3(g_arr[a & 15u]);
	g_arr[a & 15u] = (x2 & 3u) == 1u ? (a >> 3) : h1(b);
	return x2 ^ b;
}

__attribute__((noinline)) static unsigned f1(unsigned a, unsigned b)
{
	unsigned x0 = a ^ b;
	if (!(g_arr[b & 15u] > a)) {
		x0 |= h2((a % 10u != 0u ? 3u : g_s[x0 & 3u]));
		g_cnt ^= x0 & 3u;
	}
	return x0;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 4u; i++)
		g_s[i] = rnd();
	for (unsigned it = 0; it < 400u; it++) {
		g_arr[it & 15u] = it % 7u == 0u ? 4u : rnd() % 50u;
		sum = sum * 31u + f0(rnd(), rnd());
		sum = sum * 31u + f1(rnd() % 40u, rnd());
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
