/* Tests of the SPMC ring (ltpipe/ring.h) and the pipeline on top of it
 * (ltpipe/pipeline.h).
 *
 *   ring_test            full run
 *   ring_test --small    smaller workloads (for the ThreadSanitizer build)
 *   ring_test --bench    micro-benchmark: events/s for 1 and 4 consumers
 *
 * Every event carries its sequence number in `start` and values derived
 * from it in other fields, so a consumer can check that it sees every event
 * exactly once, in order, and never a slot the producer is rewriting.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "ltpipe/event.h"
#include "ltpipe/frontend.h"
#include "ltpipe/pipeline.h"
#include "ltpipe/ring.h"

static int failures;
static unsigned scale_div = 1; /* workloads are divided by this (--small) */

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
			failures++;                                        \
		}                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                     \
	do {                                                               \
		unsigned long long a_ = (unsigned long long)(a);           \
		unsigned long long b_ = (unsigned long long)(b);           \
		if (a_ != b_) {                                            \
			fprintf(stderr,                                    \
				"%s:%d: %s == %llu, expected %s == %llu\n", \
				__FILE__, __LINE__, #a, a_, #b, b_);       \
			failures++;                                        \
		}                                                          \
	} while (0)

/* xorshift64*: a small per-thread generator. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void fill(struct lt_event *e, uint64_t seq)
{
	memset(e, 0, sizeof(*e));
	e->start = seq;
	e->last = seq * 0x9E3779B97F4A7C15ULL;
	e->next = ~seq;
	e->time = seq ^ 0x5555;
	e->icount = (uint32_t)seq;
	e->hart = (uint16_t)(seq >> 7);
}

/* 1 if e is exactly the event fill(seq) writes. */
static int good(const struct lt_event *e, uint64_t seq)
{
	struct lt_event want;

	fill(&want, seq);
	return memcmp(e, &want, sizeof(want)) == 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_ms(unsigned ms)
{
	usleep(ms * 1000u);
}

/* Polls *v until it equals want or 10 s pass; returns the last value. */
static uint64_t await_eq(_Atomic uint64_t *v, uint64_t want)
{
	double end = now() + 10;
	uint64_t x;

	while ((x = atomic_load(v)) != want && now() < end)
		usleep(200);
	return x;
}

/* ---- single-threaded contract tests ------------------------------------ */

static void test_init_errors(void)
{
	struct lt_ring r;

	CHECK_EQ(lt_ring_init(&r, 56, 0, 1), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 56, 1, 1), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 56, 12, 1), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 56, 8, 0), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 56, 8, LT_RING_MAX_CONSUMERS + 1),
		 (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 0, 8, 1), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_ring_init(&r, 56, 8, LT_RING_MAX_CONSUMERS), 0);
	CHECK_EQ(lt_ring_attached(&r), LT_RING_MAX_CONSUMERS);
	lt_ring_fini(&r);
	CHECK_EQ(sizeof(struct lt_ring_cursor), LT_RING_CACHE_LINE);
}

/* Claim/publish/wait/release arithmetic on a ring of 8, two consumers,
 * driven from one thread (never in a state where a call would wait). */
