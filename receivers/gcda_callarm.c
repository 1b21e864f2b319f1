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
 * the other way does neither; in an inlined copy (`n ? table[n->k](n,
 * e) : 0` inlined into each caller), a way that leaves the copy for its
 * caller's code before any call makes none. An arm whose call gcc
 * inlined early lists the callee's lines and leaves no fake arc, so it
 * is never taken for a call here. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Instructions of a way looked at, up to its first transfer. */
#define MAX_WAY 16

/* The outermost DWARF function instance (the subprogram) holding addr,
 * or -1. */
static long root_of(const struct lt_dwarf *dw, uint64_t addr)
{
	long q = lt_dwarf_inline_find(dw, addr);
	while (q >= 0 && dw->func[q].depth > 0)
		q = dw->func[q].parent;
	return q;
}

int gm_tail_jump(const struct gm *g, const struct minsn *in)
{
	const struct lt_dwarf *dw = g->x->dw;
	long own = dw ? root_of(dw, in->addr) : -1;
	size_t n;
	const struct gc_xfer *xs = gc_xfers_from(g->x->c, g->x->im, in->addr,
	                                         &n);
	if (own < 0 || !n)
		return 0;
	for (size_t q = 0; q < n; q++)
		if (root_of(dw, xs[q].to) == own)
			return 0;
	return 1;
}

/* Most instructions of the caller's code scheduled into a copy that a
 * way steps over (straight-line, as gcda_estimate.c's bridge_len). */
#define MAX_GAP 4

/* Mapped from inlined copies only: where control goes from insn t when
 * it does not fall into the next decoded instruction (the copy's code
 * ends there). Straight caller code of at most MAX_GAP instructions
 * running into the next decoded one (the scheduler's strays in the
 * copy) is stepped over: returns that index (*freed set when it
 * releases the frame). A plain jump out of the decoded code, a return,
 * or more caller code than that leaves the copy: -2. Anything else: -1
 * (not known). */
static long past_gap(const struct gm *g, long t, int *freed)
{
	const struct minsn *in = &g->in[t];
	uint64_t a = in->addr + in->len;
	const struct lt_region *r = lt_image_region(g->x->img, a);
	if (!r)
		return -1;
	for (int k = 0; k <= MAX_GAP && a < r->end; k++) {
		if (t + 1 < (long)g->m && g->in[t + 1].addr == a)
			return t + 1;
		if (gm_insn_at(g, a) >= 0)
			return -1;
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		if (hw->cls == LT_INSN_JUMP && hw->link == LT_LINK_NONE)
			return gm_insn_at(g, a + (uint64_t)(int64_t)hw->tgt) < 0 ?
			       -2 : -1;
		if (hw->cls != LT_INSN_OTHER)
			return hw->cls == LT_INSN_IJUMP &&
			       hw->link == LT_LINK_RET ? -2 : -1;
		*freed |= gm_frees_stack(g->x->img, a);
		a += hw->len ? hw->len : 2;
	}
	return -2;
}

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
	int freed = 0; /* the way released the caller's frame */
	for (int k = 0; k < MAX_WAY; k++) {
		/* Out of the decoded code: mapped from inlined copies
		 * only, the way left its copy for the caller's code (the
		 * copy's own call, with the copy's line, is in the copy's
		 * spans); else it may be a tail call. */
		if (t < 0 || t >= (long)g->m)
			return g->span ? 0 : -1;
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
		/* In an inlined copy, a call in tail position (`return
		 * eval(x)`, eval's `table[n->k](n, e)` inlined) is an
		 * indirect jump after
		 * the epilogue freed the frame, or (no frame) one whose
		 * targets are other functions': a jump table dispatches
		 * with the frame in place, to labels of its own
		 * function. */
		if (g->span && in->cls == LT_INSN_IJUMP &&
		    in->link == LT_LINK_NONE && (freed || gm_tail_jump(g, in)))
			return in->line == line && in->file == file ? 1 : -1;
		freed |= gm_frees_stack(g->x->img, in->addr);
		if (in->cls == LT_INSN_BRANCH || in->cls == LT_INSN_JUMP ||
		    in->cls == LT_INSN_IJUMP || in->cls == LT_INSN_TRET)
			return 0;
		if (gm_falls_to_next(g, (uint32_t)t)) {
			t++;
			continue;
		}
		long p = g->span ? past_gap(g, t, &freed) : -1;
		if (p < 0)
			return p == -2 ? 0 : -1;
		t = p;
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
