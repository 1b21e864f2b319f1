/* The calls of a function mapped from its inlined copies, from the
 * branch pins (gcda_mapper.h: gm_pinned_entries). Copies have no entry
 * of their own to count, so their calls are otherwise counted from their
 * lines (gm_copy_estimates), which code hoisted out of a caller's loop
 * or shared with the caller inflates: lru's sk_delete, inlined into
 * main, read as 1289 calls where the program made 300, and the 989 extra
 * left through an early return the flow could not price. gcda_map.c
 * takes these calls only where they are fewer and the conditions were
 * matched by shape (gcda_shape.c: lines alike on all of them): a first
 * test resolved on entry (a rotated loop's, the trip count known) hides
 * calls from the pins of its ways.
 *
 * The first condition every call reaches (ENTRY's way through blocks of
 * one successor ends at it) runs once per call plus once per arrival
 * from inside the function (a loop's latch). When the pins bound both
 * its ways and every other arc into it carries a count the pins give
 * (a pinned arc, or the only way out of a block whose arcs in the pins
 * give, and so on back), the calls are the difference, unless the pins
 * of the ways out of the function count other than that.
 *
 * A condition every call passes exactly once (on every path from ENTRY to
 * EXIT, on no cycle: lru's cache_get `if (write)`) counts the calls too
 * (gm_once_entries), where the lines of the copies read 7737 calls for
 * the program's 6000 (hfind's loop inlined into it, and main's code, on
 * cache_get's lines). */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"

#define MAX_BACK 64 /* blocks walked back from the first condition */

/* The count the pins give arc a (hard[], see gm_pin_branches), walking
 * back through blocks whose only real way out is their arc on the way
 * (their count is their arcs in's); -1 when some arc on the way is
 * neither pinned nor such, or comes from ENTRY, or the walk loops or
 * runs too long. seen[] marks blocks walked (the caller zeroes it). */
static int64_t pinned_into(const struct gm *g, uint32_t a,
                           const int64_t *hard, uint8_t *seen, int *budget)
{
	if (hard[a] >= 0)
		return hard[a];
	uint32_t p = g->f->arcs[a].src;
	if (p < 2 || seen[p] || --*budget < 0 || gm_n_real_out(g, p) != 1)
		return -1;
	seen[p] = 1;
	int64_t sum = 0;
	for (uint32_t q = 0; q < g->f->n_arcs; q++) {
		const struct lt_gcno_arc *r = &g->f->arcs[q];
		if (r->dst != p)
			continue;
		if (r->flags & LT_GCOV_ARC_FAKE)
			return -1; /* a setjmp receiver: landings */
		int64_t n = pinned_into(g, q, hard, seen, budget);
		if (n < 0)
			return -1;
		sum += n;
	}
	return sum;
}

int64_t gm_pinned_entries(const struct gm *g, const int64_t *hard)
{
	uint32_t nb = g->f->n_blocks;
	/* ENTRY's way on, through blocks of one real successor. */
	long d = gm_only_succ(g, 0), via = -1;
	for (uint32_t steps = 0; d >= 2 && gm_n_real_out(g, (uint32_t)d) == 1 &&
	                         steps < nb; steps++) {
		if (g->npred[d] != 1)
			return -1; /* entered from inside too */
		via = d;
		d = gm_only_succ(g, (uint32_t)d);
	}
	if (d < 2 || gm_n_real_out(g, (uint32_t)d) != 2 ||
	    gm_has_fake_out(g, (uint32_t)d))
		return -1;
	int64_t out = 0;
	for (uint32_t k = 0; k < g->nout[d]; k++) {
		if (hard[g->outa[d][k]] < 0)
			return -1;
		out += hard[g->outa[d][k]];
	}
	uint8_t *seen = calloc(nb, 1);
	if (!seen)
		return -1;
	int64_t in = 0;
	int budget = MAX_BACK, ok = 1;
	for (uint32_t a = 0; a < g->f->n_arcs && ok; a++) {
		const struct lt_gcno_arc *r = &g->f->arcs[a];
		/* The arc the calls come by (from ENTRY or the chain's last
		 * block) is the one left out. */
		if (r->dst != (uint32_t)d ||
		    r->src == (via >= 0 ? (uint32_t)via : 0))
			continue;
		int64_t n = (r->flags & LT_GCOV_ARC_FAKE) ? -1 :
			    pinned_into(g, a, hard, seen, &budget);
		ok = n >= 0;
		in += n;
	}
	/* The calls leave too: where the pins give every arc into EXIT
	 * (its fake arcs aside: calls return, as a rule), they must count
	 * as many. A first test gcc resolved on entry to some calls (a
	 * rotated loop's, its trip count known) leaves them out of the
	 * pins of its ways, not out of the way they leave by. */
	int64_t exits = 0;
	memset(seen, 0, nb);
	budget = MAX_BACK;
	for (uint32_t a = 0; a < g->f->n_arcs && ok && exits >= 0; a++) {
		const struct lt_gcno_arc *r = &g->f->arcs[a];
		if (r->dst != 1 || (r->flags & LT_GCOV_ARC_FAKE))
			continue;
		int64_t n = pinned_into(g, a, hard, seen, &budget);
		exits = n < 0 ? -1 : exits + n;
	}
	free(seen);
	if (!ok || out <= in || (exits >= 0 && exits != out - in))
		return -1;
	return out - in;
}

/* Can block `to` be reached from block `from` over real arcs (none out
 * of or into block `skip`)? The start counts only when reached again
 * (from == to: is `from` on a cycle). */
static int reaches(const struct gm *g, uint32_t from, uint32_t to,
                   long skip, uint32_t *stack, uint8_t *seen)
{
	uint32_t n = 0;
	memset(seen, 0, g->f->n_blocks);
	stack[n++] = from;
	while (n) {
		uint32_t d = stack[--n];
		for (uint32_t k = 0; k < g->nout[d]; k++) {
			const struct lt_gcno_arc *x = &g->f->arcs[g->outa[d][k]];
			if ((x->flags & LT_GCOV_ARC_FAKE) ||
			    (long)x->dst == skip)
				continue;
			if (x->dst == to)
				return 1;
			if (seen[x->dst])
				continue;
			seen[x->dst] = 1;
			stack[n++] = x->dst;
		}
	}
	return 0;
}

int64_t gm_once_entries(const struct gm *g, const int64_t *hard,
                        const uint8_t *soft)
{
	uint32_t nb = g->f->n_blocks;
	uint32_t *stack = malloc((g->f->n_arcs + nb + 1) * sizeof(*stack));
	uint8_t *seen = malloc(nb);
	int64_t best = -1;
	for (uint32_t b = 2; stack && seen && b < nb; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b))
			continue;
		uint32_t x = g->outa[b][0], y = g->outa[b][1];
		if (hard[x] < 0 || hard[y] < 0 || soft[x] || soft[y] ||
		    hard[x] + hard[y] <= best)
			continue;
		/* On every path (EXIT out of reach without it), on no
		 * cycle (it does not reach itself). */
		if (reaches(g, 0, 1, (long)b, stack, seen) ||
		    reaches(g, b, b, -1, stack, seen))
			continue;
		best = hard[x] + hard[y];
	}
	free(stack);
	free(seen);
	return best;
}
