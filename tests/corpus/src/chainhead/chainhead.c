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

__attribute__((noinline)) static int gaps(const uint64_t *s, int n)
{
	int t = 0;
	for (int i = 1; i + 3 < n; i += 2) t += !((s[i >> 6] >> (i & 63)) & 1) && !((s[(i + 3) >> 6] >> ((i + 3) & 63)) & 1);
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
		printf("round %d gaps %d\n", r, g);
	}
	printf("total %d\n", total);
	return 0;
}
