/* The tests of a condition chain written on one line (gcda_mapper.h:
 * gm_chain_arms): `while (len < MAX && i + len < n && a[len] == b[len])`
 * gives the gcno one condition block per test, C1 -> C2 -> C3, each
 * leaving by its other arc to one block D (the loop's exit). Every way
 * of every branch on the line then starts on a line of one of their
 * destinations, so line matching (gcda_pin.c: match_branch) finds each
 * branch a match in every block of the chain; or in none, when jump
 * threading sends the way to D straight into code of another line (a
 * state machine's `if (a || b || c) break;` going round the loop into
 * the same state's code, whose first instruction, the next character's
 * load, gcc merged with a load of another line). The layout can tell
 * them apart: gcc emits a chain's tests in source order (short-circuit
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
 * branch's other way lands (D's code, or just past D's first test where
 * jump threading resolved it on that way: threads_past), or, failing
 * that, not at all. A backward way (a rotated loop's bottom test going
 * round again) is no way on to a next test: the run starts after it.
 * The chain may share
 * its line with other conditions (a `for`'s own test): it is the one run
 * of k blocks whose later blocks are entered from the previous one only
 * and whose first one from outside. A chain whose last test goes on
 * straight back into the chain (`while (n > 1 && t[n - 1] == '0') n--;`,
 * the body merged into the last test's block) gives no order: gcc may
 * lay that loop out entered at its second test, the run then starting
 * with the last one. */
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
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
 * order), or -1. *own (may be NULL) tells whether every instruction
 * before it has that line or none. */
static long next_test(const struct gm *g, long t, uint32_t file,
                      uint32_t line, int *own)
{
	if (own)
		*own = 1;
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < MAX_GAP;
	     steps++, t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_BRANCH)
			return on_line(g, t, file, line) ? t : -1;
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return -1;
		if (own && in->line && !in->nop &&
		    (in->file != file || in->line != line))
			*own = 0;
	}
	return -1;
}

/* The way (1: taken, 0: not taken) by which branch b goes straight on
 * to the next test of its line, that test in *nx and in *own whether
 * only the line's code runs on the way; -1 when neither way or both do.
 * A taken way counts only forward. Where both do and only one runs
 * nothing but the line's code on the way (`x > v || (x == v && y > w)`
 * in a loop: the true way runs the body, another line, into the rotated
 * loop's bottom test), that one is the way on. */
static int link_way(const struct gm *g, long b, long *nx, int *own)
{
	const struct minsn *in = &g->in[b];
	int fo = 0, to = 0;
	long f = gm_falls_to_next(g, (uint32_t)b) ?
		 next_test(g, b + 1, in->file, in->line, &fo) : -1;
	long t = in->tgt > in->addr ?
		 next_test(g, gm_insn_at(g, in->tgt), in->file, in->line,
		           &to) :
		 -1;
	if (f >= 0 && t >= 0 && fo != to) {
		if (fo)
			t = -1;
		else
			f = -1;
	}
	if ((f >= 0) == (t >= 0))
		return -1;
	*nx = f >= 0 ? f : t;
	*own = f >= 0 ? fo : to;
	return f < 0;
}

/* Where branch b's way w (1: taken) lands. */
static uint64_t landing(const struct gm *g, long b, int w)
{
	const struct minsn *in = &g->in[b];
	return w ? in->tgt : in->addr + in->len;
}

/* Does the machine code at address `from`, outside the copy's spans,
 * reach address `to` within MAX_GAP instructions in address order
 * through copies only (moves and constants, gm_computes)? DWARF may give
 * the copy that sets a join's value on one way of a `?:` to another
 * inlined function whose value lives in the same register (rnd's
 * `mv a5,s3` between a copy's test and its join): the way then leaves
 * the copy's spans for one instruction and comes back into the join. */
static int copies_into(const struct gm *g, uint64_t from, uint64_t to)
{
	for (int steps = 0; steps < MAX_GAP && from < to; steps++) {
		struct lt_insn d;
		if (lt_image_insn(g->x->img, from, &d) < 0 ||
		    d.cls != LT_INSN_OTHER || gm_computes(g, from))
			return 0;
		from += d.len;
	}
	return from == to;
}

/* Does straight-line code from address `from` (plain jumps followed,
 * no other transfer or call) reach address `to` within MAX_GAP
 * instructions, computing nothing on the way (gm_computes: only the
 * copies that set a join's value) but code of gcno block d's lines that
 * block arm does not list (d, arm: -1 for none)? */
