/* A PHI argument's block that two tests enter (gcda_arms.h:
 * gm_phishare_arms). `c1 ? (c2 ? 2 : 1) : 1`-like joins keep one
 * lineless block for the value both tests deliver (the `1` of `f[0] ==
 * '[' ? (strchr(f, ']') ? n : 1) : (f[0] == '\\' ? 2 : 1)`, the `i` of
 * `n > 2u || t[y] > i ? i : x`); out of SSA each machine way into the
 * join sets that value itself (an edge copy on the way, or a value set
 * above the test), so the ways of two different tests that deliver the
 * same values to the same landing are the two arcs into that block. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Edge copies a way may run before it lands. */
#define MAX_COPIES 4
/* Instructions looked back for the value a register holds at a test. */
#define MAX_BACK 16

/* What a register holds where a way lands: a constant, or a copy of
 * another register. */
struct val {
	int kind; /* 0 unknown, 1 constant, 2 register */
	int64_t v;
};

/* The value insn k writes to its destination when it is a constant load
 * (li: addi rd,x0,imm; c.li) or a register move (mv); kind 0 else. */
static struct val insn_val(const struct gm *g, uint32_t k)
{
	struct val r = {0, 0};
	uint32_t rs;
	struct lt_insn d;
	if (gm_reg_move(g, g->in[k].addr, &rs)) {
		r.kind = 2;
		r.v = rs;
		return r;
	}
	if (lt_image_insn(g->x->img, g->in[k].addr, &d) < 0)
		return r;
	uint32_t w = d.raw;
	if (d.len == 2 && (w & 0xe003) == 0x4001 && (w >> 7 & 31)) {
		int32_t imm = (int32_t)((w >> 2 & 31) | (w >> 7 & 32));
		r.kind = 1;
		r.v = imm >= 32 ? imm - 64 : imm;
	} else if (d.len == 4 && (w & 0x707f) == 0x13 && !(w >> 15 & 31)) {
		r.kind = 1;
		r.v = (int32_t)w >> 20;
	}
	return r;
}

/* Is insn k the target of a transfer from outside [lo, hi), or a
 * jump-table landing? */
static int entered_outside(const struct gm *g, uint32_t k, uint32_t lo,
                           uint32_t hi)
{
	if (gm_indirect_landing(g, k))
		return 1;
	for (uint32_t x = 0; x < g->m; x++) {
		const struct minsn *in = &g->in[x];
		if ((x < lo || x >= hi) && !gm_is_call(in) &&
		    (in->cls == LT_INSN_JUMP || in->cls == LT_INSN_BRANCH) &&
		    in->tgt == g->in[k].addr)
			return 1;
	}
	return 0;
}

/* The value register r holds at insn i: the nearest write before it, a
 * constant or a move, through straight code that only transfers inside
 * the window (every path into i passes the write, no other write on the
 * way) and leaves a moved register's source alone. */
static struct val before(const struct gm *g, uint32_t i, uint32_t r)
{
	struct val none = {0, 0};
	for (uint32_t n = 0, k = i; n < MAX_BACK && k > 0; n++) {
		if (!gm_falls_to_next(g, k - 1) || gm_is_call(&g->in[k - 1]) ||
		    (g->in[k - 1].cls == LT_INSN_JUMP) ||
		    g->in[k - 1].cls == LT_INSN_IJUMP)
			return none;
		k--;
		if (gm_int_rd(g, g->in[k].addr) != r)
			continue;
		struct val v = insn_val(g, k);
		if (!v.kind)
			return none;
		for (uint32_t x = k + 1; x <= i; x++)
			if (entered_outside(g, x, k, i) ||
			    (v.kind == 2 &&
			     gm_int_rd(g, g->in[x].addr) == (uint32_t)v.v))
				return none;
		return v;
	}
	return none;
}

/* One way of a branch: where it lands after its edge copies (and a
 * plain jump), and what they write. */
struct way {
	uint64_t land;  /* 0: none */
	uint32_t n;     /* registers written */
	uint32_t rd[MAX_COPIES];
	struct val v[MAX_COPIES];
};

/* Follows the way starting at address at (insn k, -1 when the code
 * there is not decoded: a copy's way out of its spans lands there) into
 * *w. */
