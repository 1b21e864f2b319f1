/* Condition blocks a threaded way passes without their branch
 * (gcda_mapper.h: gm_passed_by). Jump threading copies the paths through
 * a test whose outcome a way already knows (`if (!(a && b == (c ? g :
 * 255u)))` knowing, on its way into the `if` body, the body's first test
 * `g_arr[x3 & 15u] > x3`: the same load and comparison): that way jumps
 * to the code of the test's successor, and the test's block runs there
 * with no branch to count it. The instrumented run (its CFG from before
 * threading) counts those runs on the block's arcs; the branches left
 * count only theirs. */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* The first conditional branch the straight code from insn t runs
 * (plain jumps followed), or -1. */
static long first_branch(const struct gm *g, long t)
{
	for (int n = 0; t >= 0 && t < (long)g->m && n < 2 * GM_MAX_RUN; n++) {
		const struct minsn *p = &g->in[t];
		if (p->cls == LT_INSN_BRANCH)
			return t;
		if (p->cls == LT_INSN_JUMP && p->link == LT_LINK_NONE) {
			t = gm_insn_at(g, p->tgt);
			continue;
		}
		if (p->cls != LT_INSN_OTHER || gm_is_call(p) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return -1;
		t++;
	}
	return -1;
}

/* The condition block of the copy whose branch is insn j, or -1. */
static long copy_block(const struct gm *g, const struct gm_copy *cp,
                       uint32_t ncp, long j)
{
	for (uint32_t k = 0; j >= 0 && k < ncp; k++)
		if (cp[k].insn == (uint32_t)j)
			return g->f->arcs[cp[k].ta].src;
	return -1;
}

/* Is gcno block s a successor of block d? */
static int succ_of(const struct gm *g, uint32_t d, uint32_t s)
{
	for (uint32_t k = 0; k < g->nout[d]; k++)
		if (g->f->arcs[g->outa[d][k]].dst == s)
			return 1;
	return 0;
}

/* Does gcno block s reach block d (over real arcs)? Then d is the test
 * of a loop whose body s is: a way into the loop lands in its body, the
 * first test folded, and gm_folded_first_tests counts those entries.
 * -1 out of memory. */
static int reaches(const struct gm *g, uint32_t s, uint32_t d)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint32_t *stk = malloc(nb * sizeof(*stk));
	uint8_t *seen = calloc(nb, 1);
	int hit = stk && seen ? 0 : -1;
	if (hit == 0) {
		stk[n++] = s;
		seen[s] = 1;
	}
	while (hit == 0 && n) {
		uint32_t b = stk[--n];
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[b][k]];
			if (a->flags & LT_GCOV_ARC_FAKE || seen[a->dst])
				continue;
			hit = a->dst == d;
			seen[a->dst] = 1;
			stk[n++] = a->dst;
		}
	}
	free(stk);
	free(seen);
	return hit;
}

void gm_passed_by(const struct gm *g, const struct gm_copy *cp,
                  uint32_t ncp, const uint32_t *nmb, uint8_t *bad)
{
	for (uint32_t k = 0; k < ncp; k++) {
		const struct minsn *in = &g->in[cp[k].insn];
		long way[2] = {gm_insn_at(g, in->tgt),
		               gm_falls_to_next(g, cp[k].insn) ?
		               (long)cp[k].insn + 1 : -1};
		uint32_t arc[2] = {cp[k].ta, cp[k].fa};
		for (int w = 0; w < 2; w++) {
			uint32_t d = g->f->arcs[arc[w]].dst;
			if (d < 2 || !nmb[d] || gm_n_real_out(g, d) != 2)
				continue;
			long s = copy_block(g, cp, ncp,
			                    first_branch(g, way[w]));
			if (s < 0 || s == (long)d ||
			    !succ_of(g, d, (uint32_t)s) ||
			    reaches(g, (uint32_t)s, d))
				continue;
			for (uint32_t o = 0; o < g->nout[d]; o++)
				bad[g->outa[d][o]] |= 1;
		}
	}
}
