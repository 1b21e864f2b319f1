/* Ways to tell a branch's gcno block when the lines of its ways named
 * another (gcda_arms.h: gm_named_arms, gm_threaded_arms,
 * gm_passed_test_arms).
 *
 *     while (no > 0 && ops[no - 1] != '(' &&
 *            (prec(ops[no - 1]) > prec(op) || ...))        (line 112)
 *             ...
 *     if (no == 32) return E_OVERFLOW;                     (line 116)
 *     ops[no++] = op;                                      (line 117)
 *
 * The second test's way on runs prec's inlined table checks, code of
 * line 112 that the first test's way on (into the second test's block)
 * lists: the lines match the first test's block. The branch's own
 * discriminator names the second's (gm_named_arms). And where no > 0
 * fails, no == 32 is known false: jump threading sends that way past
 * the `no == 32` test, onto line 117, a line of neither destination of
 * the first test's block; the test it skipped tells which destination
 * the way had (gm_threaded_arms).
 *
 *     if (t->kind == T && !valid_id(t->to)) return ...;     (line 60)
 *     if (t->kind == T && t->from == t->to) return ...;     (line 61)
 *
 * Where the first `t->kind == T` fails, the second's outcome is known:
 * that way runs straight into line 62, past a test that has no branch at
 * all there (gm_passed_test_arms); the passed test's arc gets the way's
 * runs too. A branch matched to its own block may pass a later test
 * alike (gm_passed_after_arc):
 *
 *     if ((b & 7u) < 3u) s = s * 31u + two(a, b);          (line 65)
 *     if (a > b) u = u * 31u + three(a, b);                (line 66)
 *     if ((b & 7u) < 3u) t = t * 31u + four(a, b);         (line 68)
 *
 * Where `a > b` fails, its way lands on four's code or on line 69,
 * whichever line 65's outcome said: line 68's test ran only after
 * three's code. */
#include <stdlib.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/insn.h"

/* Contract in gcda_arms.h. */
int gm_named_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_reentry(g, in->tgt, in->file, in->line);
	long nx = i + 1 < g->m && g->in[i + 1].addr == in->addr + in->len ?
		  (long)i + 1 : -1;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	if (dx == dy)
		return 0;
	int fw = gm_way_dest_is(g, b, dx, t, in) ||
		 gm_way_dest_is(g, b, dy, nx, in);
	int bw = gm_way_dest_is(g, b, dy, t, in) ||
		 gm_way_dest_is(g, b, dx, nx, in);
	if (fw == bw)
		return 0;
	*ta = fw ? x : y;
	*fa = fw ? y : x;
	return 1;
}

/* Contract in gcda_arms.h. */
int gm_threaded_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (t < 1 || nx < 0 || (uint32_t)t - 1 == i)
		return 0;
	const struct minsn *p = &g->in[t - 1];
	if (p->cls != LT_INSN_BRANCH || !gm_falls_to_next(g, (uint32_t)t - 1) ||
	    !p->line || p->cline != p->line || p->cfile != p->file)
		return 0;
	long hit = -1, ha = -1, hb = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    g->nout[b] != 2 || !gm_last_line_is(g, b, in->file, in->line))
			continue;
		uint32_t x = g->outa[b][0], y = g->outa[b][1];
		uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
		/* The skipped test is the destination's own condition. */
		int fw = dx >= 2 && gm_n_real_out(g, dx) == 2 &&
			 gm_last_line_is(g, dx, p->file, p->line) &&
			 gm_way_dest_is(g, b, dy, nx, in);
		int bw = dy >= 2 && gm_n_real_out(g, dy) == 2 &&
			 gm_last_line_is(g, dy, p->file, p->line) &&
			 gm_way_dest_is(g, b, dx, nx, in);
		if (fw == bw)
			continue;
		if (hit >= 0)
			return 0;
		hit = b;
		ha = fw ? x : y;
		hb = fw ? y : x;
	}
	if (hit < 0)
		return 0;
	*ta = ha;
	*fa = hb;
	return 1;
}

