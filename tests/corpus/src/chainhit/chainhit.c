/* Hash chains searched by loops written on one line, inlined into a
 * lookup that is itself inlined into main's loop. The lookup's calls
 * were counted from its lines, which share code with main's and with
 * the search's loop: 1.3 times the calls, the excess on the miss path
 * and the unlink loop. Its `if (upd)` is on every path once: its pins
 * count the calls (gcda_pinentry.c: gm_once_entries). The search loop's
 * two tests (`e`, `e->key == key`) and the unlink loop's one test list
 * only their line: a way of each runs into the other's test, which the
 * shape of the code tells when the first test is not resolved on entry
 * (gcda_shape.c: solve's strict model; lru's hfind and hremove). */
#include <stdio.h>

#define NB 32
#define NSLOT 48

struct node { int key, val, upd; struct node *next; };
static struct node *bucket[NB];
static struct node slots[NSLOT];
static int nused, hits, misses, steps;

static unsigned hash(int k) { return ((unsigned)k * 2654435761u) >> 27; }
static struct node *find(int key) { struct node *e; for (e = bucket[hash(key)]; e; e = e->next) { steps++; if (e->key == key) return e; } return NULL; }
static void unlink_node(struct node *x) { struct node **pp = &bucket[hash(x->key)]; while (*pp != x) pp = &(*pp)->next; *pp = x->next; }

static int lookup(int key, int upd)
{
	struct node *e = find(key);
	if (e) {
		hits++;
	} else {
		misses++;
		if (nused < NSLOT) {
			e = &slots[nused++];
		} else {
			e = &slots[(unsigned)key % NSLOT];
			unlink_node(e);
		}
		e->key = key;
		e->val = key * 3 + 1;
		e->upd = 0;
		e->next = bucket[hash(key)];
		bucket[hash(key)] = e;
	}
	if (upd) {
		e->val += 2;
		e->upd++;
	}
	return e->val;
}

int main(void)
{
	long sum = 0;
	unsigned s = 12345u;
	for (int i = 0; i < 3000; i++) {
		s = s * 1103515245u + 12345u;
		int key = (int)((s >> 16) % (i < 1500 ? 60u : 200u));
		sum += lookup(key, (s >> 8) % 5u == 0);
	}
	printf("sum=%ld hits=%d misses=%d steps=%d used=%d\n", sum, hits, misses,
	       steps, nused);
	return 0;
}
