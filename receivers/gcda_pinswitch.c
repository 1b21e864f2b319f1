/* Mapping a gcno function (gcda_mapper.h), step 2b, branch pins of a
 * switch: a jump table's indirect jump pins the arcs of its `switch`
 * block one target at a time (gm_pin_switch, called by gm_pin_branches,
 * gcda_pin.c). */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Finds the arc of gcno block b that a transfer to insn t takes: the
 * only out-arc whose destination starts with the line t runs first, or,
 * failing that, the only one holding a line of t's straight-line run.
 * Returns the arc or -1; where t's code has no line of its own
 * (lands_on_own_line), gm_phi_landing_arc's; -1 also where the one loose
 * match skips its destination's code (skips_code). */
/* Most instructions of a store-motion flush before a case's code. */
#define FLUSH_MAX 8

/* The first instruction of the case's own code after a store-motion
 * flush at jump-table target t, or -1. gcc's loop store motion keeps a
 * global the loop writes in a register and stores it back on every exit
 * from the loop; where the loop is a `switch` re-entered by `goto` or
 * `continue`, every case that leaves it starts with those stores,
 *
 *     sw   a4,32(s0)          ; cur.line = line, stored once per exit
 *     bnez a0,.Lstore_line    ; flag: was `line` written in the loop?
 *     <the case's code, on its own line row>
 *
 * which have no location of their own (they read as the line of the
 * code laid out before them). A flush is stores, the loads and flag tests
 * around them and no call or jump; at least one store; it ends where a
 * line row starts. */
static long past_flush(const struct gm *g, long t)
{
	int stores = 0;
	for (int k = 0; k < FLUSH_MAX && t >= 0 && t < (long)g->m; k++, t++) {
		const struct minsn *in = &g->in[t];
		if (k && gm_lands_on_own_line(g, t))
			return stores ? t : -1;
		if (in->cls == LT_INSN_OTHER && gm_is_store(g->x->img, in->addr))
			stores++;
		else if (in->cls != LT_INSN_OTHER && in->cls != LT_INSN_BRANCH)
			return -1;
		if (gm_is_call(in) || !gm_falls_to_next(g, (uint32_t)t))
			return -1;
	}
	return -1;
}

static long target_arc(const struct gm *g, uint32_t b, long t)
{
	uint32_t ft = 0, fl[GM_MAX_RUN][2];
	if (!gm_lands_on_own_line(g, t)) {
		long a = gm_phi_landing_arc(g, b, t);
		long u = a < 0 ? past_flush(g, t) : -1;
		if (u < 0)
			return a;
		t = u;
	}
	uint32_t lt = gm_line_at(g, t, &ft);
	int n = gm_run_lines(g, t, NULL, fl);
	for (int loose = 0; loose < 2; loose++) {
		long hit = -1;
		int nhit = 0, past = 0;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t a = g->outa[b][k];
			uint32_t d = g->f->arcs[a].dst;
			if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
				continue;
			if (loose ? gm_dest_has_any(g, d, fl, n) :
			            lt && gm_dest_has_line(g, d, -1, ft, lt, NULL)) {
				hit = a;
				nhit++;
				past |= loose && gm_skips_code(g, d, fl, n);
			}
		}
		if (nhit == 1 && !past)
			return hit;
		if (nhit)
			return -1;
	}
	return -1;
}

/* Could control leaving a switch by arc a run code of the machine
 * function of its own: does a's destination, or the chain of forwarders
 * (blocks listing no line but the switch's) after it, list a line with
 * machine code other than the switch's own (file, line)? No when the
 * case's code is gone: gcc merged identical case bodies into one, which
 * a jump-table target then serves for several arcs, or hoisted a case's
 * statements out of it, so that its table entry lands on the code of
 * the case it falls into. A destination listing lines none of which
 * kept code is such a case, not a forwarder: the code after it is
 * another case's or the join's, which a target placed on another arc
 * runs as well. */
