/* Where a way of a machine branch goes, in the gcno's terms
 * (gcda_waydest.h): the line it runs first, whether it leaves the
 * function, and which gcno block that makes its destination. */
#include "gcda_discr.h"
#include "gcda_waydest.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Does insn t show a borrowed row (gm_borrowed_row) of a line no block
 * of the function lists? A borrowed row of the function's own line may
 * be the code's own location too (gcc writes no new row for code whose
 * line and column the row before it already has); another function's
 * line (the caller's, around an inlined copy) cannot be. */
static int foreign_row(const struct gm *g, long t)
{
	uint32_t only = 0;
	const struct minsn *in = &g->in[t];
	return in->line && !gm_line_blocks(g, in->file, in->line, &only) &&
	       gm_borrowed_row(g, in->addr);
}

/* (contract in gcda_waydest.h) */
uint32_t gm_line_at(const struct gm *g, long t, uint32_t *file)
{
	/* Landed on code under another function's borrowed row. */
	int borrowed = t >= 0 && t < (long)g->m && foreign_row(g, t);
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 8; steps++) {
		const struct minsn *in = &g->in[t];
		if (in->nop) {
			t++;
			continue;
		}
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			borrowed = t >= 0 && foreign_row(g, t);
			continue;
		}
		/* Code after such a landing under the same row (none
		 * starts at it) has no line of its own either: on to the
		 * next row. */
		if (borrowed && !gm_row_starts(g, in->addr)) {
			t = t + 1 < (long)g->m &&
			    g->in[t + 1].addr == in->addr + in->len ? t + 1 : -1;
			continue;
		}
		borrowed = 0;
		if (!in->cline)
			return 0;
		*file = in->cfile;
		return in->cline;
	}
	return 0;
}

/* (contract in gcda_waydest.h) */
int gm_line_has_code(const struct gm *g, uint32_t file, uint32_t line)
{
	for (uint32_t i = 0; i < g->m; i++)
		if (g->in[i].cline == line && g->in[i].cfile == file &&
		    !g->in[i].nop)
			return 1;
	return 0;
}

/* Has (file, line) machine code only in the straight-line run that ends
 * at the branch `from`, a run that starts with code of a line of gcno
 * block cb (the branch's condition block) that cb's successor d does not
 * list: code of d that gcc computed in cb before the test, for both ways
 * (`if (x < 0) return -x; return x / 2;` shifts x before testing it, so
 * the second return's block keeps its line but no code of its own). A
 * run that starts with d's own code is d running before the branch (a
 * loop body before its latch test), not code moved out of d. */
static int line_only_before(const struct gm *g, uint32_t cb, uint32_t d,
                            uint32_t file, uint32_t line,
                            const struct minsn *from)
{
	uint32_t i = (uint32_t)(from - g->in), s = i;
	while (s > 0 && !gm_ends_block(&g->in[s - 1]) &&
	       !gm_is_call(&g->in[s - 1]))
		s--;
	uint32_t h = s;
	while (h < i && (!g->in[h].cline || g->in[h].nop))
		h++;
	if (h == i || !gm_block_has_line(g, cb, g->in[h].cfile,
	                                 g->in[h].cline) ||
	    gm_block_has_line(g, d, g->in[h].cfile, g->in[h].cline))
		return 0;
	int before = 0;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (in->cline != line || in->cfile != file || in->nop)
			continue;
		if (k < s || k >= i)
			return 0;
		before = 1;
	}
	return before;
}

/* Is gcno block d, which lists lines, still a mere passage for control
 * coming from the branch `from` (may be NULL): is each of its lines the
 * branch's own, one without machine code (a `continue;` whose jump
 * the compiler threaded into the next iteration's code) or, when d is
 * a successor of the branch's condition block cb (-1: not known), one
 * whose code all runs before the branch (line_only_before)? */
static int passes_through(const struct gm *g, uint32_t d, long cb,
                          const struct minsn *from)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	if (!from)
		return 0;
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t file = g->x->filemap[bl->lines[k].file];
		uint32_t line = bl->lines[k].line;
		if (line == from->cline && file == from->cfile)
			continue;
		if (gm_line_has_code(g, file, line) &&
		    (cb < 0 || !line_only_before(g, (uint32_t)cb, d, file,
		                                 line, from)))
			return 0;
	}
	return 1;
}

