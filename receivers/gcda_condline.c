/* A gcno block's last line as its condition's line: whether it can be
 * trusted, and the block a branch on that line tests among several that
 * match it (gcda_mapper.h). */
#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* gcc lists each line of a block once, in the order its statements
 * first use it, so a condition block's last line is its condition's,
 * unless the condition's line came earlier and a callee inlined before
 * the test came last: `w = nextr() % 10; if (w == 6 ...` lists the line,
 * then nextr's. A callee's line is the condition's when the callee
 * tests (an inlined `before(a, b)` used as the condition): the machine
 * code has a conditional branch on it. Is the last line gcno block b
 * lists the function's own (the file of its first block's first line,
 * between its declarator and closing brace), or one a conditional
 * branch of the machine code is on? */
static int last_line_tests(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_fn *f = g->f;
	if (f->n_blocks < 3 || !f->blocks[2].n_lines || b >= f->n_blocks ||
	    !f->blocks[b].n_lines)
		return 0;
	const struct lt_gcno_block *bl = &f->blocks[b];
	const struct lt_gcno_line *l = &bl->lines[bl->n_lines - 1];
	if (l->file == f->blocks[2].lines[0].file &&
	    l->line >= f->start_line && l->line <= f->end_line)
		return 1;
	uint32_t file = g->x->filemap[l->file];
	for (uint32_t i = 0; i < g->m; i++)
		if (g->in[i].cls == LT_INSN_BRANCH &&
		    g->in[i].line == l->line && g->in[i].file == file)
			return 1;
	return 0;
}

/* gm_cond_note: a block whose last line is the branch's (cond_line in
 * gcda_pin.c) counts, its arcs kept when it matched one way round only;
 * another whose condition line is unknown (last_line_tests) rules the
 * choice out. */
void gm_cond_note(const struct gm *g, struct gm_condpick *p, uint32_t b,
                  const struct minsn *in, int fw, int bw, uint32_t x,
                  uint32_t y)
{
	if (gm_last_line_is(g, b, in->file, in->line)) {
		p->n++;
		p->ta = fw != bw ? (long)(fw ? x : y) : -1;
		p->fa = fw ? y : x;
	} else if (!last_line_tests(g, b)) {
		p->n = 2;
	}
}

/* gm_cond_pick: gcc ends a condition block with its test, so of several
 * blocks matching a branch strictly, the one whose last line is the
 * branch's tests it; the others, whose last lines are other lines they
 * test, list the line for code passing through (`if (l < n && ...)`
 * ends the block of `if (r < n && ...)` on the next line with line l's
 * join). */
int gm_cond_pick(const struct gm_condpick *p, long *ta, long *fa,
                 long *both)
{
	if (p->n != 1 || p->ta < 0)
		return 0;
	*ta = p->ta;
	*fa = p->fa;
	*both = -1;
	return 1;
}
