/* Single-producer multi-consumer ring of fixed-size elements (block events).
 *
 * One producer thread, N consumer threads (N fixed at init); every consumer
 * sees every element, in order. Memory is bounded: a power-of-two array of
 * slots. The producer claims contiguous free slots, fills them in place and
 * publishes them with one store; a consumer gets a pointer to the contiguous
 * run of elements it has not consumed yet, processes them in place and
 * releases them. The producer waits for the slowest attached consumer when
 * the ring is full: nothing is ever dropped.
 *
 * Cost: atomics are per batch (claim/publish/wait/release), never per element.
 * Waiting spins briefly, then sleeps (futex on Linux, else a mutex and
 * condition variable); a wake-up call is made only when the other side
 * sleeps, and then once per half ring, not once per batch.
 *
 * Threading contract: lt_ring_claim, lt_ring_publish and lt_ring_close are
 * called by one thread at a time (the producer); lt_ring_wait,
 * lt_ring_release and lt_ring_detach for consumer i by one thread at a time
 * (consumer i). lt_ring_init and lt_ring_fini run with no other thread using
 * the ring.
 */
#ifndef LTPIPE_RING_H
#define LTPIPE_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LT_RING_MAX_CONSUMERS 64
#define LT_RING_CACHE_LINE 64

/* One consumer's cursor, alone on its cache line(s) so that consumers do
 * not slow each other down. */
struct lt_ring_cursor {
	_Alignas(LT_RING_CACHE_LINE)
	_Atomic uint64_t tail;  /* elements consumed (released) so far;
	                           LT_RING_DETACHED once detached */
	uint64_t head_seen;     /* consumer-private: last producer cursor read,
	                           saves an atomic load per wait */
	char pad[LT_RING_CACHE_LINE - 2 * sizeof(uint64_t)]; /* own line */
};

#define LT_RING_DETACHED UINT64_MAX

/* The ring. Treat every member as private: use the functions below. */
struct lt_ring {
	/* read-mostly configuration */
	unsigned char *slots;   /* capacity * elem_size bytes, cache aligned */
	size_t elem_size;       /* bytes per element */
	uint64_t mask;          /* capacity - 1 */
	uint64_t capacity;      /* number of slots, a power of two */
	unsigned nconsumers;    /* number of consumer cursors */
	struct lt_ring_cursor *cons; /* nconsumers cursors */

	/* producer cursor: written by the producer, read by consumers */
	_Alignas(LT_RING_CACHE_LINE)
	_Atomic uint64_t head;  /* elements published so far */
	_Atomic uint32_t closed; /* 1 once the producer closed the stream */

	/* producer-private */
	_Alignas(LT_RING_CACHE_LINE)
	uint64_t min_tail;      /* last seen slowest-consumer cursor (or
	                           LT_RING_DETACHED when all detached) */
	uint64_t claimed;       /* slots returned by the last claim */

	/* consumer -> producer wake-up */
	_Alignas(LT_RING_CACHE_LINE)
	_Atomic uint64_t wake_at; /* when the producer sleeps: the consumer
	                             cursor value it waits for; 0 otherwise */
	_Atomic uint32_t space_seq; /* bumped on wake-ups: the producer's
	                               futex word */

	/* producer -> consumers wake-up */
	_Alignas(LT_RING_CACHE_LINE)
	_Atomic uint64_t data_wake_at; /* lowest producer cursor a sleeping
	                                  consumer waits for; UINT64_MAX when
	                                  none sleeps */
	_Atomic uint32_t data_seq; /* bumped on wake-ups: the consumers'
	                              futex word */
	uint64_t wake_batch;    /* a sleeping consumer wants this many
	                           events before it is woken */

	void *fallback;         /* mutex + condvar when futex is unavailable */
};

/* Initialises a ring of `capacity` slots (a power of two, >= 2) of
 * `elem_size` bytes each, for `nconsumers` consumers (1 ..
 * LT_RING_MAX_CONSUMERS). Slot k starts at byte k * elem_size of a
 * 64-byte-aligned array, so an element type whose size is a multiple of its
 * alignment is correctly aligned (struct lt_event is). Returns 0,
 * LT_ERR_INVAL for a bad argument or LT_ERR_NOMEM. */
int lt_ring_init(struct lt_ring *r, size_t elem_size, uint64_t capacity,
                 unsigned nconsumers);

/* Frees the ring's memory. No thread may be using it any more. */
void lt_ring_fini(struct lt_ring *r);

/* Producer: returns a pointer to *got >= 1 contiguous free slots, at most
 * `want` (want >= 1; want == 0 returns NULL with *got = 0). Waits while the
 * slowest attached consumer leaves no free slot: the wait ends once
 * min(want, slots up to the wrap, capacity / 2) slots are free, so a full
 * ring does not wake the producer for every released element. Fewer than
 * `want` slots are returned at the array's end (the next claim continues at
 * slot 0) or when only that many are free. When every consumer has
 * detached, it never waits (the elements go nowhere). Must not be called
 * after lt_ring_close. */
void *lt_ring_claim(struct lt_ring *r, size_t want, size_t *got);

/* Producer: makes the first n (<= *got of the last claim) claimed slots
 * visible to every consumer, in order. Wakes consumers only if one sleeps.
 * The rest of that claim is given up (the next claim returns it again). */
void lt_ring_publish(struct lt_ring *r, size_t n);

/* Producer: marks the end of the stream. Consumers still get every
 * published element, then lt_ring_wait returns 0. */
void lt_ring_close(struct lt_ring *r);

/* Consumer i: waits until consumer i has unconsumed elements or the stream
 * is closed and drained. A consumer that has to sleep (rather than spin) is
 * woken once capacity / 2 elements are waiting for it, or at close, so that
 * the producer makes one wake-up call per half ring, not per publish. (So
 * a stalled producer can leave up to half a ring unseen until it publishes
 * more or closes.)
 * Sets *items to the first unconsumed element and
 * returns how many contiguous ones follow it (>= 1; the run stops at the
 * array's end, the next call continues at slot 0). Returns 0 (and *items =
 * NULL) once the stream is closed and consumer i has released everything.
 * The elements stay valid and unchanged until consumer i releases them.
 * Must not be called after lt_ring_detach(r, i). */
size_t lt_ring_wait(struct lt_ring *r, unsigned i, const void **items);

/* Consumer i: gives back the first n elements returned by the last
 * lt_ring_wait (n <= its return value); the producer may then reuse them.
 * Releasing fewer is allowed: the next wait returns the rest again. */
void lt_ring_release(struct lt_ring *r, unsigned i, size_t n);

/* Consumer i: stops consuming for good (e.g. its receiver failed). The
 * producer no longer waits for it. Idempotent. */
void lt_ring_detach(struct lt_ring *r, unsigned i);

/* Returns how many consumers have not detached. Any thread; a snapshot. */
unsigned lt_ring_attached(struct lt_ring *r);

#endif
