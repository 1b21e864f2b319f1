/* Estimates of computed-goto label blocks from the dispatch jumps'
 * landings (gcda_mapper.h: gm_goto_label_estimates).
 *
 * gcov replaces the abnormal edges of `goto *p` by a fake arc from
 * ENTRY to each label's block, so the label block is the one that
 * tells how often each label ran. In optimized code its line is rarely
 * an anchor: a threaded interpreter writes the dispatch at the end of
 * every label's statements (`l_add: ...; NEXT;`), and gcc lists the line
 * of that dispatch in the next label's block too, so every label line
 * belongs to two blocks and no line estimates the block. The trace
 * still counts each indirect jump's landings, and the landing's line is
 * the label's: gcc starts a label's block with the label statement, so
 * the block lists the label's line first. */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Is b a computed goto's dispatch block? gcc factors every `goto *` of
 * a function into one block holding the lone indirect jump; gcov gives
 * it no real out-arc (its abnormal edges become a fake arc to EXIT and
 * ENTRY's fake arcs to the labels) and no line of its own. */
int gm_goto_dispatch(const struct gm *g, uint32_t b)
{
	return !g->f->blocks[b].n_lines && gm_n_real_out(g, b) == 0 &&
	       gm_has_fake_out(g, b);
}

/* Does block b have a fake arc from ENTRY (a computed-goto label or a
 * setjmp receiver)? */
static int entered_fake(const struct gm *g, uint32_t b)
{
	for (uint32_t k = 0; k < g->nout[0]; k++) {
		const struct lt_gcno_arc *a = &g->f->arcs[g->outa[0][k]];
		if (a->dst == b && (a->flags & LT_GCOV_ARC_FAKE))
			return 1;
	}
	return 0;
}

/* The only block with a fake arc from ENTRY that lists the line of
 * instruction j first, or 0 (none, or several: labels on one line). */
static uint32_t label_block(const struct gm *g, uint32_t j)
{
	const struct minsn *in = &g->in[j];
	uint32_t found = 0;
	if (!in->line)
		return 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		const struct lt_gcno_block *bl = &g->f->blocks[b];
		if (!bl->n_lines || bl->lines[0].line != in->line ||
		    g->x->filemap[bl->lines[0].file] != in->file ||
		    !entered_fake(g, b))
			continue;
		if (found)
			return 0;
		found = b;
	}
	return found;
}

/* Landings of the function's computed gotos: transfers of its indirect
 * jumps without link (not returns, not calls) to an instruction of it
 * whose line a label block lists first, added per block into land[b]
 * when land is not NULL. A jump table's targets are case blocks without
 * fake arcs from ENTRY, so they count nothing here. Returns the total. */
int64_t gm_goto_landings(const struct gm *g, int64_t *land)
{
	int64_t total = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls != LT_INSN_IJUMP || in->link != LT_LINK_NONE)
			continue;
		size_t k;
		const struct gc_xfer *xs =
			gc_xfers_from(g->x->c, g->x->im, in->addr, &k);
		for (size_t q = 0; q < k; q++) {
			long j = gm_insn_at(g, xs[q].to);
			if (j < 0)
				continue;
			uint32_t t = gm_skip_nops(g, (uint32_t)j);
			uint32_t b = t < g->m ? label_block(g, t) : 0;
			if (!b)
				continue;
			if (land)
				land[b] += (int64_t)xs[q].n;
			total += (int64_t)xs[q].n;
		}
	}
	return total;
}

/* Raises est[b] of each label block to the landings at its label: a
 * lower bound, as code may also fall into the label. */
void gm_goto_label_estimates(const struct gm *g, int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	int64_t *land = calloc(nb, sizeof(*land));
	if (!land)
		return;
	if (gm_goto_landings(g, land))
		for (uint32_t b = 2; b < nb; b++)
			if (land[b] > est[b])
				est[b] = land[b];
	free(land);
}
