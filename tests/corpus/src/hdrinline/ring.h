/* Shared declarations of the hdrinline corpus program: static inline helpers defined
 * in this header and used by two translation units (each gets its own copy). */
#ifndef CORPUS_RING_H
#define CORPUS_RING_H

#define RING_SIZE 8

struct ring {
	int buf[RING_SIZE];	/* stored items */
	unsigned head;		/* next slot to read */
	unsigned tail;		/* next slot to write */
	unsigned n;		/* items stored */
};

/* Clamps v to [lo, hi]. */
static inline int clampi(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

/* Appends v unless the ring is full. Returns 1 if stored. */
static inline int ring_push(struct ring *r, int v)
{
	if (r->n == RING_SIZE)
		return 0;
	r->buf[r->tail] = v;
	r->tail = (r->tail + 1) % RING_SIZE;
	r->n++;
	return 1;
}

/* Removes the oldest item into *v. Returns 1 if there was one. */
static inline int ring_pop(struct ring *r, int *v)
{
	if (r->n == 0)
		return 0;
	*v = r->buf[r->head];
	r->head = (r->head + 1) % RING_SIZE;
	r->n--;
	return 1;
}

int produce(struct ring *r, int seed, int count);
long consume(struct ring *r, int limit);

#endif