static int runs_into(const struct gm *g, uint64_t from, uint64_t to,
                     long d, long arm)
{
	long t = gm_insn_at(g, from);
	if (t < 0)
		return copies_into(g, from, to);
	for (int steps = 0; t >= 0 && steps < MAX_GAP; steps++) {
		const struct minsn *in = &g->in[t];
		if (in->addr == to)
			return 1;
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		int joins = d >= 2 && arm >= 2 && in->cline &&
			    gm_block_has_line(g, (uint32_t)d, in->cfile,
			                      in->cline) &&
			    !gm_block_has_line(g, (uint32_t)arm, in->cfile,
			                       in->cline);
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t) ||
		    (gm_computes(g, in->addr) && !joins))
			return 0;
		t++;
	}
	return 0;
}

/* Does a way landing at `to` land on D's code at `at` just past its
 * first test, a conditional branch that straight code from `at`
 * reaches setting values only (gm_computes), whose outcome jump
 * threading knew on that way? `if (n >= 3 && t[0] == V && t[1] == A) i
 * = 2; for (; t[i] != END; i++)`: where the chain's last test fails,
 * t[0] is V, so that way skips the loop's first test (the values set
 * before it are set on the way). */
static int threads_past(const struct gm *g, uint64_t at, uint64_t to)
{
	long t = gm_insn_at(g, at);
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < MAX_GAP;
	     steps++, t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_BRANCH)
			return in->addr + in->len == to;
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t) ||
		    gm_computes(g, in->addr))
			return 0;
	}
	return 0;
}

void gm_soften_line_conds(const struct gm *g, const struct minsn *in,
                          const uint8_t *only, uint8_t *bad)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if ((only && !only[b]) || gm_n_real_out(g, b) != 2 ||
		    gm_has_fake_out(g, b) ||
		    !gm_last_line_is(g, b, in->file, in->line))
			continue;
		for (uint32_t k = 0; k < g->nout[b]; k++)
			bad[g->outa[b][k]] |= 1;
	}
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
 * and by arc ex[q] to one of the two blocks the whole condition leads to:
 * one block D for all of them (`a && b && c`, or `||`), or, where `&&`
 * and `||` mix (`a || (b && c)`), D or the block E its other outcome goes
 * to; the last one has one arc ex[k - 1] to D (and then, in a mixed
 * chain, its other arc to E) and its other arc nxt[k - 1] elsewhere, not
 * back into the chain. c[0] must be entered from outside the chain.
 * Returns 1 when that holds, 2 when it holds for a mixed chain (whose
 * last block's ways gm_chain_arms then tells by where they land). */
static int follow_chain(const struct gm *g, uint32_t file, uint32_t line,
                        int k, uint32_t *c, uint32_t *nxt, uint32_t *ex)
{
	long d = -1, e = -1;
	for (int q = 0; q < k - 1; q++) {
		uint32_t a0 = g->outa[c[q]][0], a1 = g->outa[c[q]][1], w;
		int found = 0;
		for (int s = 0; s < 2; s++) {
			uint32_t on = s ? a1 : a0, off = s ? a0 : a1;
			uint32_t nb = g->f->arcs[on].dst;
			uint32_t to = g->f->arcs[off].dst;
			if (!cond_of(g, nb, file, line) || g->npred[nb] != 1 ||
			    (d >= 0 && to != (uint32_t)d && e >= 0 &&
			     to != (uint32_t)e))
				continue;
			found++;
			w = s;
		}
		if (found != 1)
			return 0;
		nxt[q] = w ? a1 : a0;
		ex[q] = w ? a0 : a1;
		uint32_t od = g->f->arcs[ex[q]].dst;
		if (d < 0)
			d = od;
		else if (od != (uint32_t)d)
			e = od;
		c[q + 1] = g->f->arcs[nxt[q]].dst;
		for (int p = 0; p <= q; p++)
			if (c[p] == c[q + 1] || c[p] == (uint32_t)d ||
			    c[p] == (uint32_t)e)
				return 0;
	}
	if (d < 0 || c[k - 1] == (uint32_t)d || c[k - 1] == (uint32_t)e)
		return 0;
	uint32_t l = c[k - 1], a0 = g->outa[l][0], a1 = g->outa[l][1];
	if ((g->f->arcs[a0].dst == (uint32_t)d) ==
	    (g->f->arcs[a1].dst == (uint32_t)d))
		return 0;
	ex[k - 1] = g->f->arcs[a0].dst == (uint32_t)d ? a0 : a1;
	nxt[k - 1] = ex[k - 1] == a0 ? a1 : a0;
	if (e >= 0 && g->f->arcs[nxt[k - 1]].dst != (uint32_t)e)
		return 0;
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
			return e >= 0 ? 2 : 1;
	}
	return 0;
}