static void test_arith(void)
{
	struct lt_ring r;
	struct lt_event *base, *p;
	const void *c;
	size_t got;

	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), 8, 2), 0);
	base = lt_ring_claim(&r, 5, &got);
	CHECK_EQ(got, 5);
	CHECK_EQ(((uintptr_t)base) % 64, 0);
	for (unsigned k = 0; k < 5; k++)
		fill(&base[k], k);
	lt_ring_publish(&r, 5);

	/* c0 takes everything, c1 nothing: the producer sees 3 free */
	CHECK_EQ(lt_ring_wait(&r, 0, &c), 5);
	CHECK(c == base);
	lt_ring_release(&r, 0, 5);
	p = lt_ring_claim(&r, 8, &got);
	CHECK_EQ(got, 3); /* the wrap and c1 both allow 3 */
	CHECK(p == base + 5);
	for (unsigned k = 0; k < 3; k++)
		fill(&p[k], 5 + k);
	lt_ring_publish(&r, 2); /* partial publish: slot 7 given back */

	CHECK_EQ(lt_ring_wait(&r, 0, &c), 2);
	CHECK(c == base + 5);
	CHECK(good((const struct lt_event *)c + 1, 6));
	p = lt_ring_claim(&r, 8, &got);
	CHECK_EQ(got, 1); /* slot 7 again, up to the wrap */
	CHECK(p == base + 7);
	fill(p, 7);
	lt_ring_publish(&r, 1);

	/* c1: 8 unconsumed, contiguous from slot 0; partial releases */
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 8);
	CHECK(c == base);
	lt_ring_release(&r, 1, 3);
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 5);
	CHECK(c == base + 3);
	CHECK(good(c, 3));
	/* c0 still holds 5 and 6 (it released nothing of that wait) */
	lt_ring_release(&r, 0, 2);
	CHECK_EQ(lt_ring_wait(&r, 0, &c), 1);
	CHECK(c == base + 7);
	lt_ring_release(&r, 0, 1);
	/* c1 at 3 => 3 free, at slots 0..2 (a claim of more would wait for
	 * half the ring) */
	p = lt_ring_claim(&r, 3, &got);
	CHECK_EQ(got, 3);
	CHECK(p == base);
	for (unsigned k = 0; k < 3; k++)
		fill(&p[k], 8 + k);
	lt_ring_publish(&r, 3);
	CHECK(lt_ring_claim(&r, 0, &got) == NULL);
	CHECK_EQ(got, 0);

	/* c1 sees 3..7 then wraps to 8..10 */
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 5);
	for (unsigned k = 0; k < 5; k++)
		CHECK(good((const struct lt_event *)c + k, 3 + k));
	lt_ring_release(&r, 1, 5);
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 3);
	CHECK(c == base);
	CHECK(good((const struct lt_event *)c + 2, 10));

	/* close: both drain, then see end of stream, repeatedly */
	lt_ring_close(&r);
	lt_ring_release(&r, 1, 3);
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 0);
	CHECK(c == NULL);
	CHECK_EQ(lt_ring_wait(&r, 1, &c), 0);
	CHECK_EQ(lt_ring_wait(&r, 0, &c), 3);
	lt_ring_release(&r, 0, 3);
	CHECK_EQ(lt_ring_wait(&r, 0, &c), 0);

	/* detach: idempotent, counted */
	CHECK_EQ(lt_ring_attached(&r), 2);
	lt_ring_detach(&r, 1);
	lt_ring_detach(&r, 1);
	CHECK_EQ(lt_ring_attached(&r), 1);
	lt_ring_fini(&r);
}

/* Generic elements: a 12-byte element type and a ring of 4. */
static void test_elem_size(void)
{
	struct lt_ring r;
	size_t got;
	const void *c;

	CHECK_EQ(lt_ring_init(&r, 12, 4, 1), 0);
	for (uint32_t round = 0; round < 5; round++) {
		uint32_t *p = lt_ring_claim(&r, 3, &got);

		CHECK_EQ(got, round % 2 ? 1 : 3); /* 3, then 1 up to the wrap */
		for (size_t k = 0; k < got * 3; k++)
			p[k] = round * 100 + (uint32_t)k;
		lt_ring_publish(&r, got);
		size_t n = lt_ring_wait(&r, 0, &c);

		CHECK_EQ(n, got);
		CHECK_EQ(((const uint32_t *)c)[n * 3 - 1],
			 round * 100 + n * 3 - 1);
		lt_ring_release(&r, 0, n);
	}
	lt_ring_fini(&r);
}

/* ---- multi-threaded ring tests ----------------------------------------- */

enum cons_kind {
	C_FAST,    /* releases whole runs at once */
	C_PARTIAL, /* releases a random part of each run */
	C_SLEEPY,  /* sleeps at random */
	C_DETACH,  /* consumes exactly `limit` events then detaches */
};

/* One consumer thread of a stress run. */
struct cons {
	struct lt_ring *r;  /* the ring */
	unsigned idx;       /* consumer index */
	int kind;           /* enum cons_kind */
	uint64_t limit;     /* C_DETACH: events to consume */
	uint64_t seed;      /* random state */
	uint64_t seen;      /* events consumed (checked in order) */
	uint64_t bad;       /* events that were wrong */
	uint64_t first_bad; /* sequence number expected at the first one */
	int eof_twice;      /* 1 if a second wait after EOF returned 0 too */
	pthread_t th;       /* its thread */
};

