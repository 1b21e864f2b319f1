/* Pipeline: an SPMC ring of lt_event plus one thread per consumer. */
#include "ltpipe/pipeline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"

/* One consumer thread's state. */
struct pipe_worker {
	struct lt_pipe *pipe;  /* owner */
	unsigned idx;          /* consumer index in the ring */
	lt_pipe_fn fn;         /* callback */
	void *user;            /* callback argument */
	pthread_t thread;      /* the consumer thread */
	int started;           /* 1 once the thread runs (must be joined) */
	int result;            /* callback's stopping value, 0 if none; read
	                          by the producer after join, or after seeing
	                          `running` drop */
};

struct lt_pipe {
	struct lt_ring ring;        /* the events */
	size_t chunk;               /* most events per callback */
	unsigned n;                 /* number of consumers */
	_Atomic unsigned running;   /* consumers that have not stopped */
	struct pipe_worker *w;      /* n workers */
};

static void *worker_main(void *arg)
{
	struct pipe_worker *w = arg;
	struct lt_pipe *p = w->pipe;

	for (;;) {
		const void *items;
		size_t n = lt_ring_wait(&p->ring, w->idx, &items);

		if (n == 0)
			break;
		if (n > p->chunk)
			n = p->chunk;
		int rc = w->fn(w->user, items, n);

		if (rc) {
			w->result = rc;
			lt_ring_detach(&p->ring, w->idx);
			/* release: publishes w->result to lt_pipe_push */
			atomic_fetch_sub_explicit(&p->running, 1,
						  memory_order_release);
			break;
		}
		lt_ring_release(&p->ring, w->idx, n);
	}
	return NULL;
}

/* Joins the started threads (the ring must be closed) and frees p. */
static int pipe_join_free(struct lt_pipe *p, int *results)
{
	int first = 0;

	for (unsigned i = 0; i < p->n; i++) {
		if (p->w[i].started)
			pthread_join(p->w[i].thread, NULL);
		if (results)
			results[i] = p->w[i].result;
		if (!first)
			first = p->w[i].result;
	}
	lt_ring_fini(&p->ring);
	free(p->w);
	free(p);
	return first;
}

int lt_pipe_open(struct lt_pipe **out, uint32_t capacity,
                 const struct lt_pipe_consumer *cons, unsigned ncons)
{
	struct lt_pipe *p;
	int err;

	*out = NULL;
	if (capacity == 0)
		capacity = LT_PIPE_DEFAULT_CAPACITY;
	if (ncons == 0 || ncons > LT_RING_MAX_CONSUMERS)
		return LT_ERR_INVAL;
	for (unsigned i = 0; i < ncons; i++)
		if (!cons[i].fn)
			return LT_ERR_INVAL;
	/* the ring's cursors are cache-line aligned members */
	p = aligned_alloc(_Alignof(struct lt_pipe), sizeof(*p));
	if (!p)
		return LT_ERR_NOMEM;
	memset(p, 0, sizeof(*p));
	err = lt_ring_init(&p->ring, sizeof(struct lt_event), capacity, ncons);
	if (err) {
		free(p);
		return err;
	}
	p->w = calloc(ncons, sizeof(*p->w));
	if (!p->w) {
		lt_ring_fini(&p->ring);
		free(p);
		return LT_ERR_NOMEM;
	}
	p->n = ncons;
	p->chunk = capacity / 4 ? capacity / 4 : 1;
	atomic_init(&p->running, ncons);
	for (unsigned i = 0; i < ncons; i++) {
		struct pipe_worker *w = &p->w[i];

		w->pipe = p;
		w->idx = i;
		w->fn = cons[i].fn;
		w->user = cons[i].user;
		if (pthread_create(&w->thread, NULL, worker_main, w)) {
			lt_ring_close(&p->ring);
			pipe_join_free(p, NULL);
			return LT_ERR_NOMEM;
		}
		w->started = 1;
	}
	*out = p;
	return 0;
}

/* Result of the lowest-numbered stopped consumer; call once none runs. */
static int first_result(const struct lt_pipe *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->w[i].result)
			return p->w[i].result;
	return LT_ERR_INVAL; /* unreachable: a stopped consumer has one */
}

int lt_pipe_push(struct lt_pipe *p, const struct lt_event *ev, size_t n)
{
	if (atomic_load_explicit(&p->running, memory_order_acquire) == 0)
		return first_result(p);
	while (n) {
		size_t got;
		struct lt_event *dst = lt_ring_claim(&p->ring, n, &got);

		memcpy(dst, ev, got * sizeof(*ev));
		lt_ring_publish(&p->ring, got);
		ev += got;
		n -= got;
	}
	return 0;
}

int lt_pipe_sink(void *pipe, const struct lt_event *ev, size_t n)
{
	return lt_pipe_push(pipe, ev, n);
}

struct lt_ring *lt_pipe_ring(struct lt_pipe *p)
{
	return &p->ring;
}

int lt_pipe_close(struct lt_pipe *p, int *results)
{
	lt_ring_close(&p->ring);
	return pipe_join_free(p, results);
}
