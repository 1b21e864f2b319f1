/* The tests of a condition chain written on one line (gcda_mapper.h:
 * gm_chain_arms): `while (len < MAX && i + len < n && a[len] == b[len])`
 * gives the gcno one condition block per test, C1 -> C2 -> C3, each
 * leaving by its other arc to one block D (the loop's exit). Every way
 * of every branch on the line then starts on a line of one of their
 * destinations, so line matching (gcda_pin.c: match_branch) finds each
 * branch a match in every block of the chain. The layout can tell them
 * apart: gcc emits a chain's tests in source order (short-circuit
 * evaluation fixes that order), each test's way on to the next test
 * being the straight-line code up to it:
 *
 *     addw  s3,s3,1        len++ (the loop body)
 *     beq   s3,a7,.Lexit1  C1: len == MAX leaves
 *     beq   s3,t1,.Lexit   C2: i + len == n leaves
 *     ...                  a[len], b[len]
 *     beq   s6,s5,.Lbody   C3: equal goes round again
 *   .Lexit:
 *
 * A full run of k branches of the line, each going on straight to the
 * next, for the k blocks of the chain, pairs them in order. The first
 * k - 1 branches go on to the next by the way of the arc to the next
 * block; the last one leaves by the way that lands where an earlier
 * branch's other way lands (D's code), or, failing that, not at all. A
 * backward way (a rotated loop's bottom test going round again) is no
 * way on to a next test: the run starts after it. The chain may share
 * its line with other conditions (a `for`'s own test): it is the one run
 * of k blocks whose later blocks are entered from the previous one only
 * and whose first one from outside. A chain whose last test goes on
 * straight back into the chain (`while (n > 1 && t[n - 1] == '0') n--;`,
 * the body merged into the last test's block) gives no order: gcc may
 * lay that loop out entered at its second test, the run then starting
 * with the last one. */
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Longest chain handled, and most instructions between two tests. */
#define MAX_CHAIN 8
#define MAX_GAP 16

/* Is insn j a conditional branch on (file, line)? */
static int on_line(const struct gm *g, long j, uint32_t file, uint32_t line)
{
	return j >= 0 && j < (long)g->m && g->in[j].cls == LT_INSN_BRANCH &&
	       g->in[j].file == file && g->in[j].line == line;
}

/* The branch on (file, line) that control starting at insn t reaches
 * first through straight-line code (no transfer, no call, in address
 * order), or -1. */
static long next_test(const struct gm *g, long t, uint32_t file,
                      uint32_t line)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < MAX_GAP;
	     steps++, t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_BRANCH)
			return on_line(g, t, file, line) ? t : -1;
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return -1;
	}
	return -1;
}

/* The way (1: taken, 0: not taken) by which branch b goes straight on
 * to the next test of its line, and that test in *nx; -1 when neither
 * way or both do. A taken way counts only forward. */
static int link_way(const struct gm *g, long b, long *nx)
{
	const struct minsn *in = &g->in[b];
	long f = gm_falls_to_next(g, (uint32_t)b) ?
		 next_test(g, b + 1, in->file, in->line) : -1;
	long t = in->tgt > in->addr ?
		 next_test(g, gm_insn_at(g, in->tgt), in->file, in->line) :
		 -1;
	if ((f >= 0) == (t >= 0))
		return -1;
	*nx = f >= 0 ? f : t;
	return f < 0;
}

/* Where branch b's way w (1: taken) lands. */
static uint64_t landing(const struct gm *g, long b, int w)
{
	const struct minsn *in = &g->in[b];
	return w ? in->tgt : in->addr + in->len;
}

/* Does straight-line code from address `from` (plain jumps followed,
 * no other transfer or call) reach address `to` within MAX_GAP
 * instructions, computing nothing on the way (gm_computes: only the
 * copies that set a join's value)? */
static int runs_into(const struct gm *g, uint64_t from, uint64_t to)
{
	long t = gm_insn_at(g, from);
	for (int steps = 0; t >= 0 && steps < MAX_GAP; steps++) {
		const struct minsn *in = &g->in[t];
		if (in->addr == to)
			return 1;
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t) ||
		    gm_computes(g, in->addr))
			return 0;
		t++;
	}
	return 0;
}

/* Is gcno block b a two-way condition block of (file, line)? */
static int cond_of(const struct gm *g, uint32_t b, uint32_t file,
                   uint32_t line)
{
	return b >= 2 && gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b) &&
	       g->nout[b] == 2 && gm_last_line_is(g, b, file, line);
}

/* Follows a chain of k condition blocks of (file, line) from c[0]: each
 * c[q] (q < k - 1) goes to c[q + 1], its only predecessor, by arc nxt[q]
 * and to one block D, the same for all, by arc ex[q]; the last one has
 * one arc ex[k - 1] to D and its other arc nxt[k - 1] elsewhere, not
 * back into the chain. c[0] must be entered from outside the chain.
 * Returns 1 when that holds. */