static void *cons_main(void *arg)
{
	struct cons *c = arg;

	for (;;) {
		const void *p;
		size_t n = lt_ring_wait(c->r, c->idx, &p);
		const struct lt_event *ev = p;

		if (n == 0) {
			c->eof_twice = lt_ring_wait(c->r, c->idx, &p) == 0;
			break;
		}
		size_t take = n;

		if (c->kind == C_PARTIAL)
			take = 1 + rnd(&c->seed) % n;
		if (c->kind == C_DETACH && c->seen + take > c->limit)
			take = c->limit - c->seen;
		for (size_t k = 0; k < take; k++)
			if (!good(&ev[k], c->seen + k) && !c->bad++)
				c->first_bad = c->seen + k;
		c->seen += take;
		if (c->kind == C_SLEEPY && rnd(&c->seed) % 32 == 0)
			usleep(rnd(&c->seed) % 200);
		lt_ring_release(c->r, c->idx, take);
		if (c->kind == C_DETACH && c->seen == c->limit) {
			lt_ring_detach(c->r, c->idx);
			break;
		}
	}
	return NULL;
}

/* Producer of a stress run: `total` events in random batches of up to
 * max_batch, sometimes publishing only part of a claim; `sleepy` makes it
 * pause at random so that consumers go to sleep too. */
static void produce(struct lt_ring *r, uint64_t total, size_t max_batch,
		    int sleepy, uint64_t seed)
{
	uint64_t seq = 0;

	while (seq < total) {
		size_t want = 1 + rnd(&seed) % max_batch, got, pub;

		if (want > total - seq)
			want = total - seq;
		struct lt_event *ev = lt_ring_claim(r, want, &got);

		if (got < 1 || got > want || got > r->capacity) {
			CHECK(got >= 1 && got <= want);
			break;
		}
		for (size_t k = 0; k < got; k++)
			fill(&ev[k], seq + k);
		pub = got;
		if (got > 1 && rnd(&seed) % 4 == 0)
			pub = 1 + rnd(&seed) % got;
		lt_ring_publish(r, pub);
		seq += pub;
		if (sleepy && rnd(&seed) % 64 == 0)
			usleep(rnd(&seed) % 300);
	}
	lt_ring_close(r);
}

/* Runs one stress configuration: consumer i has kind kinds[i % nk]; a
 * C_DETACH consumer stops after total / (i + 2) events. */
static void stress(unsigned ncons, uint64_t cap, uint64_t total,
		   size_t max_batch, int sleepy, const int *kinds, unsigned nk)
{
	struct lt_ring r;
	struct cons c[LT_RING_MAX_CONSUMERS];
	double t0 = now();

	total /= scale_div;
	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), cap, ncons), 0);
	for (unsigned i = 0; i < ncons; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].r = &r;
		c[i].idx = i;
		c[i].kind = kinds[i % nk];
		c[i].limit = total / (i + 2);
		c[i].seed = 0x1234567ULL * (i + 1) + cap;
		pthread_create(&c[i].th, NULL, cons_main, &c[i]);
	}
	produce(&r, total, max_batch, sleepy, 0xfeedULL + ncons);
	for (unsigned i = 0; i < ncons; i++) {
		pthread_join(c[i].th, NULL);
		uint64_t want = c[i].kind == C_DETACH ? c[i].limit : total;

		if (c[i].seen != want || c[i].bad ||
		    (c[i].kind != C_DETACH && !c[i].eof_twice)) {
			fprintf(stderr,
				"stress cons=%u cap=%llu: consumer %u kind %d "
				"saw %llu (want %llu), %llu bad (first at "
				"%llu), eof_twice %d\n",
				ncons, (unsigned long long)cap, i, c[i].kind,
				(unsigned long long)c[i].seen,
				(unsigned long long)want,
				(unsigned long long)c[i].bad,
				(unsigned long long)c[i].first_bad,
				c[i].eof_twice);
			failures++;
		}
	}
	lt_ring_fini(&r);
	printf("stress: %2u consumers, capacity %5llu, %8llu events: %.2f s\n",
	       ncons, (unsigned long long)cap, (unsigned long long)total,
	       now() - t0);
}

