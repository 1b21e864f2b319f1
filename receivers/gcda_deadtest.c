/* Tests gcc deleted at -O0 (gcda_mapper.h). A two-way block whose ways
 * meet with no code between (`if (c) continue;` at the end of a loop
 * body: both ways reach the loop's test) keeps its arcs in the gcno, and
 * in the instrumented twin its branch, which counts them; in the plain
 * build RTL cleanup sees a jump whose two targets are one, drops it and
 * then the condition's code, dead now, even at -O0. A condition that is
 * a chain of tests on one line (`(c1 || c2 ? 255u : y) > 7u && x0 > z`,
 * the comparison folded into the `?:`'s arms) loses its tests from the
 * last one back, with the arms they read; the first tests may keep
 * their branches (a way through the continue's goto location does not
 * meet the other at once), and the test deleted last may keep its
 * operands' code without the branch. The machine code then still
 * follows the block order around the missing tests, so every arc but
 * those between a deleted test and the meeting point keeps its count
 * (gm_gone_unsure, gm_claim_sure); the split between the test's ways is
 * gone from the code and can only be inferred. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"

/* How many blocks without code a way of a deleted test may pass before
 * it meets the other way, and how many deleted tests deep. */
#define MEET_DEPTH 4

/* Has (file, line) of the gcno no instruction in the function but nops
 * and plain jumps? A `break;` or `continue;` keeps only those (its goto
 * location's stub, laid out after the deleted tests were gone). */
static int line_codeless(const struct gm *g, uint32_t file, uint32_t line)
{
	uint32_t df = g->x->filemap[file];
	for (uint32_t i = 0; i < g->m; i++)
		if (!g->in[i].nop && g->in[i].line == line &&
		    g->in[i].file == df &&
		    (g->in[i].cls != LT_INSN_JUMP || gm_is_call(&g->in[i])))
			return 0;
	return 1;
}

/* Does every line block d lists either have no instruction or belong to
 * block top too? Then d's code, if any is left, is that of top's
 * statement: the arms of a `?:` inside the condition, or the tests after
 * it in `a && b`, whose values only the deleted test used (RTL deletes
 * them as dead, or keeps their loads without the branch). */
static int lines_within(const struct gm *g, uint32_t d, uint32_t top)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t k = 0; k < bl->n_lines; k++)
		if (!gm_block_has_line(g, top, g->x->filemap[bl->lines[k].file],
		                       bl->lines[k].line) &&
		    !line_codeless(g, bl->lines[k].file, bl->lines[k].line))
			return 0;
	return 1;
}

static long ways_meet(const struct gm *g, uint32_t b, int depth);

/* Where a way of test block top entering block d first reaches a block
 * that may have code of another statement or a call: d itself, or the
 * end of the chain from d of blocks without such code (no fake arc: a
 * call would be code; lines_within top) that have one way on, or two
 * that meet (`if (a || b) continue;`: both tests gone); depth counts the
 * tests passed. */
