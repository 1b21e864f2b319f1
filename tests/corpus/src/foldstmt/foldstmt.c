/* `if (c) x = q ^ y; return x ^ y;` with y == q (rgen.py seed 650, f2):
 * at -O2 the if's statement folds into the return whole (x ^ y is q,
 * already in the return register), so the taken arm's way is a bare
 * return and its line keeps no instruction, while the other way holds
 * the return's own code: the bare return may be either arm. */
#include <stdio.h>

static unsigned long sink;

__attribute__((noinline)) static unsigned f2(const unsigned *a, unsigned n,
                                             unsigned p, unsigned q)
{
	unsigned x = p, y = q;
	(void)n;
	x = (q + 3u);
	if (((a[(x + y) & 31] + 3u) & 7u) == 0)
		return (q * 7u);
	if ((y >> 1) < (p >> 1)) {
		x = (q ^ y);
	}
	return x ^ y;
}

int main(void)
{
	unsigned a[32];
	unsigned s = 12345u, t = 0;
	for (int r = 0; r < 60; r++) {
		for (int i = 0; i < 32; i++) {
			s = s * 1103515245u + 12345u;
			a[i] = (s >> 16) % 23u;
		}
		t += f2(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
		sink += t;
	}
	printf("%u %lu\n", t, sink);
	return 0;
}
