/* Statistics over vectors using header inline helpers from two units. */
#include <stdio.h>
#include "vec.h"

static int is_even(int x) { return (x & 1) == 0; }
static int is_big(int x) { return x > 500; }

long stats(const struct vec *a, int which)
{
	switch (which) {
	case 0: return vec_max(a);
	case 1: return vec_sum_if(a, NULL);
	case 2: return vec_sum_if(a, is_even);
	case 3: return vec_sum_if(a, is_big);
	default: return clampi(which, -5, 5);
	}
}

int main(void)
{
	int storage[64];
	struct vec a;
	int s, w;
	for (s = 1; s < 8; s++) {
		a.v = storage;
		a.n = 0;
		a.cap = (size_t)(s * 9);
		fill(&a, s * 1234, s * 10);
		printf("seed %d n %zu:", s, a.n);
		for (w = 0; w < 6; w++)
			printf(" %ld", stats(&a, w));
		printf("\n");
	}
	a.n = 0;
	printf("empty %ld %ld\n", stats(&a, 0), stats(&a, 1));
	return 0;
}
