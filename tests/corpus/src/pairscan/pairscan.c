/* pairscan: every pair (i < j) of a table of samples, counting inversions
 * and near pairs. At -O2 gcc rotates the inner loop (its test at the
 * bottom, a backward branch into the body) and merges its start `j = i
 * + 1` into the outer loop's increment, code the line table gives the
 * inner loop's line: the bottom test's way out runs only that line,
 * which no successor of the test's gcno block lists. */
#include <stdio.h>

#define N 48

static unsigned seed = 2024;

static int sample(void)
{
	seed = seed * 1103515245u + 12345u;
	return (int)((seed >> 16) & 1023);
}

static int near(int a, int b, int tol)
{
	int d = a - b;

	return d < 0 ? -d <= tol : d <= tol;
}

int main(void)
{
	static int v[N];
	int inv = 0, close = 0, far = 0;
	long sum = 0;

	for (int r = 0; r < 4; r++) {
		for (int i = 0; i < N; i++)
			v[i] = sample();
		for (int i = 0; i < N; i++)
			for (int j = i + 1; j < N; j++) {
				if (v[i] > v[j])
					inv++;
				if (near(v[i], v[j], 60))
					close++;
				else
					far++;
			}
		for (int i = 0; i < N; i++)
			sum += v[i] * (i + 1);
	}
	printf("inv=%d close=%d far=%d sum=%ld\n", inv, close, far, sum);
	return 0;
}