/* The one chain of k condition blocks of (file, line) (follow_chain):
 * c[k] in order, nxt[q] the arc from c[q] on to c[q + 1] (the last
 * one's arc not to D), ex[q] its arc to D (or E). Returns follow_chain's
 * 1 or 2 when exactly one block starts such a chain, else 0. */
static int block_chain(const struct gm *g, uint32_t file, uint32_t line,
                       int k, uint32_t *c, uint32_t *nxt, uint32_t *ex)
{
	uint32_t tc[MAX_CHAIN], tn[MAX_CHAIN], te[MAX_CHAIN];
	int found = 0, kind = 0;
	for (uint32_t b = 2; b < g->f->n_blocks && found < 2; b++) {
		if (!cond_of(g, b, file, line))
			continue;
		tc[0] = b;
		int r = follow_chain(g, file, line, k, tc, tn, te);
		if (!r)
			continue;
		found++;
		kind = r;
		memcpy(c, tc, sizeof(tc));
		memcpy(nxt, tn, sizeof(tn));
		memcpy(ex, te, sizeof(te));
	}
	return found == 1 ? kind : 0;
}

/* Do the machine tests run[n] of a chain c[n] form a cycle the layout
 * cannot order: the last one going backward straight into one of them
 * through code of the chain's line only, while no block on the chain's
 * way round (from `round`, the last test's arc on, up to the chain)
 * lists that line? Then the loop's body is not on the line (`again:
 * body; if (++i < n && c) goto again;`, its code moved among the tests
 * or hoisted out), and gcc may have entered the rotated loop at any
 * test: no order to go by. A one-line loop (`while (a && b) n--;`) goes
 * round through its body's line, which starts the run after it. */
static int tests_cycle(const struct gm *g, const long *run, int n,
                       const uint32_t *c, uint32_t round)
{
	const struct minsn *in = &g->in[run[n - 1]];
	long bt = in->tgt <= in->addr ? gm_insn_at(g, in->tgt) : -1;
	long back = next_test(g, bt, in->file, in->line, NULL);
	int into = 0;
	for (int q = 0; back >= 0 && q < n; q++)
		into |= run[q] == back;
	if (!into)
		return 0;
	for (long j = bt; j < back; j++)
		if (g->in[j].cline && !g->in[j].nop &&
		    (g->in[j].cline != in->cline ||
		     g->in[j].cfile != in->cfile))
			return 0;
	/* The blocks reached from the way round before the chain. */
	uint32_t nb = g->f->n_blocks, stk[64], top = 0;
	uint8_t seen[1024];
	if (nb > sizeof(seen))
		return 0;
	memset(seen, 0, nb);
	for (int q = 0; q < n; q++)
		seen[c[q]] = 1;
	uint32_t d = g->f->arcs[round].dst;
	if (!seen[d]) {
		seen[d] = 1;
		stk[top++] = d;
	}
	while (top) {
		uint32_t b = stk[--top];
		if (b < 2)
			continue;
		if (gm_block_has_line(g, b, in->file, in->line))
			return 0;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t s = g->f->arcs[g->outa[b][k]].dst;
			if (seen[s])
				continue;
			if (top == 64)
				return 0;
			seen[s] = 1;
			stk[top++] = s;
		}
	}
	return 1;
}

/* The way (1: taken) by which the last test run[k - 1] of a chain's run
 * leaves where an earlier test leaves (D's code), or -1 when neither
 * way or both do. Not when its other way runs straight into that
 * landing too: the landing is then the join after both arms, whose
 * values are set by copies on the way or before the tests (`x = a || b
 * ? p * 7 : p`; `if (a || b) x = q >> 1; else x = p % 13;`), not D's
 * code; nor when the other way runs into it through code of D's lines
 * that the last test's other block (arm) does not list: D's own code,
 * which gcc kept on one way only because the values the other ways
 * bring make it nothing (`s += c1 ? (c2 ? zero[i] : x) : 0u;` with zero
 * never written adds on the `x` way alone). */
static int last_exit_way(const struct gm *g, const long *run,
                         const int *way, int k, long d, long arm)
{
	int on = -1;
	for (int w = 0; w < 2; w++)
		for (int q = 0; q < k - 1; q++) {
			uint64_t at = landing(g, run[q], !way[q]);
			uint64_t to = landing(g, run[k - 1], w);
			if (to == at || threads_past(g, at, to))
				on = on < 0 || on == !w ? !w : 2;
			else if (runs_into(g, to, at, d, arm))
				on = 2;
		}
	return on < 0 || on > 1 ? -1 : on;
}

