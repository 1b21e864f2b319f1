/* sched: round-robin / priority scheduler simulation over a struct of arrays. A switch on
 * an enum state inside a while loop with break/continue, do-while retry loops, early
 * return from nested loops, __builtin_expect, a many-parameter function, unsigned
 * wraparound counters. */
#include <stdio.h>
#include <string.h>

#define MAXT 64
enum state { S_NEW, S_READY, S_RUNNING, S_BLOCKED, S_SLEEPING, S_ZOMBIE, S_DEAD };

static struct {
	enum state st[MAXT];
	unsigned char prio[MAXT];
	unsigned remaining[MAXT];
	unsigned waited[MAXT];
	unsigned wake_at[MAXT];
	unsigned short io_every[MAXT];
	unsigned short ran[MAXT];
	int resource[MAXT];
} T;

static int ntasks;
static unsigned seed = 7;
static unsigned rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

static int res_owner[8];
static unsigned stats[8];

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Many parameters: spawns a task. */
static int spawn(int prio, unsigned work, unsigned short io_every, int resource,
		 unsigned wake_at, enum state initial, int *out_id)
{
	if (UNLIKELY(ntasks >= MAXT))
		return -1;
	int id = ntasks++;
	T.st[id] = initial;
	T.prio[id] = (unsigned char)prio;
	T.remaining[id] = work;
	T.waited[id] = 0;
	T.wake_at[id] = wake_at;
	T.io_every[id] = io_every;
	T.ran[id] = 0;
	T.resource[id] = resource;
	if (out_id)
		*out_id = id;
	return 0;
}

/* Try to acquire a resource, retrying a few times with a do-while. */
static int acquire(int id, int r)
{
	int tries = 0;
	do {
		if (res_owner[r] < 0 || res_owner[r] == id) {
			res_owner[r] = id;
			return tries;
		}
		if (T.st[res_owner[r]] == S_DEAD || T.st[res_owner[r]] == S_ZOMBIE) {
			res_owner[r] = -1;
			continue;
		}
	} while (++tries < 3);
	return -1;
}

/* Early return out of nested loops: finds a task in a given state with the best prio. */
static int pick(int policy, unsigned now)
{
	int best = -1;
	for (int p = 7; p >= 0; p--) {
		for (int k = 0; k < ntasks; k++) {
			int i = (int)((now + (unsigned)k) % (unsigned)ntasks);
			if (T.st[i] != S_READY)
				continue;
			if (policy == 0)
				return i; /* round robin: first ready one */
			if (T.prio[i] == p)
				return i;
			if (best < 0 || T.prio[i] > T.prio[best])
				best = i;
		}
		if (policy == 2 && best >= 0)
			break;
	}
	return best;
}

static unsigned run_sim(int policy, unsigned quantum, unsigned limit)
{
	unsigned now = 0, switches = 0, idle = 0;
	int cur = -1;
	unsigned slice = 0;
	memset(stats, 0, sizeof stats);
	for (int r = 0; r < 8; r++)
		res_owner[r] = -1;

	while (now < limit) {
		now++;
		/* Wake up sleepers and admit new tasks. */
		for (int i = 0; i < ntasks; i++) {
			switch (T.st[i]) {
			case S_NEW:
				if (now >= T.wake_at[i])
					T.st[i] = S_READY;
				break;
			case S_SLEEPING:
				if (now >= T.wake_at[i])
					T.st[i] = S_READY;
				else
					continue;
				stats[S_SLEEPING]++;
				break;
			case S_BLOCKED:
				if (acquire(i, T.resource[i]) >= 0)
					T.st[i] = S_READY;
				break;
			case S_READY:
				T.waited[i]++;
				if (T.waited[i] > 200 && T.prio[i] < 7)
					T.prio[i]++; /* aging */
				break;
			case S_ZOMBIE:
				if (T.resource[i] >= 0 && res_owner[T.resource[i]] == i)
					res_owner[T.resource[i]] = -1;
				T.st[i] = S_DEAD;
				break;
			default:
				break;
			}
		}
		if (cur < 0 || slice >= quantum || T.st[cur] != S_RUNNING) {
			if (cur >= 0 && T.st[cur] == S_RUNNING)
				T.st[cur] = S_READY;
			int n = pick(policy, now);
			if (n < 0) {
				idle++;
				cur = -1;
				int alive = 0;
				for (int i = 0; i < ntasks; i++)
					alive += T.st[i] != S_DEAD;
				if (!alive)
					break;
				continue;
			}
			if (n != cur)
				switches++;
			cur = n;
			slice = 0;
			T.st[cur] = S_RUNNING;
			T.waited[cur] = 0;
		}
		/* Run one tick of cur. */
		slice++;
		T.ran[cur]++;
		if (LIKELY(T.remaining[cur] > 0))
			T.remaining[cur]--;
		if (T.remaining[cur] == 0) {
			T.st[cur] = S_ZOMBIE;
			stats[S_ZOMBIE]++;
			continue;
		}
		if (T.io_every[cur] && T.ran[cur] % T.io_every[cur] == 0) {
			if (T.resource[cur] >= 0 && acquire(cur, T.resource[cur]) < 0) {
				T.st[cur] = S_BLOCKED;
				stats[S_BLOCKED]++;
			} else {
				T.st[cur] = S_SLEEPING;
				T.wake_at[cur] = now + 1 + rnd() % 9;
			}
		}
	}
	return switches * 1000u + idle;
}

/* Unsigned wraparound loop counters. */
static unsigned wrap_sum(unsigned start, unsigned step)
{
	unsigned acc = 0, n = 0;
	for (unsigned i = start; i != start - 1u && n < 700; i += step, n++) {
		acc += i >> 20;
		if (i < step) /* wrapped */
			acc ^= 0x5a5a;
	}
	unsigned char c = 250;
	do {
		acc += c;
	} while (++c != 4);
	for (unsigned short s = 65530; s != 5; s++)
		acc += s & 3;
	return acc;
}

int main(void)
{
	unsigned check = 0;
	for (int policy = 0; policy < 3; policy++) {
		for (int scen = 0; scen < 3; scen++) {
			ntasks = 0;
			int count = 2 + scen * 3 + policy;
			for (int i = 0; i < count + 4; i++) {
				int id = -1;
				unsigned r = rnd();
				if (spawn((int)(r % 8), 10 + (r >> 8) % (20 + scen * 10),
					  (unsigned short)((r >> 16) % 4 == 0 ? 0 : 3 + (r >> 18) % 10),
					  (r >> 24) % 3 == 0 ? -1 : (int)((r >> 26) % 8), (r >> 12) % 50,
					  i % 7 == 6 ? S_SLEEPING : S_NEW, i % 2 ? &id : NULL) < 0)
					break;
				if (id >= 0)
					check += (unsigned)id;
			}
			unsigned res = run_sim(policy, 2 + (unsigned)scen * 3, 1200);
			unsigned tot = 0;
			for (int i = 0; i < ntasks; i++)
				tot += T.ran[i];
			printf("policy %d scen %d tasks %d: switches %u idle %u ran %u blocked %u slept %u\n",
			       policy, scen, ntasks, res / 1000, res % 1000, tot, stats[S_BLOCKED],
			       stats[S_SLEEPING]);
			check = check * 31 + res + tot;
		}
	}
	unsigned w = wrap_sum(0xfffff000u, 0x101u) + wrap_sum(5, 0x30000001u);
	printf("wrap %u check %u\n", w, check);
	return 0;
}
