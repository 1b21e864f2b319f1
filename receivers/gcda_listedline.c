/* A test on a line its condition block lists but does not end on
 * (gcda_arms.h: gm_listed_line_arms). reassoc's range-test merging
 * rewrites a chain of conditions (`while ((*p >= 'a' && *p <= 'z') ||
 * ... || *p == '_')` over two lines, two gcno conditions on the first
 * line) into new tests that carry the line of another statement of the
 * chain's first block (the `*p` of the second line), here as three
 * tests: a range test of the first condition, then a range and a bit
 * test of the second's. No gcno block ends on that line, so no
 * condition matches the first test by lines, though its ways still
 * land as its block's arcs lead: one starts the code of one of the
 * block's destinations (the loop body), the other runs into the next
 * test of the same line (the next condition's code). The landing is
 * told by the first line of its run that one destination lists. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* Instructions followed from a way to the next test. */
#define MAX_TO_TEST 8

/* Does control at insn t run straight code of (file, line) only into a
 * conditional branch of that line? */
static int runs_into_test(const struct gm *g, long t, uint32_t file,
                          uint32_t line)
{
	for (int k = 0; t >= 0 && t < (long)g->m && k < MAX_TO_TEST; k++) {
		const struct minsn *in = &g->in[t];
		if (in->cline && (in->cline != line || in->cfile != file))
			return 0;
		if (in->cls == LT_INSN_BRANCH)
			return in->cline == line && in->cfile == file;
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

int gm_listed_line_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	uint32_t file = in->cfile, line = in->cline;
	long blk = -1;
	if (!line)
		return 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_last_line_is(g, b, file, line))
			return 0; /* some block's condition: the lines match */
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    g->nout[b] != 2 || !gm_block_has_line(g, b, file, line))
			continue;
		if (blk >= 0)
			return 0;
		blk = b;
	}
	long t = gm_insn_at(g, in->tgt);
	long nx = gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (blk < 0 || t < 0 || nx < 0)
		return 0;
	uint32_t x = g->outa[blk][0], y = g->outa[blk][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	if (dx < 2 || dy < 2 || dx == dy)
		return 0;
	for (int tw = 0; tw < 2; tw++) {
		long land = tw ? nx : t, test = tw ? t : nx;
		if (!runs_into_test(g, test, file, line))
			continue;
		/* The first line of the landing's run that a destination
		 * lists (a load of the next round's `*p` under another
		 * line may come first). */
		uint32_t fl[GM_MAX_RUN][2];
		int nl = gm_run_lines(g, land, in, fl), inx = 0, iny = 0, k;
		for (k = 0; k < nl && !inx && !iny; k++) {
			inx = gm_block_has_line(g, dx, fl[k][0], fl[k][1]);
			iny = gm_block_has_line(g, dy, fl[k][0], fl[k][1]);
		}
		if (inx == iny ||
		    gm_block_has_line(g, (uint32_t)blk, fl[k - 1][0],
		                      fl[k - 1][1]))
			continue;
		/* The way that lands takes the arc whose block starts
		 * there; the other runs into the next condition. */
		long land_arc = inx ? x : y, test_arc = inx ? y : x;
		if (gm_n_real_out(g, inx ? dy : dx) != 2)
			continue;
		*ta = tw ? test_arc : land_arc;
		*fa = tw ? land_arc : test_arc;
		return 1;
	}
	return 0;
}
