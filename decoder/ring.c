/* SPMC ring: one producer cursor (head), one cursor per consumer (tail).
 *
 * Elements live in slots [tail, head) of every consumer; the producer may
 * reuse a slot once every attached consumer's tail has passed it. Data is
 * handed over with release stores of a cursor and acquire loads of it.
 *
 * Sleeping uses an event count per direction: a sleeper announces the
 * cursor value it waits for (wake_at, data_wake_at), reads the futex word,
 * re-checks its condition and sleeps only if the word is unchanged. The
 * waker stores its cursor, then reads the announcement; both sides use
 * seq_cst operations, so at least one of them sees the other's store (no
 * lost wake-up), and the waker pays for a syscall only when its cursor
 * reaches an announced value. The announced values keep either side from
 * being woken for every batch: the producer sleeps until half the ring (or
 * its claim) is free, a consumer until half a ring is waiting. Neither can
 * deadlock: a producer waits for space only while some consumer is more
 * than half a ring behind it, and such a consumer is awake (it sleeps only
 * when it has nothing) or was woken when the producer's cursor passed half
 * a ring ahead of it.
 */
#include "ltpipe/ring.h"

#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"

#if defined(__linux__) && !defined(LT_RING_NO_FUTEX)
#define LT_RING_FUTEX 1
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#define LT_RING_FUTEX 0
#include <pthread.h>
#endif

/* Waiting: SPIN_LIMIT busy polls (well under a microsecond), then up to
 * YIELD_LIMIT polls that first give the core to another runnable thread,
 * then sleep. With more threads than cores, longer spinning only steals the
 * core from the thread we wait for (measured with ring_test --bench: CPU
 * per event doubles at 100 spins, triples at 400); the yields let a thread
 * that shares our core finish its batch without a futex round trip. */
#define SPIN_LIMIT 20
#define YIELD_LIMIT 4

#if !LT_RING_FUTEX
/* Sleeping without futex: one lock and condition for both directions. */
struct ring_fallback {
	pthread_mutex_t mu; /* guards the futex-word re-check before sleeping */
	pthread_cond_t cv;  /* broadcast whenever a futex word is bumped */
};
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ volatile("yield" ::: "memory");
#endif
}

/* Sleeps while *word == seen (spurious returns are fine: callers loop). */
static void sleep_on(struct lt_ring *r, _Atomic uint32_t *word, uint32_t seen)
{
#if LT_RING_FUTEX
	(void)r;
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, seen, NULL,
		NULL, 0);
#else
	struct ring_fallback *f = r->fallback;

	pthread_mutex_lock(&f->mu);
	while (atomic_load(word) == seen)
		pthread_cond_wait(&f->cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
#endif
}

/* Bumps *word and wakes everyone sleeping on it. */
static void wake_all(struct lt_ring *r, _Atomic uint32_t *word)
{
	atomic_fetch_add(word, 1);
#if LT_RING_FUTEX
	(void)r;
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
		NULL, 0);
#else
	struct ring_fallback *f = r->fallback;

	/* Taking the lock orders the bump before any sleeper's re-check. */
	pthread_mutex_lock(&f->mu);
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
#endif
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

