/* Condition blocks a threaded way passes without their branch
 * (gcda_mapper.h: gm_passed_by). Jump threading copies the paths through
 * a test whose outcome a way already knows (`if (!(a && b == (c ? g :
 * 255u)))` knowing, on its way into the `if` body, the body's first test
 * `g_arr[x3 & 15u] > x3`: the same load and comparison): that way jumps
 * to the code of the test's successor, and the test's block runs there
 * with no branch to count it. The instrumented run (its CFG from before
 * threading) counts those runs on the block's arcs; the branches left
 * count only theirs. A way may skip more than one test: a switch's
 * `default:` whose whole condition, and the test after the switch's
 * join, a value range known on the switch's first test resolves (`x2 <=
 * 4u` making the switch value 255 and `(b >> 5) & 1u` zero): that way
 * jumps from the switch's test to the `if`'s arm after the join
 * (far_passed). */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/insn.h"

/* The first conditional branch the straight code from insn t runs
 * (plain jumps followed), or -1. */
static long first_branch(const struct gm *g, long t)
{
	for (int n = 0; t >= 0 && t < (long)g->m && n < 2 * GM_MAX_RUN; n++) {
		const struct minsn *p = &g->in[t];
		if (p->cls == LT_INSN_BRANCH)
			return t;
		if (p->cls == LT_INSN_JUMP && p->link == LT_LINK_NONE) {
			t = gm_insn_at(g, p->tgt);
			continue;
		}
		if (p->cls != LT_INSN_OTHER || gm_is_call(p) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return -1;
		t++;
	}
	return -1;
}

/* The condition block of the copy whose branch is insn j, or -1. */
static long copy_block(const struct gm *g, const struct gm_copy *cp,
                       uint32_t ncp, long j)
{
	for (uint32_t k = 0; j >= 0 && k < ncp; k++)
		if (cp[k].insn == (uint32_t)j)
			return g->f->arcs[cp[k].ta].src;
	return -1;
}

/* Is gcno block s a successor of block d? */
static int succ_of(const struct gm *g, uint32_t d, uint32_t s)
{
	for (uint32_t k = 0; k < g->nout[d]; k++)
		if (g->f->arcs[g->outa[d][k]].dst == s)
			return 1;
	return 0;
}

/* Does gcno block s reach block d (over real arcs)? Then d is the test
 * of a loop whose body s is: a way into the loop lands in its body, the
 * first test folded, and gm_folded_first_tests counts those entries.
 * -1 out of memory. */
static int reaches(const struct gm *g, uint32_t s, uint32_t d)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint32_t *stk = malloc(nb * sizeof(*stk));
	uint8_t *seen = calloc(nb, 1);
	int hit = stk && seen ? 0 : -1;
	if (hit == 0) {
		stk[n++] = s;
		seen[s] = 1;
	}
	while (hit == 0 && n) {
		uint32_t b = stk[--n];
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[b][k]];
			if (a->flags & LT_GCOV_ARC_FAKE || seen[a->dst])
				continue;
			hit = a->dst == d;
			seen[a->dst] = 1;
			stk[n++] = a->dst;
		}
	}
	free(stk);
	free(seen);
	return hit;
}

/* Marks in out[] the blocks reachable from those already marked over
 * real arcs, not going on from blocks with matched branches (nmb) other
 * than s and those loop marks (the tests of loops s lies in, whose first
 * test a way into the body may fold): the ways a run may take without
 * a branch. stk holds n_blocks. */
static void spread(const struct gm *g, const uint32_t *nmb,
                   const uint8_t *loop, uint8_t *out, uint32_t *stk)
{
	uint32_t n = 0;
	for (uint32_t b = 0; b < g->f->n_blocks; b++)
		if (out[b])
			stk[n++] = b;
	while (n) {
		uint32_t b = stk[--n];
		if (nmb && nmb[b] && !loop[b])
			continue;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[b][k]];
			if (a->flags & LT_GCOV_ARC_FAKE || out[a->dst])
				continue;
			out[a->dst] = 1;
			stk[n++] = a->dst;
		}
	}
}

