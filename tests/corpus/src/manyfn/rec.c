/* Recursive and mutually recursive helpers; a static `twist` like ops.c's. */
#include "manyfn.h"

static long twist(long v) { return (v * 31) ^ (v >> 2); }
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long gcd(long a, long b) { return b == 0 ? a : gcd(b, a % b); }
static long sumdown(int n, long acc) { return n == 0 ? acc : sumdown(n - 1, acc + n); }
static long power(long b, int e)
{
	long h;

	if (e == 0)
		return 1;
	h = power(b, e / 2) % 1000003;
	return e & 1 ? h * h % 1000003 * b % 1000003 : h * h % 1000003;
}
static int depth_of(long v) { return v < 2 ? 0 : 1 + depth_of(v / 2); }
static long hanoi(int n, int from, int to, int via)
{
	if (n == 0)
		return 0;
	return hanoi(n - 1, from, via, to) + (from * 3 + to) + hanoi(n - 1, via, to, from);
}
static long collatz(long v)
{
	long steps = 0;

	while (v != 1) {
		v = v & 1 ? 3 * v + 1 : v / 2;
		steps++;
	}
	return steps;
}
static long once_init(void) { return 77; }

long rec_scale(long v)
{
	return twist(v) % 65537;
}

long rec_unused(long v)
{
	return hanoi((int)(v & 3), 1, 2, 3) + gcd(v, 6);
}

long rec_mix(int n, long v)
{
	static long base;
	long r;

	if (!base)
		base = once_init();
	r = base + fib(n % 16) + gcd(v, 360) + sumdown(n % 50, 0) + power(v % 97 + 2, n);
	r += depth_of(v) + (is_even((unsigned)n % 40) ? hanoi(n % 6, 1, 3, 2) : collatz(n + 1));
	return r;
}