/* Contract in gcda_arms.h. */
int gm_passed_test_arms(const struct gm *g, uint32_t i, long *ta, long *fa,
                        long *pa, int *pw)
{
	const struct minsn *in = &g->in[i];
	long w[2] = {gm_insn_at(g, in->tgt),
	             i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1};
	/* Code laid out without a row of its own reads as the line
	 * before it, which says nothing about where the way went. */
	if (w[0] < 0 || w[1] < 0 || !gm_lands_on_own_line(g, w[0]) ||
	    !gm_lands_on_own_line(g, w[1]))
		return 0;
	/* The line's one condition: on a chain of conditions written on
	 * one line (`i < len && t[i] == ' '`, `c == 'x' || c == 'X'`) the
	 * branch may be any of them, or all at once (merged). */
	long b = gm_only_cond_block(g, in);
	if (b < 0 || g->nout[b] != 2)
		return 0;
	/* The branch's own instance: code of another function inlined
	 * into this one whose lines one of its blocks lists too (a copy
	 * inlined early) may be another copy, inlined late at another
	 * call: b must list the call's line. */
	const struct lt_dwarf *dw = g->x->dw;
	long q = dw ? lt_dwarf_inline_find(dw, in->addr) : -1;
	if (q >= 0 && dw->func[q].depth &&
	    strcmp(dw->func[q].name, g->f->name) &&
	    !gm_block_has_line(g, (uint32_t)b, dw->func[q].call_file,
	                       dw->func[q].call_line))
		return 0;
	uint32_t arc[2] = {g->outa[b][0], g->outa[b][1]};
	uint32_t d[2] = {g->f->arcs[arc[0]].dst, g->f->arcs[arc[1]].dst};
	long hit = -1, ha = -1, hb = -1;
	int hw = 0;
	for (int k = 0; k < 2 && d[0] != d[1]; k++) {
		uint32_t da = d[k], c = d[1 - k];
		/* c joins other paths (threading split them by what they
		 * knew of its test): a test only b leads to that the way
		 * skips is one gcc merged with b's (a range check), not
		 * one b's outcome decided. */
		if (c < 2 || g->npred[c] < 2 || gm_n_real_out(g, c) != 2 ||
		    gm_has_fake_out(g, c) || g->nout[c] != 2)
			continue;
		for (int v = 0; v < 2; v++) {
			int u = 1 - v;
			if (!gm_way_dest_is(g, (uint32_t)b, da, w[v], in) ||
			    gm_way_dest_is(g, (uint32_t)b, d[0], w[u], in) ||
			    gm_way_dest_is(g, (uint32_t)b, d[1], w[u], in))
				continue;
			int past = 0;
			long pe = -1;
			for (uint32_t r = 0; r < 2; r++) {
				uint32_t e = g->f->arcs[g->outa[c][r]].dst;
				if (e != c && e != da &&
				    gm_way_dest_is(g, c, e, w[u], in)) {
					past++;
					pe = g->outa[c][r];
				}
			}
			if (past != 1)
				continue;
			if (hit >= 0)
				return 0; /* both ways round */
			hit = pe;
			ha = v == 0 ? arc[k] : arc[1 - k];
			hb = v == 0 ? arc[1 - k] : arc[k];
			hw = u;
		}
	}
	if (hit < 0)
		return 0;
	*ta = ha;
	*fa = hb;
	*pa = hit;
	*pw = hw;
	return 1;
}

/* Contract in gcda_arms.h. */
long gm_passed_after_arc(const struct gm *g, uint32_t i, uint32_t a, int w,
                         const uint8_t *head)
{
	const struct minsn *in = &g->in[i];
	long t = w ? (i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 :
	              -1) : gm_insn_at(g, in->tgt);
	uint32_t b = g->f->arcs[a].src, c = g->f->arcs[a].dst;
	if (t < 0 || !gm_lands_on_own_line(g, t) || c < 2 || c == b ||
	    g->npred[c] < 2 || gm_n_real_out(g, c) != 2 ||
	    gm_has_fake_out(g, c) || g->nout[c] != 2)
		return -1;
	if (head[c])
		return -1;
	/* The way runs c's own code, no test passed; unless it lands
	 * right past c's test, the branch before the landing falling into
	 * it (c's line and its destination's alike: a call's line). */
	const struct minsn *p = t > 0 ? &g->in[t - 1] : NULL;
	int past = p && p->cls == LT_INSN_BRANCH &&
		   p->addr + p->len == g->in[t].addr &&
		   gm_only_cond_block(g, p) == (long)c;
	if (!past && gm_way_dest_is(g, b, c, t, in))
		return -1;
	long hit = -1;
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t e = g->f->arcs[g->outa[c][r]].dst;
		if (e == c || !gm_way_dest_is(g, c, e, t, in))
			continue;
		if (hit >= 0)
			return -1; /* both destinations start alike */
		hit = g->outa[c][r];
	}
	return hit;
}

/* Contract in gcda_arms.h. */
uint8_t *gm_loop_heads(const struct gm *g)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint8_t *head = calloc(nb, 1);
	uint8_t *st = calloc(nb, 1); /* 1 on the DFS stack, 2 done */
	uint32_t (*stack)[2] = malloc(nb * sizeof(*stack));
	if (!head || !st || !stack || !nb) {
		free(st);
		free(stack);
		if (head)
			memset(head, 1, nb); /* no memory: every block a head */
		return head;
	}
	stack[n][0] = 0;
	stack[n++][1] = 0;
	st[0] = 1;
	while (n) {
		uint32_t b = stack[n - 1][0], k = stack[n - 1][1]++;
		if (k >= g->nout[b]) {
			st[b] = 2;
			n--;
			continue;
		}
		uint32_t d = g->f->arcs[g->outa[b][k]].dst;
		if (st[d] == 1)
			head[d] = 1;
		else if (!st[d]) {
			st[d] = 1;
			stack[n][0] = d;
			stack[n++][1] = 0;
		}
	}
	free(st);
	free(stack);
	return head;
}
