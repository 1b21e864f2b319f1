/* Pipeline: one producer feeding N consumer threads through an SPMC ring
 * of block events (see ltpipe/ring.h).
 *
 * lt_pipe_open starts one thread per consumer callback; the producer pushes
 * batches of events (copied into the ring, so they can come straight from
 * the frontend's sink); every callback sees every event, in order, on its
 * own thread; lt_pipe_close marks the end of the stream, waits until every
 * consumer has drained the ring and joins the threads.
 *
 * Threading contract: lt_pipe_push, lt_pipe_sink, lt_pipe_ring and
 * lt_pipe_close are called by one producer thread at a time.
 */
#ifndef LTPIPE_PIPELINE_H
#define LTPIPE_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/event.h"
#include "ltpipe/ring.h"

/* Consumes a batch of events (n >= 1) on the consumer's thread; the events
 * are valid only during the call. Returns 0 to go on; non-zero stops this
 * consumer for good (the ring no longer waits for it) and is reported by
 * lt_pipe_close. Same shape as lt_event_sink and receiver consume. */
typedef int (*lt_pipe_fn)(void *user, const struct lt_event *ev, size_t n);

/* One consumer. */
struct lt_pipe_consumer {
	lt_pipe_fn fn; /* called with each batch, on the consumer's thread */
	void *user;    /* passed to fn */
};

/* Opaque pipeline. */
struct lt_pipe;

/* Default ring capacity: 4096 events (224 KiB) stays in a 2nd-level cache
 * while leaving four 1024-event frontend batches in flight. */
#define LT_PIPE_DEFAULT_CAPACITY 4096

/* Creates a pipeline with a ring of `capacity` events (a power of two >= 2;
 * 0 = LT_PIPE_DEFAULT_CAPACITY) and starts one thread per consumer
 * (1 .. LT_RING_MAX_CONSUMERS; cons[] is copied). A callback is given at most
 * capacity / 4 events (at least 1) per call so that the producer can refill
 * the ring while consumers work. Returns 0 and sets *out, or LT_ERR_INVAL,
 * LT_ERR_NOMEM (also when a thread cannot be started). */
int lt_pipe_open(struct lt_pipe **out, uint32_t capacity,
                 const struct lt_pipe_consumer *cons, unsigned ncons);

/* Copies n events into the ring (any n: a batch is split at the array's
 * end and wherever the ring is full), waiting for the slowest running
 * consumer when needed. Returns 0, or -- once every consumer has stopped --
 * the non-zero result of the lowest-numbered consumer, without copying (a
 * producer should then stop producing). */
int lt_pipe_push(struct lt_pipe *p, const struct lt_event *ev, size_t n);

/* lt_pipe_push with the lt_event_sink signature: pass the pipe as `user`. */
int lt_pipe_sink(void *pipe, const struct lt_event *ev, size_t n);

/* The pipeline's ring, for a producer that fills slots in place
 * (lt_ring_claim / lt_ring_publish, elements are struct lt_event) instead
 * of pushing copies. Do not call lt_ring_close on it: use lt_pipe_close. */
struct lt_ring *lt_pipe_ring(struct lt_pipe *p);

/* Ends the stream, waits for every consumer to finish the events already
 * pushed, joins the threads and frees the pipeline. If `results` is not
 * NULL, results[i] gets consumer i's stopping value (0 when it saw the whole
 * stream). Returns 0, or the non-zero result of the lowest-numbered consumer
 * that stopped. */
int lt_pipe_close(struct lt_pipe *p, int *results);

#endif
