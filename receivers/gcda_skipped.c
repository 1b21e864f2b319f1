/* Executions of a chain's first test that jump threading dropped
 * (gcda_mapper.h: gm_skipped_share). In
 *
 *     switch (k) { case 1: x1 = 0; break; ... }
 *     if ((g[x2 & 15] > x3 && x1 > b) || (a & 1))
 *
 * every path but one knows `x1 > b` false, so gcc threads them past
 * the whole `&&` to `(a & 1)`: their copies of the first test run no
 * branch, yet the instrumented run (its CFG is from before threading)
 * counted each of them, with that test's odds. The pins of the one
 * copy left are lower bounds; the flow put the rest all one way (the
 * path with fewer tests). Giving the rest in the proportion the
 * branches saw is the estimate that keeps the test's odds (threadc:
 * taken branches +7.6% -> +1.7% of instrumented PGO). An estimate, no
 * claim. */
#include "gcda_arms.h"
#include "gcda_mapper.h"

/* Paths that must meet at the chain (a switch's cases): threading copies
 * the test per path; a test reached by one or two paths whose pins miss
 * executions is more often one a path resolved (`l < n` false decides
 * `l + 1 < n`), whose unseen executions all went one way. */
#define MIN_PATHS 3

/* Is block b the first test of a two-test chain (`A && B`, `A || B`):
 * one way of b goes to a condition block c entered only from b, one of
 * whose ways goes where b's other way goes? */
static int chain_head(const struct gm *g, uint32_t b)
{
	uint32_t d[2], n = 0;
	for (uint32_t q = 0; q < g->nout[b] && n < 2; q++) {
		const struct lt_gcno_arc *x = &g->f->arcs[g->outa[b][q]];
		if (!(x->flags & LT_GCOV_ARC_FAKE))
			d[n++] = x->dst;
	}
	for (uint32_t w = 0; n == 2 && w < 2; w++) {
		uint32_t c = d[w];
		if (c < 2 || c == b || gm_n_real_out(g, c) != 2 ||
		    g->npred[c] != 1)
			continue;
		for (uint32_t q = 0; q < g->nout[c]; q++)
			if (g->f->arcs[g->outa[c][q]].dst == d[1 - w])
				return 1;
	}
	return 0;
}

/* Where both ways out of the first test A of a chain `A && B` are
 * pinned (lower bounds) and the flow ran A more often than the pins add
 * up to, the executions no branch saw are copies jump threading dropped
 * A from because the path decided B (`x1 = 0` before `(A && x1 > b)`):
 * A's outcome did not matter there, but the instrumented run still
 * counted it, with A's odds: they go A's ways in the proportion the
 * branches saw (bal[a]: the pin plus its share), not all one way as a
 * path with fewer tests would have them. Block estimates outbid it
 * where a way's own code shows the count. Returns whether any share was
 * set. */
int gm_skipped_share(const struct gm *g, uint32_t b, const int64_t *hard,
                     const int64_t *flow, int64_t *bal)
{
	int64_t cnt = 0, sum = 0;
	uint32_t n = 0;
	for (uint32_t q = 0; q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		cnt += flow[a];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		if (hard[a] < 0)
			return 0;
		sum += hard[a];
		n++;
	}
	for (uint32_t q = 0; q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			cnt -= flow[a];
	}
	if (n != 2 || sum <= 0 || cnt <= sum || g->npred[b] < MIN_PATHS ||
	    !chain_head(g, b))
		return 0;
	int any = 0;
	for (uint32_t q = 0; q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		bal[a] = hard[a] + (cnt - sum) * hard[a] / sum;
		any |= bal[a] > hard[a];
	}
	return any;
}
