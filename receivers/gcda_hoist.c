/* Mapping a gcno function (gcda_mapper.h), step 2b, part of the branch
 * pins: conditions gcc hoisted out of their loop.
 *
 * A test whose operands do not change in a loop (`if ((q & 3) == 0)
 * return ...;` inside a do-while) is evaluated once before the loop:
 * when it fails the first time it fails every time. Its machine branch
 * then runs once per entry of the loop, while the gcno arc that stays in
 * the loop counts every iteration; the branch's count is no count of
 * that arc. Such a branch is not on the machine loop: control leaving
 * it the arc's way never comes back to it (nor to another copy of the
 * condition) without first passing a test of a condition outside the
 * loop (the enclosing loop's, when the loop is nested). The same holds
 * where gcc computed a loop's outcome without running it (`for (i = 0;
 * i < n; i++) { if (c) return; x = k; }` as one test of c and x = k):
 * the arc's iterations left no code to count them. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* Working sets of one function: dominators and a loop body. */
struct loops {
	uint32_t nb;    /* gcno blocks */
	uint32_t words; /* 64-bit words per block set */
	uint64_t *dom;  /* per block: the set of blocks dominating it */
	uint8_t *body;  /* scratch: the blocks of one natural loop */
	uint32_t *stk;  /* scratch stack of blocks or instructions */
	uint32_t head;  /* header of the loop in body (loop_of) */
};

/* Does block x dominate block y? */
static int dominates(const struct loops *l, uint32_t x, uint32_t y)
{
	return (l->dom[(size_t)y * l->words + x / 64] >> (x % 64)) & 1;
}

/* Computes l->dom over the real arcs from ENTRY (iterative data flow;
 * a block ENTRY does not reach is dominated by every block). */
static void dominators(const struct gm *g, struct loops *l)
{
	uint32_t nb = l->nb, w = l->words;
	memset(l->dom, 0xff, (size_t)nb * w * sizeof(uint64_t));
	memset(l->dom, 0, w * sizeof(uint64_t));
	l->dom[0] = 1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &g->f->arcs[a];
			if (arc->flags & LT_GCOV_ARC_FAKE || arc->dst == 0)
				continue;
			/* dom(dst) &= dom(src) | {dst} */
			uint64_t *d = l->dom + (size_t)arc->dst * w;
			const uint64_t *s = l->dom + (size_t)arc->src * w;
			for (uint32_t k = 0; k < w; k++) {
				uint64_t own = k == arc->dst / 64 ?
					       (uint64_t)1 << (arc->dst % 64) : 0;
				uint64_t v = d[k] & (s[k] | own);
				changed |= v != d[k];
				d[k] = v;
			}
		}
	}
}

/* Fills l->body with the natural loop of header h (h and every block
 * reaching a back-edge tail of h without passing h). Returns its size,
 * 0 when h heads no loop. */
static uint32_t natural_loop(const struct gm *g, struct loops *l, uint32_t h)
{
	uint32_t n = 0, size = 1;
	memset(l->body, 0, l->nb);
	l->body[h] = 1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst != h || arc->flags & LT_GCOV_ARC_FAKE ||
		    !dominates(l, h, arc->src) || l->body[arc->src])
			continue;
		l->body[arc->src] = 1;
		l->stk[n++] = arc->src;
		size++;
	}
	if (size == 1)
		return 0;
	while (n) {
		uint32_t x = l->stk[--n];
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &g->f->arcs[a];
			if (arc->dst != x || arc->flags & LT_GCOV_ARC_FAKE ||
			    l->body[arc->src])
				continue;
			l->body[arc->src] = 1;
			l->stk[n++] = arc->src;
			size++;
		}
	}
	return size;
}

/* Leaves in l->body the innermost natural loop holding both block b and
 * block d. Returns 0 when there is none (the arc b -> d leaves every
 * loop b is in, or the loops are irreducible). */
static int loop_of(const struct gm *g, struct loops *l, uint32_t b,
                   uint32_t d)
{
	long best = -1;
	uint32_t bsize = 0;
	for (uint32_t h = 0; h < l->nb; h++) {
		if (!dominates(l, h, b) || !dominates(l, h, d))
			continue;
		uint32_t size = natural_loop(g, l, h);
		if (size && l->body[b] && l->body[d] &&
		    (best < 0 || size < bsize)) {
			best = h;
			bsize = size;
		}
	}
	if (best < 0)
		return 0;
	natural_loop(g, l, (uint32_t)best);
	l->head = (uint32_t)best;
	return 1;
}

