/* A test jump threading resolves on one way in (hunt seed 1213's
 * shape): `if (!((a & 7u) == 0u && b == (t[x & 15u] > x && ... ? g :
 * 255u)))`, on its way into the `if` body having found t[x & 15u] > x
 * true, knows the body's first test `t[x & 15u] > x` (the same load and
 * comparison) and jumps to the second. The body's test block runs there
 * without its branch: the branch left counts fewer runs than the
 * instrumented twin, so its counts are no claim. */
#include <stdio.h>
static unsigned t[16];
static unsigned g = 3u;
static unsigned rs = 99u;

static unsigned rnd(void)
{
	rs = rs * 1103515245u + 12345u;
	return (rs >> 9) % 1000u;
}

static __attribute__((noinline)) unsigned step(unsigned a, unsigned b)
{
	unsigned x = a ^ b;
	unsigned r = a;
	if (!((a & 7u) == 0u && b == (t[x & 15u] > x && (a & 31u) < 24u ? g : 255u))) {
		if (t[x & 15u] > x && b % 10u < 1u) {
			b ^= (b & (10u >> (x & 7u)));
			r += b * 3u;
		}
	}
	return r ^ b;
}

int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 16u; k++)
		t[k] = rnd();
	for (unsigned k = 0; k < 200u; k++) {
		unsigned a = rnd() & ~7u, b = rnd();
		if (k % 3u == 0u)
			b = b % 10u == 0u ? b : g;
		if (k % 5u == 0u)
			a = rnd();
		g = (g * 7u + k) % 1000u;
		s += step(a, b);
	}
	printf("%u\n", s);
	return 0;
}
