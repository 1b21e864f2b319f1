/* Address-pair counting table of the afdo receiver: linear probing, grown
 * at half load, so an add is O(1) on average. A program has few distinct
 * blocks and branches, so the table stays small however long the trace. */
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "ltpipe/error.h"

/* Mixes an address pair into a slot hash (64-bit multiply-xorshift). */
static uint64_t pair_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

/* Places an entry known to be absent into a table with room. */
static void place(struct afdo_pair *e, size_t cap, const struct afdo_pair *p)
{
	size_t i = (size_t)pair_hash(p->a, p->b) & (cap - 1);
	while (e[i].count)
		i = (i + 1) & (cap - 1);
	e[i] = *p;
}

/* Doubles the table (or creates it). */
static int grow(struct afdo_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct afdo_pair *e = calloc(cap, sizeof(*e));
	if (!e)
		return LT_ERR_NOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].count)
			place(e, cap, &m->e[i]);
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

int afdo_map_add(struct afdo_map *m, uint64_t a, uint64_t b, uint64_t n)
{
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return LT_ERR_NOMEM;
	size_t i = (size_t)pair_hash(a, b) & (m->cap - 1);
	while (m->e[i].count) {
		if (m->e[i].a == a && m->e[i].b == b) {
			m->e[i].count += n;
			return 0;
		}
		i = (i + 1) & (m->cap - 1);
	}
	m->e[i] = (struct afdo_pair){a, b, n};
	m->n++;
	return 0;
}

int afdo_pair_order(const void *pa, const void *pb)
{
	const struct afdo_pair *x = pa, *y = pb;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return 0;
}

int afdo_map_sorted(const struct afdo_map *m, struct afdo_pair **out,
                    size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!m->n)
		return 0;
	struct afdo_pair *v = malloc(m->n * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	size_t k = 0;
	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].count)
			v[k++] = m->e[i];
	qsort(v, k, sizeof(*v), afdo_pair_order);
	*out = v;
	*n = k;
	return 0;
}

void afdo_map_free(struct afdo_map *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}
