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
 * nothing worse than a bound. The merged test may also sit on the second
 * condition's line (`if (a % 3u > 0u) continue; if ((b >> 4) & 1u)
 * continue;` as one test of `(b & 16) | a % 3`, the two `continue;`
 * blocks meeting at the loop's latch): then the first condition is the
 * one without a branch. */
#include "gcda_mapper.h"
#include "gcda_waydest.h"

static int two_way(const struct gm *g, uint32_t b)
{
	return gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b);
}

/* Has some line of block d machine code, other than the lines of the
 * condition blocks c1 and c2 (a `continue;` block may list the line of
 * the test before it, whose code is the test)? */
static int own_code(const struct gm *g, uint32_t d, uint32_t c1, uint32_t c2)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t q = 0; q < bl->n_lines; q++) {
		uint32_t file = g->x->filemap[bl->lines[q].file];
		uint32_t line = bl->lines[q].line;
		if (gm_block_has_line(g, c1, file, line) ||
		    gm_block_has_line(g, c2, file, line))
			continue;
		if (gm_line_has_code(g, file, line))
			return 1;
	}
	return 0;
}

/* Are d1 and d2 one block, or two blocks without code of their own
 * (own_code: two `continue;` blocks after the tests of c1 and c2) whose
 * single successors meet within a few steps (at the loop's latch)?
 * Blocks with code of their own tell the ways apart. */
static int meet(const struct gm *g, uint32_t d1, uint32_t d2, uint32_t c1,
                uint32_t c2)
{
	if (d1 == d2)
		return 1;
	if (d1 < 2 || d2 < 2 || own_code(g, d1, c1, c2) ||
	    own_code(g, d2, c1, c2))
		return 0;
	uint32_t c[5];
	int n = 0;
	for (long d = d1; d >= 0 && n < 5; d = gm_only_succ(g, (uint32_t)d)) {
		c[n++] = (uint32_t)d;
		if (d < 2)
			break;
	}
	for (int k = 0; k < 5; k++) {
		for (int q = 0; q < n; q++)
			if (c[q] == d2)
				return 1;
		if (d2 < 2)
			return 0;
		long s = gm_only_succ(g, d2);
		if (s < 0)
			return 0;
		d2 = (uint32_t)s;
	}
	return 0;
}

/* Do gcno blocks b and b2 form an `a && b` (or `a || b`, or `if (a)
 * continue; if (b) continue;`) pair: b's arc into b2, and b2's other way
 * meeting b's other destination? */
static int chained(const struct gm *g, uint32_t b, uint32_t b2)
{
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	uint32_t other = dx == b2 ? dy : dy == b2 ? dx : 0;
	if (!other)
		return 0;
	for (uint32_t k = 0; k < g->nout[b2]; k++)
		if (meet(g, g->f->arcs[g->outa[b2][k]].dst, other, b, b2))
			return 1;
	return 0;
}

/* May condition block c, which matched no branch, have been merged into
 * the test of b? It has lines with code and forms a chained pair with
 * b, either way round. */
static int merged_with(const struct gm *g, const uint32_t *nmb, uint32_t b,
                       uint32_t c, int c_first)
{
	return c >= 2 && c != b && !nmb[c] && two_way(g, c) &&
	       g->f->blocks[c].n_lines && !gm_block_without_code(g, c) &&
	       (c_first ? chained(g, c, b) : chained(g, b, c));
}

/* The other destination of two-way block b than d, or 0 when d is none
 * of b's. */
static uint32_t other_dest(const struct gm *g, uint32_t b, uint32_t d)
{
	uint32_t dx = g->f->arcs[g->outa[b][0]].dst;
	uint32_t dy = g->f->arcs[g->outa[b][1]].dst;
	return dx == d ? dy : dy == d ? dx : 0;
}

/* Do blocks d1 and d2 meet: does the chain of each (itself, then single
 * successors while the block has no code of its own: `goto out;`, a
 * label's block) hold a block of the other's, within a few steps? */
static int chains_meet(const struct gm *g, uint32_t d1, uint32_t d2,
                       uint32_t c1, uint32_t c2)
{
	uint32_t ch[2][5];
	int n[2] = {0, 0};
	uint32_t d[2] = {d1, d2};
	for (int w = 0; w < 2; w++) {
		long x = d[w];
		while (x >= 0 && n[w] < 5) {
			ch[w][n[w]++] = (uint32_t)x;
			if (x < 2 || own_code(g, (uint32_t)x, c1, c2))
				break;
			x = gm_only_succ(g, (uint32_t)x);
		}
	}
	for (int i = 0; i < n[0]; i++)
		for (int j = 0; j < n[1]; j++)
			if (ch[0][i] == ch[1][j])
				return 1;
	return 0;
}

/* May condition block c (no branch, code of its own) have been merged
 * into the test of b across a test m between them (`if (x & 1) goto out;
 * } while (i < 8 && (v & 63) < 16);` as one test of `(v & 48) | (x & 1)`
 * after the `i < 8` test, x & 1 computed once before the loop): c's arc
 * into m, m's into b, and the other ways of c, m and b all meeting? */
static int merged_across(const struct gm *g, const uint32_t *nmb,
                         uint32_t b, uint32_t m, uint32_t c)
{
	if (c < 2 || c == b || c == m || nmb[c] || !two_way(g, c) ||
	    !two_way(g, m) || !g->f->blocks[c].n_lines ||
	    gm_block_without_code(g, c))
		return 0;
	uint32_t oc = other_dest(g, c, m), om = other_dest(g, m, b);
	if (!oc || !om || !chains_meet(g, oc, om, c, m))
		return 0;
	for (uint32_t k = 0; k < g->nout[b]; k++)
		if (chains_meet(g, g->f->arcs[g->outa[b][k]].dst, om, m, b))
			return 1;
	return 0;
}

void gm_merged_tests(const struct gm *g, const uint32_t *nmb, uint8_t *bad)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (!nmb[b] || !two_way(g, b))
			continue;
		int hit = 0;
		for (uint32_t k = 0; k < 2 && !hit; k++)
			hit = merged_with(g, nmb, b,
			                  g->f->arcs[g->outa[b][k]].dst, 0);
		for (uint32_t a = 0; a < g->f->n_arcs && !hit; a++)
			if (g->f->arcs[a].dst == b &&
			    !(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE))
				hit = merged_with(g, nmb, b,
				                  g->f->arcs[a].src, 1);
		/* Merged across a test m: m's runs include those c
		 * sent away, so m's pins are lower bounds too. */
		for (uint32_t a = 0; a < g->f->n_arcs && !hit; a++) {
			uint32_t m = g->f->arcs[a].src;
			if (g->f->arcs[a].dst != b || m < 2 ||
			    (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE))
				continue;
			for (uint32_t a2 = 0; a2 < g->f->n_arcs && !hit; a2++)
				if (g->f->arcs[a2].dst == m &&
				    !(g->f->arcs[a2].flags & LT_GCOV_ARC_FAKE))
					hit = merged_across(g, nmb, b, m,
					                    g->f->arcs[a2].src);
			if (hit) {
				bad[g->outa[m][0]] |= 1;
				bad[g->outa[m][1]] |= 1;
			}
		}
		if (hit) {
			bad[g->outa[b][0]] |= 1;
			bad[g->outa[b][1]] |= 1;
		}
	}
}
