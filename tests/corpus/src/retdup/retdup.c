/* `return (y & 8u) ? y : t[n & 3u].b;` in r's n == 0 case (the shape of
 * hunt seed 1051's r2), t never written: gcc folds the load arm to 0,
 * which the test's own `and a0,a1,8` already holds on that way, so the
 * arm block has no code; the `y` way (the direct arc, no block) runs the
 * PHI move `mv a0,a1` on the condition's line, the line the arm block
 * lists. The return is tail-duplicated (`mv a0,a1; ret` on one way, a
 * bare `ret` on the other): the move may be either arm's, so the branch
 * tells neither (its arcs must not be claimed from the lines). */
#include <stdio.h>
struct pair {
	unsigned a, b;
};
static struct pair t[4];
static unsigned acc[16];
__attribute__((noinline)) static unsigned step(unsigned v, unsigned w)
{
	acc[v & 15u] += w;
	return acc[(v ^ w) & 15u] + v;
}
__attribute__((noinline)) static unsigned r(unsigned n, unsigned x)
{
	unsigned y = x;
	if (n == 0u)
		return ((y & 15u) >= 8u ? y : t[n & 3u].b);
	{
		unsigned i = 0;
		do {
			i++;
			y += step(acc[x & 15u] + x, i + y);
			x = step(i, y) + n;
		} while (i < (y & 15u) && acc[x & 15u] > y);
	}
	return x ^ r(n - 1u, y & 31u);
}
int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 20u; k++)
		s += r(0u, k * 7u + 1u);
	for (unsigned k = 0; k < 6u; k++)
		s ^= r(k % 3u, k * 5u);
	printf("%u\n", s);
	return 0;
}
