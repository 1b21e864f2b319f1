/* What a gcno block of the function being mapped lists: source lines
 * (in DWARF file numbering) and out-arcs (gcda_mapper.h). */
#include "gcda_mapper.h"

/* Does gcno block b list the DWARF (file, line)? */
int gm_block_has_line(const struct gm *g, uint32_t b, uint32_t file,
                      uint32_t line)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	for (uint32_t k = 0; k < bl->n_lines; k++)
		if (bl->lines[k].line == line &&
		    g->x->filemap[bl->lines[k].file] == file)
			return 1;
	return 0;
}

/* Number of gcno blocks listing (file, line); *only gets one of them. */
uint32_t gm_line_blocks(const struct gm *g, uint32_t file, uint32_t line,
                        uint32_t *only)
{
	uint32_t n = 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (gm_block_has_line(g, b, file, line)) {
			n++;
			*only = b;
		}
	return n;
}

/* Number of out-arcs of block b that are not fake. */
uint32_t gm_n_real_out(const struct gm *g, uint32_t b)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < g->nout[b]; k++)
		if (!(g->f->arcs[g->outa[b][k]].flags & LT_GCOV_ARC_FAKE))
			n++;
	return n;
}

/* Has block b a fake out-arc? */
int gm_has_fake_out(const struct gm *g, uint32_t b)
{
	for (uint32_t k = 0; k < g->nout[b]; k++)
		if (g->f->arcs[g->outa[b][k]].flags & LT_GCOV_ARC_FAKE)
			return 1;
	return 0;
}

int gm_last_line_is(const struct gm *g, uint32_t b, uint32_t file,
                    uint32_t line)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	if (!bl->n_lines)
		return 0;
	const struct lt_gcno_line *l = &bl->lines[bl->n_lines - 1];
	return l->line == line && g->x->filemap[l->file] == file;
}

long gm_only_succ(const struct gm *g, uint32_t d)
{
	if (gm_n_real_out(g, d) != 1)
		return -1;
	for (uint32_t k = 0; k < g->nout[d]; k++) {
		const struct lt_gcno_arc *a = &g->f->arcs[g->outa[d][k]];
		if (!(a->flags & LT_GCOV_ARC_FAKE))
			return a->dst;
	}
	return -1;
}
