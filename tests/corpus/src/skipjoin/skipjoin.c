/* A switch's `default:` whose whole condition jump threading resolved on
 * one way in (hunt seed 1174's shape): the switch value is 255 when
 * `x2 <= 4u`, and there `b < 20u`, so the default's second test `((b >>
 * 5) & 1u ? b : 3u) > 3u` is false, and so is the test after the switch,
 * `x2 > 7u`: that way jumps from the switch's first test to the else arm
 * of the `if` after it. The default's first test runs there without its
 * branch (the instrumented twin counts it either way), so the branch's
 * counts are lower bounds, no claim. */
#include <stdio.h>
static unsigned t[16];
static unsigned rs = 7u;

static unsigned rnd(void)
{
	rs = rs * 1103515245u + 12345u;
	return (rs >> 9) % 1000u;
}

static __attribute__((noinline)) unsigned h(unsigned x)
{
	return 3u + t[x & 15u];
}

static __attribute__((noinline)) unsigned step(unsigned a, unsigned b)
{
	unsigned x0 = a, x1 = b, x2 = b >> 2, x3 = a ^ b;
	switch (!(x2 > 4u && x0 % 10u != 2u) ? 255u : b) {
	case 100u:
		t[x2 & 15u] |= x0;
		break;
	case 1000u:
		if ((x3 & 7u) == 0u)
			goto out;
		break;
	default:
		if (((x3 >> 7) & 1u) && (((b >> 5) & 1u) ? x1 : 3u) > 3u)
			goto out;
		break;
	}
	if (x2 > 7u) {
		b ^= 7u | x2;
	} else {
		if (a % 5u < 2u)
			t[x0 & 15u] += x2;
		x1 = h(b);
	}
	t[x1 & 15u] ^= 3u;
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 16u; k++)
		t[k] = rnd();
	for (unsigned k = 0; k < 200u; k++) {
		unsigned a = rnd(), b = rnd();
		if (k % 4u == 0u)
			b %= 20u;
		s += step(a, b);
	}
	printf("%u\n", s);
	return 0;
}
