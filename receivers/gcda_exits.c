/* The function's ways out to EXIT and the calls they prove
 * (gcda_mapper.h): the fake arcs of calls that did not return (longjmp,
 * exit), pinned from the machine's calls and returns; and the calls its
 * pinned ways out show, which the entries of code counted from its lines
 * only (inlined copies) may fall short of; and whether a way straight
 * into a return may be an arm whose value the return folded away. */
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Does control entering gcno block d go straight on to EXIT: d and the
 * chain of single real successors from it end in a real arc to EXIT,
 * with no branch on the way (so no loop either)? */
static int runs_to_exit(const struct gm *g, uint32_t d)
{
	for (uint32_t steps = 0; steps < g->f->n_blocks; steps++) {
		if (d == 1)
			return 1;
		long s = gm_only_succ(g, d);
		if (d < 2 || s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

uint64_t gm_pinned_returns(const struct gm *g, const int64_t *hard,
                           const uint8_t *soft)
{
	uint64_t n = 0;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (hard[a] > 0 && !soft[a] &&
		    !(arc->flags & LT_GCOV_ARC_FAKE) &&
		    gm_n_real_out(g, arc->src) == 2 &&
		    runs_to_exit(g, arc->dst))
			n += (uint64_t)hard[a];
	}
	return n;
}

/* Transfers anywhere in the code region holding `to` that land there
 * other than by falling through: direct branches and jumps taken (not
 * calls), and indirect jumps. */
static uint64_t region_arrivals(const struct gm *g, uint64_t to)
{
	const struct lt_region *r = lt_image_region(g->x->img, to);
	uint64_t n = 0;
	if (!r)
		return 0;
	for (uint64_t a = r->base; a < r->end;) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		if ((hw->cls == LT_INSN_BRANCH || (hw->cls == LT_INSN_JUMP &&
		                                   hw->link == LT_LINK_NONE)) &&
		    a + (uint64_t)(int64_t)hw->tgt == to)
			n += gc_taken(g->x->c, g->x->im, a);
		a += hw->len ? hw->len : 2;
	}
	size_t k;
	const struct gc_xfer *xs = gc_xfers_to(g->x->c, g->x->im, to, &k);
	for (size_t q = 0; q < k; q++) {
		const struct lt_region *fr = lt_image_region(g->x->img,
		                                             xs[q].from);
		if (!fr)
			continue;
		const struct lt_hwinfo *hw =
			&fr->info[lt_region_idx(fr, xs[q].from)];
		if (hw->cls == LT_INSN_IJUMP && hw->link == LT_LINK_NONE)
			n += xs[q].n;
	}
	return n;
}

uint32_t gm_pin_unreturned(const struct gm *g, int64_t *hard)
{
	uint32_t pinned = 0;
	for (uint32_t i = 0; i + 1 < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (!gm_is_call(in) || !in->cline)
			continue;
		uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
		uint64_t to = in->addr + in->len;
		uint64_t next = gc_insn_count(g->x->c, g->x->im, to);
		int loaded = g->in[i + 1].addr == to;
		uint64_t inner = loaded ? gm_inner_ins(g, i + 1) : 0;
		uint64_t ret = next > inner ? next - inner : 0;
		if (cnt <= ret)
			continue;
		/* A call ending an inlined copy returns into its caller's
		 * code, which other code of the caller reaches too: those
		 * arrivals are counted over the whole code region (only
		 * when the function's own ones leave the call short). */
		if (!g->m_body || !loaded) {
			inner = region_arrivals(g, to);
			ret = next > inner ? next - inner : 0;
			if (cnt <= ret)
				continue;
		}
		long fake = -1;
		int n = 0;
		for (uint32_t b = 2; b < g->f->n_blocks; b++) {
			if (!gm_block_has_line(g, b, in->cfile, in->cline))
				continue;
			for (uint32_t k = 0; k < g->nout[b]; k++) {
				const struct lt_gcno_arc *a =
					&g->f->arcs[g->outa[b][k]];
				if ((a->flags & LT_GCOV_ARC_FAKE) &&
				    a->dst == 1) {
					fake = g->outa[b][k];
					n++;
				}
			}
		}
		if (n != 1)
			continue;
		if (hard[fake] < 0) {
			hard[fake] = 0;
			pinned++;
		}
		hard[fake] += (int64_t)(cnt - ret);
	}
	return pinned;
}

/* A way that runs straight into a return instruction may be an arm of a
 * ?: (or an if's statement) whose value the return folded away
 * (gcda_pin.c dest_exits): `x = c ? 0 : v ^ y; return x ^ y;` returns v,
 * so the arm's way has no instruction left and reaches the return at
 * once, as the other arm's way may too. */

/* Does gcno block s (-1: none) lead to EXIT through blocks without
 * lines only (a return block's empty successor)? */
static int empty_to_exit(const struct gm *g, long s)
{
	for (int depth = 0; s >= 0 && depth < 4; depth++) {
		if (s == 1)
			return 1;
		if (s < 2 || g->f->blocks[s].n_lines)
			return 0;
		s = gm_only_succ(g, (uint32_t)s);
	}
	return 0;
}

/* Is the line a line of block *(const uint32_t *)ctx? */
static int line_of_block(const struct gm *g, uint32_t file, uint32_t line,
                         const void *ctx)
{
	return gm_block_has_line(g, *(const uint32_t *)ctx, file, line);
}

/* Is the line that of branch (const struct minsn *)ctx? */
static int line_of_branch(const struct gm *g, uint32_t file, uint32_t line,
                          const void *ctx)
{
	const struct minsn *from = ctx;
	return g->x->filemap[file] == from->cfile && line == from->cline;
}

/* Has the line no instruction in the function? */
static int line_without_code(const struct gm *g, uint32_t file,
                             uint32_t line, const void *ctx)
{
	(void)ctx;
	return !gm_line_has_code(g, g->x->filemap[file], line);
}

/* Are the lines of gcno block b (and of the single successors from it
 * up to d) all lines of block d? */
static int lines_within(const struct gm *g, uint32_t b, uint32_t d)
{
	return gm_chain_lines(g, b, d, line_of_block, &d);
}

/* Are the lines of gcno block b (and of the single successors from it
 * up to d, d excluded) all the line of branch `from` (may be NULL: no):
 * an arm of the ?: that branch tests? */
static int arm_of_branch(const struct gm *g, uint32_t b, uint32_t d,
                         const struct minsn *from)
{
	return from && gm_chain_lines(g, b, d, line_of_branch, from);
}

/* Has none of the lines of gcno block b (and of the single successors
 * from it up to d, d excluded) an instruction in the function: an arm
 * whose statement (`if (c) x = q ^ y; return x ^ y;` with y == q) gcc
 * folded into the return whole? */
static int arm_without_code(const struct gm *g, uint32_t b, uint32_t d)
{
	return gm_chain_lines(g, b, d, line_without_code, NULL);
}

/* Whether the return block d, reached from gcno block first through
 * single successors, and its successor s exit as a folded ?: arm
 * (contract in gcda_mapper.h). */
int gm_folded_arm(const struct gm *g, uint32_t first, uint32_t d, long s,
                  const struct minsn *from)
{
	return empty_to_exit(g, s) && (lines_within(g, first, d) ||
	                               arm_of_branch(g, first, d, from) ||
	                               arm_without_code(g, first, d));
}

/* Whether none of gcno block b's lines has an instruction (contract in
 * gcda_mapper.h). */
int gm_block_without_code(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	for (uint32_t q = 0; q < bl->n_lines; q++)
		if (!line_without_code(g, bl->lines[q].file, bl->lines[q].line,
		                       NULL))
			return 0;
	return 1;
}
