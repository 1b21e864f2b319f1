/* Estimates of the arms of a condition written on one line (`r = c ?
 * f(x) : g(x);`, gcda_mapper.h): lines cannot tell the arms' blocks
 * apart, nor can the branch pins (both ways of the machine branch run
 * that line first), so without this the flow splits the condition's
 * count evenly. What each arm holds can: gcc ends a block after a call
 * that may not return (its fake arc to EXIT), and a call the inliner
 * later replaced by a copy of a const function had none. So the arm with
 * a fake arc is the way of the machine branch that runs a call, the arm
 * without one the way that enters an inlined copy, and each is priced by
 * the executions of that call or the entries of that copy (both count
 * every time the arm ran, however the compiler duplicated the branch). */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* What one way of a machine branch runs first. */
enum arm_kind {
	ARM_NONE = 0,   /* neither, or something else first */
	ARM_CALL = 1,   /* a call of a function out of line */
	ARM_INLINE = 2, /* a copy of a function inlined at the line */
};

/* Is insn j the function's own code (not inlined) on (file, line)? */
static int own_at(const struct gm *g, long j, uint32_t file, uint32_t line)
{
	if (j < 0 || (uint32_t)j >= g->m)
		return 0;
	const struct minsn *in = &g->in[j];
	return in->line == line && in->file == file && in->cline == line &&
	       in->cfile == file;
}

/* Entries of the copy inlined at (file, line) that holds insn j: the
 * function's DWARF instance called there, all its address spans, entered
 * from outside (gm_span_entries). Returns -1 when j is in no such copy
 * or out of memory. */
static int64_t inline_entries(const struct gm *g, uint32_t j, uint32_t file,
                              uint32_t line)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw)
		return -1;
	long q = lt_dwarf_inline_find(dw, g->in[j].addr);
	/* The instance called from the function's own code. */
	while (q >= 0 && dw->func[q].depth > 1)
		q = dw->func[q].parent;
	if (q < 0 || dw->func[q].depth != 1 || dw->func[q].call_line != line ||
	    dw->func[q].call_file != file)
		return -1;
	size_t n = 0, cap = 8;
	struct gm_span *sp = malloc(cap * sizeof(*sp));
	if (!sp)
		return -1;
	for (size_t r = 0; r < dw->nirange; r++) {
		const struct lt_inline_range *ir = &dw->irange[r];
		if (ir->hi <= g->lo || ir->lo >= g->hi)
			continue;
		long p = ir->func;
		while (p >= 0 && p != q)
			p = dw->func[p].parent;
		if (p != q)
			continue;
		if (n == cap) {
			struct gm_span *ns = realloc(sp, 2 * cap * sizeof(*sp));
			if (!ns) {
				free(sp);
				return -1;
			}
			sp = ns;
			cap *= 2;
		}
		sp[n++] = (struct gm_span){ir->lo, ir->hi, 0, 0};
	}
	uint64_t e = n ? gm_span_entries(g, sp, n) : UINT64_MAX;
	free(sp);
	return e == UINT64_MAX ? -1 : (int64_t)e;
}

/* What the way of a branch on (file, line) starting at insn s runs first
 * (straight-line code of that line up to it): *n gets the call's
 * executions or the inlined copy's entries. */
static enum arm_kind arm_at(const struct gm *g, long s, uint32_t file,
                            uint32_t line, int64_t *n)
{
	for (long k = s; k >= 0 && (uint32_t)k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (k > s && !gm_falls_to_next(g, (uint32_t)k - 1))
			return ARM_NONE;
		if (in->nop)
			continue;
		if (own_at(g, k, file, line)) {
			if (gm_is_call(in) && gm_insn_at(g, in->tgt) < 0 &&
			    in->tgt) {
				*n = (int64_t)gc_insn_count(g->x->c, g->x->im,
				                            in->addr);
				return ARM_CALL;
			}
			if (gm_ends_block(in) || gm_is_call(in))
				return ARM_NONE;
			continue;
		}
		if (in->cline == line && in->cfile == file) {
			*n = inline_entries(g, (uint32_t)k, file, line);
			return *n >= 0 ? ARM_INLINE : ARM_NONE;
		}
		return ARM_NONE;
	}
	return ARM_NONE;
}

/* The one line block b lists, or 0 (several or none); *file gets its
 * DWARF file. */
static uint32_t lone_line(const struct gm *g, uint32_t b, uint32_t *file)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	if (bl->n_lines != 1)
		return 0;
	*file = g->x->filemap[bl->lines[0].file];
	return *file == LT_DWARF_NO_FILE ? 0 : bl->lines[0].line;
}

/* Prices the arms of condition block c (gcda_arms.c's header) when both
 * are without an estimate, list only c's line, and exactly one of them
 * has a fake arc; every own branch on that line whose ways run a call
 * and an inlined copy adds to them, any other leaves them unpriced. */
static void price_arms(const struct gm *g, uint32_t c, int64_t *est)
{
	uint32_t arm[2], na = 0;
	for (uint32_t k = 0; k < g->nout[c]; k++) {
		const struct lt_gcno_arc *a = &g->f->arcs[g->outa[c][k]];
		if (a->flags & LT_GCOV_ARC_FAKE)
			continue;
		if (na == 2 || a->dst < 2 || a->dst == c)
			return;
		arm[na++] = a->dst;
	}
	if (na != 2 || arm[0] == arm[1] || est[arm[0]] >= 0 ||
	    est[arm[1]] >= 0)
		return;
	uint32_t f0, f1, line = lone_line(g, arm[0], &f0);
	if (!line || lone_line(g, arm[1], &f1) != line || f0 != f1 ||
	    !gm_block_has_line(g, c, f0, line))
		return;
	int fk0 = gm_has_fake_out(g, arm[0]), fk1 = gm_has_fake_out(g, arm[1]);
	if (fk0 == fk1)
		return;
	uint32_t call_arm = fk0 ? arm[0] : arm[1];
	uint32_t copy_arm = fk0 ? arm[1] : arm[0];
	int64_t ncall = 0, ncopy = 0;
	int seen = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls != LT_INSN_BRANCH || !own_at(g, i, f0, line))
			continue;
		int64_t nt = 0, nf = 0;
		enum arm_kind kt = arm_at(g, gm_insn_at(g, in->tgt), f0, line,
		                          &nt);
		enum arm_kind kf = gm_falls_to_next(g, i) ?
		                   arm_at(g, (long)i + 1, f0, line, &nf) :
		                   ARM_NONE;
		if (kt == ARM_CALL && kf == ARM_INLINE) {
			ncall += nt;
			ncopy += nf;
		} else if (kt == ARM_INLINE && kf == ARM_CALL) {
			ncall += nf;
			ncopy += nt;
		} else {
			/* Another branch of the line: the arms may run
			 * other ways too. */
			return;
		}
		seen = 1;
	}
	if (!seen)
		return;
	est[call_arm] = ncall;
	est[copy_arm] = ncopy;
}

void gm_arm_estimates(const struct gm *g, int64_t *est)
{
	for (uint32_t c = 2; c < g->f->n_blocks; c++)
		if (gm_n_real_out(g, c) == 2)
			price_arms(g, c, est);
}
