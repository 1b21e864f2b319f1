/* One static inline helper called three times from one function: with a
 * null predicate gcc inlines it early (before the profiling pass, so the
 * gcno function `pick` lists the helper's lines), with the two predicate
 * functions only late, once IPA constant propagation made them direct
 * calls: those copies are calls of `total_if` for the gcno, though their
 * code has the lines the early copy made `pick`'s. */
#include <stdio.h>

static int odd(int x) { return x & 1; }
static int small(int x) { return x < 300; }

static inline long total_if(const int *v, int n, int (*keep)(int))
{
	long s = 0;
	for (int i = 0; i < n; i++)
		if (!keep || keep(v[i]))
			s += v[i];
	return s;
}

__attribute__((noinline)) static long pick(const int *v, int n, int mode)
{
	if (mode == 1)
		return total_if(v, n, odd);
	if (mode == 2)
		return total_if(v, n, small);
	if (mode == 3)
		return total_if(v, n, 0);
	return -mode;
}

int main(void)
{
	int v[48];
	unsigned x = 7;
	long sum = 0;
	for (int i = 0; i < 48; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (int)(x >> 16) % 1000;
	}
	/* modes 1, 2, 3, 4 run 9, 3, 14 and 4 times */
	for (int r = 0; r < 30; r++) {
		int mode = r < 9 ? 1 : r < 12 ? 2 : r < 26 ? 3 : 4;
		sum += pick(v, 8 + r, mode);
	}
	printf("%ld\n", sum);
	return 0;
}
