/* The arms of a branch whose ways both start on other lines than its
 * own, told by where the gcno CFG can reach those lines (gcda_arms.h:
 * gm_reach_arms).
 *
 *     for (unsigned i = 0; i < (b & 15u); i++) {
 *             ...
 *             if (b % 10u != 2u || a <= (x2 ^ 2u))
 *                     return x0;
 *     }
 *     for (unsigned j = 0; j < (x0 & 7u); j++)
 *
 * gcc evaluates the loop-invariant test once, ahead of the loop, right
 * after the loop's first test: that test's way into the loop runs the
 * hoisted test's line first, its way out the next loop's line, and
 * neither is the line of a block the loop test's arcs enter, so no line
 * rule matches it (and the loop's count loses every first round). The
 * gcno CFG still tells: only the arc into the loop leads to the hoisted
 * test's block, only the arc out to the next loop's. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Blocks a way is followed through. */
#define MAX_DEPTH 4
/* Instructions a way is followed for its first line. */
#define MAX_LOOK 8

/* The gcno line (cfile, cline) the way from insn t runs first (nops and
 * plain jumps followed), in *file / *line; 0 if none within reach. */
static int way_line(const struct gm *g, long t, uint32_t *file,
                    uint32_t *line)
{
	for (int k = 0; k < MAX_LOOK; k++) {
		if (t < 0 || t >= (long)g->m)
			return 0;
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (!in->nop && in->cline) {
			*file = in->cfile;
			*line = in->cline;
			return 1;
		}
		if (gm_ends_block(in) || !gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

/* Does a block within MAX_DEPTH arcs of arc a's destination (that one
 * included), never passing through block b, list (file, line)? */
static int reaches(const struct gm *g, uint32_t a, uint32_t b,
                   uint32_t file, uint32_t line)
{
	uint32_t front[64], next[64], nf = 1, seen = 0;
	uint32_t done[256];
	front[0] = g->f->arcs[a].dst;
	for (int d = 0; d < MAX_DEPTH && nf; d++) {
		uint32_t nn = 0;
		for (uint32_t k = 0; k < nf; k++) {
			uint32_t s = front[k];
			int dup = s == b || s < 2;
			for (uint32_t q = 0; q < seen && !dup; q++)
				dup = done[q] == s;
			if (dup || seen == 256)
				continue;
			done[seen++] = s;
			if (gm_block_has_line(g, s, file, line))
				return 1;
			for (uint32_t o = 0; o < g->nout[s] && nn < 64; o++)
				next[nn++] = g->f->arcs[g->outa[s][o]].dst;
		}
		for (uint32_t k = 0; k < nn; k++)
			front[k] = next[k];
		nf = nn;
	}
	return 0;
}

/* (contract in gcda_arms.h) */
int gm_reach_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	if (gm_n_real_out(g, b) != 2 || g->nout[b] != 2)
		return 0;
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	uint32_t tf, tl, ff, fl;
	if (!way_line(g, gm_insn_at(g, in->tgt), &tf, &tl) ||
	    !way_line(g, nx, &ff, &fl) || (tf == ff && tl == fl) ||
	    (tf == in->cfile && tl == in->cline) ||
	    (ff == in->cfile && fl == in->cline))
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	int xt = reaches(g, x, b, tf, tl), yt = reaches(g, y, b, tf, tl);
	int xf = reaches(g, x, b, ff, fl), yf = reaches(g, y, b, ff, fl);
	if (xt && !yt && yf && !xf) {
		*ta = x;
		*fa = y;
		return 1;
	}
	if (yt && !xt && xf && !yf) {
		*ta = y;
		*fa = x;
		return 1;
	}
	return 0;
}