/* Working sets of far_passed. */
struct passed {
	uint8_t *from;  /* per block: a way may start there (then spread) */
	uint8_t *fs;    /* per block: s reaches it */
	uint8_t *ts;    /* per block: it reaches s */
	uint32_t *stk;  /* spread's stack, n_blocks */
	uint32_t *ioff; /* per block b: its real in-arcs are */
	uint32_t *ia;   /* ia[ioff[b] .. ioff[b + 1]) */
};

/* Marks p->ts: the blocks that reach s over real arcs. */
static void reaching(const struct gm *g, uint32_t s, struct passed *p)
{
	uint32_t n = 0;
	memset(p->ts, 0, g->f->n_blocks);
	p->ts[s] = 1;
	p->stk[n++] = s;
	while (n) {
		uint32_t b = p->stk[--n];
		for (uint32_t k = p->ioff[b]; k < p->ioff[b + 1]; k++) {
			uint32_t src = g->f->arcs[p->ia[k]].src;
			if (!p->ts[src]) {
				p->ts[src] = 1;
				p->stk[n++] = src;
			}
		}
	}
}

/* Fills p->ioff and p->ia; 0 out of memory. */
static int in_arcs(const struct gm *g, struct passed *p)
{
	uint32_t nb = g->f->n_blocks, na = g->f->n_arcs;
	p->ioff = calloc((size_t)nb + 1, sizeof(uint32_t));
	p->ia = malloc(((size_t)na + 1) * sizeof(uint32_t));
	if (!p->ioff || !p->ia)
		return 0;
	for (uint32_t a = 0; a < na; a++)
		if (!(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) &&
		    g->f->arcs[a].dst < nb)
			p->ioff[g->f->arcs[a].dst + 1]++;
	for (uint32_t b = 0; b < nb; b++)
		p->ioff[b + 1] += p->ioff[b];
	for (uint32_t a = 0; a < na; a++) {
		uint32_t d = g->f->arcs[a].dst;
		if (!(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) && d < nb)
			p->ia[p->ioff[d]++] = a;
	}
	for (uint32_t b = nb; b > 0; b--)
		p->ioff[b] = p->ioff[b - 1];
	p->ioff[0] = 0;
	return 1;
}

/* A way from the blocks marked in p->from (a matched branch's
 * destination; an unmatched one's possible successors) whose first
 * branch is a copy's of block s: when every gcno path from there to s
 * runs a block with matched branches of its own (the way jumped past
 * a test threading resolved, and maybe the join after it, to the test
 * after both), each such block on a path to s ran without its
 * branches: their pins are lower bounds. The tests of loops s lies in
 * are no such block (a way into a loop's body folds its first test,
 * which gm_folded_first_tests counts), and a way starting in such a
 * loop is none of this. */
static void far_passed(const struct gm *g, const uint32_t *nmb, uint32_t s,
                       struct passed *p, uint8_t *bad)
{
	uint32_t nb = g->f->n_blocks;
	reaching(g, s, p);
	memset(p->fs, 0, nb);
	p->fs[s] = 1;
	spread(g, NULL, NULL, p->fs, p->stk);
	for (uint32_t b = 0; b < nb; b++)
		if (p->from[b] && p->fs[b])
			return;
	spread(g, nmb, p->fs, p->from, p->stk);
	if (p->from[s])
		return; /* a way to s without a test */
	for (uint32_t x = 2; x < nb; x++) {
		if (!p->from[x] || !nmb[x] || x == s || p->fs[x] ||
		    !p->ts[x])
			continue;
		for (uint32_t o = 0; o < g->nout[x]; o++)
			bad[g->outa[x][o]] |= 1;
	}
}

/* Is insn in code inlined into the function (its line may be any
 * copy's of the callee)? */
