/* A `?:` whose one arm reads a field no store ever changes (hunt seed
 * 1169's shape): `(c ? s[i].a : 255u) ^ v` with s a static array never
 * written, so s[i].a is a known zero at -O2. The arm block's value (0)
 * folds the join's `^ v` away on its way; the literal arm keeps it as
 * `xori v,255` on the other way: the branch skips that xori on the
 * true way. The skipped code lies on the `?:`'s line, which the arm
 * block and the join list alike; read as the arm block's, the true
 * and false counts came out swapped (1 for 7). */
#include <stdio.h>
struct pair {
	unsigned a, b;
};
static struct pair g_s[4];
static unsigned g_arr[16];
static unsigned g_rs = 12345u;

static unsigned rnd(void)
{
	g_rs = g_rs * 1103515245u + 12345u;
	return (g_rs >> 8) % 1000u;
}

static unsigned mix(unsigned a, unsigned b)
{
	unsigned x2 = a + 2u;
	unsigned i = 0;
	while (i < 3u && a % 10u != 2u) {
		i++;
		if ((b + x2) > 1u || ((a >> 2) & 1u))
			break;
		b ^= g_arr[i];
	}
	if (g_arr[x2 & 15u] > a) {
		g_arr[a & 15u] += x2;
	} else {
		b |= ((((x2 >> 3) & 1u) ? g_s[a & 3u].a : 255u) ^ g_arr[x2 & 15u]);
		g_arr[b & 15u] ^= a;
	}
	return b;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 67u; it++)
		sum += mix(rnd(), rnd());
	printf("%u\n", sum);
	return 0;
}
