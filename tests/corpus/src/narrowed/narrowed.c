/* narrowed: a relational `?:` test VRP narrowed to an equality. After
 * `if (a[i] < a[j])` the difference's sign is known on one path: jump
 * threading copies the inlined `d <= 0 ? ...` test there and folds it
 * (true), and on the other path (a[i] >= a[j]) `d <= 0` holds exactly
 * when d == 0: a beq/bne of the two values, on the `?:`'s line. A
 * non-strict test holds on the equal way, a strict one (`gap`'s `e < 0`
 * after `a[k] > c`) on the unequal way; the runs the branch does not see
 * took the equal way's arc (gcda_srcarms.c: narrowed_taken). */
#include <stdio.h>

#define N 40

static unsigned seed = 77;

static int draw(void)
{
	seed = seed * 1664525u + 1013904223u;
	return (int)((seed >> 20) & 63);
}

static int spread(int a, int b, int lim)
{
	int d = a - b;

	return d <= 0 ? -d < lim : d < lim;
}

static int gap(int x, int y)
{
	int e = x - y;

	return e < 0 ? -e : e + 5;
}

int main(void)
{
	static int a[N];
	int lt = 0, near = 0, wide = 0;
	long g = 0;

	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < N; i++)
			a[i] = draw();
		for (int i = 0; i < N; i++)
			for (int j = i + 1; j < N; j++) {
				if (a[i] < a[j])
					lt++;
				if (spread(a[i], a[j], 9))
					near++;
				else
					wide++;
			}
		for (int k = 1; k < N; k++) {
			int c = a[k - 1];

			if (a[k] > c)
				g += 2;
			g += gap(a[k], c);
		}
	}
	printf("lt=%d near=%d wide=%d g=%ld\n", lt, near, wide, g);
	return 0;
}
