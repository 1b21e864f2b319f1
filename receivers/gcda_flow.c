/* Mapping a gcno function (gcda_mapper.h), step 3, consistency: the arc
 * counts become targets of a min-cost flow over the CFG (ENTRY's
 * out-flow fixed to the function's entries, a deviation from a routed
 * arc target costing 1 per unit, from a block estimate 4 per unit: an
 * anchor line's count is the stronger evidence when -O1 code only seems
 * to follow the block order), solved by successive shortest paths over
 * non-negative residual costs after pre-saturating the "reward" edges.
 * When the alignment was clean, every transfer routed unambiguously and
 * every block balanced, the targets are already a flow and come back
 * unchanged: the function is exact. Otherwise the branch pins, block
 * estimates from anchor lines (lines of one gcno block only; the maximum
 * count over the function's instructions of that line) and the entry
 * count are used, plus the routed transfers when the alignment matched
 * most lines (or nothing was pinned); a block without an estimate costs
 * nothing to pass (loops the estimates ask for can run), a call's fake
 * arc to EXIT costs FAKE_COST (calls return, as a rule). The flow fills
 * in the rest: inferred, but always flow-consistent and non-negative.
 * Where that still leaves a block's count free to leave by several arcs
 * nothing prices, a second solve splits it evenly among them
 * (gm_make_flow). */
#include <stdlib.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define HARD_COST 4096
#define FAKE_COST 2
#define EST_W(have_arcs) ((have_arcs) ? 4 : 1)
#define INF_CAP ((int64_t)1 << 60)

/* Min-cost flow graph edge. */
struct fe {
	uint32_t to;    /* head node */
	uint32_t rev;   /* index of the reverse edge in e[] */
	int64_t cap;    /* residual capacity */
	int64_t cost;   /* cost per unit */
};

/* Min-cost flow graph. */
struct fg {
	struct fe *e;   /* edges (pairs: forward, reverse) */
	uint32_t ne;    /* edges used */
	uint32_t cap;   /* edges allocated */
	uint32_t nn;    /* nodes */
	int64_t *sup;   /* per node: supply (+) or demand (-) */
};

/* Adds edge u -> v (capacity cap, unit cost cost) and its reverse.
 * Returns the forward edge's index, or -1 when out of memory. */
static int fg_add(struct fg *f, uint32_t u, uint32_t v, int64_t cap,
                  int64_t cost)
{
	if (f->ne + 2 > f->cap) {
		uint32_t nc = f->cap ? f->cap * 2 : 64;
		struct fe *ne = realloc(f->e, nc * sizeof(*ne));
		if (!ne)
			return -1;
		f->e = ne;
		f->cap = nc;
	}
	f->e[f->ne] = (struct fe){v, f->ne + 1, cap, cost};
	f->e[f->ne + 1] = (struct fe){u, f->ne, 0, -cost};
	f->ne += 2;
	return (int)(f->ne - 2);
}

/* Adds a "target" link u -> v: up to t units are rewarded (-w each), any
 * more cost over each. The reward edge is pre-saturated (its flow moved into
 * the supplies) so every residual cost stays non-negative. Returns the
 * index of the first of its two forward edges, whose flow sum is the
 * link's flow. */
static int fg_target(struct fg *f, uint32_t u, uint32_t v, int64_t t,
                     int64_t w, int64_t over)
{
	int r = fg_add(f, u, v, 0, -w);
	if (r < 0 || fg_add(f, u, v, INF_CAP, over) < 0)
		return -1;
	/* Saturated: the reverse edge holds t units of residual. */
	f->e[r + 1].cap = t;
	f->sup[u] -= t;
	f->sup[v] += t;
	return r;
}

/* Flow on a target link (reward edge flow + extra edge flow). */
static int64_t fg_flow(const struct fg *f, int r)
{
	return f->e[r + 1].cap + f->e[r + 3].cap;
}

/* Successive shortest paths (Bellman-Ford on non-negative residual
 * costs) from supply nodes to demand nodes until all are met. */
