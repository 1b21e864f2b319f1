/* The bottom test of a rotated loop whose exit runs only the loop
 * statement's own line (gcda_mapper.h: gm_latch_arms), and the one
 * two-way block whose condition a branch's line is (gm_only_cond_block).
 *
 * gcc's loop header copying turns `for (j = i + 1; j < n; j++) body`
 * into a test before the loop and one at its bottom, a backward branch
 * to the body. Where the loop is nested, induction variable
 * optimisation merges the inner loop's start (`j = i + 1`) into the
 * outer loop's increment, and the line table gives that code the inner
 * loop's line: the bottom test's way out runs code of its own line,
 * which no successor of the condition's gcno block lists (the outer
 * loop's test has its own line), so match_branch finds no block and
 * the inner loop's arcs stay unpinned: the flow is then free to send
 * the body's count round the outer loop (geom: the inner loop entered
 * 3160 times instead of 160, which -fprofile-use turned into a 5.6%
 * slower program). The way out may also run code of blocks beyond the
 * exit's first condition: the next loop's start hoisted into this loop's
 * exit (pairscan: the pointer for `j = i + 1` set up after the table
 * loop), or, where the enclosing loop's test `i < N` merged with this
 * loop's first test `i + 1 < N` (one branch at the end of the enclosing
 * loop's increment, on this loop's line), the code after the enclosing
 * loop. */
#include <stdlib.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* Does control from gcno block d reach block b by real arcs: is b the
 * header of a loop d is in? */
static int reaches(const struct gm *g, uint32_t d, uint32_t b)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint32_t *stack = malloc(nb * sizeof(*stack));
	uint8_t *seen = calloc(nb, 1);
	int hit = 0;
	if (stack && seen) {
		stack[n++] = d;
		seen[d] = 1;
	}
	while (n && !hit) {
		uint32_t v = stack[--n];
		for (uint32_t k = 0; k < g->nout[v] && !hit; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[v][k]];
			if (a->flags & LT_GCOV_ARC_FAKE)
				continue;
			hit = a->dst == b;
			if (!seen[a->dst]) {
				seen[a->dst] = 1;
				stack[n++] = a->dst;
			}
		}
	}
	free(stack);
	free(seen);
	return hit;
}

/* Marks in set[] the gcno blocks control reaches from block d by real
 * arcs without passing block b (d itself included, b never). Returns 0
 * on no memory. */
static int reach_avoiding(const struct gm *g, uint32_t d, uint32_t b,
                          uint8_t *set)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint32_t *stack = malloc(nb * sizeof(*stack));
	if (!stack)
		return 0;
	if (d != b) {
		stack[n++] = d;
		set[d] = 1;
	}
	while (n) {
		uint32_t v = stack[--n];
		for (uint32_t k = 0; k < g->nout[v]; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[v][k]];
			if ((a->flags & LT_GCOV_ARC_FAKE) || a->dst == b ||
			    set[a->dst])
				continue;
			set[a->dst] = 1;
			stack[n++] = a->dst;
		}
	}
	free(stack);
	return 1;
}

/* Is (file, line) code after the loop of latch block b: listed by a
 * block that control reaches from b's exit successor `out` without
 * passing b, and by no block of the loop (those the body reaches
 * without passing b)? A rotated loop's way out may start with code gcc
 * hoisted out of the next loop (`j = i + 1` of the loop after it, its
 * pointer set up in the preheader) or run straight into the next loop's
 * body, its test known: those blocks lie beyond an empty block or a
 * condition of their own, where gm_dest_has_any does not look. */
static int after_loop(const struct gm *g, uint32_t b, uint32_t body,
                      uint32_t out, uint32_t file, uint32_t line)
{
	uint32_t nb = g->f->n_blocks;
	uint8_t *loop = calloc(nb, 1), *past = calloc(nb, 1);
	int ok = loop && past && reach_avoiding(g, body, b, loop) &&
	         reach_avoiding(g, out, b, past);
	int in_past = 0;
	for (uint32_t d = 2; ok && d < nb; d++) {
		if (!gm_block_has_line(g, d, file, line))
			continue;
		if (loop[d] && !past[d])
			ok = 0;
		in_past |= past[d] && !loop[d];
	}
	free(loop);
	free(past);
	return ok && in_past;
}

long gm_only_cond_block(const struct gm *g, const struct minsn *in)
{
	long r = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    !gm_last_line_is(g, b, in->file, in->line))
			continue;
		if (r >= 0)
			return -1;
		r = b;
	}
	return r;
}

