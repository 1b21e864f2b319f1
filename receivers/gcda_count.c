/* Machine-level execution counts for the gcda receiver (gcda_count.h).
 *
 * A block event covers the straight-line instructions start..last, so the
 * executions of an instruction are the blocks entered at or before it minus
 * those left before it, in address order: one prefix sum per region at the
 * end gives every instruction's count from two increments per event. */
#include <stdlib.h>
#include <string.h>

#include "gcda_count.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"

int gc_counts_init(struct gc_counts *c, const struct lt_image_set *set)
{
	memset(c, 0, sizeof(*c));
	c->nim = set->n;
	c->im = calloc(set->n ? set->n : 1, sizeof(*c->im));
	if (!c->im)
		return LT_ERR_NOMEM;
	for (size_t i = 0; i < set->n; i++) {
		c->im[i].img = set->sel[i].img;
		c->im[i].reg = calloc(set->sel[i].img->nregions + 1,
		                      sizeof(struct gc_region));
		if (!c->im[i].reg)
			return LT_ERR_NOMEM;
	}
	return 0;
}

/* Returns the counters of the region holding addr, allocating them on
 * first use, or NULL (outside the image, or out of memory). */
static struct gc_region *region_of(struct gc_counts *c, struct gc_image *g,
                                   uint64_t addr)
{
	const struct lt_region *r = lt_image_region(g->img, addr);
	if (!r)
		return NULL;
	struct gc_region *gr = &g->reg[r - g->img->regions];
	if (!gr->r) {
		size_t n = (size_t)((r->end - r->base) / 2 + 1);
		gr->enter = calloc(n, sizeof(uint64_t));
		gr->leave = calloc(n, sizeof(uint64_t));
		gr->taken = calloc(n, sizeof(uint64_t));
		if (!gr->enter || !gr->leave || !gr->taken) {
			free(gr->enter);
			free(gr->leave);
			free(gr->taken);
			gr->enter = gr->leave = gr->taken = NULL;
			c->nomem = 1;
			return NULL;
		}
		gr->r = r;
	}
	return gr;
}

static size_t xfer_hash(uint64_t from, uint64_t to)
{
	uint64_t h = (from * 0x9e3779b97f4a7c15ull) ^ (to * 0xc2b2ae3d27d4eb4full);
	return (size_t)(h ^ (h >> 29));
}

/* Adds one non-direct transfer (rare: returns, indirect jumps, traps). */
static void xfer_add(struct gc_counts *c, struct gc_image *g, uint64_t from,
                     uint64_t to)
{
	if (g->used * 2 >= g->cap) {
		size_t ncap = g->cap ? g->cap * 2 : 256;
		struct gc_xfer *nt = calloc(ncap, sizeof(*nt));
		if (!nt) {
			c->nomem = 1;
			return;
		}
		for (size_t i = 0; i < g->cap; i++) {
			if (!g->tab[i].n)
				continue;
			size_t h = xfer_hash(g->tab[i].from, g->tab[i].to);
			while (nt[h & (ncap - 1)].n)
				h++;
			nt[h & (ncap - 1)] = g->tab[i];
		}
		free(g->tab);
		g->tab = nt;
		g->cap = ncap;
	}
	size_t h = xfer_hash(from, to);
	for (;; h++) {
		struct gc_xfer *x = &g->tab[h & (g->cap - 1)];
		if (!x->n) {
			x->from = from;
			x->to = to;
			x->n = 1;
			g->used++;
			return;
		}
		if (x->from == from && x->to == to) {
			x->n++;
			return;
		}
	}
}

void gc_counts_add(struct gc_counts *c, const struct lt_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		if (e->icount == 0 || e->img >= c->nim)
			continue;
		struct gc_image *g = &c->im[e->img];
		struct gc_region *gr = region_of(c, g, e->start);
		if (!gr || e->last >= gr->r->end)
			continue;
		gr->enter[lt_region_idx(gr->r, e->start)]++;
		uint32_t li = lt_region_idx(gr->r, e->last);
		gr->leave[li]++;
		switch (e->kind) {
		case LT_EV_TAKEN:
		case LT_EV_JUMP:
			gr->taken[li]++;
			break;
		case LT_EV_IJUMP:
		case LT_EV_EXCEPTION:
		case LT_EV_INTERRUPT:
		case LT_EV_TRET:
			xfer_add(c, g, e->last, e->next);
			break;
		default:
			break;
		}
	}
}