/* The last test of a mixed chain (`a || (b && c)`, follow_chain's 2):
 * each of its ways lands where earlier tests' ways off the chain land
 * (D's code and E's), the two at different ones of those blocks; its
 * gcno arcs are ordered so that ex[k - 1] is the taken way's. Returns 0
 * (the way on is the not-taken one, as last_exit_way), or -1 when a way
 * lands nowhere an earlier test leaves to, or both at one block. */
static int mixed_last(const struct gm *g, const long *run, const int *way,
                      int k, uint32_t *ex, uint32_t *nxt)
{
	/* The earlier tests' ways off the chain: one landing per block
	 * they go to, different blocks at different landings. */
	for (int q = 0; q < k - 1; q++)
		for (int p = 0; p < q; p++) {
			uint64_t lq = landing(g, run[q], !way[q]);
			uint64_t lp = landing(g, run[p], !way[p]);
			int same = g->f->arcs[ex[q]].dst == g->f->arcs[ex[p]].dst;
			if (same != (lq == lp))
				return -1;
		}
	long blk[2] = {-1, -1};
	for (int w = 0; w < 2; w++)
		for (int q = 0; q < k - 1; q++) {
			uint64_t at = landing(g, run[q], !way[q]);
			uint64_t to = landing(g, run[k - 1], w);
			long d = g->f->arcs[ex[q]].dst;
			if (to != at && !threads_past(g, at, to))
				continue;
			blk[w] = blk[w] == -1 || blk[w] == d ? d : -2;
		}
	if (blk[0] < 0 || blk[1] < 0 || blk[0] == blk[1])
		return -1;
	uint32_t l = (uint32_t)k - 1;
	if (g->f->arcs[nxt[l]].dst == (uint32_t)blk[1]) {
		uint32_t t = nxt[l];
		nxt[l] = ex[l];
		ex[l] = t;
	}
	return g->f->arcs[ex[l]].dst == (uint32_t)blk[1] &&
	       g->f->arcs[nxt[l]].dst == (uint32_t)blk[0] ? 0 : -1;
}

int gm_chain_arms(const struct gm *g, uint32_t i, int closed, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	uint32_t c[MAX_CHAIN], nxt[MAX_CHAIN], ex[MAX_CHAIN];
	int k = MAX_CHAIN;
	/* Back from i to the run's first test: the one branch whose way
	 * on leads to it. */
	long run[MAX_CHAIN + 1], first = i, nx;
	int ow;
	for (int steps = 0; steps <= k; steps++) {
		long prev = -1;
		for (long j = 0; j < (long)g->m; j++)
			if (on_line(g, j, in->file, in->line) &&
			    link_way(g, j, &nx, &ow) >= 0 && nx == first) {
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
	int n = 0, way[MAX_CHAIN + 1], own[MAX_CHAIN + 1];
	for (long b = first; b >= 0 && n <= k; n++) {
		run[n] = b;
		way[n] = link_way(g, b, &nx, &own[n]);
		b = way[n] >= 0 ? nx : -1;
	}
	if (n < 2 || n > MAX_CHAIN)
		return 0;
	k = n;
	int kind = block_chain(g, in->file, in->line, k, c, nxt, ex);
	int mlast = kind == 2 ? mixed_last(g, run, way, k, ex, nxt) : -1;
	/* A mixed chain in a rotated loop: its last test's way on runs the
	 * body (other lines) into the loop's bottom test, the chain's
	 * first in the source, which the run then holds last. */
	if ((!kind || (kind == 2 && mlast < 0)) && n > 2 && !own[n - 2] &&
	    block_chain(g, in->file, in->line, n - 1, c, nxt, ex) == 2) {
		k = --n;
		kind = 2;
		mlast = mixed_last(g, run, way, k, ex, nxt);
	}
	if (!kind || tests_cycle(g, run, n, c, nxt[k - 1]))
		return 0;
	int pos = 0;
	while (pos < k && run[pos] != (long)i)
		pos++;
	if (pos == k)
		return 0;
	/* The last test leaves where an earlier one leaves; with
	 * `closed`, whichever test i is: a run of the line's branches
	 * whose last one leaves elsewhere (conditional stores gcc sank
	 * onto the exit's path, given the condition's line) is no
	 * chain. */
	int check = closed || pos == k - 1;
	int last = kind == 2 ? mlast :
		   check ? last_exit_way(g, run, way, k,
		                         g->f->arcs[ex[k - 1]].dst,
		                         g->f->arcs[nxt[k - 1]].dst) : 0;
	if (last < 0)
		return 0;
	int on = pos == k - 1 ? last : way[pos];
	*ta = on ? nxt[pos] : ex[pos];
	*fa = on ? ex[pos] : nxt[pos];
	return kind;
}
