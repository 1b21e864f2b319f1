/* An arm whose code gcc placed above the test (gcda_arms.h:
 * gm_hoisted_arm). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* Straight-line instructions before a branch searched for an arm's code. */
#define HOIST_BACK 6

/* Does a way run code of (file, line) among the lines fl[n]? */
static int runs_line(uint32_t fl[][2], int n, uint32_t file, uint32_t line)
{
	for (int k = 0; k < n; k++)
		if (fl[k][0] == file && fl[k][1] == line)
			return 1;
	return 0;
}

/* Does the way from insn t write register r before its first transfer
 * (following plain jumps; at most GM_MAX_RUN instructions)? 1 yes, 0 no,
 * -1 when it reads r first or cannot be followed. */
static int way_writes(const struct gm *g, long t, uint32_t r)
{
	for (int n = 0; t >= 0 && n < GM_MAX_RUN; n++) {
		const struct minsn *p = &g->in[t];
		if (p->cls == LT_INSN_JUMP && p->link == LT_LINK_NONE) {
			t = gm_insn_at(g, p->tgt);
			continue;
		}
		if (p->cls != LT_INSN_OTHER)
			return 0;
		if (gm_int_rd(g, p->addr) == r)
			return gm_reads_reg(g, p->addr, r) ? -1 : 1;
		if (gm_reads_reg(g, p->addr, r))
			return -1;
		t = gm_falls_to_next(g, (uint32_t)t) ? t + 1 : -1;
	}
	return -1;
}

/* Contract in gcda_arms.h. */
int gm_hoisted_arm(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	if (*ta < 0 || *fa < 0)
		return 0;
	uint32_t b = g->f->arcs[*ta].src, dt = g->f->arcs[*ta].dst;
	uint32_t df = g->f->arcs[*fa].dst, ft[GM_MAX_RUN][2], ff[GM_MAX_RUN][2];
	long t = gm_insn_at(g, in->tgt);
	long nx = gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	int nt = t >= 0 ? gm_run_lines(g, t, in, ft) : 0;
	int nf = nx >= 0 ? gm_run_lines(g, nx, in, ff) : 0;
	for (uint32_t n = 0, k = i; n < HOIST_BACK && k > 0; n++) {
		k--;
		const struct minsn *p = &g->in[k];
		if (p->cls != LT_INSN_OTHER || !gm_falls_to_next(g, k))
			return 0;
		if (!p->cline || p->nop ||
		    gm_block_has_line(g, b, p->cfile, p->cline))
			continue;
		int at = dt >= 2 && gm_block_has_line(g, dt, p->cfile,
		                                      p->cline);
		int af = df >= 2 && gm_block_has_line(g, df, p->cfile,
		                                      p->cline);
		if (at == af || runs_line(ft, nt, p->cfile, p->cline) ||
		    runs_line(ff, nf, p->cfile, p->cline))
			continue;
		/* The value the hoisted code computed reaches the join on
		 * the way that keeps it; the way overwriting it is the
		 * other arm's. Only that contradicting the match says the
		 * match is wrong. */
		uint32_t r = gm_int_rd(g, p->addr);
		int wt = r ? way_writes(g, t, r) : -1;
		int wf = r ? way_writes(g, nx, r) : -1;
		if (wt < 0 || wf < 0 || wt == wf || wt != at)
			return 0;
		long arm = at ? *ta : *fa, other = at ? *fa : *ta;
		*ta = wt ? other : arm;
		*fa = wt ? arm : other;
		return 1;
	}
	return 0;
}
