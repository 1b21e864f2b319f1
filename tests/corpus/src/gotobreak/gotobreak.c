/* `if (c) goto out;` as the last statement of a switch's case right before
 * `out:`, the other way leaving by two `break;`s: at -O0 the goto leaves
 * only its nop, which the branch lands on and falls through into `out:`,
 * while the breaks are a nop and a jump past the goto's nop. A route
 * through the jump-only block of the outer break (which a transfer may
 * skip) has the flags of a taken branch and was preferred: the goto's arc
 * got nothing, yet the function was claimed exact (tests/gcda/hunt/
 * progen.py seed 292 at -O0). The nop's line names the goto's block
 * (gcda_route.c: dfs). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned long long g_rs = 0x853c49e6748fea9bull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

__attribute__((noinline)) static unsigned f1(unsigned a, unsigned b)
{
	unsigned x2 = a ^ b, x3 = 3u;

	switch (a % 4u) {
	case 1u:
		x3 = b;
		break;
	default:
		switch (b % 3u) {
		case 0u:
			x3 = a + 1u;
			break;
		default:
			x3 = g_arr[b & 15u];
			if (x2 % 5u > 1u)
				goto out;
			break;
		}
		break;
	}
out:
	return x2 ^ x3;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 200u; it++) {
		unsigned a = rnd(), b = rnd();

		sum = sum * 31u + f1(a, b);
	}
	printf("%u\n", sum);
	return 0;
}
