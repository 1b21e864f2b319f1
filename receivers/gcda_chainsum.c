/* Chained conditions whose branch counts disagree (gcda_mapper.h:
 * gm_chain_sums). When condition block b2 is entered only by arc p of
 * condition block b (`A && B`, `if (A) { if (B)`), every execution of B
 * went p's way first, so the branches matched to b2 ran exactly as often
 * as b's branches went p's way, copies included. When they did not, a
 * match is wrong: in `while (i2 < 3u && (b & 1u) == 0u)` gcc tests the
 * invariant `b & 1` once above the loop (its ways: the exit, and on into
 * the body through code of the loop's line) and counts i2 down at the
 * bottom (its ways: the body, and the exit); the lines read the first as
 * A's test and the second as B's, swapping the exits' counts. A copy of a
 * test gcc resolved (no branch) makes them disagree as well; its arcs
 * were lower bounds only anyway; only conditions sharing a line are
 * compared (on two lines, the lines tell them apart, and a resolved copy
 * is common: a rotated loop's first test). */
#include "gcda_mapper.h"

static int two_way(const struct gm *g, uint32_t b)
{
	return gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b);
}

/* The only real arc into block b, or -1. */
static long only_in(const struct gm *g, uint32_t b)
{
	long p = -1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *x = &g->f->arcs[a];
		if (x->dst != b || (x->flags & LT_GCOV_ARC_FAKE))
			continue;
		if (p >= 0)
			return -1;
		p = a;
	}
	return p;
}

/* Is the condition line of block b (the last line it lists) b2's too? On
 * different lines the lines tell the two tests apart. */
static int same_line(const struct gm *g, uint32_t b, uint32_t b2)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b2];
	if (!bl->n_lines)
		return 0;
	const struct lt_gcno_line *l = &bl->lines[bl->n_lines - 1];
	return gm_last_line_is(g, b, g->x->filemap[l->file], l->line);
}

void gm_chain_sums(const struct gm *g, const uint32_t *nmb,
                   const int64_t *sum, uint8_t *bad)
{
	for (uint32_t b2 = 2; b2 < g->f->n_blocks; b2++) {
		if (!nmb[b2] || !two_way(g, b2))
			continue;
		long p = only_in(g, b2);
		if (p < 0)
			continue;
		uint32_t b = g->f->arcs[p].src;
		if (b < 2 || !nmb[b] || !two_way(g, b))
			continue;
		uint32_t x2 = g->outa[b2][0], y2 = g->outa[b2][1];
		if (sum[p] == sum[x2] + sum[y2] || !same_line(g, b, b2))
			continue;
		bad[g->outa[b][0]] |= 1;
		bad[g->outa[b][1]] |= 1;
		bad[x2] |= 1;
		bad[y2] |= 1;
	}
}