static int fg_solve(struct fg *f)
{
	uint32_t nn = f->nn + 2, S = f->nn, T = f->nn + 1;
	for (uint32_t v = 0; v < f->nn; v++) {
		if (f->sup[v] > 0 && fg_add(f, S, v, f->sup[v], 0) < 0)
			return -1;
		if (f->sup[v] < 0 && fg_add(f, v, T, -f->sup[v], 0) < 0)
			return -1;
	}
	int64_t *dist = malloc(nn * sizeof(*dist));
	uint32_t *pe = malloc(nn * sizeof(*pe));
	uint32_t *head = malloc(nn * sizeof(*head));
	uint32_t *next = malloc(f->ne * sizeof(*next));
	int rc = 0;
	if (!dist || !pe || !head || !next) {
		rc = -1;
		goto out;
	}
	for (;;) {
		for (uint32_t v = 0; v < nn; v++)
			dist[v] = INF_CAP;
		dist[S] = 0;
		for (uint32_t it = 0, changed = 1; changed && it < nn; it++) {
			changed = 0;
			for (uint32_t k = 0; k < f->ne; k++) {
				const struct fe *e = &f->e[k];
				uint32_t u = f->e[e->rev].to;
				if (e->cap <= 0 || dist[u] >= INF_CAP)
					continue;
				if (dist[u] + e->cost < dist[e->to]) {
					dist[e->to] = dist[u] + e->cost;
					pe[e->to] = k;
					changed = 1;
				}
			}
		}
		if (dist[T] >= INF_CAP)
			break;
		int64_t push = INF_CAP;
		for (uint32_t v = T; v != S;) {
			const struct fe *e = &f->e[pe[v]];
			if (e->cap < push)
				push = e->cap;
			v = f->e[e->rev].to;
		}
		for (uint32_t v = T; v != S;) {
			struct fe *e = &f->e[pe[v]];
			e->cap -= push;
			f->e[e->rev].cap += push;
			v = f->e[e->rev].to;
		}
	}
out:
	free(dist);
	free(pe);
	free(head);
	free(next);
	return rc;
}

/* Marks in back[] the arcs that close a cycle (retreating arcs of a
 * depth-first search from ENTRY over the real arcs: a loop's way back to
 * its header, whatever the loop's shape). Returns 0 on no memory. */
static int back_arcs(const struct gm *g, uint8_t *back)
{
	uint32_t nb = g->f->n_blocks;
	uint32_t *stk = malloc(nb * sizeof(*stk));
	uint32_t *pos = calloc(nb, sizeof(*pos));
	uint8_t *state = calloc(nb, 1); /* 0 new, 1 on the stack, 2 done */
	int ok = stk && pos && state;
	uint32_t n = 0;
	memset(back, 0, g->f->n_arcs);
	if (ok) {
		stk[n++] = 0;
		state[0] = 1;
	}
	while (ok && n) {
		uint32_t v = stk[n - 1];
		if (pos[v] == g->nout[v]) {
			state[v] = 2;
			n--;
			continue;
		}
		uint32_t a = g->outa[v][pos[v]++];
		uint32_t d = g->f->arcs[a].dst;
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		if (state[d] == 1)
			back[a] = 1;
		else if (!state[d]) {
			state[d] = 1;
			stk[n++] = d;
		}
	}
	free(stk);
	free(pos);
	free(state);
	return ok;
}

/* Did machine branches count block b's test: has it two real out-arcs
 * or more, each pinned firmly (hard, not soft)? */
static int counted(const struct gm *g, uint32_t b, const int64_t *hard)
{
	uint32_t n = 0;
	for (uint32_t q = 0; hard && q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		if (hard[a] < 0 || (g->soft && g->soft[a]))
			return 0;
		n++;
	}
	return n >= 2;
}

