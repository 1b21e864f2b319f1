/* An `if` without else whose then-value gcc computed before the test
 * (it shares the condition's computation) and whose other way, the one
 * that skips the then-statement, puts the unchanged value back with a
 * register copy on the edge into the join (gcda_mapper.h:
 * gm_restore_arms). The lines cannot tell the ways apart (the copy has
 * the condition's line, the then-line no code): the data flow can. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"

/* Straight-line instructions before a branch searched for a copy's
 * source computation. */
#define RESTORE_BACK 8

/* Does the copy `mv rd, rs` put back the value a computation of rd,
 * straight before branch i, read from rs (rs unchanged since)? */
static int puts_back(const struct gm *g, uint32_t i, uint32_t rd,
                     uint32_t rs)
{
	for (uint32_t n = 0, k = i; n < RESTORE_BACK && k > 0; n++) {
		k--;
		if (!gm_falls_to_next(g, k) || g->in[k].cls != LT_INSN_OTHER)
			return 0;
		uint64_t a = g->in[k].addr;
		if (gm_int_rd(g, a) == rs)
			return 0;
		if (gm_int_rd(g, a) == rd)
			return gm_reads_reg(g, a, rs) && !gm_reads_reg(g, a, rd);
	}
	return 0;
}

/* Does the way from insn k on run one or two register copies, each
 * putting back a value (puts_back), and then reach `stop` (the other
 * way's landing) by falling through or a plain jump? */
static int restores(const struct gm *g, uint32_t i, long k, uint64_t stop)
{
	int n = 0;
	for (; k >= 0 && k < (long)g->m && g->in[k].addr != stop; k++) {
		const struct minsn *in = &g->in[k];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE)
			return n && in->tgt == stop;
		uint32_t rs, rd = gm_reg_move(g, in->addr, &rs);
		if (!rd || rd == rs || n == 2 || !gm_falls_to_next(g, (uint32_t)k) ||
		    !puts_back(g, i, rd, rs))
			return 0;
		n++;
	}
	return n && k < (long)g->m;
}

int gm_restore_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                    long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt), arm, direct;
	if (t < 0 || !gm_falls_to_next(g, i) || g->nout[b] != 2 ||
	    gm_has_fake_out(g, b) || !gm_edge_copies(g, i) ||
	    !gm_triangle_split(g, b, &arm, &direct))
		return 0;
	int rt = restores(g, i, t, in->addr + in->len);
	int rf = restores(g, i, (long)i + 1, in->tgt);
	if (rt == rf)
		return 0;
	*ta = rt ? direct : arm;
	*fa = rt ? arm : direct;
	return 1;
}
