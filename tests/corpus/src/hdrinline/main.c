/* hdrinline: a ring buffer whose static inline helpers live in a header used by two
 * translation units (prod.c, cons.c), so each unit has its own copies. */
#include <stdio.h>

#include "ring.h"

int main(void)
{
	struct ring r = {{0}, 0, 0, 0};
	long total = 0;
	int stored = 0;

	for (int round = 0; round < 400; round++) {
		stored += produce(&r, round, 1 + round % 5);
		total += consume(&r, 1 + round % 3);
	}
	total += consume(&r, 100);
	printf("stored=%d total=%ld left=%u\n", stored, total, r.n);
	return 0;
}