/* One min-cost flow over the CFG (gm_make_flow): targets from
 * targ[] (have_arcs), est[] and hard[] with every cost scaled by k, plus,
 * where bal (may be NULL) has bal[a] > 0, a reward of 1 per unit up to
 * bal[a] on arc a that nothing else prices, or on a pinned arc above its
 * pin (gm_skipped_share): a tie-break only, never worth a unit of
 * evidence. With the tie-break, prev[] holds the first solve's flow and
 * back[] the arcs that close a cycle (back_arcs): such an arc into a
 * block whose test machine branches counted (counted), free above its
 * target and not rewarded itself, costs more than any cycle's rewards
 * above its first flow: the tie-break shares a block's count among its
 * ways, it does not send more round a loop whose test the machine
 * counted. An outer loop whose test left no code of its own (pairscan,
 * tripairs) has two ways nothing prices, and its even split would
 * otherwise pay for a circulation through pins (lower bounds, free
 * above) round the counted outermost loop. Loops whose tests only bound
 * (soft pins) stay free: there the split may rightly add iterations
 * (matrix's equal(): fewer early returns, more of both loops).
 * Writes the flow into out[] (which may be prev). */
static int solve_once(struct gm *g, int have_arcs, const int64_t *targ,
                      const int64_t *est, const int64_t *hard,
                      const int64_t *bal, const int64_t *prev,
                      const uint8_t *back, int64_t k, int64_t *out)
{
	uint32_t nb = g->f->n_blocks, na = g->f->n_arcs;
	/* Nodes: block b in = 2b, out = 2b+1; ENTRY out-flow via its out
	 * node; node 2nb feeds ENTRY's fake arcs (setjmp receivers). */
	uint32_t land = 2 * nb;
	struct fg f = {.nn = 2 * nb + 1};
	f.sup = calloc(f.nn + 2, sizeof(*f.sup));
	int *ar = malloc(2 * (size_t)na * sizeof(*ar)), *ax = ar + na;
	if (!f.sup || !ar) {
		free(f.sup);
		free(ar);
		return LT_ERR_NOMEM;
	}
	int rc = 0;
	/* A computed goto's landings enter by ENTRY's fake arcs and leave
	 * by the dispatch block's fake arc to EXIT, at least as many as the
	 * trace counted at label blocks (a landing whose line names no
	 * label block is not among them): with one dispatch block, its
	 * arc carries them all. */
	int64_t gl = gm_goto_landings(g, NULL);
	uint32_t ndisp = 0;
	for (uint32_t b = 2; gl && b < nb; b++)
		ndisp += gm_goto_dispatch(g, b);
	for (uint32_t a = 0; a < na && !rc; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		int64_t t = have_arcs && targ[a] > 0 ? targ[a] : 0;
		int64_t w = have_arcs ? k : 0, over = w;
		/* A pinned arc is a lower bound: a copy of the condition
		 * may be gone (the first test of a rotated loop whose
		 * outcome was known), never one added. */
		if (hard && hard[a] >= 0) {
			t = hard[a];
			w = HARD_COST * k;
			over = 0;
		} else if (bal && bal[a] > 0 && !w) {
			t = bal[a];
			w = 1;
		}
		int disp = (arc->flags & LT_GCOV_ARC_FAKE) && arc->dst == 1 &&
			   gm_goto_dispatch(g, arc->src);
		if (disp && ndisp == 1) {
			t = gl;
			w = HARD_COST * k;
			over = FAKE_COST * k;
		}
		/* Calls return, as a rule: leaving through a call's fake
		 * arc (exit, longjmp) takes an anchor line's evidence. A
		 * computed goto's dispatch leaves only by its fake arc. */
		if ((arc->flags & LT_GCOV_ARC_FAKE) && arc->dst == 1 && !disp)
			over += FAKE_COST * k;
		uint32_t from = arc->src == 0 &&
				(arc->flags & LT_GCOV_ARC_FAKE) ? land :
				2 * arc->src + 1;
		/* A cycle has at most na arcs, each rewarding 1 per unit:
		 * na per unit outbids them, and stays under k. */
		int capped = prev && back && back[a] && over == 0 && w != 1 &&
			     !(hard && hard[a] >= 0 && bal[a] > hard[a]) &&
			     !disp && counted(g, arc->dst, hard);
		ar[a] = fg_target(&f, from, 2 * arc->dst, t, w,
		                  capped ? (int64_t)na : over);
		if (ar[a] < 0)
			rc = LT_ERR_NOMEM;
		/* Above a pin (a lower bound), the tie-break's reward
		 * for the executions no branch saw; on a capped arc, what
		 * the first solve put above its target, free. */
		ax[a] = -1;
		if (!rc && capped && prev[a] > t) {
			ax[a] = fg_target(&f, from, 2 * arc->dst, prev[a] - t,
			                  0, (int64_t)na);
			if (ax[a] < 0)
				rc = LT_ERR_NOMEM;
		} else if (!rc && !capped && hard && hard[a] >= 0 && bal &&
		           bal[a] > hard[a] && !disp) {
			ax[a] = fg_target(&f, from, 2 * arc->dst,
			                  bal[a] - hard[a], 1, 0);
			if (ax[a] < 0)
				rc = LT_ERR_NOMEM;
		}
	}
	for (uint32_t b = 2; b < nb && !rc; b++)
		if (fg_target(&f, 2 * b, 2 * b + 1, est[b] > 0 ? est[b] : 0,
		              EST_W(have_arcs) * k,
		              est[b] >= 0 && !(g->est_low && g->est_low[b]) ?
		              EST_W(have_arcs) * k : 0) < 0)
			rc = LT_ERR_NOMEM;
	/* A longjmp lands at a setjmp receiver without entering again: the
	 * instrumented run counts those landings on ENTRY's fake arcs, paid
	 * by the fake arcs to EXIT of the calls that longjmp'd, so they
	 * circulate from EXIT back through the landing node. */
	if (!rc && fg_add(&f, 2, land, INF_CAP, k) < 0)
		rc = LT_ERR_NOMEM;
	/* ENTRY emits the entries, EXIT absorbs them. */
	f.sup[1] += (int64_t)g->entries;
	f.sup[2] -= (int64_t)g->entries;
	/* The landings: a fixed circulation, not one the costs may
	 * decline. */
	f.sup[land] += gl;
	f.sup[2] -= gl;
	if (!rc && fg_solve(&f) < 0)
		rc = LT_ERR_NOMEM;
	if (!rc)
		for (uint32_t a = 0; a < na; a++)
			out[a] = fg_flow(&f, ar[a]) +
				 (ax[a] >= 0 ? fg_flow(&f, ax[a]) : 0);
	free(f.e);
	free(f.sup);
	free(ar);
	return rc;
}

