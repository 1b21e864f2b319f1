/* Tests of a call's result (gcda_mapper.h: gm_call_result_line,
 * gm_after_call). gcc ends a gcno block at every call that may not
 * return (a fake arc to EXIT), so the condition testing what a call
 * returned (`while (*t && spec(f, *t, &w))`) is the block the call's
 * block falls into; a test of the same line before the call (`*t`) is
 * another block, though the lines of the two tests' ways may look alike
 * (the loop's next `*t` load scheduled at the top of the result test's
 * taken way). */
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Instructions looked back from a test for the call it follows. */
#define MAX_BACK 6
/* a0: the register a call returns its value in. */
#define REG_A0 10

/* Does a transfer other than the fallthrough from insn k - 1 land on
 * insn k? */
static int landed_on(const struct gm *g, uint32_t k)
{
	if (gm_indirect_landing(g, k))
		return 1;
	for (uint32_t x = 0; x < g->m; x++) {
		const struct minsn *in = &g->in[x];
		if (!gm_is_call(in) && (in->cls == LT_INSN_JUMP ||
		                        in->cls == LT_INSN_BRANCH) &&
		    in->tgt == g->in[k].addr)
			return 1;
	}
	return 0;
}

long gm_call_result(const struct gm *g, uint32_t i)
{
	const struct minsn *in = &g->in[i];
	if (!g->x->optimized || in->cls != LT_INSN_BRANCH ||
	    !gm_reads_reg(g, in->addr, REG_A0))
		return -1;
	for (uint32_t n = 0, k = i; n < MAX_BACK && k > 0; n++) {
		if (landed_on(g, k) || !gm_falls_to_next(g, k - 1))
			return -1;
		k--;
		if (gm_is_call(&g->in[k]))
			return g->in[k].line ? (long)k : -1;
		if (gm_ends_block(&g->in[k]) ||
		    gm_int_rd(g, g->in[k].addr) == REG_A0)
			return -1;
	}
	return -1;
}

int gm_after_call(const struct gm *g, uint32_t b, uint32_t call)
{
	const struct minsn *c = &g->in[call];
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		uint32_t p = g->f->arcs[a].src;
		if (g->f->arcs[a].dst != b || p < 2 || !gm_has_fake_out(g, p) ||
		    gm_n_real_out(g, p) != 1)
			continue;
		if (gm_block_has_line(g, p, c->file, c->line))
			return 1;
	}
	return 0;
}
