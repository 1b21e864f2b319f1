/* `while (i1 < (x1 & 15u) && (x2 & 63u) < 4u)` with an invariant second
 * test: gcc -O1 tests both once above the loop and counts i1 at the
 * bottom, so the loop's body and its back branch follow the invariant's
 * test with no code of the loop's condition blocks between. The alignment
 * put the body into the invariant's block, and the back branch, landing
 * inside its own block, was taken for a ?: within the block and not
 * routed: the function was claimed exact with the latch arc at 0 (909 in
 * the twin). A transfer back into the middle of its own block is a loop
 * and is routed now, which makes the alignment try another partition
 * (gcda_route.c: xfer; tests/gcda/hunt/progen.py seed 477 at -O1). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned g_cnt;
static unsigned long long g_rs = 0x3c6ef372fe94f82bull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned h0(unsigned x)
{
	if ((x & 7u) == 0u)
		return (x + x);
	if (((x >> 2) & 1u))
		x = (x % 10u == 0u ? x : g_cnt);
	return (((x & 31u) < 7u ? x : 10u) ^ g_cnt);
}

static __attribute__((noinline)) unsigned f0(unsigned a, unsigned b)
{
	unsigned x1 = b;
	unsigned x2 = b >> 2;
	unsigned i1 = 0;

	while (i1 < (x1 & 15u) && (x2 & 63u) < 4u) {
		i1++;
		g_arr[i1 & 15u] |= h0((g_arr[x1 & 15u] | a));
	}
	return a ^ x1 ^ x2;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 400u; it++) {
		unsigned a = rnd(), b = rnd();

		if (it % 3u == 1u)
			sum = sum * 31u + f0(a, b % 16u);
		g_cnt += h0(a ^ it);
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