static int inlined(const struct gm *g, const struct minsn *in)
{
	const struct lt_dwarf *dw = g->x->dw;
	long q = dw ? lt_dwarf_inline_find(dw, in->addr) : -1;
	return q >= 0 && dw->func[q].depth > 0;
}

/* Is gcno block b a condition block listing the line of insn i? */
static int line_cond(const struct gm *g, uint32_t b, const struct minsn *in)
{
	return gm_n_real_out(g, b) == 2 &&
	       gm_block_has_line(g, b, in->file, in->line);
}

/* far_passed for the ways of the executed branches cp matched (from
 * the arc's destination) and of those un lists, which matched nothing
 * (from the successors of every two-way condition block of the branch's
 * line that reaches the way's block; none when that block is one of
 * them, or when the branch is inlined code, whose line any copy of the
 * callee lists). */
static void far_ways(const struct gm *g, const struct gm_copy *cp,
                     uint32_t ncp, const uint32_t *un, uint32_t nun,
                     const uint32_t *nmb, uint8_t *bad)
{
	uint32_t nb = g->f->n_blocks;
	struct passed p = {calloc(nb, 1), calloc(nb, 1), calloc(nb, 1),
	                   malloc(nb * sizeof(uint32_t)), NULL, NULL};
	int ok = p.from && p.fs && p.ts && p.stk && in_arcs(g, &p);
	for (uint32_t k = 0; ok && k < ncp + nun; k++) {
		uint32_t i = k < ncp ? cp[k].insn : un[k - ncp];
		const struct minsn *in = &g->in[i];
		if (k >= ncp && inlined(g, in))
			continue;
		long way[2] = {gm_insn_at(g, in->tgt),
		               gm_falls_to_next(g, i) ? (long)i + 1 : -1};
		for (int w = 0; w < 2; w++) {
			long s = copy_block(g, cp, ncp,
			                    first_branch(g, way[w]));
			if (s < 2)
				continue;
			memset(p.from, 0, nb);
			int own = 0;
			if (k < ncp) {
				p.from[g->f->arcs[w ? cp[k].fa :
				                  cp[k].ta].dst] = 1;
			} else {
				reaching(g, (uint32_t)s, &p);
				for (uint32_t c = 2; c < nb && !own; c++) {
					if (!line_cond(g, c, in) || !p.ts[c])
						continue;
					own = c == (uint32_t)s;
					for (uint32_t o = 0; o < g->nout[c];
					     o++)
						p.from[g->f->arcs[
							g->outa[c][o]].dst] = 1;
				}
			}
			if (!own)
				far_passed(g, nmb, (uint32_t)s, &p, bad);
		}
	}
	free(p.from);
	free(p.fs);
	free(p.ts);
	free(p.stk);
	free(p.ioff);
	free(p.ia);
}

void gm_passed_by(const struct gm *g, const struct gm_copy *cp,
                  uint32_t ncp, const uint32_t *un, uint32_t nun,
                  const uint32_t *nmb, uint8_t *bad)
{
	far_ways(g, cp, ncp, un, nun, nmb, bad);
	for (uint32_t k = 0; k < ncp; k++) {
		const struct minsn *in = &g->in[cp[k].insn];
		long way[2] = {gm_insn_at(g, in->tgt),
		               gm_falls_to_next(g, cp[k].insn) ?
		               (long)cp[k].insn + 1 : -1};
		uint32_t arc[2] = {cp[k].ta, cp[k].fa};
		for (int w = 0; w < 2; w++) {
			uint32_t d = g->f->arcs[arc[w]].dst;
			if (d < 2 || !nmb[d] || gm_n_real_out(g, d) != 2)
				continue;
			long s = copy_block(g, cp, ncp,
			                    first_branch(g, way[w]));
			if (s < 0 || s == (long)d ||
			    !succ_of(g, d, (uint32_t)s) ||
			    reaches(g, (uint32_t)s, d))
				continue;
			for (uint32_t o = 0; o < g->nout[d]; o++)
				bad[g->outa[d][o]] |= 1;
		}
	}
}
