/* `(A && B) || C` after a switch one of whose cases sets B's operand so
 * that B is false: jump threading sends that case straight to C's test,
 * where A's false way lands too, while B's false way is a jump there. The
 * arc of B's false way was claimed with the jump's count alone, missing the
 * case's executions, which in the source went A, B, then C (gcda_ways.c:
 * jump_arrivals; tests/gcda/hunt/progen.py seed 134 at -O1: 14 against
 * the twin's 118). */
#include <stdio.h>

static unsigned g_arr[16];
static unsigned g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 0xbb67ae8584caa73bull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

__attribute__((noinline)) static unsigned pick(unsigned a, unsigned b)
{
	unsigned x0 = a, x1 = b, x2 = a + 2u, x3 = b >> 3;

	switch (g_cnt % 4u) {
	case 0u:
		g_arr[x3 & 15u] = x0;
		break;
	case 1u:
		x1 = 0u;
		break;
	case 2u:
		x2 += a % (x1 | 1u);
		b -= x2;
		break;
	default:
		g_s[b & 3u] += x0;
		break;
	}
	if ((g_arr[x2 & 15u] > x3 && x1 > b) || (a & 1u) == 1u)
		x0 = g_arr[a & 15u] * 3u;
	else if (x2 > 5u || x1 <= g_arr[a & 15u] % 4u)
		a += x1;
	return x0 ^ x1 ^ a;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = rnd(), b = rnd();

		sum = sum * 31u + pick(a, b);
		g_cnt += a & 3u;
	}
	printf("%u %u %u\n", sum, g_s[0], g_s[1]);
	return 0;
}