static int follow_chain(const struct gm *g, uint32_t file, uint32_t line,
                        int k, uint32_t *c, uint32_t *nxt, uint32_t *ex)
{
	long d = -1;
	for (int q = 0; q < k - 1; q++) {
		uint32_t a0 = g->outa[c[q]][0], a1 = g->outa[c[q]][1], w;
		int found = 0;
		for (int s = 0; s < 2; s++) {
			uint32_t on = s ? a1 : a0, off = s ? a0 : a1;
			uint32_t nb = g->f->arcs[on].dst;
			if (!cond_of(g, nb, file, line) || g->npred[nb] != 1 ||
			    (d >= 0 && g->f->arcs[off].dst != (uint32_t)d))
				continue;
			found++;
			w = s;
		}
		if (found != 1)
			return 0;
		nxt[q] = w ? a1 : a0;
		ex[q] = w ? a0 : a1;
		d = g->f->arcs[ex[q]].dst;
		c[q + 1] = g->f->arcs[nxt[q]].dst;
		for (int p = 0; p <= q; p++)
			if (c[p] == c[q + 1] || c[p] == (uint32_t)d)
				return 0;
	}
	if (d < 0 || c[k - 1] == (uint32_t)d)
		return 0;
	uint32_t l = c[k - 1], a0 = g->outa[l][0], a1 = g->outa[l][1];
	if ((g->f->arcs[a0].dst == (uint32_t)d) ==
	    (g->f->arcs[a1].dst == (uint32_t)d))
		return 0;
	ex[k - 1] = g->f->arcs[a0].dst == (uint32_t)d ? a0 : a1;
	nxt[k - 1] = ex[k - 1] == a0 ? a1 : a0;
	/* A loop of the tests alone (`while (n > 1 && t[n - 1] == '0')
	 * n--;`, the body in the last test's block) may be rotated to
	 * start its run at any test: no order to go by. */
	for (int q = 0; q < k; q++)
		if (g->f->arcs[nxt[k - 1]].dst == c[q])
			return 0;
	/* Entered from outside: a predecessor of c[0] not in the chain. */
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		if (g->f->arcs[a].dst != c[0] ||
		    (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE))
			continue;
		int inside = 0;
		for (int q = 0; q < k; q++)
			inside |= g->f->arcs[a].src == c[q];
		if (!inside)
			return 1;
	}
	return 0;
}

/* The one chain of k condition blocks of (file, line) (follow_chain):
 * c[k] in order, nxt[q] the arc from c[q] on to c[q + 1] (the last
 * one's arc not to D), ex[q] its arc to D. Returns 1 when exactly one
 * block starts such a chain, else 0. */
static int block_chain(const struct gm *g, uint32_t file, uint32_t line,
                       int k, uint32_t *c, uint32_t *nxt, uint32_t *ex)
{
	uint32_t tc[MAX_CHAIN], tn[MAX_CHAIN], te[MAX_CHAIN];
	int found = 0;
	for (uint32_t b = 2; b < g->f->n_blocks && found < 2; b++) {
		if (!cond_of(g, b, file, line))
			continue;
		tc[0] = b;
		if (!follow_chain(g, file, line, k, tc, tn, te))
			continue;
		found++;
		memcpy(c, tc, sizeof(tc));
		memcpy(nxt, tn, sizeof(tn));
		memcpy(ex, te, sizeof(te));
	}
	return found == 1;
}

int gm_chain_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	uint32_t c[MAX_CHAIN], nxt[MAX_CHAIN], ex[MAX_CHAIN];
	int k = MAX_CHAIN;
	/* Back from i to the run's first test: the one branch whose way
	 * on leads to it. */
	long run[MAX_CHAIN + 1], first = i, nx;
	for (int steps = 0; steps <= k; steps++) {
		long prev = -1;
		for (long j = 0; j < (long)g->m; j++)
			if (on_line(g, j, in->file, in->line) &&
			    link_way(g, j, &nx) >= 0 && nx == first) {
				if (prev >= 0)
					return 0;
				prev = j;
			}
		if (prev < 0)
			break;
		if (steps == k || prev == (long)i)
			return 0; /* longer than the chain, or a cycle */
		first = prev;
	}
	int n = 0, way[MAX_CHAIN + 1];
	for (long b = first; b >= 0 && n <= k; n++) {
		run[n] = b;
		way[n] = link_way(g, b, &nx);
		b = way[n] >= 0 ? nx : -1;
	}
	if (n < 2 || n > MAX_CHAIN)
		return 0;
	k = n;
	if (!block_chain(g, in->file, in->line, k, c, nxt, ex))
		return 0;
	int pos = 0;
	while (pos < k && run[pos] != (long)i)
		pos++;
	if (pos == k)
		return 0;
	int on = way[pos];
	if (pos == k - 1) {
		/* The last test leaves where an earlier one leaves. Not
		 * when its other way runs straight into that landing too:
		 * the landing is then the join after both arms, whose
		 * values are set by copies on the way or before the tests
		 * (`x = a || b ? p * 7 : p`; `if (a || b) x = q >> 1; else
		 * x = p % 13;`), not D's code. */
		on = -1;
		for (int w = 0; w < 2; w++)
			for (int q = 0; q < k - 1; q++) {
				uint64_t at = landing(g, run[q], !way[q]);
				if (landing(g, run[pos], w) == at)
					on = on < 0 || on == !w ? !w : 2;
				else if (runs_into(g, landing(g, run[pos], w),
				                   at))
					on = 2;
			}
		if (on < 0 || on > 1)
			return 0;
	}
	*ta = on ? nxt[pos] : ex[pos];
	*fa = on ? ex[pos] : nxt[pos];
	return 1;
}