/* A switch block b (three real out-arcs or more) whose ways are pinned
 * but one (nfree: the ways neither pinned nor routed): the tests of a
 * comparison tree count each case they compare with, the one case no test
 * compares with (the tree's last else) runs whatever they did not see.
 * The pins are lower bounds (a test threading folded runs no branch), so
 * the first solve may have put the rest on any pinned way that costs
 * nothing above its pin; the untested way's target (a tie-break's reward
 * where arcs carry no targets) becomes the block's count less the pins.
 * Likewise the way of a test a way passed without a branch that nothing
 * counted (GM_SOFT_UNSEEN, pinned at 0: a tie-break's reward above it):
 * the block's other runs took it. Returns whether it set one. */
static int untested_case(const struct gm *g, uint32_t b,
                         const int64_t *hard, const int64_t *flow,
                         uint32_t nfree, int64_t *want, int64_t *bal)
{
	int64_t cnt = 0, pins = 0;
	long fa = -1;
	int unseen = 0;
	for (uint32_t q = 0; q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		cnt += flow[a];
		int u = g->soft && g->soft[a] == GM_SOFT_UNSEEN;
		unseen |= u;
		if (hard[a] >= 0 && !u)
			pins += hard[a];
		else if (fa < 0)
			fa = a;
		else
			return 0;
	}
	if (fa < 0 || (!unseen && (nfree != 1 || gm_n_real_out(g, b) < 3)))
		return 0;
	/* Pinned (at 0), the unseen way's reward is the tie-break's. */
	int64_t *w = unseen ? bal : want;
	if (cnt - pins <= flow[fa] || w[fa] >= cnt - pins)
		return 0;
	w[fa] = cnt - pins;
	return 1;
}

