/* `while (i < 9u && t[3] > 4u)` whose body only sets values the loop
 * does not change (hunt seed 1115's shape): at -O1 gcc enters the
 * rotated loop at its second test (the first, 0 < 9, known on entry),
 * counts i down after it, and puts the body's two assignments, now
 * register moves, on both edges out of that count test. Its ways both
 * run the body's line first, so they tell no arm: taken for the `t[3]`
 * test's block, the exit after the body (`i < 9u` failing) was counted
 * as `t[3] > 4u` failing, which never happens. */
#include <stdio.h>
static unsigned t[16];
static unsigned cnt;
static unsigned spin(unsigned a, unsigned b, unsigned x)
{
	unsigned w = a ^ b;
	unsigned k = 0;
	do {
		k++;
		if (!(b % 5u == 0u || (x & 7u) == 1u))
			break;
		{
			unsigned j = 0;
			do
				j++;
			while (j < 8u && t[k & 15u] > b);
		}
		{
			unsigned i = 0;
			while (i < 9u && t[3] > 4u) {
				i++;
				b = (13u >> ((x >> (cnt & 7u)) & 7u));
				a = w;
			}
		}
	} while (k < (b & 7u));
	return a * 3u + b;
}
int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 16u; k++)
		t[k] = k * 7u + 3u;
	for (unsigned k = 0; k < 40u; k++) {
		cnt = k;
		s += spin(k * 11u, k * 5u, k);
		t[3] = (k & 7u) == 3u ? 2u : k + 5u;
	}
	printf("%u\n", s);
	return 0;
}
