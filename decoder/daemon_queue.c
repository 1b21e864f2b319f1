/* Bounded byte queue between the event loop and a decode thread. */
#include "daemon_queue.h"

#include <stdlib.h>

#include "ltpipe/error.h"

int lt_bq_init(struct lt_bq *q, size_t cap)
{
	q->buf = malloc(cap);
	if (!q->buf)
		return LT_ERR_NOMEM;
	q->cap = cap;
	q->head = q->tail = 0;
	q->end = LT_BQ_OPEN;
	q->stalled = 0;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	return 0;
}

void lt_bq_fini(struct lt_bq *q)
{
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q->buf);
	q->buf = NULL;
}

size_t lt_bq_space(struct lt_bq *q, uint8_t **p)
{
	pthread_mutex_lock(&q->lock);
	size_t used = q->tail - q->head;
	size_t at = q->tail % q->cap;
	size_t n = q->cap - used;
	if (n > q->cap - at)
		n = q->cap - at;
	if (n == 0)
		q->stalled = 1;
	pthread_mutex_unlock(&q->lock);
	*p = q->buf + at;
	return n;
}

void lt_bq_commit(struct lt_bq *q, size_t n)
{
	pthread_mutex_lock(&q->lock);
	q->tail += n;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void lt_bq_end(struct lt_bq *q, int why)
{
	pthread_mutex_lock(&q->lock);
	if (q->end == LT_BQ_OPEN)
		q->end = why;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

size_t lt_bq_peek(struct lt_bq *q, const uint8_t **p, int *why)
{
	pthread_mutex_lock(&q->lock);
	while (q->tail == q->head && q->end == LT_BQ_OPEN)
		pthread_cond_wait(&q->cond, &q->lock);
	size_t used = q->tail - q->head;
	size_t at = q->head % q->cap;
	size_t n = used < q->cap - at ? used : q->cap - at;
	*why = q->end;
	pthread_mutex_unlock(&q->lock);
	*p = q->buf + at;
	return n;
}

int lt_bq_consume(struct lt_bq *q, size_t n)
{
	int resume = 0;
	pthread_mutex_lock(&q->lock);
	q->head += n;
	if (q->stalled && q->tail - q->head <= q->cap / 2) {
		q->stalled = 0;
		resume = 1;
	}
	pthread_mutex_unlock(&q->lock);
	return resume;
}
