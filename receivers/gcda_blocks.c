/* What a gcno block of the function being mapped lists: source lines
 * (in DWARF file numbering) and out-arcs (gcda_mapper.h). */
#include <stdlib.h>

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

int gm_in_own_body(const struct gm *g, uint32_t file, uint32_t line)
{
	const struct lt_gcno_fn *f = g->f;
	if (f->n_blocks < 3 || !f->blocks[2].n_lines)
		return 0;
	return g->x->filemap[f->blocks[2].lines[0].file] == file &&
	       line >= f->start_line && line <= f->end_line;
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

int gm_chain_lines(const struct gm *g, uint32_t b, uint32_t d,
                   gm_line_test ok, const void *ctx)
{
	for (int depth = 0; b != d && b >= 2 && depth < 4; depth++) {
		const struct lt_gcno_block *bl = &g->f->blocks[b];
		for (uint32_t q = 0; ok && q < bl->n_lines; q++)
			if (!ok(g, bl->lines[q].file, bl->lines[q].line, ctx))
				return 0;
		long s = gm_only_succ(g, b);
		if (s < 0)
			return 0;
		b = (uint32_t)s;
	}
	return b == d;
}

/* How many condition blocks a test may lie above the block it guards in
 * gm_guards: gcc hoists a cheap value (an address, `s + 1`) shared by
 * the arms of an if/else-if chain above the chain's first test. */
#define GUARD_DEPTH 3

int gm_guards(const struct gm *g, uint32_t file, uint32_t line,
              uint32_t head)
{
	uint32_t nb = g->f->n_blocks;
	uint8_t *at = calloc(nb, 1);
	if (!at)
		return 0;
	/* at[b]: b is reached from a test on (file, line) through
	 * condition blocks only, depth d so far. */
	for (uint32_t b = 2; b < nb; b++)
		at[b] = (uint8_t)gm_last_line_is(g, b, file, line);
	int hit = 0;
	for (int d = 0; d < GUARD_DEPTH && !hit; d++) {
		uint8_t mark = (uint8_t)(d + 1), next = (uint8_t)(d + 2);
		for (uint32_t b = 2; b < nb && !hit; b++) {
			if (at[b] != mark)
				continue;
			for (uint32_t k = 0; k < g->nout[b] && !hit; k++) {
				const struct lt_gcno_arc *a =
					&g->f->arcs[g->outa[b][k]];
				if (a->flags & LT_GCOV_ARC_FAKE)
					continue;
				hit = a->dst == head;
				if (!hit && !at[a->dst] && a->dst >= 2 &&
				    gm_n_real_out(g, a->dst) == 2)
					at[a->dst] = next;
			}
		}
	}
	free(at);
	return hit;
}

int gm_on_cycle(const struct gm *g, uint32_t b)
{
	uint32_t nb = g->f->n_blocks;
	uint32_t *stk = malloc((g->f->n_arcs + 1) * sizeof(*stk));
	uint8_t *seen = calloc(nb, 1);
	int cyc = !stk || !seen;
	uint32_t top = 0;
	if (!cyc)
		stk[top++] = b;
	while (top && !cyc) {
		uint32_t d = stk[--top];
		for (uint32_t k = 0; k < g->nout[d] && !cyc; k++) {
			const struct lt_gcno_arc *x = &g->f->arcs[g->outa[d][k]];
			if ((x->flags & LT_GCOV_ARC_FAKE) || seen[x->dst])
				continue;
			cyc = x->dst == b;
			seen[x->dst] = 1;
			stk[top++] = x->dst;
		}
	}
	free(stk);
	free(seen);
	return cyc;
}