static void test_stress(void)
{
	static const int mixed[] = {C_FAST, C_SLEEPY, C_PARTIAL, C_FAST};
	static const int fast[] = {C_FAST};
	static const int with_detach[] = {C_FAST, C_DETACH, C_SLEEPY,
					  C_DETACH, C_PARTIAL};
	static const int all_detach[] = {C_DETACH};
	static const unsigned ncons[] = {1, 2, 7, 16};

	for (unsigned k = 0; k < 4; k++) {
		unsigned n = ncons[k];

		stress(n, 8, 200000, 6, 0, mixed, 4);
		stress(n, 64, 1000000, 100, 1, mixed, 4);
		stress(n, 4096, 4000000, 1024, 0, fast, 1);
		stress(n, 4096, 2000000, 1500, 1, mixed, 4);
	}
	stress(5, 8, 300000, 8, 0, with_detach, 5);
	stress(7, 256, 1000000, 300, 1, with_detach, 5);
	/* every consumer gone: the producer still finishes */
	stress(3, 8, 100000, 8, 0, all_detach, 1);
}

/* ---- producer blocking ------------------------------------------------- */

/* Producer thread of test_blocking: claims `want` at a time, counts. */
struct blocker {
	struct lt_ring *r;        /* the ring */
	size_t want;              /* per claim */
	uint64_t total;           /* events to publish */
	_Atomic uint64_t done;    /* events published so far */
	pthread_t th;             /* its thread */
};

static void *blocker_main(void *arg)
{
	struct blocker *b = arg;
	uint64_t seq = 0;

	while (seq < b->total) {
		size_t got, want = b->want;

		if (want > b->total - seq)
			want = b->total - seq;
		struct lt_event *ev = lt_ring_claim(b->r, want, &got);

		for (size_t k = 0; k < got; k++)
			fill(&ev[k], seq + k);
		lt_ring_publish(b->r, got);
		seq += got;
		atomic_store(&b->done, seq);
	}
	lt_ring_close(b->r);
	return NULL;
}

/* Consumes everything left for consumer i, checking from `seq`; returns
 * the sequence number after the last event. */
static uint64_t drain(struct lt_ring *r, unsigned i, uint64_t seq)
{
	const void *p;
	size_t n;

	while ((n = lt_ring_wait(r, i, &p)) != 0) {
		for (size_t k = 0; k < n; k++)
			CHECK(good((const struct lt_event *)p + k, seq + k));
		seq += n;
		lt_ring_release(r, i, n);
	}
	return seq;
}

static void test_blocking(void)
{
	struct lt_ring r;
	struct blocker b = {.r = &r, .want = 1, .total = 40};
	const void *p;

	/* one at a time: every released slot lets exactly one more in */
	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), 8, 1), 0);
	pthread_create(&b.th, NULL, blocker_main, &b);
	CHECK_EQ(await_eq(&b.done, 8), 8);
	sleep_ms(100);
	CHECK_EQ(atomic_load(&b.done), 8); /* full: blocked */
	CHECK_EQ(lt_ring_wait(&r, 0, &p), 8);
	for (unsigned k = 0; k < 8; k++)
		CHECK(good((const struct lt_event *)p + k, k));
	lt_ring_release(&r, 0, 1);
	CHECK_EQ(await_eq(&b.done, 9), 9);
	sleep_ms(50);
	CHECK_EQ(atomic_load(&b.done), 9);
	lt_ring_release(&r, 0, 7);
	CHECK_EQ(await_eq(&b.done, 16), 16);
	CHECK_EQ(drain(&r, 0, 8), 40);
	pthread_join(b.th, NULL);
	lt_ring_fini(&r);

	/* claims of 8 on a ring of 8: the producer waits for half the ring */
	struct blocker b2 = {.r = &r, .want = 8, .total = 24};

	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), 8, 1), 0);
	pthread_create(&b2.th, NULL, blocker_main, &b2);
	CHECK_EQ(await_eq(&b2.done, 8), 8);
	CHECK_EQ(lt_ring_wait(&r, 0, &p), 8);
	lt_ring_release(&r, 0, 3);
	sleep_ms(100);
	CHECK_EQ(atomic_load(&b2.done), 8); /* 3 free < 4 wanted */
	lt_ring_release(&r, 0, 1);
	CHECK_EQ(await_eq(&b2.done, 12), 12); /* got exactly the 4 free */
	CHECK_EQ(drain(&r, 0, 4), 24);
	pthread_join(b2.th, NULL);
	lt_ring_fini(&r);

	/* a consumer that never consumes blocks the producer until it
	 * detaches; the other consumer then gets everything */
	struct blocker b3 = {.r = &r, .want = 3, .total = 1000};
	struct cons fastc = {.r = &r, .idx = 0, .kind = C_FAST};

	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), 8, 2), 0);
	pthread_create(&fastc.th, NULL, cons_main, &fastc);
	pthread_create(&b3.th, NULL, blocker_main, &b3);
	CHECK_EQ(await_eq(&b3.done, 8), 8);
	sleep_ms(100);
	CHECK_EQ(atomic_load(&b3.done), 8);
	CHECK_EQ(lt_ring_attached(&r), 2);
	lt_ring_detach(&r, 1);
	CHECK_EQ(lt_ring_attached(&r), 1);
	CHECK_EQ(await_eq(&b3.done, 1000), 1000);
	pthread_join(b3.th, NULL);
	pthread_join(fastc.th, NULL);
	CHECK_EQ(fastc.seen, 1000);
	CHECK_EQ(fastc.bad, 0);
	lt_ring_fini(&r);
}