static uint32_t meeting(const struct gm *g, uint32_t top, uint32_t d,
                        int depth)
{
	for (int k = 0; k < MEET_DEPTH; k++) {
		if (d < 2 || gm_has_fake_out(g, d) || !lines_within(g, d, top))
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
		d[n++] = meeting(g, b, g->f->arcs[g->outa[b][k]].dst, depth);
	return n == 2 && d[0] == d[1] && d[0] != b ? (long)d[0] : -1;
}

/* May block b be a test gcc deleted: two real ways out that meet with
 * nothing between but code of b's own statement? Its condition line may
 * keep code: `(c ? 255u : y) > 7u && x0 > z` ending a loop body in `if
 * (...) continue;` loses its last tests and the `?:` arms they read,
 * while the first tests, on the same line, keep their branches (ways
 * that do not meet at once: one goes through the `continue`'s goto
 * location). The alignment decides which candidates lost their branch
 * (shape_cost's GONE_COST). */
static int gone_test(const struct gm *g, uint32_t b)
{
	return g->f->blocks[b].n_lines && ways_meet(g, b, 0) >= 0;
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
		g->gone[b] = gone_test(g, b) ? GM_GONE_TEST : 0;
	return 0;
}

/* Does block b's code (as aligned) end in a conditional branch (or a
 * branch and the jump that carries its fallthrough)? */
static int branched(const struct gm *g, uint32_t b)
{
	uint32_t s = g->bstart[b], e = g->bend[b];
	if (e > s + 1 && gm_branch_then_jump(g, e - 2))
		e--;
	return s < e && g->in[e - 1].cls == LT_INSN_BRANCH;
}

uint32_t gm_gone_unbranched(const struct gm *g)
{
	for (uint32_t b = 2; g->gone && b < g->f->n_blocks; b++)
		if ((g->gone[b] & GM_GONE_TEST) && !branched(g, b))
			return b;
	return 0;
}

/* Has block b's code (as aligned) more than a plain jump? A goto's stub
 * (its nop, then a jump: a `break` on its own line) is laid out after
 * RTL cleanup deleted the tests whose ways meet. */
static int has_code(const struct gm *g, uint32_t b)
{
	uint32_t s = g->bstart[b], e = g->bend[b];
	return e > s + 1 || (e == s + 1 && (g->in[s].cls != LT_INSN_JUMP ||
	                                    gm_is_call(&g->in[s])));
}

/* Walks the blocks between test block b and the block m where its ways
 * meet (reachable from b without passing m): returns 1 when one of them
 * ends in a branch; else, with hush, when some of them hold code, marks
 * GM_GONE_HUSH on all of them and returns 2 if that marked one holding
 * code anew, 1 if every one holding code had the mark already (code
 * there in spite of its cost: b kept its test); else 0. */
static int region_check(struct gm *g, uint32_t b, uint32_t m, int hush,
                        uint32_t *stack, uint8_t *seen)
{
	uint32_t n = 0;
	int code = 0, fresh = 0;
	memset(seen, 0, g->f->n_blocks);
	seen[b] = seen[m] = 1;
	stack[n++] = b;
	while (n) {
		uint32_t d = stack[--n];
		if (d != b && branched(g, d))
			return 1;
		if (d != b && has_code(g, d)) {
			code = 1;
			fresh |= !(g->gone[d] & GM_GONE_HUSH);
		}
		for (uint32_t k = 0; k < g->nout[d]; k++) {
			uint32_t t = g->f->arcs[g->outa[d][k]].dst;
			if (t >= 2 && !seen[t]) {
				seen[t] = 1;
				stack[n++] = t;
			}
		}
	}
	if (!hush || !code)
		return 0;
	for (uint32_t d = 2; d < g->f->n_blocks; d++)
		if (seen[d] && d != b && d != m)
			g->gone[d] |= GM_GONE_HUSH;
	return fresh ? 2 : 1;
}

/* Only the first contradicted candidate is dropped: the later ones of a
 * chain on one line (`a && b && c`, each later test inside the first's
 * region) are contradicted by the same misplaced branch, which the next
 * alignment, the first test keeping its branch, puts back in place. A
 * candidate the alignment left without a branch also needs the blocks
 * of its region empty (the arms of a `?:` the test read, the block of a
 * `continue`, the later tests of the chain): gcc deleted the test only
 * once they had no code left, while the test deleted last may keep its
 * operands' code without its branch (seen at -O0 in every chain of
 * deleted tests: only the first test of the chain keeps code). Where the
 * alignment put code there, those blocks are marked GM_GONE_HUSH (code
 * costs there) for the next one; if it puts code there again, b is taken
 * to have kept its test. Each round drops a candidate or marks a block
 * anew, so the rounds end. */
int gm_gone_settle(struct gm *g)
{
	uint32_t nb = g->f->n_blocks;
	if (!g->gone)
		return 0;
	uint32_t *stack = malloc(nb * sizeof(*stack));
	uint8_t *seen = malloc(nb);
	int changed = 0;
	for (uint32_t b = 2; stack && seen && b < nb && !changed; b++) {
		if (!(g->gone[b] & GM_GONE_TEST) || branched(g, b))
			continue;
		long m = ways_meet(g, b, 0);
		int r = m < 0 ? 1 : region_check(g, b, (uint32_t)m, 1, stack,
		                                 seen);
		if (r == 1)
			g->gone[b] &= (uint8_t)~GM_GONE_TEST;
		changed = r != 0;
	}
	/* No memory: no candidate can be checked, so none stays. */
	if (!stack || !seen) {
		memset(g->gone, 0, nb);
		changed = 1;
	}
	free(stack);
	free(seen);
	return changed;
}

void gm_gone_unsure(struct gm *g)
{
	uint32_t nb = g->f->n_blocks;
	if (!g->gone || !g->unsure)
		return;
	uint32_t *stack = malloc(nb * sizeof(*stack));
	uint8_t *seen = malloc(nb);
	if (!stack || !seen) {
		g->blind = 1;
		free(stack);
		free(seen);
		return;
	}
	for (uint32_t b = 2; b < nb; b++) {
		if (!(g->gone[b] & GM_GONE_TEST) || branched(g, b))
			continue;
		long m = ways_meet(g, b, 0);
		if (m < 0) {
			g->blind = 1;
			continue;
		}
		uint32_t n = 0;
		memset(seen, 0, nb);
		seen[b] = seen[m] = 1;
		stack[n++] = b;
		while (n) {
			uint32_t d = stack[--n];
			for (uint32_t k = 0; k < g->nout[d]; k++) {
				uint32_t a = g->outa[d][k];
				uint32_t t = g->f->arcs[a].dst;
				g->unsure[a] = 1;
				if (t >= 2 && !seen[t]) {
					seen[t] = 1;
					stack[n++] = t;
				}
			}
		}
	}
	free(stack);
	free(seen);
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