/* Does the header of the loop in l->body, or a block of it going back to
 * the header (a latch: the loop's step and test), list (file, line)? */
static int step_line(const struct gm *g, const struct loops *l,
                     uint32_t file, uint32_t line)
{
	if (gm_block_has_line(g, l->head, file, line))
		return 1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst == l->head && arc->src < l->nb &&
		    l->body[arc->src] && !(arc->flags & LT_GCOV_ARC_FAKE) &&
		    gm_block_has_line(g, arc->src, file, line))
			return 1;
	}
	return 0;
}

/* Does a block of the loop in l->body list the line of insn t? */
static int loop_line(const struct gm *g, const struct loops *l, uint32_t t)
{
	for (uint32_t b = 2; b < l->nb; b++)
		if (l->body[b] && gm_block_has_line(g, b, g->in[t].cfile,
		                                    g->in[t].cline))
			return 1;
	return 0;
}

/* Where control goes from insn i: stores the instruction indices in
 * to[] (room for g->m + 2) and returns how many, or -1 when it may go
 * to code outside the function's machine code (the caller's, around an
 * inlined copy split in pieces; a tail call). Calls return; an indirect
 * jump goes where the trace saw it go. */
static long next_insns(const struct gm *g, uint32_t i, long *to)
{
	const struct minsn *in = &g->in[i];
	int call = gm_is_call(in);
	long n = 0;
	if (in->cls == LT_INSN_BRANCH || (in->cls == LT_INSN_JUMP && !call)) {
		to[n] = gm_insn_at(g, in->tgt);
		if (to[n++] < 0)
			return -1;
	}
	if (in->cls == LT_INSN_IJUMP && !call && in->link != LT_LINK_RET) {
		size_t nx;
		const struct gc_xfer *xs = gc_xfers_from(g->x->c, g->x->im,
		                                         in->addr, &nx);
		for (size_t q = 0; xs && q < nx && n < (long)g->m; q++) {
			to[n] = gm_insn_at(g, xs[q].to);
			if (to[n++] < 0)
				return -1;
		}
	}
	if ((call || !gm_ends_block(in) || in->cls == LT_INSN_BRANCH) &&
	    in->cls != LT_INSN_TRET) {
		if (!gm_falls_to_next(g, i))
			return -1;
		to[n++] = (long)i + 1;
	}
	return n;
}

/* Does control leaving the copies' code at insn i (its next instruction
 * is the caller's) leave the call for good: mapped from inlined copies
 * only, with i on a line only blocks list from which no path of the
 * gcno CFG leads back to block b (`return g_cnt | b;` in the loop, whose
 * code runs on into the caller's use of the result)? The caller's code
 * around a copy split in pieces (control coming back into the copy) sits
 * between code of blocks that still lead to b. */
static int leaves_call(const struct gm *g, struct loops *l, uint32_t b,
                       uint32_t i)
{
	const struct minsn *in = &g->in[i];
	if (!g->span || !in->cline)
		return 0;
	uint8_t *to_b = calloc(l->nb, 1);
	uint32_t *stk = malloc(l->nb * sizeof(*stk));
	int listed = 0, back = !to_b || !stk; /* no memory: may come back */
	uint32_t n = 0;
	if (!back) {
		to_b[b] = 1;
		stk[n++] = b;
	}
	while (n) {
		uint32_t y = stk[--n];
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &g->f->arcs[a];
			if (arc->dst != y || arc->flags & LT_GCOV_ARC_FAKE ||
			    arc->src >= l->nb || to_b[arc->src])
				continue;
			to_b[arc->src] = 1;
			stk[n++] = arc->src;
		}
	}
	for (uint32_t x = 2; x < l->nb && !back; x++) {
		if (!gm_block_has_line(g, x, in->cfile, in->cline))
			continue;
		listed = 1;
		back = to_b[x];
	}
	free(to_b);
	free(stk);
	return listed && !back;
}

