/* `t += !a && !b` on one line whose second test gcc -O2 computes without
 * a branch (a load, shift and mask added to t): the one branch left is
 * the chain's first test, its skip way jumping straight to the loop's
 * latch, its other way computing the second test. Every block of the
 * loop lists the line, so the lines match the branch to either
 * condition, both ways round; the way that computes the line's code is
 * the first condition's arc into the second (gcda_triangle.c:
 * gm_chain_head_arms, a guess: soft bounds, no claim). */
#include <stdio.h>
#include <stdint.h>

static uint64_t bits[64];
static int hits[8];

__attribute__((noinline)) static int gaps(const uint64_t *s, int n)
{
	int t = 0;
	for (int i = 1; i + 3 < n; i += 2) t += !((s[i >> 6] >> (i & 63)) & 1) && !((s[(i + 3) >> 6] >> ((i + 3) & 63)) & 1);
	return t;
}

/* `if (a || b) hits[x & 7]++;` on one line in a loop, a call in b:
 * both tests jump to the out-of-line arm, which jumps back to the next
 * line; the lines match b's test to a (its taken way runs the line's
 * code, its fallthrough the next line's, the arm block's successor) and
 * to b: the arm the branch skips tells b (gm_one_triangle_block, a
 * guess). */
__attribute__((noinline)) static int flags(const uint64_t *s, int n)
{
	int t = 0;
	for (int k = 0; k < n; k++) {
		uint32_t x = (uint32_t)s[k] ^ (uint32_t)(s[k] >> 29);
		if ((x >> 16) == (x & 0xffff) || __builtin_popcount(x) == 12) hits[x & 7]++;
		t += __builtin_parity(x) ? (int)(x & 8) : (int)(x >> 30);
		t ^= (int)(x >> 7) & 3;
	}
	return t;
}

int main(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int total = 0;
	for (int r = 0; r < 6; r++) {
		for (int k = 0; k < 64; k++) {
			x ^= x << 7;
			x ^= x >> 9;
			bits[k] = x | (x >> 3) | (r & 1 ? x << 5 : 0);
		}
		int g = gaps(bits, 64 * 64 - 8 * r);
		total += g;
		total += flags(bits, 64 - r);
		printf("round %d gaps %d\n", r, g);
	}
	printf("total %d hits %d %d\n", total, hits[0], hits[5]);
	return 0;
}
