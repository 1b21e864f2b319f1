/* midrow: an open-addressing set of ids that are never 0 (1..997), whose
 * probe loop ends on an empty slot or on the id itself; after the loop an
 * `if (slot[h] == id) repeats++;`. gcc threads the empty-slot exit past
 * that test (an id is never 0) into the store's code, whose zero
 * extension of h it leaves without a location: the line table runs the
 * `repeats++` row on over it, and the threaded jump lands there. */
#include <stdint.h>
#include <stdio.h>

#define SLOTS 512

static uint32_t slot[SLOTS];

int main(void)
{
	int i, steps = 0, repeats = 0;
	uint32_t sum = 0;

	for (i = 0; i < 400; i++) {
		uint32_t id = (uint32_t)(i * 389 % 997) + 1;
		uint32_t h = (id * 40503u) >> 23;

		if (i % 3 == 0)
			id = (uint32_t)(i % 40) + 1;
		while (slot[h] && slot[h] != id) {
			h = (h + 1) & (SLOTS - 1);
			steps++;
		}
		if (slot[h] == id)
			repeats++;
		slot[h] = id;
		sum += id;
	}
	printf("steps=%d repeats=%d sum=%u\n", steps, repeats, sum);
	return 0;
}
