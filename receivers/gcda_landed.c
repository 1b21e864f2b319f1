/* A test that a matched test's way runs into (gcda_mapper.h:
 * gm_landed_block). */
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Instructions a way may run before the test it runs into. */
#define MAX_LEAD 4

/* Does control landing at insn t run straight into insn i, through at
 * most MAX_LEAD instructions that compute nothing (gm_computes: constant
 * loads and copies, the values of a join) and transfer nowhere? */
static int leads_to(const struct gm *g, long t, uint32_t i)
{
	for (int n = 0; t >= 0 && n <= MAX_LEAD; n++, t++) {
		if (t == (long)i)
			return 1;
		const struct minsn *in = &g->in[t];
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t) ||
		    gm_computes(g, in->addr))
			return 0;
	}
	return 0;
}

/* Tests of one line that several conditions end on (`*len = re[0] ==
 * '[' ? ... : (re[0] == '\\' ? 2 : 1)`, both tests on line 43) match by
 * their lines alike: the first test's way on to the second starts on
 * the line both share, and a way of only constant loads (`li a2,2`, the
 * inner `?:`'s value) starts on no line of its own. Where another
 * branch j, matched by its lines to block b, runs by one way straight
 * into test i, i is the condition of the block d that way's arc leads
 * to, when d is a two-way condition of i's line other than b: the code
 * of a condition's way runs into the next condition as its arc leads
 * there. Returns d (*from: b), or -1 (no such branch, or branches
 * running into i by arcs to different blocks, or a block of another
 * line). */
long gm_landed_block(const struct gm *g, uint32_t i, gm_line_match_fn lines,
                     long *from)
{
	const struct minsn *in = &g->in[i];
	long found = -1;
	for (uint32_t j = 0; j < g->m; j++) {
		const struct minsn *bj = &g->in[j];
		if (j == i || bj->cls != LT_INSN_BRANCH || !bj->line ||
		    bj->line != in->line || bj->file != in->file)
			continue;
		int wt = bj->tgt > bj->addr &&
			 leads_to(g, gm_insn_at(g, bj->tgt), i);
		int wf = gm_falls_to_next(g, j) && leads_to(g, (long)j + 1, i);
		long ta, fa;
		if ((!wt && !wf) || (wt && wf) || !lines(g, j, &ta, &fa))
			continue;
		uint32_t d = g->f->arcs[wt ? ta : fa].dst;
		uint32_t b = g->f->arcs[ta].src;
		if (d < 2 || d == b || gm_n_real_out(g, d) != 2 ||
		    gm_has_fake_out(g, d) ||
		    !gm_last_line_is(g, d, in->file, in->line) ||
		    (found >= 0 && found != (long)d))
			return -1;
		found = d;
		*from = b;
	}
	return found;
}
