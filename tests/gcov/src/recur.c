/* Recursion (including mutual recursion) and a function pointer call. */
#include <stdio.h>

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

long fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int (*fp)(unsigned) = is_even;
	long f = fib(12);
	int e = fp(17) + is_odd(9);
	printf("%ld %d\n", f, e);
	return 0;
}
