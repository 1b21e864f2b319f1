/* A bounded byte queue between the daemon's event loop (one producer,
 * reading a socket) and one session's decode thread (one consumer).
 * Its fixed size is what bounds a session's memory: when it is full the
 * loop stops reading that socket, so the sender blocks (back-pressure). */
#ifndef LT_DAEMON_QUEUE_H
#define LT_DAEMON_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* Why the producer side ended. */
enum lt_bq_end {
	LT_BQ_OPEN = 0,     /* still streaming */
	LT_BQ_EOF = 1,      /* the peer closed or the socket failed */
	LT_BQ_SHUTDOWN = 2, /* the daemon is stopping */
};

/* The queue: a ring of cap bytes. */
struct lt_bq {
	pthread_mutex_t lock; /* guards every field below */
	pthread_cond_t cond;  /* signalled on new bytes or end */
	uint8_t *buf;         /* cap bytes */
	size_t cap;           /* ring size */
	size_t head;          /* consumer position (monotonic) */
	size_t tail;          /* producer position (monotonic) */
	int end;              /* enum lt_bq_end */
	int stalled;          /* producer stopped reading: queue was full */
};

/* Allocates a queue of cap bytes. Returns 0 or LT_ERR_NOMEM. */
int lt_bq_init(struct lt_bq *q, size_t cap);

/* Frees the queue's memory (no thread may use it any more). */
void lt_bq_fini(struct lt_bq *q);

/* Producer: returns the contiguous free space at the tail in *p (0 bytes
 * when full, after which the queue is marked stalled). The producer may
 * fill it without the lock, then calls lt_bq_commit. */
size_t lt_bq_space(struct lt_bq *q, uint8_t **p);

/* Producer: publishes n bytes written at the tail. */
void lt_bq_commit(struct lt_bq *q, size_t n);

/* Producer: no more bytes will come (why: enum lt_bq_end). The first
 * reason given is kept. */
void lt_bq_end(struct lt_bq *q, int why);

/* Consumer: waits until bytes are readable or the producer ended. Returns
 * the contiguous readable count (p set), or 0 with *why = the end reason
 * once everything was consumed. */
size_t lt_bq_peek(struct lt_bq *q, const uint8_t **p, int *why);

/* Consumer: frees n bytes. Returns 1 when the queue was stalled and has
 * now drained to half: the producer should resume reading. */
int lt_bq_consume(struct lt_bq *q, size_t n);

#endif