/* Step 3: makes the targets flow-consistent. Arc targets (weight 1) are
 * used when have_arcs, block estimates (weight EST_W) always, arcs pinned by
 * machine branches (hard[a] >= 0; hard may be NULL) with a weight that
 * outbids any estimate; ENTRY's out-flow is fixed to the entries. Where
 * that leaves a choice (a block's count may leave by arcs that nothing
 * prices, e.g. a jump-table case through an empty block or straight to
 * the loop latch, an inlined early return or the join after it), a
 * second solve splits it evenly among them: one way 0 would tell
 * -fprofile-use that code never runs (optimized for size, moved cold),
 * a far costlier mistake than an even split. Writes the flow into
 * g->arc. */
int gm_make_flow(struct gm *g, int have_arcs, const int64_t *est,
                 const int64_t *hard)
{
	uint32_t nb = g->f->n_blocks, na = g->f->n_arcs;
	int64_t *targ = malloc(3 * (size_t)na * sizeof(*targ));
	if (!targ)
		return LT_ERR_NOMEM;
	int64_t *first = targ + na, *bal = targ + 2 * na;
	memcpy(targ, g->arc, na * sizeof(*targ));
	/* The tie-break's reward per unit, 1, stays under the cost of one
	 * unit of evidence (k) on any path of distinct arcs. */
	int64_t k = 2 * (int64_t)na + 2;
	int rc = solve_once(g, have_arcs, targ, est, hard, NULL, NULL, NULL,
	                    k, first);
	int any = 0;
	for (uint32_t b = 2; !rc && b < nb; b++) {
		int64_t cnt = 0, fixed = 0;
		uint32_t nfree = 0;
		for (uint32_t q = 0; q < g->nout[b]; q++) {
			uint32_t a = g->outa[b][q];
			cnt += first[a];
			if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
				fixed += first[a];
			else if ((hard && hard[a] >= 0) ||
			         (have_arcs && targ[a] > 0))
				fixed += first[a];
			else
				nfree++;
		}
		for (uint32_t q = 0; q < g->nout[b]; q++)
			bal[g->outa[b][q]] = 0;
		if (!nfree && hard)
			any |= gm_skipped_share(g, b, hard, first, bal);
		if (nfree <= 1 && hard)
			any |= untested_case(g, b, hard, first, nfree,
			                     have_arcs ? targ : bal, bal);
		if (nfree < 2 || cnt <= fixed)
			continue;
		/* A select on a residue without a branch: its equal way
		 * runs about once in K (gcda_modsel.c), not half the
		 * time; never 0 (code that runs). */
		uint32_t eq = 0, mod = nfree == 2 ? gm_mod_select(g, b, &eq)
		                                  : 0;
		int64_t share = (cnt - fixed + mod / 2) / (mod ? mod : 1);
		if (mod && share < 1)
			share = 1;
		for (uint32_t q = 0; q < g->nout[b]; q++) {
			uint32_t a = g->outa[b][q];
			if (!(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) &&
			    !(hard && hard[a] >= 0) &&
			    !(have_arcs && targ[a] > 0)) {
				bal[a] = !mod ? (cnt - fixed) / nfree :
				         a == eq ? share : cnt - fixed - share;
				any |= bal[a] > 0;
			}
		}
	}
	for (uint32_t b = 0; b < 2 && !rc; b++)
		for (uint32_t q = 0; q < g->nout[b]; q++)
			bal[g->outa[b][q]] = 0;
	uint8_t *back = any ? malloc(na) : NULL;
	if (!rc && any && (!back || !back_arcs(g, back)))
		rc = LT_ERR_NOMEM;
	if (!rc && any)
		rc = solve_once(g, have_arcs, targ, est, hard, bal, first, back,
		                k, first);
	if (!rc)
		memcpy(g->arc, first, na * sizeof(*first));
	free(back);
	free(targ);
	return rc;
}
