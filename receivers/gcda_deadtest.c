/* Tests gcc deleted at -O0 (gcda_mapper.h). A two-way block whose ways
 * meet with no code between (`if (c) continue;` at the end of a loop
 * body: both ways reach the loop's test) keeps its arcs in the gcno, and
 * in the instrumented twin its branch, which counts them; in the plain
 * build RTL cleanup sees a jump whose two targets are one, drops it and
 * then the condition's code, dead now, even at -O0. The machine code
 * then still follows the block order around the missing test, so every
 * arc but those between the test and the meeting point keeps its count
 * (gm_claim_sure); the split between the test's ways is gone from the
 * code and can only be inferred. */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"

/* How many blocks without code a way of a deleted test may pass before
 * it meets the other way, and how many deleted tests deep. */
#define MEET_DEPTH 4

/* Has (file, line) of the gcno no instruction in the function? */
static int line_codeless(const struct gm *g, uint32_t file, uint32_t line)
{
	uint32_t df = g->x->filemap[file];
	for (uint32_t i = 0; i < g->m; i++)
		if (!g->in[i].nop && g->in[i].line == line &&
		    g->in[i].file == df)
			return 0;
	return 1;
}

/* Has none of the lines block b lists an instruction? */
static int block_codeless(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	for (uint32_t k = 0; k < bl->n_lines; k++)
		if (!line_codeless(g, bl->lines[k].file, bl->lines[k].line))
			return 0;
	return 1;
}

static long ways_meet(const struct gm *g, uint32_t b, int depth);

/* Where a way entering block d first reaches a block that may have code
 * or tests: d itself, or the end of the chain from d of blocks without
 * code (no fake arc: a call would be code) that have one way on, or two
 * that meet (`if (a || b) continue;`: both tests gone); depth counts
 * the tests passed. */
static uint32_t meeting(const struct gm *g, uint32_t d, int depth)
{
	for (int k = 0; k < MEET_DEPTH; k++) {
		if (d < 2 || gm_has_fake_out(g, d) || !block_codeless(g, d))
			return d;
		long s = gm_only_succ(g, d);
		if (s < 0 && depth < MEET_DEPTH)
			s = ways_meet(g, d, depth + 1);
		if (s < 0)
			return d;
		d = (uint32_t)s;
	}
	return d;
}

/* The block where the two real ways of block b meet (meeting), or -1
 * (not two ways, a fake arc, or they do not meet). */
static long ways_meet(const struct gm *g, uint32_t b, int depth)
{
	if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b))
		return -1;
	uint32_t d[2], n = 0;
	for (uint32_t k = 0; k < g->nout[b] && n < 2; k++)
		d[n++] = meeting(g, g->f->arcs[g->outa[b][k]].dst, depth);
	return n == 2 && d[0] == d[1] && d[0] != b ? (long)d[0] : -1;
}

/* Is block b a test gcc deleted: two real ways out that meet, and its
 * condition line (the last line it lists) without an instruction? */
static int gone_test(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	if (!bl->n_lines)
		return 0;
	const struct lt_gcno_line *last = &bl->lines[bl->n_lines - 1];
	return line_codeless(g, last->file, last->line) &&
	       ways_meet(g, b, 0) >= 0;
}

int gm_find_gone_tests(struct gm *g)
{
	g->gone = NULL;
	if (g->x->optimized)
		return 0;
	g->gone = calloc(g->f->n_blocks, 1);
	if (!g->gone)
		return LT_ERR_NOMEM;
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		g->gone[b] = (uint8_t)gone_test(g, b);
	return 0;
}

uint32_t gm_gone_unbranched(const struct gm *g)
{
	for (uint32_t b = 2; g->gone && b < g->f->n_blocks; b++) {
		uint32_t s = g->bstart[b], e = g->bend[b];
		if (!g->gone[b])
			continue;
		if (e > s + 1 && gm_branch_then_jump(g, e - 2))
			e--;
		if (s == e || g->in[e - 1].cls != LT_INSN_BRANCH)
			return b;
	}
	return 0;
}

/* Does an arc unsure[] marks enter or leave block b? */
static int touches_unsure(const struct gm *g, uint32_t b)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++)
		if (g->unsure[a] &&
		    (g->f->arcs[a].src == b || g->f->arcs[a].dst == b))
			return 1;
	return 0;
}

uint32_t gm_claim_sure(const struct gm *g, uint8_t *det)
{
	uint32_t n = 0;
	for (uint32_t a = 0; g->unsure && a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (g->unsure[a] || ((arc->flags & LT_GCOV_ARC_FAKE) &&
		                     touches_unsure(g, arc->src)))
			continue;
		det[a] = 1;
		n += !(arc->flags & LT_GCOV_ARC_ON_TREE);
	}
	return n;
}