static int arc_has_code(const struct gm *g, uint32_t a, uint32_t file,
                        uint32_t line)
{
	uint32_t d = g->f->arcs[a].dst;
	for (int depth = 0; depth < 4; depth++) {
		if (d < 2)
			return 1; /* EXIT: a return has code */
		const struct lt_gcno_block *bl = &g->f->blocks[d];
		int own = 0; /* lines listed other than the switch's */
		for (uint32_t k = 0; k < bl->n_lines; k++) {
			uint32_t f = g->x->filemap[bl->lines[k].file];
			uint32_t l = bl->lines[k].line;
			if (l == line && f == file)
				continue;
			if (gm_line_has_code(g, f, l))
				return 1;
			own = 1;
		}
		if (own)
			return 0;
		long s = gm_only_succ(g, d);
		if (s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

/* Does the range check of the jump table at insn i (the conditional
 * branch on the switch's line right before the table load) go to code
 * of its own: no executed target of the jump (xs[n]) nor a target
 * placed on an arc (placed[]), that reads as the switch's line
 * (`default: return -7;` became a constant load the line table gives
 * the switch)? That code is the default's, so the default's arc has
 * code, though none of its lines does. */
static int default_apart(const struct gm *g, uint32_t i,
                         const uint64_t *placed, const struct gc_xfer *xs,
                         size_t n)
{
	const struct minsn *in = &g->in[i];
	long k = (long)i - 1;
	while (k >= 0 && (long)i - k <= 8 && gm_falls_to_next(g, (uint32_t)k) &&
	       !gm_ends_block(&g->in[k]) && !gm_is_call(&g->in[k]))
		k--;
	if (k < 0 || g->in[k].cls != LT_INSN_BRANCH ||
	    g->in[k].line != in->line || g->in[k].file != in->file)
		return 0;
	uint64_t to = g->in[k].tgt;
	long t = gm_insn_at(g, to);
	uint32_t file = 0;
	if (t < 0 || gm_line_at(g, t, &file) != in->cline || file != in->cfile)
		return 0;
	for (size_t q = 0; q < n; q++)
		if (xs[q].to == to)
			return 0;
	for (uint32_t a = 0; a < g->f->n_arcs; a++)
		if (placed[a] == to)
			return 0;
	return 1;
}

/* Pins the arcs of a switch's gcno block (more than two real out-arcs,
 * listing the line of the indirect jump at insn i) to the jump's
 * transfers whose target identifies one arc (target_arc). A target the
 * lines cannot place (cases whose code jump threading merged into code
 * every case reaches, code without a line row of its own) leaves its
 * arcs free; the others still carry their counts as lower bounds, and
 * the flow gives the free arcs what is left. Which case values a target
 * serves is in the jump table, not in the lines, so the pins only
 * determine the arcs (no GM_SWITCH_UNSURE in bad[]) when no
 * target may serve more than one arc: every executed target was placed,
 * no two targets placed on one arc (one of them is another case's code
 * read by its neighbour's line; a target that did not run counts too)
 * and every arc no target was placed on
 * still has code of its own (else its cases may run a placed target's
 * merged code). A target landing a few instructions into another
 * target's case serves the case cross-jumping merged there
 * (gm_crossjumped_case), and the switch is then unsure. Adds to sum[]
 * and returns 1, or returns 0 (and adds
 * nothing) when the block is not unique or no target identifies an
 * arc. */
int gm_pin_switch(const struct gm *g, uint32_t i, int64_t *sum,
                      uint8_t *bad, struct gm_ways *w)
{
	const struct minsn *in = &g->in[i];
	long sb = gm_switch_block(g, in->file, in->line);
	if (sb < 0)
		return 0;
	size_t n;
	const struct gc_xfer *xs = gc_xfers_from(g->x->c, g->x->im, in->addr,
	                                         &n);
	int any = 0, unsure = 0;
	uint64_t *placed = calloc(g->f->n_arcs, sizeof(*placed));
	long *arcq = malloc((n + 1) * sizeof(*arcq));
	if (!placed || !arcq)
		unsure = 1;
	for (size_t q = 0; arcq && q < n; q++)
		arcq[q] = target_arc(g, (uint32_t)sb, gm_insn_at(g, xs[q].to));
	if (arcq && gm_crossjumped_case(g, (uint32_t)sb, xs, n, arcq))
		unsure = 1;
	/* A landing running several cases' hoisted code: its lines do
	 * not name its case. */
	for (size_t q = 0; q < n && !unsure; q++)
		unsure = xs[q].n && gm_mixed_landing(g, (uint32_t)sb,
		                                     gm_insn_at(g, xs[q].to));
	for (size_t q = 0; q < n; q++) {
		long a = arcq ? arcq[q] : -1;
		if (a < 0) {
			unsure |= xs[q].n > 0;
			continue;
		}
		any = 1;
		sum[a] += (int64_t)xs[q].n;
		gm_way_add(w, xs[q].to, (int64_t)xs[q].n, (uint32_t)a);
		if (placed && placed[a] && placed[a] != xs[q].to)
			unsure = 1;
		if (placed)
			placed[a] = xs[q].to;
	}
	/* The table's targets that did not run: one the lines place on an
	 * arc another target was placed on shows that the lines do not
	 * tell the cases apart (a case whose statements left no code lands
	 * on a load partial redundancy elimination put there with the line
	 * of another case's use). */
	for (uint32_t k = 0; placed && any && !unsure && k < g->m; k++) {
		if (!gm_indirect_landing(g, k))
			continue;
		long a = target_arc(g, (uint32_t)sb, (long)k);
		unsure = a >= 0 && placed[a] && placed[a] != g->in[k].addr;
	}
	/* One arc without code of its own may be the default, whose code
	 * (its own, apart from every case's) the range check reaches. */
	int codeless = 0;
	for (uint32_t k = 0; placed && any && !unsure && k < g->nout[sb];
	     k++) {
		uint32_t a = g->outa[sb][k];
		if (!placed[a] && !(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) &&
		    !arc_has_code(g, a, in->file, in->line))
			codeless++;
	}
	if (codeless > 1 ||
	    (codeless && !default_apart(g, i, placed, xs, n)))
		unsure = 1;
	for (uint32_t k = 0; any && unsure && k < g->nout[sb]; k++)
		bad[g->outa[sb][k]] |= GM_SWITCH_UNSURE;
	free(placed);
	free(arcq);
	return any;
}
