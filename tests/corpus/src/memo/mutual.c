/* memo, second unit: mutual recursion with memo.c's callers, tail calls. */
#include "memo.h"

long is_even_depth(unsigned n, long acc)
{
	if (n == 0)
		return acc;
	return is_odd_depth(n - 1, acc + (n & 3));
}

long is_odd_depth(unsigned n, long acc)
{
	if (n == 0)
		return -acc;
	if (n == 1)
		return acc + 1;
	return is_even_depth(n - 1, acc ^ (long)n);
}

static int memo_b[64];

int tree_a(int n, int *calls)
{
	++*calls;
	if (n < 2)
		return n;
	return tree_b(n - 1, calls) + tree_b(n - 2, calls);
}

int tree_b(int n, int *calls)
{
	++*calls;
	if (n < 0)
		return 0;
	if (memo_b[n])
		return memo_b[n] - 1;
	int r = n < 3 ? 1 : tree_a(n - 1, calls) + tree_a(n - 3, calls);
	memo_b[n] = r + 1;
	return r;
}

unsigned gcd_tail(unsigned a, unsigned b)
{
	if (b == 0)
		return a;
	return gcd_tail(b, a % b);
}

long sum_tail(const int *v, int n, long acc)
{
	if (n == 0)
		return acc;
	if (v[0] < 0)
		return sum_tail(v + 1, n - 1, acc - v[0] / 2);
	return sum_tail(v + 1, n - 1, acc + v[0]);
}
