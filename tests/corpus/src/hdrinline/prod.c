/* Producer unit of hdrinline: pushes clamped values. */
#include "ring.h"

/* Pushes up to count values derived from seed; returns how many were stored. */
int produce(struct ring *r, int seed, int count)
{
	int stored = 0;

	for (int i = 0; i < count; i++) {
		int v = clampi((seed * 31 + i * 17) % 200 - 50, 0, 120);
		stored += ring_push(r, v);
	}
	return stored;
}
