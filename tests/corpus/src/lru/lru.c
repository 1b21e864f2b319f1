/* LRU cache (hash + doubly linked list) under a generated access pattern, plus a skip list. Macro-heavy. */
#include <stdio.h>
#include <string.h>

#define NSLOT 64
#define HB 128
#define LIST_UNLINK(n) do { (n)->prev->next = (n)->next; (n)->next->prev = (n)->prev; } while (0)
#define LIST_PUSH_FRONT(h, n) do { (n)->next = (h)->next; (n)->prev = (h); (h)->next->prev = (n); (h)->next = (n); } while (0)
#define HASH(k) ((unsigned)((k) * 2654435761u) >> 25)
#define STAT(s) (stats.s++)
#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct ent { int key, val, dirty; struct ent *prev, *next, *hnext; };
struct cache { struct ent head, slots[NSLOT]; struct ent *bucket[HB]; int n, cap; };
static struct { long hits, misses, evictions, writebacks, hchain; } stats;

static void cache_init(struct cache *c, int cap) {
	memset(c, 0, sizeof *c); c->head.next = c->head.prev = &c->head; c->cap = MIN(cap, NSLOT);
}
static struct ent *hfind(struct cache *c, int key) {
	struct ent *e; for (e = c->bucket[HASH(key)]; e; e = e->hnext) { STAT(hchain); if (e->key == key) return e; } return NULL;
}
static void hremove(struct cache *c, struct ent *x) {
	struct ent **pp = &c->bucket[HASH(x->key)]; while (*pp != x) pp = &(*pp)->hnext; *pp = x->hnext;
}
static int backing(int key) { return key * 7 + 3; }

static int cache_get(struct cache *c, int key, int write) {
	struct ent *e = hfind(c, key);
	if (e) { STAT(hits); LIST_UNLINK(e); LIST_PUSH_FRONT(&c->head, e); }
	else {
		STAT(misses);
		if (c->n < c->cap) e = &c->slots[c->n++];
		else { e = c->head.prev; LIST_UNLINK(e); hremove(c, e); STAT(evictions); if (e->dirty) STAT(writebacks); }
		e->key = key; e->val = backing(key); e->dirty = 0; e->hnext = c->bucket[HASH(key)]; c->bucket[HASH(key)] = e;
		LIST_PUSH_FRONT(&c->head, e);
	}
	if (write) { e->val++; e->dirty = 1; }
	return e->val;
}

/* ---- skip list ---- */
#define MAXLVL 8
struct sk { int key; int lvl; struct sk *fwd[MAXLVL]; };
static struct sk skpool[1200], skhead; static int skused, sklevel = 1;
static unsigned lvseed = 99;
static int rand_level(void) { int l = 1; lvseed = lvseed * 1664525u + 1013904223u; unsigned r = lvseed >> 16; while ((r & 3) == 0 && l < MAXLVL) { l++; r >>= 2; } return l; }

static int sk_insert(int key) {
	struct sk *upd[MAXLVL], *x = &skhead; int i, l;
	for (i = sklevel - 1; i >= 0; i--) { while (x->fwd[i] && x->fwd[i]->key < key) x = x->fwd[i]; upd[i] = x; }
	x = x->fwd[0]; if (x && x->key == key) return 0;
	if (skused == 1200) return -1;
	l = rand_level(); if (l > sklevel) { for (i = sklevel; i < l; i++) upd[i] = &skhead; sklevel = l; }
	x = &skpool[skused++]; x->key = key; x->lvl = l;
	for (i = 0; i < l; i++) { x->fwd[i] = upd[i]->fwd[i]; upd[i]->fwd[i] = x; }
	return 1;
}
static int sk_delete(int key) {
	struct sk *upd[MAXLVL], *x = &skhead; int i;
	for (i = sklevel - 1; i >= 0; i--) { while (x->fwd[i] && x->fwd[i]->key < key) x = x->fwd[i]; upd[i] = x; }
	x = x->fwd[0]; if (!x || x->key != key) return 0;
	for (i = 0; i < sklevel && upd[i]->fwd[i] == x; i++) upd[i]->fwd[i] = x->fwd[i];
	while (sklevel > 1 && !skhead.fwd[sklevel - 1]) sklevel--;
	return 1;
}
static int sk_find(int key, int *steps) {
	struct sk *x = &skhead; for (int i = sklevel - 1; i >= 0; i--) while (x->fwd[i] && x->fwd[i]->key < key) { x = x->fwd[i]; ++*steps; }
	x = x->fwd[0]; return x && x->key == key;
}
static int sk_check(void) { int n = 0, prev = -1; for (struct sk *x = skhead.fwd[0]; x; x = x->fwd[0]) { if (x->key <= prev) return -1; prev = x->key; n++; } return n; }

/* access patterns */
enum pat { SEQ, LOOPING, ZIPF, MIXED };
static unsigned pseed = 1;
static int next_key(enum pat p, int i) {
	pseed = pseed * 1103515245u + 12345u;
	switch (p) {
	case SEQ: return i;
	case LOOPING: return i % 80;
	case ZIPF: { unsigned r = (pseed >> 10) % 1000; return r < 500 ? (int)(r % 8) : r < 800 ? (int)(8 + r % 40) : (int)(48 + r % 400); }
	default: return (i & 1) ? i % 50 : (int)((pseed >> 12) % 300);
	}
}

int main(void) {
	static const char *names[] = { "seq", "looping", "zipf", "mixed" };
	static struct cache c; long sum = 0; int caps[] = { 16, 64, 100 };
	for (int p = SEQ; p <= MIXED; p++) for (unsigned ci = 0; ci < 3; ci++) {
		memset(&stats, 0, sizeof stats); cache_init(&c, caps[ci]);
		for (int i = 0; i < 500; i++) sum += cache_get(&c, next_key((enum pat)p, i), (i % 7) == 0);
		printf("%-8s cap=%3d hits=%5ld misses=%5ld evict=%5ld wb=%4ld chain=%ld\n", names[p], c.cap, stats.hits, stats.misses, stats.evictions, stats.writebacks, stats.hchain);
	}
	{ int ins = 0, del = 0, found = 0, steps = 0;
	  for (int i = 0; i < 900; i++) { int k = (int)((i * 7919u) % 2003u); if (i % 3 == 2) del += sk_delete((int)((i * 31u) % 2003u)); else ins += sk_insert(k) > 0; }
	  for (int k = 0; k < 2003; k += 3) found += sk_find(k, &steps);
	  printf("skip: ins=%d del=%d size=%d level=%d found=%d steps=%d\n", ins, del, sk_check(), sklevel, found, steps); }
	printf("sum=%ld\n", sum);
	return 0;
}
