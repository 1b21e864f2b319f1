/* Branches of a function's inlined copies pinned beside its out-of-line
 * body's (gcda_mapper.h: gm_copy_pins). */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"

/* The instrumented run counts every copy's branches in the function's
 * counters, the body's and the copies' alike; the body's pins alone
 * (gm_pin_branches on g) see the body only, and the copies are counted
 * from their lines (gm_copy_estimates), which tell a copy's conditions
 * apart only where a block has a line of its own. A constant argument
 * may leave a copy with branches the body made branchless (`*len =
 * re[0] == '\\' ? 2 : 1` a branch in the copy, a `seqz` in the body),
 * and a copy's ways into shared lines are where its runs go. So the
 * copies are matched as a function mapped from its copies alone would
 * be (a second gm over their code, the CFG shared with g), and each arc
 * a copy's branch pinned adds its count to the body's pin: both are
 * lower bounds (a copy whose test a constant resolved has no branch
 * left), soft where either is. Returns the arcs newly pinned, 0 when
 * none or out of memory (the body's pins then stand alone). */
uint32_t gm_copy_pins(const struct gm *g, const struct gm_span *span,
                      size_t nspan, int64_t *hard, uint8_t *soft)
{
	uint32_t nb = g->f->n_blocks, na = g->f->n_arcs, added = 0;
	struct gm c = {.x = g->x, .f = g->f};
	if (!nspan || gm_load_copies(&c, span, nspan) || !c.m) {
		free(c.in);
		return 0;
	}
	c.m_body = c.m;
	c.body = g;
	c.span = span;
	c.nspan = nspan;
	c.outa = g->outa;
	c.nout = g->nout;
	c.npred = g->npred;
	c.bstart = calloc(nb, sizeof(*c.bstart));
	c.bend = calloc(nb, sizeof(*c.bend));
	c.blk = calloc(c.m + 1, sizeof(*c.blk));
	c.arc = calloc(na, sizeof(*c.arc));
	int64_t *h = malloc(na * sizeof(*h));
	int64_t *lb = calloc(nb, sizeof(*lb));
	uint8_t *s = malloc(na), *sh = malloc(na);
	if (c.bstart && c.bend && c.blk && c.arc && h && lb && s && sh &&
	    gm_pin_branches(&c, h, lb, s, sh)) {
		for (uint32_t a = 0; a < na; a++) {
			if (h[a] < 0)
				continue;
			added += hard[a] < 0;
			soft[a] = soft[a] == GM_SOFT_UNSEEN ? GM_SOFT_UNSEEN :
				  soft[a] || s[a] || hard[a] < 0;
			hard[a] = (hard[a] > 0 ? hard[a] : 0) + h[a];
		}
	}
	free(c.in);
	free(c.bstart);
	free(c.bend);
	free(c.blk);
	free(c.arc);
	free(h);
	free(lb);
	free(s);
	free(sh);
	return added;
}
