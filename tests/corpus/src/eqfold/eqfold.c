/* `x = (a[i] + 3) != 10 ? y : (a[i] & 15);`: where the test fails, a[i]
 * is 7, so the second arm folds to the register already holding a[i]
 * (no code); the other way is a zero-extension of y for the 64-bit add
 * after the join and a register copy, no arm's code. */
#include <stdio.h>

static unsigned tab[32];
static unsigned long sink;

__attribute__((noinline)) static unsigned f2(const unsigned *a, unsigned p,
                                             unsigned q)
{
	unsigned x = p, y = q;
	if (((x + 3u) & 1u) == 0)
		sink += x;
	x = (a[(x + y) & 31] + 3u) != 10u ? (y) : (a[(x + y) & 31] & 15u);
	sink += x;
	return x ^ p;
}

int main(void)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < 32; i++)
		tab[i] = (i * 2654435761u >> 7) | 8u;
	for (unsigned r = 0; r < 60; r++)
		acc += f2(tab, r, r * 5u);
	printf("%u %lu\n", acc, sink);
	return 0;
}
