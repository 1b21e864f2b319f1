/* discarms: two-way conditions written on one line (`c ? a : b`), the
 * test and both arms sharing the line, so that only the DWARF
 * discriminators gcc gives the arms' blocks tell which machine way runs
 * which arm; each function is called out of line and runs its arms a
 * different number of times. */
#include <stdio.h>

static unsigned seed = 7u;

static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* Rounds half away from zero: each arm a subtraction or an addition of
 * one constant, then one conversion. */
__attribute__((noinline)) static int round_away(double v)
{
	return (int)(v < 0 ? v - 0.25 : v + 0.75);
}

/* Scales by one of two factors, the arms alike but for the constant. */
__attribute__((noinline, noclone)) static long scale(long x, long k)
{
	return x > k ? x * 13 + k : x * 7 - k;
}

/* Picks one of two tables' entries. */
static const int lo_tab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static const int hi_tab[8] = {2, 7, 1, 8, 2, 8, 1, 8};

__attribute__((noinline)) static int pick(unsigned i, int hi)
{
	return hi ? hi_tab[i & 7] * 3 + 1 : lo_tab[i & 7] * 5 - 2;
}

/* Saturates, then rounds on one line: the early returns keep the
 * function from being exact, so the branch's pins must pair the ways. */
__attribute__((noinline, noclone)) static int clamp_round(double v,
                                                          double lim)
{
	if (v != v)
		return -1;
	if (v > lim)
		return (int)lim;
	if (v < -lim)
		return (int)-lim;
	return (int)(v < 1.0 ? v * 0.5 - 3.0 : v * 0.25 + 1.0);
}

/* Two tests on one line, nested: three arms and two tests share it. */
__attribute__((noinline, noclone)) static int grade(int a, int b, int c)
{
	return a < 0 ? b * 3 : c < 40 ? b * 5 + c : c * 9 - b;
}

__attribute__((noinline)) static double half(double v)
{
	return v / 2.0;
}

/* A call in each arm: the profiler ends a block after each call, so
 * each arm is two gcno blocks, yet one block (one discriminator) when
 * gcc numbered them. */
__attribute__((noinline, noclone)) static int call_arms(double v)
{
	return (int)(v < 0 ? half(v) * 3.0 : half(v + 1.0) + 2.0);
}

int main(void)
{
	long acc = 0;
	for (int i = 0; i < 3000; i++) {
		unsigned r = rnd();
		double v = (double)(int)(r % 1000) - 100.0;
		acc += round_away(v / 7.0);
		acc += scale((long)(r % 500), 420);
		acc += pick(r, (r & 15) == 3);
		acc += clamp_round(v, 850.0);
		acc += call_arms(v);
		acc += grade((int)(r % 9) - 2, (int)(r & 63), (int)(r % 100));
	}
	printf("%ld\n", acc);
	return 0;
}