/* Consumer thread of test_consumer_wake: three waits. */
struct waker {
	struct lt_ring *r;         /* the ring */
	_Atomic uint64_t got[3];   /* each wait's result; UINT64_MAX before */
	pthread_t th;              /* its thread */
};

static void *waker_main(void *arg)
{
	struct waker *w = arg;
	const void *p;

	for (unsigned k = 0; k < 3; k++) {
		size_t n = lt_ring_wait(w->r, 0, &p);

		atomic_store(&w->got[k], n);
		lt_ring_release(w->r, 0, n);
	}
	return NULL;
}

/* Publishes n events starting at seq (there must be room). */
static void publish_n(struct lt_ring *r, uint64_t seq, size_t n)
{
	size_t got;
	struct lt_event *ev = lt_ring_claim(r, n, &got);

	CHECK_EQ(got, n);
	for (size_t k = 0; k < got; k++)
		fill(&ev[k], seq + k);
	lt_ring_publish(r, got);
}

/* A sleeping consumer is woken by half a ring of events, or by close. */
static void test_consumer_wake(void)
{
	struct lt_ring r;
	struct waker w = {.r = &r};

	CHECK_EQ(lt_ring_init(&r, sizeof(struct lt_event), 64, 1), 0);
	for (unsigned k = 0; k < 3; k++)
		atomic_init(&w.got[k], UINT64_MAX);
	pthread_create(&w.th, NULL, waker_main, &w);
	CHECK_EQ(await_eq(&r.data_wake_at, 32), 32); /* asleep */
	publish_n(&r, 0, 1);
	publish_n(&r, 1, 30);
	sleep_ms(50);
	CHECK_EQ(atomic_load(&w.got[0]), UINT64_MAX); /* still asleep */
	publish_n(&r, 31, 1);
	CHECK_EQ(await_eq(&w.got[0], 32), 32);
	CHECK_EQ(await_eq(&r.data_wake_at, 64), 64); /* asleep again */
	publish_n(&r, 32, 2);
	lt_ring_close(&r);
	CHECK_EQ(await_eq(&w.got[1], 2), 2);
	CHECK_EQ(await_eq(&w.got[2], 0), 0);
	pthread_join(w.th, NULL);
	lt_ring_fini(&r);
}

/* ---- pipeline ---------------------------------------------------------- */

/* State of one pipeline consumer. */
struct pcons {
	uint64_t seen;     /* events checked so far */
	uint64_t bad;      /* wrong events */
	uint64_t fail_at;  /* return fail_rc on the batch holding this
	                      sequence number (UINT64_MAX: never) */
	int fail_rc;       /* what to return then */
	size_t max_n;      /* largest batch received */
	unsigned sleepy;   /* 1: sleeps at random */
	uint64_t seed;     /* random state */
};

static int pcons_fn(void *user, const struct lt_event *ev, size_t n)
{
	struct pcons *c = user;

	if (n > c->max_n)
		c->max_n = n;
	for (size_t k = 0; k < n; k++)
		if (!good(&ev[k], c->seen + k))
			c->bad++;
	if (c->fail_at >= c->seen && c->fail_at < c->seen + n) {
		c->seen = c->fail_at; /* the events before it were fine */
		return c->fail_rc;
	}
	c->seen += n;
	if (c->sleepy && rnd(&c->seed) % 16 == 0)
		usleep(rnd(&c->seed) % 500);
	return 0;
}

/* Pushes `total` events in random batches of up to max_batch; returns the
 * first non-zero push result (0 if none) and the events pushed in *pushed. */
