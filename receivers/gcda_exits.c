/* The function's ways out to EXIT and the calls they prove
 * (gcda_mapper.h): the fake arcs of calls that did not return (longjmp,
 * exit), pinned from the machine's calls and returns; and the calls its
 * pinned ways out show, which the entries of code counted from its lines
 * only (inlined copies) may fall short of. */
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Does control entering gcno block d go straight on to EXIT: d and the
 * chain of single real successors from it end in a real arc to EXIT,
 * with no branch on the way (so no loop either)? */
static int runs_to_exit(const struct gm *g, uint32_t d)
{
	for (uint32_t steps = 0; steps < g->f->n_blocks; steps++) {
		if (d == 1)
			return 1;
		long s = gm_only_succ(g, d);
		if (d < 2 || s < 0)
			return 0;
		d = (uint32_t)s;
	}
	return 0;
}

uint64_t gm_pinned_returns(const struct gm *g, const int64_t *hard,
                           const uint8_t *soft)
{
	uint64_t n = 0;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (hard[a] > 0 && !soft[a] &&
		    !(arc->flags & LT_GCOV_ARC_FAKE) &&
		    gm_n_real_out(g, arc->src) == 2 &&
		    runs_to_exit(g, arc->dst))
			n += (uint64_t)hard[a];
	}
	return n;
}

/* Transfers anywhere in the code region holding `to` that land there
 * other than by falling through: direct branches and jumps taken (not
 * calls), and indirect jumps. */
static uint64_t region_arrivals(const struct gm *g, uint64_t to)
{
	const struct lt_region *r = lt_image_region(g->x->img, to);
	uint64_t n = 0;
	if (!r)
		return 0;
	for (uint64_t a = r->base; a < r->end;) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		if ((hw->cls == LT_INSN_BRANCH || (hw->cls == LT_INSN_JUMP &&
		                                   hw->link == LT_LINK_NONE)) &&
		    a + (uint64_t)(int64_t)hw->tgt == to)
			n += gc_taken(g->x->c, g->x->im, a);
		a += hw->len ? hw->len : 2;
	}
	size_t k;
	const struct gc_xfer *xs = gc_xfers_to(g->x->c, g->x->im, to, &k);
	for (size_t q = 0; q < k; q++) {
		const struct lt_region *fr = lt_image_region(g->x->img,
		                                             xs[q].from);
		if (!fr)
			continue;
		const struct lt_hwinfo *hw =
			&fr->info[lt_region_idx(fr, xs[q].from)];
		if (hw->cls == LT_INSN_IJUMP && hw->link == LT_LINK_NONE)
			n += xs[q].n;
	}
	return n;
}

uint32_t gm_pin_unreturned(const struct gm *g, int64_t *hard)
{
	uint32_t pinned = 0;
	for (uint32_t i = 0; i + 1 < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (!gm_is_call(in) || !in->cline)
			continue;
		uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
		uint64_t to = in->addr + in->len;
		uint64_t next = gc_insn_count(g->x->c, g->x->im, to);
		int loaded = g->in[i + 1].addr == to;
		uint64_t inner = loaded ? gm_inner_ins(g, i + 1) : 0;
		uint64_t ret = next > inner ? next - inner : 0;
		if (cnt <= ret)
			continue;
		/* A call ending an inlined copy returns into its caller's
		 * code, which other code of the caller reaches too: those
		 * arrivals are counted over the whole code region (only
		 * when the function's own ones leave the call short). */
		if (!g->m_body || !loaded) {
			inner = region_arrivals(g, to);
			ret = next > inner ? next - inner : 0;
			if (cnt <= ret)
				continue;
		}
		long fake = -1;
		int n = 0;
		for (uint32_t b = 2; b < g->f->n_blocks; b++) {
			if (!gm_block_has_line(g, b, in->cfile, in->cline))
				continue;
			for (uint32_t k = 0; k < g->nout[b]; k++) {
				const struct lt_gcno_arc *a =
					&g->f->arcs[g->outa[b][k]];
				if ((a->flags & LT_GCOV_ARC_FAKE) &&
				    a->dst == 1) {
					fake = g->outa[b][k];
					n++;
				}
			}
		}
		if (n != 1)
			continue;
		if (hard[fake] < 0) {
			hard[fake] = 0;
			pinned++;
		}
		hard[fake] += (int64_t)(cnt - ret);
	}
	return pinned;
}