static void follow(const struct gm *g, uint64_t at, long k, struct way *w)
{
	w->land = k < 0 ? at : 0;
	w->n = 0;
	if (k < 0)
		return;
	while (k < (long)g->m && w->n < MAX_COPIES &&
	       gm_edge_copy(g, (uint32_t)k) &&
	       gm_falls_to_next(g, (uint32_t)k)) {
		struct val v = insn_val(g, (uint32_t)k);
		uint32_t rd = gm_int_rd(g, g->in[k].addr);
		if (!v.kind)
			return;
		/* A later copy reading an earlier one's register: not
		 * parallel copies of a join. */
		for (uint32_t j = 0; j < w->n; j++)
			if (w->rd[j] == rd || (v.kind == 2 && v.v == w->rd[j]))
				return;
		w->rd[w->n] = rd;
		w->v[w->n++] = v;
		k++;
	}
	if (k >= (long)g->m)
		return;
	const struct minsn *in = &g->in[k];
	w->land = in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE ?
		  in->tgt : in->addr;
}

/* The value register r holds when way w of branch i lands. */
static struct val at_land(const struct gm *g, uint32_t i,
                          const struct way *w, uint32_t r)
{
	for (uint32_t j = 0; j < w->n; j++)
		if (w->rd[j] == r)
			return w->v[j];
	return before(g, i, r);
}

/* Do ways a (of branch i) and b (of branch k) land at one place with
 * the same values in every register of regs[n]? */
static int same_values(const struct gm *g, uint32_t i, const struct way *a,
                       uint32_t k, const struct way *b, const uint32_t *regs,
                       uint32_t n)
{
	if (!a->land || a->land != b->land)
		return 0;
	for (uint32_t j = 0; j < n; j++) {
		struct val x = at_land(g, i, a, regs[j]);
		struct val y = at_land(g, k, b, regs[j]);
		if (!x.kind || x.kind != y.kind || x.v != y.v)
			return 0;
	}
	return 1;
}

/* The ways of branch k: [0] taken, [1] fallthrough. */
static void ways_of(const struct gm *g, uint32_t k, struct way w[2])
{
	const struct minsn *in = &g->in[k];
	follow(g, in->tgt, gm_insn_at(g, in->tgt), &w[0]);
	follow(g, in->addr + in->len,
	       gm_falls_to_next(g, k) ? (long)k + 1 : -1, &w[1]);
}

/* Are branches i and k of one source line? */
static int same_line(const struct gm *g, uint32_t i, uint32_t k)
{
	return g->in[i].line && g->in[i].line == g->in[k].line &&
	       g->in[i].file == g->in[k].file;
}

/* The way of branch i (0 taken, 1 fallthrough) that delivers the same
 * values as a way of another branch into the same landing while its
 * other way does not; *ref gets that branch (the first, when the ways of
 * several tests of i's own line say the same: `c1 && c2 ? (c3 ? x : y) :
 * x` with the outer else's value set above c1), *rway its way. -1 when
 * none, or several disagree or are of other lines (the copies of a
 * computed goto's `if (++steps > max) return -1;` all deliver -1). */
static int shared_way(const struct gm *g, uint32_t i, long *ref, int *rway)
{
	struct way wi[2], wk[2];
	uint32_t regs[2 * MAX_COPIES], nr = 0;
	ways_of(g, i, wi);
	for (int s = 0; s < 2; s++)
		for (uint32_t j = 0; j < wi[s].n; j++) {
			uint32_t q = 0;
			while (q < nr && regs[q] != wi[s].rd[j])
				q++;
			if (q == nr)
				regs[nr++] = wi[s].rd[j];
		}
	if (!nr)
		return -1;
	int found = -1;
	*ref = -1;
	for (uint32_t k = 0; k < g->m; k++) {
		if (k == i || g->in[k].cls != LT_INSN_BRANCH)
			continue;
		ways_of(g, k, wk);
		for (int u = 0; u < 2; u++) {
			/* Both of k's ways alike: no evidence. */
			if (same_values(g, k, &wk[u], k, &wk[1 - u], regs,
			                nr))
				continue;
			for (int s = 0; s < 2; s++) {
				if (!same_values(g, i, &wi[s], k, &wk[u], regs,
				                 nr) ||
				    same_values(g, i, &wi[1 - s], k, &wk[u],
				                regs, nr))
					continue;
				if (found >= 0 && found != s)
					return -1;
				/* Several: the tests of i's own line only. */
				if (found >= 0 && (!same_line(g, i, k) ||
				                   !same_line(g, i, (uint32_t)*ref)))
					return -1;
				if (found >= 0)
					continue;
				found = s;
				*ref = k;
				*rway = u;
			}
		}
	}
	return found;
}

