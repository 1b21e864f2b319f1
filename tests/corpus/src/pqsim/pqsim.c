#include <stdio.h>
#include <stdint.h>

enum ev { EV_ARRIVE, EV_START, EV_DONE, EV_BREAK, EV_REPAIR, EV_TICK, EV_NKIND };
struct event { uint64_t t; int kind, who, seq; };

#define HEAPMAX 512
static struct event heap[HEAPMAX];
static int hn, seqno;
static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint32_t prng(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return (uint32_t)(state >> 16); }
static int before(const struct event *a, const struct event *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static int push(uint64_t t, int kind, int who)
{
	if (hn >= HEAPMAX) return -1;
	int i = hn++;
	struct event e = { t, kind, who, seqno++ };
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!before(&e, &heap[p])) break;
		heap[i] = heap[p];
		i = p;
	}
	heap[i] = e;
	return 0;
}

static struct event pop(void)
{
	struct event top = heap[0], last = heap[--hn];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct event *best = &last;
		if (l < hn && before(&heap[l], best)) { m = l; best = &heap[l]; }
		if (r < hn && before(&heap[r], best)) m = r;
		if (m == i) break;
		heap[i] = heap[m];
		i = m;
	}
	heap[i] = last;
	return top;
}

#define NSRV 4
struct stats { long count; uint64_t sum, max; };
static struct stats per_kind[EV_NKIND];
static int busy[NSRV], broken[NSRV], queue_len, max_queue, dropped;
static uint64_t served, wait_total, arrivals[1024];
static int qhead, qtail;

static void record(int kind, uint64_t dt)
{
	struct stats *s = &per_kind[kind];
	s->count++;
	s->sum += dt;
	if (dt > s->max) s->max = dt;
}

static int free_server(void)
{
	for (int k = 0; k < NSRV; k++)
		if (!busy[k] && !broken[k]) return k;
	return -1;
}

static void simulate(uint64_t horizon, int load)
{
	uint64_t now = 0, last = 0;
	push(0, EV_ARRIVE, -1);
	push(50, EV_TICK, -1);
	push(700 + prng() % 300, EV_BREAK, (int)(prng() % NSRV));
	while (hn > 0) {
		struct event e = pop();
		if (e.t > horizon) break;
		now = e.t;
		record(e.kind, now - last);
		last = now;
		switch (e.kind) {
		case EV_ARRIVE:
			if (queue_len >= 1000) { dropped++; }
			else { arrivals[qtail] = now; qtail = (qtail + 1) & 1023; queue_len++; if (queue_len > max_queue) max_queue = queue_len; }
			push(now + 1 + prng() % (unsigned)(40 / load), EV_ARRIVE, -1);
			__attribute__((fallthrough));
		case EV_START: {
			int k;
			while (queue_len > 0 && (k = free_server()) >= 0) {
				busy[k] = 1;
				wait_total += now - arrivals[qhead];
				qhead = (qhead + 1) & 1023;
				queue_len--;
				push(now + 5 + prng() % 30, EV_DONE, k);
			}
			break;
		}
		case EV_DONE:
			busy[e.who] = 0;
			served++;
			if (!broken[e.who] && queue_len) push(now, EV_START, -1);
			break;
		case EV_BREAK:
			if (broken[e.who]) break;
			broken[e.who] = 1;
			push(now + 100 + prng() % 200, EV_REPAIR, e.who);
			push(now + 900 + prng() % 500, EV_BREAK, (int)(prng() % NSRV));
			break;
		case EV_REPAIR:
			broken[e.who] = 0;
			push(now, EV_START, -1);
			break;
		case EV_TICK:
			if (now + 50 <= horizon) push(now + 50, EV_TICK, -1);
			break;
		default:
			printf("unknown event %d\n", e.kind);
		}
	}
	hn = 0;
}

static const char *kname(int k)
{
	static const char *const names[] = { "arrive", "start", "done", "break", "repair", "tick" };
	return k >= 0 && k < EV_NKIND ? names[k] : "?";
}

int main(void)
{
	for (int load = 1; load <= 4; load++) {
		for (int k = 0; k < EV_NKIND; k++) per_kind[k] = (struct stats){ 0, 0, 0 };
		for (int k = 0; k < NSRV; k++) busy[k] = broken[k] = 0;
		queue_len = max_queue = dropped = qhead = qtail = 0;
		served = wait_total = 0;
		simulate(3000, load);
		printf("load %d: served=%llu maxq=%d dropped=%d avgwait=%llu\n", load, (unsigned long long)served, max_queue,
		       dropped, (unsigned long long)(served ? wait_total / served : 0));
		for (int k = 0; k < EV_NKIND; k++)
			if (per_kind[k].count)
				printf("  %-6s n=%ld sum=%llu max=%llu\n", kname(k), per_kind[k].count,
				       (unsigned long long)per_kind[k].sum, (unsigned long long)per_kind[k].max);
	}
	printf("seq=%d %s\n", seqno, kname(9));
	return 0;
}
