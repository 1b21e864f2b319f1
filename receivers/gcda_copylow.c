/* Block estimates that an inlined copy leaves open (gcda_mapper.h:
 * gm_copy_low). */
#include "gcda_mapper.h"
#include "ltpipe/image.h"

/* A copy whose code ran on a line of block b but on no line that only b
 * lists (its anchor lines) adds runs of b that no estimate counts: a
 * constant argument resolved the copy's first test and dropped the
 * statements of b that only fed a value the caller discards (`return
 * 0` of a helper called for its out-parameter), so its anchor lines
 * have no code, yet the copy's other ways of b (a condition on a line b
 * shares) run. The summed estimate of b, which counts the other copies
 * and the out-of-line body, is then only a lower bound: low[b] = 1 for
 * every such b with loc[b] < 0 (the copy's estimate, gm_copy_estimates)
 * that has an anchor line (a block without one, all of whose lines other
 * blocks list, got its estimate from no line, and keeps it),
 * so that the flow may send the copy's runs through b without paying
 * for it rather than through blocks whose anchor lines this copy never
 * ran. */
/* Does block b list a line no other block lists (an anchor line)? */
static int has_anchor(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	uint32_t only;
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t file = g->x->filemap[bl->lines[k].file];
		if (file != LT_DWARF_NO_FILE &&
		    gm_line_blocks(g, file, bl->lines[k].line, &only) == 1)
			return 1;
	}
	return 0;
}

void gm_copy_low(const struct gm *g, const struct gm_span *span, size_t n,
                 const int64_t *loc, uint8_t *low)
{
	uint32_t nb = g->f->n_blocks;
	if (!low || !g->x->dw)
		return;
	for (size_t k = 0; k < n; k++) {
		uint64_t hi = 0;
		const struct lt_region *r =
			gm_span_region(g, &span[k], &hi);
		if (!r)
			continue;
		uint32_t pfile = 0, pline = 0;
		for (uint64_t a = span[k].lo, next; a < hi; a = next) {
			const struct lt_hwinfo *hw =
				&r->info[lt_region_idx(r, a)];
			next = a + (hw->len ? hw->len : 2);
			const struct lt_line_row *row =
				lt_dwarf_line(g->x->dw, a);
			if (!row || !row->line ||
			    (row->file == pfile && row->line == pline) ||
			    !gc_insn_count(g->x->c, g->x->im, a))
				continue;
			pfile = row->file;
			pline = row->line;
			for (uint32_t b = 2; b < nb; b++)
				if (loc[b] < 0 && !low[b] &&
				    gm_block_has_line(g, b, row->file,
				                      row->line) &&
				    has_anchor(g, b))
					low[b] = 1;
		}
	}
}
