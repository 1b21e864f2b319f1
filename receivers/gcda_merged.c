/* Conditions of two lines that gcc merged into one test (gcda_mapper.h:
 * gm_merged_tests). ifcombine and reassoc fold `if (!(x < 18)) { if (x <
 * 29 && ...` into one range check, `(x & 31) - 18 <= 10`, left on the
 * first condition's line: the branch then looks like that condition's
 * (its ways start the second line and the shared join), yet its
 * fall-through count is the executions that passed both tests, not those
 * that passed the first. The second condition shows no branch of its own.
 * On one line the same merge is caught by gm_pin_branches itself; here
 * the two conditions lie on different lines. A test gcc resolved on the
 * path (its outcome known) looks the same and loses its claim for
 * nothing worse than a bound. */
#include "gcda_mapper.h"

/* Do gcno blocks b and b2 form an `a && b` (or `a || b`) pair: b's arc
 * into b2 and b2's other way meet b's other destination? */
static int chained(const struct gm *g, uint32_t b, uint32_t b2)
{
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	uint32_t other = dx == b2 ? dy : dy == b2 ? dx : 0;
	if (!other)
		return 0;
	for (uint32_t k = 0; k < g->nout[b2]; k++)
		if (g->f->arcs[g->outa[b2][k]].dst == other)
			return 1;
	return 0;
}

static int two_way(const struct gm *g, uint32_t b)
{
	return gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b);
}

void gm_merged_tests(const struct gm *g, const uint32_t *nmb, uint8_t *bad)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (!nmb[b] || !two_way(g, b))
			continue;
		for (uint32_t k = 0; k < 2; k++) {
			uint32_t b2 = g->f->arcs[g->outa[b][k]].dst;
			if (b2 < 2 || b2 == b || nmb[b2] || !two_way(g, b2) ||
			    !g->f->blocks[b2].n_lines ||
			    gm_block_without_code(g, b2) || !chained(g, b, b2))
				continue;
			bad[g->outa[b][0]] |= 1;
			bad[g->outa[b][1]] |= 1;
		}
	}
}
