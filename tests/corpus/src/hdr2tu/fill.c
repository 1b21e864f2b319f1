#include "vec.h"

static int is_small(int x) { return x < 100; }

void fill(struct vec *a, int seed, int count)
{
	int i, x = seed;
	for (i = 0; i < count; i++) {
		x = (x * 75 + 74) % 65537;
		if (vec_push(a, clampi(x % 1000 - 100, 0, 900)) < 0)
			break;
	}
	if (vec_sum_if(a, is_small) > 1000)
		vec_push(a, 0);
}
