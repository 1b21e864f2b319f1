/* multitu: points are generated and hashed in util.c, the hull and area computed in geom.c. */
#include <stdio.h>
#include "shapes.h"

#define N 300

int main(void)
{
	static struct pt p[N], h[N];
	int round, n;
	long area = 0;
	unsigned long hs = 0;

	for (round = 0; round < 4; round++) {
		gen_points(p, N, 17u + (unsigned int)round);
		hs ^= hash_points(p, N);
		n = hull(p, N, h);
		area += poly_area2(h, n);
		printf("round %d hull=%d area2=%ld\n", round, n, poly_area2(h, n));
	}
	printf("total area2=%ld hash=%lu\n", area, hs);
	return 0;
}