static int cmp_to(const void *a, const void *b)
{
	const struct gc_xfer *x = a, *y = b;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

static int cmp_from(const void *a, const void *b)
{
	const struct gc_xfer *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

int gc_counts_finish(struct gc_counts *c)
{
	for (size_t k = 0; k < c->nim; k++) {
		struct gc_image *g = &c->im[k];
		for (size_t r = 0; r < g->img->nregions; r++) {
			struct gc_region *gr = &g->reg[r];
			if (!gr->r)
				continue;
			size_t n = (size_t)((gr->r->end - gr->r->base) / 2);
			uint64_t run = 0;
			for (size_t h = 0; h < n; h++) {
				run += gr->enter[h];
				gr->enter[h] = run;
				run -= gr->leave[h];
			}
		}
		size_t u = 0;
		for (size_t i = 0; i < g->cap; i++)
			if (g->tab[i].n)
				g->tab[u++] = g->tab[i];
		g->used = u;
		if (u) {
			qsort(g->tab, u, sizeof(*g->tab), cmp_to);
			g->by_from = malloc(u * sizeof(*g->by_from));
			if (!g->by_from)
				return LT_ERR_NOMEM;
			memcpy(g->by_from, g->tab, u * sizeof(*g->by_from));
			qsort(g->by_from, u, sizeof(*g->by_from), cmp_from);
		}
	}
	return c->nomem ? LT_ERR_NOMEM : 0;
}

void gc_counts_free(struct gc_counts *c)
{
	for (size_t k = 0; k < c->nim; k++) {
		struct gc_image *g = &c->im[k];
		if (g->reg)
			for (size_t r = 0; r < g->img->nregions; r++) {
				free(g->reg[r].enter);
				free(g->reg[r].leave);
				free(g->reg[r].taken);
			}
		free(g->reg);
		free(g->tab);
		free(g->by_from);
	}
	free(c->im);
	memset(c, 0, sizeof(*c));
}

/* Returns the counters holding addr after finish, and its index. */
static const struct gc_region *find(const struct gc_counts *c, size_t im,
                                    uint64_t addr, uint32_t *idx)
{
	if (im >= c->nim)
		return NULL;
	const struct gc_image *g = &c->im[im];
	const struct lt_region *r = lt_image_region(g->img, addr);
	if (!r)
		return NULL;
	const struct gc_region *gr = &g->reg[r - g->img->regions];
	if (!gr->r)
		return NULL;
	*idx = lt_region_idx(r, addr);
	return gr;
}

uint64_t gc_insn_count(const struct gc_counts *c, size_t im, uint64_t addr)
{
	uint32_t i;
	const struct gc_region *gr = find(c, im, addr, &i);
	return gr ? gr->enter[i] : 0;
}

uint64_t gc_taken(const struct gc_counts *c, size_t im, uint64_t addr)
{
	uint32_t i;
	const struct gc_region *gr = find(c, im, addr, &i);
	return gr ? gr->taken[i] : 0;
}

/* Binary search for the first entry of a sorted array whose key (to, or
 * from) is >= v; returns the run of entries equal to v. */
static const struct gc_xfer *run_of(const struct gc_xfer *a, size_t n,
                                    uint64_t v, int by_to, size_t *cnt)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint64_t k = by_to ? a[mid].to : a[mid].from;
		if (k < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t e = lo;
	while (e < n && (by_to ? a[e].to : a[e].from) == v)
		e++;
	*cnt = e - lo;
	return e > lo ? &a[lo] : NULL;
}

const struct gc_xfer *gc_xfers_to(const struct gc_counts *c, size_t im,
                                  uint64_t to, size_t *n)
{
	*n = 0;
	if (im >= c->nim || !c->im[im].used)
		return NULL;
	return run_of(c->im[im].tab, c->im[im].used, to, 1, n);
}

const struct gc_xfer *gc_xfers_from(const struct gc_counts *c, size_t im,
                                    uint64_t from, size_t *n)
{
	*n = 0;
	if (im >= c->nim || !c->im[im].used)
		return NULL;
	return run_of(c->im[im].by_from, c->im[im].used, from, 0, n);
}
