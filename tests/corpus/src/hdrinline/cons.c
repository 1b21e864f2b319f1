/* Consumer unit of hdrinline: pops values and clamps them to a different range. */
#include "ring.h"

/* Pops up to limit values and returns their clamped sum. */
long consume(struct ring *r, int limit)
{
	long s = 0;
	int v;

	while (limit-- > 0 && ring_pop(r, &v))
		s += clampi(v, 10, 100);
	return s;
}