int lt_ring_init(struct lt_ring *r, size_t elem_size, uint64_t capacity,
                 unsigned nconsumers)
{
	memset(r, 0, sizeof(*r));
	if (elem_size == 0 || capacity < 2 || (capacity & (capacity - 1)) ||
	    nconsumers == 0 || nconsumers > LT_RING_MAX_CONSUMERS ||
	    capacity > SIZE_MAX / 2 / elem_size)
		return LT_ERR_INVAL;
	r->elem_size = elem_size;
	r->capacity = capacity;
	r->mask = capacity - 1;
	r->nconsumers = nconsumers;
	r->slots = aligned_alloc(LT_RING_CACHE_LINE,
				 round_up(capacity * elem_size,
					  LT_RING_CACHE_LINE));
	r->cons = aligned_alloc(LT_RING_CACHE_LINE,
				nconsumers * sizeof(*r->cons));
#if !LT_RING_FUTEX
	struct ring_fallback *f = malloc(sizeof(*f));

	if (f) {
		pthread_mutex_init(&f->mu, NULL);
		pthread_cond_init(&f->cv, NULL);
	}
	r->fallback = f;
	if (!f)
		goto nomem;
#endif
	if (!r->slots || !r->cons)
		goto nomem;
	for (unsigned i = 0; i < nconsumers; i++) {
		atomic_init(&r->cons[i].tail, 0);
		r->cons[i].head_seen = 0;
	}
	atomic_init(&r->head, 0);
	atomic_init(&r->closed, 0);
	atomic_init(&r->wake_at, 0);
	atomic_init(&r->space_seq, 0);
	atomic_init(&r->data_wake_at, UINT64_MAX);
	r->wake_batch = capacity / 2;
	atomic_init(&r->data_seq, 0);
	r->min_tail = 0;
	r->claimed = 0;
	return 0;
nomem:
	lt_ring_fini(r);
	return LT_ERR_NOMEM;
}

void lt_ring_fini(struct lt_ring *r)
{
	free(r->slots);
	free(r->cons);
#if !LT_RING_FUTEX
	struct ring_fallback *f = r->fallback;

	if (f) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		free(f);
	}
#endif
	memset(r, 0, sizeof(*r));
}

/* Reloads the slowest attached consumer's cursor into r->min_tail. The
 * loads are seq_cst because the producer's sleep protocol needs them
 * ordered after its wake_at store (on x86 they are plain loads anyway). */
static void rescan(struct lt_ring *r)
{
	uint64_t min = LT_RING_DETACHED;

	for (unsigned i = 0; i < r->nconsumers; i++) {
		uint64_t t = atomic_load(&r->cons[i].tail);

		if (t < min)
			min = t;
	}
	r->min_tail = min;
}

/* Free slots ahead of a producer cursor at `head`, per r->min_tail. */
static uint64_t free_space(const struct lt_ring *r, uint64_t head)
{
	if (r->min_tail == LT_RING_DETACHED)
		return r->capacity;
	return r->capacity - (head - r->min_tail);
}

/* Waits until `need` slots are free ahead of `head`. */
static void wait_space(struct lt_ring *r, uint64_t head, uint64_t need)
{
	/* free_space < need  <=>  min_tail < head + need - capacity, so this
	 * is > 0 whenever we wait, and 0 can mean "producer awake". */
	uint64_t target = head + need - r->capacity;

	for (unsigned spin = 0;; spin++) {
		rescan(r);
		if (free_space(r, head) >= need)
			return;
		if (spin < SPIN_LIMIT) {
			cpu_relax();
			continue;
		}
		if (spin < SPIN_LIMIT + YIELD_LIMIT) {
			sched_yield();
			continue;
		}
		atomic_store(&r->wake_at, target);
		uint32_t seq = atomic_load(&r->space_seq);

		rescan(r);
		if (free_space(r, head) < need)
			sleep_on(r, &r->space_seq, seq);
		atomic_store_explicit(&r->wake_at, 0, memory_order_relaxed);
	}
}

void *lt_ring_claim(struct lt_ring *r, size_t want, size_t *got)
{
	if (want == 0) {
		r->claimed = 0;
		*got = 0;
		return NULL;
	}
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t idx = head & r->mask;
	uint64_t n = r->capacity - idx;
	uint64_t need;

	if (n > want)
		n = want;
	need = n < r->capacity / 2 ? n : r->capacity / 2;
	if (free_space(r, head) < need) {
		rescan(r);
		if (free_space(r, head) < need)
			wait_space(r, head, need);
	}
	if (n > free_space(r, head))
		n = free_space(r, head);
	r->claimed = n;
	*got = n;
	return r->slots + idx * r->elem_size;
}

void lt_ring_publish(struct lt_ring *r, size_t n)
{
	if (n == 0)
		return;
	if (n > r->claimed)
		abort(); /* a contract violation would corrupt every consumer */
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	r->claimed = 0;
	atomic_store(&r->head, head + n);
	if (atomic_load(&r->data_wake_at) <= head + n) {
		/* Wakes every sleeper; each one announces itself again. */
		atomic_store(&r->data_wake_at, UINT64_MAX);
		wake_all(r, &r->data_seq);
	}
}