static int push_all(struct lt_pipe *p, uint64_t total, size_t max_batch,
		    uint64_t *pushed)
{
	static struct lt_event buf[5000];
	uint64_t seq = 0, seed = 99;
	lt_event_sink sink = lt_pipe_sink;

	while (seq < total) {
		size_t n = 1 + rnd(&seed) % max_batch;

		if (n > total - seq)
			n = total - seq;
		for (size_t k = 0; k < n; k++)
			fill(&buf[k], seq + k);
		int rc = sink(p, buf, n);

		if (rc) {
			*pushed = seq;
			return rc;
		}
		seq += n;
	}
	*pushed = seq;
	return 0;
}

static void test_pipeline(void)
{
	struct lt_pipe *p;
	struct lt_pipe_consumer pc[4];
	struct pcons c[4];
	int res[4];
	uint64_t pushed, total = 1000000 / scale_div;

	/* argument checks */
	pc[0] = (struct lt_pipe_consumer){pcons_fn, &c[0]};
	CHECK_EQ(lt_pipe_open(&p, 64, pc, 0), (unsigned long long)LT_ERR_INVAL);
	CHECK_EQ(lt_pipe_open(&p, 48, pc, 1), (unsigned long long)LT_ERR_INVAL);
	pc[1] = (struct lt_pipe_consumer){NULL, NULL};
	CHECK_EQ(lt_pipe_open(&p, 64, pc, 2), (unsigned long long)LT_ERR_INVAL);
	CHECK(p == NULL);

	/* 4 consumers, batches bigger than the ring, one fails at 5000 */
	memset(c, 0, sizeof(c));
	for (unsigned i = 0; i < 4; i++) {
		c[i].fail_at = UINT64_MAX;
		c[i].sleepy = i == 1;
		c[i].seed = i + 7;
		pc[i] = (struct lt_pipe_consumer){pcons_fn, &c[i]};
	}
	c[2].fail_at = 5000;
	c[2].fail_rc = -7;
	CHECK_EQ(lt_pipe_open(&p, 64, pc, 4), 0);
	CHECK(lt_pipe_ring(p)->capacity == 64);
	CHECK_EQ(push_all(p, total, 3000, &pushed), 0);
	CHECK_EQ(pushed, total);
	CHECK_EQ(lt_pipe_close(p, res), (unsigned long long)-7);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ(res[i], (unsigned long long)(i == 2 ? -7 : 0));
		CHECK_EQ(c[i].bad, 0);
		CHECK(c[i].max_n <= 16); /* capacity / 4 per callback */
		if (i != 2)
			CHECK_EQ(c[i].seen, total);
	}
	CHECK_EQ(c[2].seen, 5000);

	/* every consumer fails: push reports the lowest-numbered one */
	memset(c, 0, sizeof(c));
	c[0].fail_at = 100;
	c[0].fail_rc = -3;
	c[1].fail_at = 0;
	c[1].fail_rc = -4;
	CHECK_EQ(lt_pipe_open(&p, 8, pc, 2), 0);
	CHECK_EQ(push_all(p, UINT64_MAX, 10, &pushed),
		 (unsigned long long)-3);
	CHECK(pushed > 100);
	CHECK_EQ(lt_pipe_close(p, res), (unsigned long long)-3);
	CHECK_EQ(res[0], (unsigned long long)-3);
	CHECK_EQ(res[1], (unsigned long long)-4);
	CHECK_EQ(c[0].seen, 100);
	CHECK_EQ(c[1].seen, 0);

	/* default capacity, nothing pushed */
	memset(c, 0, sizeof(c));
	c[0].fail_at = UINT64_MAX;
	CHECK_EQ(lt_pipe_open(&p, 0, pc, 1), 0);
	CHECK(lt_pipe_ring(p)->capacity == LT_PIPE_DEFAULT_CAPACITY);
	CHECK_EQ(lt_pipe_close(p, NULL), 0);
	CHECK_EQ(c[0].seen, 0);
}

/* ---- benchmark --------------------------------------------------------- */

/* A benchmark consumer: sums `start` of every event. */
struct bcons {
	struct lt_ring *r;  /* the ring */
	unsigned idx;       /* consumer index */
	uint64_t sum;       /* sum of start fields */
	pthread_t th;       /* its thread */
};