/* (contract in gcda_waydest.h) */
int gm_dest_has_line(const struct gm *g, uint32_t d, long cb,
                         uint32_t file, uint32_t line,
                         const struct minsn *from)
{
	/* Four blocks with lines deep: an empty block (a PHI argument's
	 * arc of a ?:) passes control on without running anything, so a way
	 * through one must see as far as the way beside it. */
	for (int depth = 0, steps = 0; d >= 2 && depth < 4 && steps < 8;
	     steps++) {
		if (g->f->blocks[d].n_lines &&
		    (gm_block_has_line(g, d, file, line) ||
		     !passes_through(g, d, steps ? -1 : cb, from)))
			return gm_block_has_line(g, d, file, line);
		depth += g->f->blocks[d].n_lines != 0;
		long s = gm_only_succ(g, d);
		if (s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

/* Does the run of the function's own code on lines no block lists that
 * starts at insn t (straight-line instructions of such lines) grow the
 * stack: is it a prologue? gcc's shrink-wrapping puts the prologue on
 * the way into the body after an early test (`if (n <= 0) return;`),
 * with the line of a declaration, and control entering it goes on into
 * the body: it does not leave. */
static int own_prologue(const struct gm *g, long t)
{
	for (int k = 0; k < 48 && t >= 0 && t < (long)g->m; k++, t++) {
		const struct minsn *in = &g->in[t];
		if (in->nop)
			continue;
		if (in->cls != LT_INSN_OTHER || !in->cline ||
		    gm_line_blocks(g, in->cfile, in->cline, &(uint32_t){0}) ||
		    !gm_in_own_body(g, in->cfile, in->cline))
			return 0;
		if (gm_grows_stack(g->x->img, in->addr))
			return 1;
	}
	return 0;
}

/* Contract in gcda_waydest.h. */
int gm_way_leaves(const struct gm *g, long t)
{
	int borrowed = t >= 0 && t < (long)g->m && foreign_row(g, t);
	for (int steps = 0; steps < 24; steps++) {
		if (t < 0 || t >= (long)g->m)
			return 1;
		const struct minsn *in = &g->in[t];
		if (in->nop) {
			t++;
			continue;
		}
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_RET)
			return 2;
		/* Code under a borrowed row of another function's line
		 * (foreign_row) is the function's own, its line lost: on
		 * through it to the next row. */
		if (borrowed && !gm_row_starts(g, in->addr)) {
			if (in->cls == LT_INSN_OTHER) {
				t = gm_falls_to_next(g, (uint32_t)t) ? t + 1 : -1;
				continue;
			}
			if (in->cls == LT_INSN_JUMP &&
			    in->link == LT_LINK_NONE) {
				t = gm_insn_at(g, in->tgt);
				borrowed = t >= 0 && foreign_row(g, t);
				continue;
			}
		}
		borrowed = 0;
		/* The epilogue (the closing brace's line): on to the
		 * return. */
		if (in->cline == g->f->end_line && in->cls == LT_INSN_OTHER &&
		    gm_falls_to_next(g, (uint32_t)t)) {
			t++;
			continue;
		}
		if (in->cline && !gm_line_blocks(g, in->cfile, in->cline,
		                                 &(uint32_t){0}))
			return !own_prologue(g, t);
		if (in->cls != LT_INSN_JUMP || in->link != LT_LINK_NONE)
			return 0;
		t = gm_insn_at(g, in->tgt);
	}
	return 0;
}

/* Does gcno block d go to EXIT (gm_dest_exits)? With `folded` (the way
 * runs straight into a return instruction) also through an arm of a ?:
 * whose value the return folded away (`x = c ? 0 : v ^ y; return x ^ y;`
 * returns v: no instruction left), the return block's successors up to
 * EXIT having no lines: an arm on the return block's line, or on the
 * line of the branch `from` (may be NULL) when the ?: is a statement of
 * its own before the return. */
static int dest_exits(const struct gm *g, uint32_t d, int folded,
                      const struct minsn *from)
{
	uint32_t first = d;
	/* Have the blocks before d in the chain no machine code? Then d
	 * may have lines as the first block may: an arm whose statement
	 * gcc folded into a constant set before the test (`if ((x & 7) ==
	 * 0) x = 10; return x + 13;` loads 23 first, and that way skips
	 * the return's code, leaving an inlined copy) reaches the return
	 * block's lines without running them. */
	int codeless = 1;
	for (int depth = 0; depth < 4; depth++) {
		if (d == 1)
			return 1;
		long s = gm_only_succ(g, d);
		/* A block with lines reached through an empty one (the
		 * arm of `c ? 0 : x` whose value was set before the test)
		 * still exits when it is the return block: its code may
		 * have been skipped. */
		if (d < 2 || (depth && !codeless && g->f->blocks[d].n_lines &&
		              s != 1 &&
		              !(folded && gm_folded_arm(g, first, d, s, from))))
			return 0;
		if (s < 0)
			return 0;
		codeless = codeless && gm_block_without_code(g, d);
		d = (uint32_t)s;
	}
	return 0;
}

/* Whether gcno block d goes to EXIT (contract in gcda_waydest.h). */
int gm_dest_exits(const struct gm *g, uint32_t d)
{
	return dest_exits(g, d, 0, NULL);
}


/* (contract in gcda_waydest.h) */
int gm_run_lines(const struct gm *g, long t, const struct minsn *from,
                     uint32_t fl[][2])
{
	int n = 0;
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < GM_MAX_RUN;
	     steps++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (from && in->cls == LT_INSN_BRANCH &&
		    in->cline == from->cline && in->cfile == from->cfile)
			break;
		if (in->cline && !in->nop) {
			int k = 0;
			while (k < n && (fl[k][0] != in->cfile ||
			                 fl[k][1] != in->cline))
				k++;
			if (k == n) {
				fl[n][0] = in->cfile;
				fl[n][1] = in->cline;
				n++;
			}
		}
		if (gm_ends_block(in) || gm_is_call(in))
			break;
		t++;
	}
	return n;
}

/* (contract in gcda_waydest.h) */
int gm_dest_has_any(const struct gm *g, uint32_t d, uint32_t fl[][2],
                        int n)
{
	for (int depth = 0; d >= 2 && depth < 3; depth++) {
		for (int k = 0; k < n; k++)
			if (gm_block_has_line(g, d, fl[k][0], fl[k][1]))
				return 1;
		long s = gm_only_succ(g, d);
		if (s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

/* Does control reach gcno block d first, coming from the branch `from`
 * matched to condition block cb: when control leaves the function (out,
 * as gm_way_leaves() says), d leads to EXIT (dest_exits), else d starts with
 * (file, line)? */
static int dest_is(const struct gm *g, uint32_t cb, uint32_t d,
                   uint32_t file, uint32_t line, int out,
                   const struct minsn *from)
{
	if (out)
		return dest_exits(g, d, out == 2, from);
	return line && gm_dest_has_line(g, d, cb, file, line, from);
}

/* Contract in gcda_waydest.h (dest_is, but for a way whose first code
 * belongs to block `own` by its discriminator). */
int gm_dest_owned(const struct gm *g, uint32_t cb, uint32_t d, uint32_t file,
                  uint32_t line, int out, const struct minsn *from, long own)
{
	if (own < 0 || out)
		return dest_is(g, cb, d, file, line, out, from);
	for (int steps = 0; d >= 2 && steps < 4; steps++) {
		if (d == (uint32_t)own)
			return 1;
		long s = g->f->blocks[d].n_lines ? -1 : gm_only_succ(g, d);
		if (s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

/* Contract in gcda_waydest.h. */
int gm_way_dest_is(const struct gm *g, uint32_t cb, uint32_t d, long t,
                   const struct minsn *from)
{
	uint32_t ft = 0, lt = t >= 0 ? gm_line_at(g, t, &ft) : 0;
	return dest_is(g, cb, d, ft, lt, gm_way_leaves(g, t), from);
}

/* Does a line-table row start in [lo, hi]: was the code there given a
 * line of its own, rather than inheriting the row of whatever code the
 * layout put before it? */
static int own_row(const struct gm *g, uint64_t lo, uint64_t hi)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw)
		return 0;
	for (size_t k = lt_dwarf_line_first(dw, lo);
	     k < dw->nranges && dw->range[k].lo <= hi; k++)
		if (dw->range[k].lo >= lo)
			return 1;
	return 0;
}

/* (contract in gcda_waydest.h) */
int gm_lands_on_own_line(const struct gm *g, long t)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 8; steps++) {
		uint64_t land = g->in[t].addr;
		while (t < (long)g->m && g->in[t].nop)
			t++;
		if (t >= (long)g->m)
			return 0;
		const struct minsn *in = &g->in[t];
		if (!own_row(g, land, in->addr))
			return 0;
		if (in->cls != LT_INSN_JUMP || in->link != LT_LINK_NONE)
			return 1;
		t = gm_insn_at(g, in->tgt);
	}
	return 0;
}

/* (contract in gcda_waydest.h) */
int gm_skips_code(const struct gm *g, uint32_t d, uint32_t fl[][2],
                      int n)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (int k = 0; k < n; k++)
		if (gm_block_has_line(g, d, fl[k][0], fl[k][1]))
			return 0;
	for (uint32_t k = 0; k < bl->n_lines; k++)
		if (gm_line_has_code(g, g->x->filemap[bl->lines[k].file],
		                  bl->lines[k].line))
			return 1;
	return 0;
}