/* Does control from insn `from` reach a copy of block b inside the loop
 * in l->body? The search (in[]: 2 for code reached, 1 for code not
 * entered) stops at copies of b and at matched copies (owner[t]: 1 + the
 * block of the copy at t, 0 for other code) of a condition outside the
 * loop on a line no block of the loop lists (an inlined helper's test
 * may match a copy outside the loop while the loop runs one too):
 * control there has left the loop. Lines cannot tell the rest of the
 * loop's code: gcc gives code it moved into a loop (a pointer's set-up
 * for an inner loop) the lines of what it came from, the function's
 * opening line for a parameter's copy. Returns bit 0 when it reached a
 * copy of b, bit 1 when it reached code outside the function's machine
 * code (which may lead anywhere) but by leaving the call (leaves_call). */
static int reach(const struct gm *g, struct loops *l, const uint32_t *owner,
                 uint32_t b, long from, uint8_t *in, long *to)
{
	uint32_t top = 0;
	int r = 0;
	memset(in, 0, g->m);
	if (from < 0)
		return 0;
	in[from] = 2;
	l->stk[top++] = (uint32_t)from;
	while (top) {
		uint32_t i = l->stk[--top];
		if (owner[i] == b + 1) {
			r |= 1;
			continue;
		}
		long n = next_insns(g, i, to);
		if (n < 0 && !leaves_call(g, l, b, i))
			r |= 2;
		for (long k = 0; k < n; k++) {
			long t = to[k];
			if (in[t])
				continue;
			in[t] = 1;
			if (!owner[t] || l->body[owner[t] - 1] ||
			    loop_line(g, l, (uint32_t)t)) {
				in[t] = 2;
				l->stk[top++] = (uint32_t)t;
			}
		}
	}
	return r;
}

/* Marks in cyc[] the blocks of the loop in l->body other than b that lie
 * on a cycle of the loop avoiding b (an inner loop, a `continue` before
 * b): iterations that need not run b's test. */
static void cycles_without(const struct gm *g, struct loops *l, uint32_t b,
                           uint8_t *cyc, uint8_t *seen)
{
	memset(cyc, 0, l->nb);
	for (uint32_t x = 2; x < l->nb; x++) {
		if (!l->body[x] || x == b)
			continue;
		uint32_t top = 0;
		memset(seen, 0, l->nb);
		l->stk[top++] = x;
		while (top && !cyc[x]) {
			uint32_t y = l->stk[--top];
			for (uint32_t k = 0; k < g->nout[y] && !cyc[x]; k++) {
				const struct lt_gcno_arc *arc =
					&g->f->arcs[g->outa[y][k]];
				uint32_t d = arc->dst;
				if (arc->flags & LT_GCOV_ARC_FAKE ||
				    d >= l->nb || !l->body[d] || d == b)
					continue;
				cyc[x] = d == x;
				if (!seen[d]) {
					seen[d] = 1;
					l->stk[top++] = d;
				}
			}
		}
	}
}

/* Does the machine code reached from insn `from` the way reach()
 * searches it (in[]: 2 for code entered) hold a cycle that runs no copy
 * of block b nor any code of a line b lists (an unmatched copy), through
 * an executed conditional branch of the function's own code (not
 * inlined late) on a line of the loop's header or latch (step_line: its
 * test, not a loop gcc made of one statement, a block copy) that only
 * blocks of the loop outside cyc[] (cycles_without) list? Each
 * iteration of the gcno loop there runs b's test; the machine's
 * iterations round that cycle do not (jump threading kept the outcome of
 * an invariant test from the first iteration, or of a test the way
 * there decides), so b's copies count fewer tests than the twin. Only a
 * test tells: gcc moves other code (an address computed ahead for later
 * stores) onto ways its lines are not on. Code outside the function's
 * machine code: no (unknown). */