static void *bcons_main(void *arg)
{
	struct bcons *c = arg;
	const void *p;
	size_t n;

	while ((n = lt_ring_wait(c->r, c->idx, &p)) != 0) {
		const struct lt_event *ev = p;

		for (size_t k = 0; k < n; k++)
			c->sum += ev[k].start;
		lt_ring_release(c->r, c->idx, n);
	}
	return NULL;
}

static int bench_fn(void *user, const struct lt_event *ev, size_t n)
{
	uint64_t *sum = user;

	for (size_t k = 0; k < n; k++)
		*sum += ev[k].start;
	return 0;
}

/* In-place producer (claim, fill one field per event, publish). */
static double bench_ring(unsigned ncons, uint64_t total)
{
	struct lt_ring r;
	struct bcons c[8];
	uint64_t seq = 0;
	double t0;

	lt_ring_init(&r, sizeof(struct lt_event), LT_PIPE_DEFAULT_CAPACITY,
		     ncons);
	for (unsigned i = 0; i < ncons; i++) {
		c[i] = (struct bcons){.r = &r, .idx = i};
		pthread_create(&c[i].th, NULL, bcons_main, &c[i]);
	}
	t0 = now();
	while (seq < total) {
		size_t got;
		struct lt_event *ev = lt_ring_claim(&r, 1024, &got);

		for (size_t k = 0; k < got; k++)
			ev[k].start = seq + k;
		lt_ring_publish(&r, got);
		seq += got;
	}
	lt_ring_close(&r);
	for (unsigned i = 0; i < ncons; i++) {
		pthread_join(c[i].th, NULL);
		if (c[i].sum != total * (total - 1) / 2)
			failures++;
	}
	t0 = now() - t0;
	lt_ring_fini(&r);
	return total / t0;
}

/* Copying producer: lt_pipe_push of 1024-event batches, as the frontend's
 * sink does. */
static double bench_pipe(unsigned ncons, uint64_t total)
{
	static struct lt_event buf[1024];
	struct lt_pipe_consumer pc[8];
	uint64_t sum[8] = {0};
	struct lt_pipe *p;
	double t0;

	for (unsigned i = 0; i < ncons; i++)
		pc[i] = (struct lt_pipe_consumer){bench_fn, &sum[i]};
	lt_pipe_open(&p, 0, pc, ncons);
	for (unsigned k = 0; k < 1024; k++)
		fill(&buf[k], k);
	t0 = now();
	for (uint64_t seq = 0; seq < total; seq += 1024)
		lt_pipe_push(p, buf, 1024);
	lt_pipe_close(p, NULL);
	t0 = now() - t0;
	for (unsigned i = 0; i < ncons; i++)
		if (sum[i] != total / 1024 * (1023 * 1024 / 2))
			failures++;
	return total / t0;
}

/* CPU time (user + system) of the whole process so far, in seconds. */
static double cpu_time(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* Prints one result line: wall-clock rate, and CPU time per event (all
 * threads), which other load on the machine disturbs less. */
static void bench_one(const char *mode, unsigned ncons, uint64_t total)
{
	double cpu = cpu_time(), rate;

	rate = mode[0] == 'i' ? bench_ring(ncons, total)
			      : bench_pipe(ncons, total);
	cpu = cpu_time() - cpu;
	printf("ring_bench mode=%s consumers=%u events=%llu events_per_s=%.0f "
	       "cpu_ns_per_event=%.2f\n", mode, ncons,
	       (unsigned long long)total, rate, cpu * 1e9 / total);
}

static int bench(uint64_t total)
{
	total = total / 1024 * 1024;
	bench_one("inplace", 1, total);
	bench_one("inplace", 4, total);
	bench_one("push", 1, total);
	bench_one("push", 4, total);
	if (failures)
		fprintf(stderr, "ring_bench: consumers saw wrong sums\n");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench(argc > 2 ? strtoull(argv[2], NULL, 0) : 100000000);
	if (argc > 1 && !strcmp(argv[1], "--small"))
		scale_div = 5;
	else if (argc > 1) {
		fprintf(stderr, "usage: ring_test [--small | --bench [events]]\n");
		return 2;
	}
	test_init_errors();
	test_arith();
	test_elem_size();
	test_blocking();
	test_consumer_wake();
	test_pipeline();
	test_stress();
	if (failures) {
		fprintf(stderr, "ring_test: %d check(s) failed\n", failures);
		return 1;
	}
	printf("ring_test: all checks passed\n");
	return 0;
}
