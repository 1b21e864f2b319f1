/* Switch cases whose code cross-jumping merged into the tail of another
 * case (gcda_mapper.h): which arc a jump-table target into the middle of
 * a case serves. */
#include "gcda_mapper.h"

/* Is insn t2 reached from insn t1 by falling through a few instructions
 * of t1's line (a conditional branch's not-taken way included), no
 * call, jump or other line on the way? */
static int falls_within_line(const struct gm *g, long t1, long t2)
{
	if (t1 < 0 || t2 <= t1 || t2 - t1 > 4)
		return 0;
	for (long j = t1; j < t2; j++) {
		const struct minsn *i = &g->in[j];
		if ((i->cline && (i->cline != g->in[t1].cline ||
		                  i->cfile != g->in[t1].cfile)) ||
		    gm_is_call(i) || i->cls == LT_INSN_JUMP ||
		    i->cls == LT_INSN_IJUMP || !gm_falls_to_next(g, (uint32_t)j))
			return 0;
	}
	return 1;
}

/* Does arc a of a switch lead to a block that has lines, none of them
 * with machine code (a case whose code gcc merged into another's)? */
static int codeless(const struct gm *g, uint32_t a)
{
	uint32_t d = g->f->arcs[a].dst;
	if (d < 2 || (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) ||
	    !g->f->blocks[d].n_lines)
		return 0;
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t f = g->x->filemap[bl->lines[k].file];
		for (uint32_t i = 0; i < g->m; i++)
			if (g->in[i].cline == bl->lines[k].line &&
			    g->in[i].cfile == f)
				return 0;
	}
	return 1;
}

/* Does the block arc `cand` leads to continue where a block one step
 * into arc `arm`'s case does (the same only successor): is it a copy of
 * that case's tail? */
static int same_tail(const struct gm *g, uint32_t cand, uint32_t arm)
{
	long s = gm_only_succ(g, g->f->arcs[cand].dst);
	uint32_t d = g->f->arcs[arm].dst;
	if (s < 0 || d < 2)
		return 0;
	for (uint32_t k = 0; k < g->nout[d]; k++) {
		uint32_t e = g->f->arcs[g->outa[d][k]].dst;
		if (e != g->f->arcs[cand].dst && gm_only_succ(g, e) == s)
			return 1;
	}
	return 0;
}

/* gcc's cross-jumping merges a case body that equals the tail of
 * another case (`case JMP: pc = imm; break;` and `case JGE: if (!nf)
 * pc = imm; break;`) into that tail: the jump table then sends the
 * merged case into the middle of the other one, whose line the target
 * reads as, so two targets of one switch land on one arc, one at the
 * case's entry and one a few instructions on, reached from it by falling
 * through (the test's not-taken way). The later one is the merged case:
 * when exactly one target is such a later one and exactly one arc of
 * switch block sb has no target, no code of its own (codeless) and a
 * block continuing where a block of the other case does (same_tail),
 * arcq[q] (the arc of target xs[q], -1 for none) of that target becomes
 * that arc. Returns 1 when it moved one (the move is inferred: the
 * switch's pins determine nothing), else 0. */
int gm_crossjumped_case(const struct gm *g, uint32_t sb,
                        const struct gc_xfer *xs, size_t n, long *arcq)
{
	long mid = -1;
	for (size_t q2 = 0; q2 < n; q2++) {
		if (arcq[q2] < 0 || !xs[q2].n)
			continue;
		long t2 = gm_insn_at(g, xs[q2].to);
		for (size_t q1 = 0; q1 < n; q1++) {
			if (q1 == q2 || arcq[q1] != arcq[q2] ||
			    !falls_within_line(g, gm_insn_at(g, xs[q1].to), t2))
				continue;
			if (mid >= 0 && mid != (long)q2)
				return 0;
			mid = (long)q2;
		}
	}
	if (mid < 0)
		return 0;
	long cand = -1;
	for (uint32_t k = 0; k < g->nout[sb]; k++) {
		uint32_t a = g->outa[sb][k];
		int hit = 0;
		for (size_t q = 0; q < n && !hit; q++)
			hit = arcq[q] == (long)a;
		if (hit || !codeless(g, a) ||
		    !same_tail(g, a, (uint32_t)arcq[mid]))
			continue;
		if (cand >= 0)
			return 0;
		cand = a;
	}
	if (cand < 0)
		return 0;
	arcq[mid] = cand;
	return 1;
}
