/* Call shapes: a function called both directly and through a pointer, recursion
 * with two recursive calls and an accumulator, noinline helpers next to helpers
 * gcc inlines, mutual recursion, and a callback that calls back into its caller. */
#include <stdio.h>

typedef long (*binop)(long, long);

/* Called directly and through OPS below. */
static long add_sat(long a, long b)
{
	long r = a + b;

	if (r > 1000000)
		return 1000000;
	if (r < -1000000)
		return -1000000;
	return r;
}

__attribute__((noinline)) static long mul_mod(long a, long b)
{
	return (a * b) % 10007;
}

static long sub_abs(long a, long b)
{
	return a > b ? a - b : b - a;
}

static const binop ops[] = { add_sat, mul_mod, sub_abs };

/* Small: inlined everywhere at -O1/-O2. */
static inline int clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* Large enough and marked so it stays out of line. */
__attribute__((noinline)) static int mix8(int a, int b)
{
	int r = clamp8(a) ^ clamp8(b);

	if (r & 0x80)
		r = ~r & 0xff;
	return r;
}

/* Counts the ways to write N as an ordered sum of 1s and 2s, accumulating the
 * number of leaves in *LEAVES. */
static long ways(int n, long *leaves)
{
	if (n <= 1) {
		(*leaves)++;
		return 1;
	}
	return ways(n - 1, leaves) + ways(n - 2, leaves);
}

/* Partition sum with an accumulator passed down: every path of the binary
 * recursion adds its depth. */
static long paths(int n, int depth, long acc)
{
	if (n == 0)
		return acc + depth;
	if (n < 0)
		return acc;
	acc = paths(n - 2, depth + 1, acc);
	return paths(n - 3, depth + 1, acc);
}

static int is_even(unsigned n);

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

/* Applies F to the pairs of A and folds with OP; OP may be add_sat itself. */
static long fold(const long *a, int n, binop op, long init)
{
	long r = init;
	int i;

	for (i = 0; i < n; i++)
		r = op(r, a[i]);
	return r;
}

/* A callback that uses fold again (re-entrancy through a pointer). */
static long nested(long acc, long v)
{
	long tmp[3] = { v, v + 1, v + 2 };

	return add_sat(acc, fold(tmp, 3, sub_abs, v % 5));
}

__attribute__((noinline)) static int pick_op(int i)
{
	return (i * 7 + 3) % 3;
}

int main(void)
{
	long a[24];
	long r = 0, leaves = 0;
	int i, s = 0;

	for (i = 0; i < 24; i++)
		a[i] = (i * 131) % 97 - 40;

	for (i = 0; i < 300; i++) {
		int k = pick_op(i);

		r = ops[k](r, a[i % 24]);
		r = add_sat(r, i);
		if (i % 5 == 0)
			r = sub_abs(r, a[(i * 3) % 24]);
	}
	printf("ops %ld\n", r);

	r = fold(a, 24, add_sat, 0) + fold(a, 24, mul_mod, 1) + fold(a, 24, nested, 0);
	printf("fold %ld\n", r);

	for (i = -20; i < 300; i += 7)
		s += mix8(i, 300 - i) + clamp8(i * 3);
	printf("mix8 %d\n", s);

	r = 0;
	for (i = 0; i < 18; i++)
		r += ways(i, &leaves);
	printf("ways %ld leaves %ld\n", r, leaves);

	r = 0;
	for (i = 0; i < 22; i++)
		r += paths(i, 0, 0);
	printf("paths %ld\n", r);

	s = 0;
	for (i = 0; i < 60; i++)
		s += is_odd((unsigned)i * 3) * 2 + is_even((unsigned)i);
	printf("parity %d\n", s);
	return 0;
}
