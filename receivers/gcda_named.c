/* Two ways to tell a branch's gcno block when the lines of its ways
 * named another (gcda_arms.h: gm_named_arms, gm_threaded_arms).
 *
 *     while (no > 0 && ops[no - 1] != '(' &&
 *            (prec(ops[no - 1]) > prec(op) || ...))        (line 112)
 *             ...
 *     if (no == 32) return E_OVERFLOW;                     (line 116)
 *     ops[no++] = op;                                      (line 117)
 *
 * The second test's way on runs prec's inlined table checks, code of
 * line 112 that the first test's way on (into the second test's block)
 * lists: the lines match the first test's block. The branch's own
 * discriminator names the second's (gm_named_arms). And where no > 0
 * fails, no == 32 is known false: jump threading sends that way past
 * the `no == 32` test, onto line 117, a line of neither destination of
 * the first test's block; the test it skipped tells which destination
 * the way had (gm_threaded_arms). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* Contract in gcda_arms.h. */
int gm_named_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_reentry(g, in->tgt, in->file, in->line);
	long nx = i + 1 < g->m && g->in[i + 1].addr == in->addr + in->len ?
		  (long)i + 1 : -1;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	if (dx == dy)
		return 0;
	int fw = gm_way_dest_is(g, b, dx, t, in) ||
		 gm_way_dest_is(g, b, dy, nx, in);
	int bw = gm_way_dest_is(g, b, dy, t, in) ||
		 gm_way_dest_is(g, b, dx, nx, in);
	if (fw == bw)
		return 0;
	*ta = fw ? x : y;
	*fa = fw ? y : x;
	return 1;
}

/* Contract in gcda_arms.h. */
int gm_threaded_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (t < 1 || nx < 0 || (uint32_t)t - 1 == i)
		return 0;
	const struct minsn *p = &g->in[t - 1];
	if (p->cls != LT_INSN_BRANCH || !gm_falls_to_next(g, (uint32_t)t - 1) ||
	    !p->line || p->cline != p->line || p->cfile != p->file)
		return 0;
	long hit = -1, ha = -1, hb = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    g->nout[b] != 2 || !gm_last_line_is(g, b, in->file, in->line))
			continue;
		uint32_t x = g->outa[b][0], y = g->outa[b][1];
		uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
		/* The skipped test is the destination's own condition. */
		int fw = dx >= 2 && gm_n_real_out(g, dx) == 2 &&
			 gm_last_line_is(g, dx, p->file, p->line) &&
			 gm_way_dest_is(g, b, dy, nx, in);
		int bw = dy >= 2 && gm_n_real_out(g, dy) == 2 &&
			 gm_last_line_is(g, dy, p->file, p->line) &&
			 gm_way_dest_is(g, b, dx, nx, in);
		if (fw == bw)
			continue;
		if (hit >= 0)
			return 0;
		hit = b;
		ha = fw ? x : y;
		hb = fw ? y : x;
	}
	if (hit < 0)
		return 0;
	*ta = ha;
	*fa = hb;
	return 1;
}
