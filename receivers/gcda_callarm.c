/* The arms of a `?:` on one line told apart by the call one arm makes
 * (gcda_mapper.h: gm_call_arms).
 *
 *     vals[nv++] = t->kind == T_NUM ? t->num : get_var(t->name, &ok);
 *
 * Both arms and the test have the statement's line, so the lines of the
 * ways cannot tell which arm each way is. The gcno block of the call's
 * arm ends in the call (its fake arc to EXIT); the other arm's does not.
 * The machine way into the call's arm makes the call before any other
 * transfer, or, where gcc inlined the callee after the profiling pass,
 * runs the copy's code, whose lines the gcno function does not list
 * (gcda_insns.c: caller_line gives it the call's line, cline != line);
 * the other way does neither. An arm whose call gcc inlined early lists
 * the callee's lines and leaves no fake arc, so it is never taken for a
 * call here. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Instructions of a way looked at, up to its first transfer. */
#define MAX_WAY 16

/* Does the way from insn t call on (file, line) first thing: a call
 * instruction of that line, or code of a copy inlined late at a call on
 * that line, before the way's first branch (plain jumps followed)? 1 if
 * so, 0 if it reaches another transfer (or MAX_WAY instructions)
 * without, -1 if it cannot be told (it leaves the decoded code or meets
 * other inlined code). A copy of the callee would be the way's first
 * code: gcc schedules no caller code of the arm before it but argument
 * set-up, which has the call's line. */
static int way_calls(const struct gm *g, long t, uint32_t file,
                     uint32_t line)
{
	for (int k = 0; k < MAX_WAY; k++) {
		if (t < 0 || t >= (long)g->m)
			return -1;
		const struct minsn *in = &g->in[t];
		if (in->nop || (in->cls == LT_INSN_JUMP &&
		                in->link == LT_LINK_NONE)) {
			t = in->nop ? t + 1 : gm_insn_at(g, in->tgt);
			continue;
		}
		int copied = in->line && (in->cline != in->line ||
		                          in->cfile != in->file);
		if (copied)
			return in->cline == line && in->cfile == file ? 1 : -1;
		if (gm_is_call(in))
			return in->line == line && in->file == file ? 1 : -1;
		if (in->cls == LT_INSN_BRANCH || in->cls == LT_INSN_JUMP ||
		    in->cls == LT_INSN_IJUMP || in->cls == LT_INSN_TRET)
			return 0;
		if (!gm_falls_to_next(g, (uint32_t)t))
			return -1;
		t++;
	}
	return 0;
}

/* Does gcno block d make a call on (file, line): a fake arc to EXIT and
 * the line listed? */
static int dest_calls(const struct gm *g, uint32_t d, uint32_t file,
                      uint32_t line)
{
	return d >= 2 && gm_has_fake_out(g, d) &&
	       gm_block_has_line(g, d, file, line);
}

int gm_call_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa)
{
	const struct minsn *in = &g->in[i];
	if (gm_n_real_out(g, b) != 2 || g->nout[b] != 2)
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	int cx = dest_calls(g, g->f->arcs[x].dst, in->file, in->line);
	int cy = dest_calls(g, g->f->arcs[y].dst, in->file, in->line);
	/* The call in the join (`f(c ? x : y)`), which one arm's way
	 * enters at once, is no arm's: both ways call. */
	uint32_t dc = g->f->arcs[cx ? x : y].dst;
	if (cx == cy || gm_only_succ(g, g->f->arcs[cx ? y : x].dst) == dc)
		return 0;
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	int wt = way_calls(g, t, in->file, in->line);
	int wf = way_calls(g, nx, in->file, in->line);
	if (wt < 0 || wf < 0 || wt == wf)
		return 0;
	uint32_t call = cx ? x : y, other = cx ? y : x;
	*ta = wt ? call : other;
	*fa = wt ? other : call;
	return 1;
}
