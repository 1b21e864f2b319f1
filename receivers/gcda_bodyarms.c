/* The arms of an inlined copy's branch told by the out-of-line body's
 * (gcda_arms.h: gm_body_arms).
 *
 *     return (int)(v < 0 ? v - 0.5 : v + 0.5);
 *
 * Test and arms on one line: the body's ways show the arms'
 * discriminators (gcda_discr.c), a copy inlined into a caller shows none,
 * and lines cannot tell its ways apart. Both run the same operations per
 * arm (fsub on one way, fadd on the other, whatever registers and
 * whatever constant loads the caller hoisted), so the first operation
 * each way runs on the branch's line names the body's way, and with it
 * the arm. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Instructions of a way looked at for its first operation. */
#define MAX_LOOK 8

/* The first operation key (gm_op_key) of the way from insn t on (file,
 * line): plain jumps followed, nops and code of other lines (a caller's
 * instruction scheduled into the arm) passed over, up to the first
 * transfer; 0 if none. */
static uint32_t way_key(const struct gm *g, long t, uint32_t file,
                        uint32_t line)
{
	for (int k = 0; k < MAX_LOOK; k++) {
		if (t < 0 || t >= (long)g->m)
			return 0;
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (gm_ends_block(in) || gm_is_call(in))
			return 0;
		if (!in->nop && in->line == line && in->file == file) {
			uint32_t key = gm_op_key(g->x->img, in->addr);
			if (key)
				return key;
		}
		if (!gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

/* The keys of branch i's taken (*kt) and fallthrough (*kf) ways; 1 when
 * both are found and differ. */
static int way_keys(const struct gm *g, uint32_t i, uint32_t *kt,
                    uint32_t *kf)
{
	const struct minsn *in = &g->in[i];
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	*kt = way_key(g, gm_insn_at(g, in->tgt), in->file, in->line);
	*kf = way_key(g, nx, in->file, in->line);
	return *kt && *kf && *kt != *kf;
}

/* (contract in gcda_arms.h) */
int gm_body_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa)
{
	const struct gm *o = g->body;
	const struct minsn *in = &g->in[i];
	uint32_t kt, kf;
	if (!o || !way_keys(g, i, &kt, &kf))
		return 0;
	long x = -1, y = -1;
	for (uint32_t j = 0; j < o->m_body; j++) {
		const struct minsn *bj = &o->in[j];
		long a, c;
		uint32_t bt, bf;
		if (bj->cls != LT_INSN_BRANCH || bj->line != in->line ||
		    bj->file != in->file || !gm_discr_arms(o, j, b, &a, &c) ||
		    !way_keys(o, j, &bt, &bf))
			continue;
		long wt = kt == bt && kf == bf ? a :
			  kt == bf && kf == bt ? c : -1;
		if (wt < 0)
			continue;
		long wf = wt == a ? c : a;
		if (x >= 0 && (x != wt || y != wf))
			return 0;
		x = wt;
		y = wf;
	}
	if (x < 0)
		return 0;
	*ta = x;
	*fa = y;
	return 1;
}