/* The arc of two-way block b into a lineless block with one successor
 * and two or more predecessors (a shared PHI argument's block), or -1
 * (none, or both arcs). */
static long shared_arm(const struct gm *g, uint32_t b)
{
	long arc = -1;
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		uint32_t a = g->outa[b][k];
		uint32_t d = g->f->arcs[a].dst;
		if (d < 2 || g->f->blocks[d].n_lines || g->npred[d] < 2 ||
		    gm_only_succ(g, d) < 0)
			continue;
		if (arc >= 0)
			return -1;
		arc = a;
	}
	return arc;
}

/* Did a branch other than i match block b (cp)? */
static int matched(const struct gm *g, const struct gm_copy *cp,
                   uint32_t ncp, uint32_t i, uint32_t b)
{
	for (uint32_t k = 0; k < ncp; k++)
		if (cp[k].insn != i && g->f->arcs[cp[k].ta].src == b)
			return 1;
	return 0;
}

/* Contract in gcda_arms.h. */
int gm_phishare_arms(const struct gm *g, uint32_t i,
                     const struct gm_copy *cp, uint32_t ncp, long *ta,
                     long *fa)
{
	const struct minsn *in = &g->in[i];
	if (!g->x->optimized || !in->line)
		return 0;
	long ref = -1;
	int rway = 0;
	int s = shared_way(g, i, &ref, &rway);
	if (s < 0)
		return 0;
	/* The other test's block: the one it matched, by the way that
	 * delivers the shared values into the shared block; else the one
	 * two-way block whose condition line is its line. */
	long other = -1, oarc = -1;
	for (uint32_t k = 0; k < ncp; k++)
		if (cp[k].insn == (uint32_t)ref) {
			other = g->f->arcs[cp[k].ta].src;
			oarc = rway == 0 ? cp[k].ta : cp[k].fa;
		}
	const struct minsn *rin = &g->in[ref];
	for (uint32_t b = 2; other < 0 && b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    g->nout[b] != 2 ||
		    !gm_last_line_is(g, b, rin->file, rin->line) ||
		    shared_arm(g, b) < 0)
			continue;
		if (oarc >= 0)
			return 0;
		oarc = shared_arm(g, b);
	}
	if (oarc < 0)
		return 0;
	other = g->f->arcs[oarc].src;
	if (shared_arm(g, (uint32_t)other) != oarc)
		return 0;
	uint32_t od = g->f->arcs[oarc].dst;
	long cand = -1, arm = -1;
	/* Blocks of the line with an arc into the shared block; when
	 * several, those no other branch matched (the chain's earlier
	 * tests, `c1 && c2` entering it too, matched by their lines). */
	for (int free_only = 0; free_only < 2 && cand < 0; free_only++) {
		int several = 0;
		for (uint32_t b = 2; b < g->f->n_blocks && !several; b++) {
			if (gm_n_real_out(g, b) != 2 ||
			    gm_has_fake_out(g, b) || g->nout[b] != 2 ||
			    (long)b == other ||
			    !gm_last_line_is(g, b, in->file, in->line) ||
			    (free_only && matched(g, cp, ncp, i, b)))
				continue;
			long a = shared_arm(g, b);
			if (a < 0 || g->f->arcs[a].dst != od)
				continue;
			several = cand >= 0;
			cand = b;
			arm = a;
		}
		if (several)
			cand = -1;
	}
	if (cand < 0)
		return 0;
	uint32_t x = g->outa[cand][0], y = g->outa[cand][1];
	long direct = (long)x == arm ? y : x;
	*ta = s == 0 ? arm : direct;
	*fa = s == 0 ? direct : arm;
	return 1;
}