int gm_latch_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt);
	if (in->cls != LT_INSN_BRANCH || t < 0 || in->tgt > in->addr ||
	    i + 1 >= g->m || g->in[i + 1].addr != in->addr + in->len ||
	    gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b))
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	uint32_t tl[GM_MAX_RUN][2], fl[GM_MAX_RUN][2];
	int nt = gm_run_lines(g, t, NULL, tl);
	int nf = gm_run_lines(g, i + 1, NULL, fl);
	if (!nt || !nf || dx == dy)
		return 0;
	/* The backward way lands in one successor only: the body. */
	int inx = 0, iny = 0;
	for (int k = 0; k < nt; k++) {
		inx |= gm_dest_has_any(g, dx, &tl[k], 1);
		iny |= gm_dest_has_any(g, dy, &tl[k], 1);
	}
	if (inx == iny)
		return 0;
	uint32_t body = inx ? dx : dy, out = inx ? dy : dx;
	if (!reaches(g, body, b))
		return 0;
	/* The way out runs the exit's code or the loop's own line (which
	 * the body lists too: gcc gives a for loop's increment the loop's
	 * line), none of the body's other lines. */
	for (int k = 0; k < nf; k++) {
		int own = fl[k][0] == in->file && fl[k][1] == in->line;
		if (!own && (gm_dest_has_any(g, body, &fl[k], 1) ||
		             (!gm_dest_has_any(g, out, &fl[k], 1) &&
		              !after_loop(g, b, body, out, fl[k][0],
		                          fl[k][1]))))
			return 0;
	}
	*ta = inx ? x : y;
	*fa = inx ? y : x;
	return 1;
}

/* The insn before the straight code (plain instructions and calls,
 * falling on) that runs into insn t, or -1 when it starts at the
 * function's first insn; -2 when that code holds a copy of branch i's
 * test (the line of i). */
static long straight_from(const struct gm *g, uint32_t i, uint32_t t)
{
	const struct minsn *in = &g->in[i];
	long k = (long)t - 1;
	for (long n = 0; k >= 0 && n < 64; k--, n++) {
		const struct minsn *p = &g->in[k];
		if (p->cls == LT_INSN_BRANCH && p->file == in->file &&
		    p->line == in->line)
			return -2;
		if (!gm_is_call(p) && (p->cls != LT_INSN_OTHER ||
		                       !gm_falls_to_next(g, (uint32_t)k)))
			break;
	}
	return k;
}

uint64_t gm_folded_first_tests(const struct gm *g, uint32_t i, long ta)
{
	const struct minsn *in = &g->in[i];
	if (ta < 0 || in->tgt >= in->addr)
		return 0;
	uint32_t d = g->f->arcs[ta].dst;
	long t = gm_insn_at(g, in->tgt);
	if (t <= 0 || g->npred[d] != 1 || !g->f->blocks[d].n_lines ||
	    !gm_block_has_line(g, d, g->in[t].cfile, g->in[t].cline) ||
	    !gm_falls_to_next(g, (uint32_t)t - 1))
		return 0;
	/* The branch is the loop's test: its block is entered from before
	 * the loop too (an `if` in the body jumping back to the loop's
	 * increment is not). */
	if (g->npred[g->f->arcs[ta].src] < 2)
		return 0;
	/* A copy of the test before the loop (not folded) enters the body
	 * too, falling or jumping into the straight code (calls included:
	 * the loop's invariant calls hoisted out of it) that runs into it:
	 * its own match counts those entries. Copies of the bottom test
	 * (jump threading duplicates it) count them once, at the first. A
	 * copy right before the body, falling into it, counts its falls
	 * itself: then only the jumps in are entries without a test. */
	const struct minsn *q = &g->in[t - 1];
	int copy_falls = q->cls == LT_INSN_BRANCH && q->file == in->file &&
			 q->line == in->line;
	long k = copy_falls ? t - 1 : straight_from(g, i, (uint32_t)t);
	if (k < -1)
		return 0;
	/* A test of the body's own lines falls into it (the taken way
	 * lands past the body's first test, which jump threading resolved
	 * on that way only): that test's arcs count those runs, none
	 * entered the body. */
	const struct minsn *p0 = k >= 0 ? &g->in[k] : NULL;
	int body_test = p0 && p0->cls == LT_INSN_BRANCH && p0->cline &&
			gm_block_has_line(g, d, p0->cfile, p0->cline);
	uint64_t from = g->in[k + 1].addr;
	for (uint32_t j = 0; j < g->m; j++) {
		const struct minsn *p = &g->in[j];
		if (j != i && p->cls == LT_INSN_BRANCH && p->file == in->file &&
		    p->line == in->line && p->tgt >= from &&
		    (p->tgt < in->tgt || (p->tgt == in->tgt && j < i)))
			return 0;
	}
	uint64_t n = gc_insn_count(g->x->c, g->x->im, in->tgt);
	uint64_t inner = gm_inner_ins(g, (uint32_t)t);
	uint64_t falls = copy_falls || body_test || n <= inner ? 0 :
			 n - inner;
	/* Jumps into the body from code no copy of the test runs into
	 * (the entry's `j` over the bottom test, the first test folded)
	 * are entries without a test too. */
	for (uint32_t j = 0; j < g->m; j++) {
		const struct minsn *p = &g->in[j];
		if (p->cls == LT_INSN_JUMP && p->link == LT_LINK_NONE &&
		    p->tgt == in->tgt && straight_from(g, i, j) >= -1)
			falls += gc_insn_count(g->x->c, g->x->im, p->addr);
	}
	return falls;
}