static int skips_test(const struct gm *g, struct loops *l,
                      const uint32_t *owner, uint32_t b, long from,
                      const uint8_t *cyc, uint8_t *in, uint8_t *mark,
                      long *to)
{
	if (from < 0 || (reach(g, l, owner, b, from, in, to) & 2))
		return 0;
	for (uint32_t i = 0; i < g->m; i++) {
		if (in[i] != 2 || owner[i] == b + 1 ||
		    g->in[i].cls != LT_INSN_BRANCH ||
		    !gc_insn_count(g->x->c, g->x->im, g->in[i].addr) ||
		    !g->in[i].cline || g->in[i].cline != g->in[i].line ||
		    g->in[i].cfile != g->in[i].file ||
		    !step_line(g, l, g->in[i].cfile, g->in[i].cline) ||
		    gm_block_has_line(g, b, g->in[i].cfile, g->in[i].cline))
			continue;
		int inner = 0;
		for (uint32_t x = 2; x < l->nb && !inner; x++)
			inner = cyc[x] && gm_block_has_line(g, x,
			                                    g->in[i].cfile,
			                                    g->in[i].cline);
		if (inner)
			continue;
		uint32_t top = 0;
		memset(mark, 0, g->m);
		l->stk[top++] = i;
		while (top) {
			long n = next_insns(g, l->stk[--top], to);
			for (long k = 0; k < n; k++) {
				long t = to[k];
				if (t == (long)i)
					return 1;
				if (mark[t] || in[t] != 2 ||
				    owner[t] == b + 1 ||
				    gm_block_has_line(g, b, g->in[t].cfile,
				                      g->in[t].cline))
					continue;
				mark[t] = 1;
				l->stk[top++] = (uint32_t)t;
			}
		}
	}
	return 0;
}

void gm_hoisted_tests(const struct gm *g, const struct gm_copy *cp,
                      uint32_t n, uint8_t *bad)
{
	struct loops l = {.nb = g->f->n_blocks};
	l.words = (l.nb + 63) / 64;
	l.dom = malloc((size_t)l.nb * l.words * sizeof(uint64_t));
	l.body = malloc(l.nb);
	l.stk = malloc((l.nb > g->m ? l.nb : g->m) * sizeof(uint32_t) + 1);
	uint8_t *seen = malloc(g->m + 1);
	uint32_t *owner = calloc(g->m + 1, sizeof(*owner));
	long *to = malloc(((size_t)g->m + 2) * sizeof(*to));
	uint8_t *cyc = malloc(l.nb + 1);
	uint8_t *mark = malloc((l.nb > g->m ? l.nb : g->m) + 1);
	if (!n || !l.dom || !l.body || !l.stk || !seen || !owner || !to ||
	    !cyc || !mark)
		goto out; /* no memory: the pins stand as they were */
	for (uint32_t k = 0; k < n; k++)
		owner[cp[k].insn] = g->f->arcs[cp[k].ta].src + 1;
	dominators(g, &l);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t b = g->f->arcs[cp[k].ta].src, q = 0;
		/* Each block once: at its first copy. */
		while (q < k && g->f->arcs[cp[q].ta].src != b)
			q++;
		if (q < k)
			continue;
		for (int way = 0; way < 2; way++) {
			uint32_t a = way ? cp[k].fa : cp[k].ta;
			if (!loop_of(g, &l, b, g->f->arcs[a].dst))
				continue;
			/* Any copy whose way of a ran coming back to a
			 * copy keeps the pins. A way that leaves the loop
			 * without (jump threading resolved the loop's
			 * next test, or gcc computed the loop's outcome
			 * without running it) may carry executions of a
			 * that the branch did not see either. */
			int ran = 0, back = 0, skip = 0;
			cycles_without(g, &l, b, cyc, mark);
			for (q = 0; q < n && !back && !skip; q++) {
				const struct gm_copy *c = &cp[q];
				if (g->f->arcs[c->ta].src != b)
					continue;
				int taken = c->ta == a;
				uint64_t went = taken ? c->taken :
						c->count - c->taken;
				if (!went)
					continue;
				ran = 1;
				const struct minsn *in = &g->in[c->insn];
				long t = taken ? gm_insn_at(g, in->tgt) :
					  gm_falls_to_next(g, c->insn) ?
					  (long)c->insn + 1 : -1;
				back = reach(g, &l, owner, b, t, seen, to) != 0;
				/* Coming back is not enough when the
				 * machine also loops without the test. */
				skip = back && skips_test(g, &l, owner, b, t,
				                          cyc, seen, mark, to);
				back = back && !skip;
			}
			if (ran && (!back || skip)) {
				bad[cp[k].ta] |= 1;
				bad[cp[k].fa] |= 1;
				/* Its line may hold other conditions
				 * of the loop (`i < 8 && a[0] < 9`):
				 * which one gcc hoisted the lines
				 * cannot tell. */
				gm_soften_line_conds(g, &g->in[cp[k].insn],
				                     l.body, bad);
			}
		}
	}
out:
	free(l.dom);
	free(l.body);
	free(l.stk);
	free(seen);
	free(owner);
	free(to);
	free(cyc);
	free(mark);
}
