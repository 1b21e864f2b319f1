/* `x = c ? (y ^ y) : (v ^ y); return x ^ y;`: the return folds the
 * second arm's value away (v ^ y ^ y is v, already in the return
 * register), so that arm's way is a bare return, while the first arm's
 * way copies y, on the ?: line: the copy is no sign of the arm. */
#include <stdio.h>

static unsigned tab[32];

__attribute__((noinline)) static unsigned f1(const unsigned *a, unsigned p,
                                             unsigned q)
{
	unsigned x = p, y = q;
	if ((((x ^ y) & 4u) == 0) && ((p + 3u) < (a[(x + y) & 31] & 15u)))
		return y ^ y;
	x = ((a[(x + y) & 31] * 7u) & 7u) == 0 ? (y ^ y) : (a[(x + y) & 31] ^ y);
	return x ^ y;
}

int main(void)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < 32; i++)
		tab[i] = (i * 2654435761u >> 9) & ~(i % 9u == 0 ? 7u : 0u);
	for (unsigned r = 0; r < 60; r++)
		acc += f1(tab, r * 3u, tab[(r * 7u) & 31]);
	printf("%u\n", acc);
	return 0;
}