void lt_ring_close(struct lt_ring *r)
{
	atomic_store(&r->closed, 1);
	if (atomic_load(&r->data_wake_at) != UINT64_MAX) {
		atomic_store(&r->data_wake_at, UINT64_MAX);
		wake_all(r, &r->data_seq);
	}
}

/* Lowers *v to x if x is smaller. */
static void lower_to(_Atomic uint64_t *v, uint64_t x)
{
	uint64_t cur = atomic_load(v);

	while (x < cur && !atomic_compare_exchange_weak(v, &cur, x))
		;
}

/* Waits until the producer cursor moves past `tail` or the stream is
 * closed; returns the producer cursor (== tail: closed and drained). */
static uint64_t wait_data(struct lt_ring *r, uint64_t tail)
{
	uint64_t head;

	for (unsigned spin = 0;; spin++) {
		head = atomic_load_explicit(&r->head, memory_order_acquire);
		if (head != tail)
			return head;
		if (atomic_load_explicit(&r->closed, memory_order_acquire))
			/* closed is stored after the last publish */
			return atomic_load_explicit(&r->head,
						    memory_order_acquire);
		if (spin < SPIN_LIMIT) {
			cpu_relax();
			continue;
		}
		if (spin < SPIN_LIMIT + YIELD_LIMIT) {
			sched_yield();
			continue;
		}
		uint64_t want = tail + r->wake_batch;

		lower_to(&r->data_wake_at, want);
		uint32_t seq = atomic_load(&r->data_seq);

		/* A wake-up between lower_to and reading seq has reset the
		 * announcement, and we would not see the next one: again. */
		if (atomic_load(&r->data_wake_at) > want)
			continue;
		if (atomic_load(&r->head) == tail && !atomic_load(&r->closed))
			sleep_on(r, &r->data_seq, seq);
	}
}

size_t lt_ring_wait(struct lt_ring *r, unsigned i, const void **items)
{
	struct lt_ring_cursor *c = &r->cons[i];
	uint64_t tail = atomic_load_explicit(&c->tail, memory_order_relaxed);
	uint64_t head = c->head_seen;

	if (head == tail) {
		head = wait_data(r, tail);
		c->head_seen = head;
		if (head == tail) {
			*items = NULL;
			return 0;
		}
	}
	uint64_t idx = tail & r->mask;
	uint64_t n = head - tail;

	if (n > r->capacity - idx)
		n = r->capacity - idx;
	*items = r->slots + idx * r->elem_size;
	return n;
}

void lt_ring_release(struct lt_ring *r, unsigned i, size_t n)
{
	struct lt_ring_cursor *c = &r->cons[i];
	uint64_t old = atomic_load_explicit(&c->tail, memory_order_relaxed);

	if (n == 0)
		return;
	if (n > c->head_seen - old)
		abort(); /* releasing unpublished slots corrupts the ring */
	atomic_store(&c->tail, old + n);
	uint64_t w = atomic_load(&r->wake_at);

	/* Only the release that crosses the producer's target can satisfy
	 * it; other releases leave the producer asleep. */
	if (w && old < w && old + n >= w)
		wake_all(r, &r->space_seq);
}

void lt_ring_detach(struct lt_ring *r, unsigned i)
{
	struct lt_ring_cursor *c = &r->cons[i];

	if (atomic_load_explicit(&c->tail, memory_order_relaxed) ==
	    LT_RING_DETACHED)
		return;
	atomic_store(&c->tail, LT_RING_DETACHED);
	if (atomic_load(&r->wake_at))
		wake_all(r, &r->space_seq);
}

unsigned lt_ring_attached(struct lt_ring *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nconsumers; i++)
		if (atomic_load_explicit(&r->cons[i].tail,
					 memory_order_relaxed) !=
		    LT_RING_DETACHED)
			n++;
	return n;
}
