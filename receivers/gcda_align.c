/* Mapping a gcno function (gcda_mapper.h), step 1, alignment: when the
 * machine code keeps the GIMPLE block order (-O0, where no pass
 * reorders blocks), every gcno block 2..n-1 is a contiguous, possibly
 * empty, run of the function's instructions, in block order. One
 * exception: -O0's cfg cleanup merges a block entered only by a jump
 * from a block with no other way out into that block (merged_succ; that
 * order is tried too and kept when strictly cheaper). A dynamic programme over block index x candidate boundaries finds the
 * partition: boundaries are forced after every jump/branch and at every
 * jump target, allowed after calls and where the DWARF line changes; an
 * instruction whose line belongs to other gcno blocks only costs 4, and
 * a block whose shape contradicts its gcno arcs (two successors without
 * a branch at its end, a branch without two successors) costs 1000.
 * Optimized code whose line table gives discriminators (gcda_discr.h)
 * costs 1 per instruction whose discriminator names another block of
 * its line (a tie-breaker between blocks that list one line), and the
 * order with neighbouring arms swapped where the discriminators show
 * bb-reorder put the later arm first is tried too (kept when strictly
 * cheaper). */
#include <stdlib.h>
#include <string.h>

#include "gcda_discr.h"
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define MISMATCH_COST 4
#define CROSS_COST 50
#define VA_ARG_COST 20
/* A block of a test gcc deleted without its branch. */
#define GONE_COST 2
/* Code in a block whose statement left none (idle_block). */
#define IDLE_COST 4
/* Code in a block of a deleted test's region (GM_GONE_HUSH). */
#define HUSH_COST 50
/* Code whose discriminator names another block of its line
 * (gm_discr_elsewhere). */
#define DISCR_COST 1

/* Is b the target of a conditional branch? -O0 keeps no empty block
 * there (cfg cleanup forwards such edges), so b has code of its own;
 * e.g. `return a || b;`: the `1` block is not the empty join. */
static int cond_target(const struct gm *g, uint32_t b)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst == b && arc->src >= 2 &&
		    gm_n_real_out(g, arc->src) >= 2)
			return 1;
	}
	return 0;
}

/* Does block b, with one real out-arc, list only lines its successor
 * lists too? gcc ends a block at an internal call (va_arg at -O0 is
 * IFN_VA_ARG when the profiler runs, expanded inline later), so such a
 * block ends in no call instruction and no line change: its code cannot
 * be told from its successor's, and it may look empty. */
static int lines_within_succ(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	uint32_t d = UINT32_MAX;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->src == b && !(arc->flags & LT_GCOV_ARC_FAKE))
			d = arc->dst;
	}
	if (d == UINT32_MAX || d < 2 || !bl->n_lines)
		return 0;
	const struct lt_gcno_block *sb = &g->f->blocks[d];
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t j = 0;
		while (j < sb->n_lines &&
		       (sb->lines[j].line != bl->lines[k].line ||
		        sb->lines[j].file != bl->lines[k].file))
			j++;
		if (j == sb->n_lines)
			return 0;
	}
	return 1;
}

/* Is b a block that cannot be left (no real out-arc, a fake one to EXIT)
 * none of whose lines has an instruction: `default:
 * __builtin_unreachable();`, which gcc expands to no code at all (the
 * switch's out-of-range jumps land on whatever follows)? Unlike a
 * noreturn call's block, it is rightly empty. */
static int codeless_dead_end(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	if (!bl->n_lines || gm_n_real_out(g, b) || !gm_has_fake_out(g, b))
		return 0;
	for (uint32_t k = 0; k < bl->n_lines; k++)
		for (uint32_t i = 0; i < g->m; i++)
			if (!g->in[i].nop &&
			    g->in[i].line == bl->lines[k].line &&
			    g->in[i].file == g->x->filemap[bl->lines[k].file])
				return 0;
	return 1;
}

/* Does block b list a line that no other block lists and that has no
 * instruction (only a goto's nop at most)? Its statement there left no
 * code: the block of a `continue;` ending a loop body, which lists the
 * `if`'s line too (its edge's goto location) but holds no code of it.
 * Code of that `if`'s line is another block's (at -O0, where a test gcc
 * deleted leaves its operands' code without a branch in its own block,
 * which would otherwise cost GONE_COST against this block's nothing). */
static int idle_block(const struct gm *g, uint32_t b)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t file = g->x->filemap[bl->lines[k].file], only;
		if (file != LT_DWARF_NO_FILE &&
		    gm_line_blocks(g, file, bl->lines[k].line, &only) == 1 &&
		    !gm_line_has_code(g, file, bl->lines[k].line))
			return 1;
	}
	return 0;
}

/* Cost of block b covering instructions [s, e) beyond its mismatches;
 * idle: idle_block(g, b). */
static long shape_cost(const struct gm *g, uint32_t b, uint32_t s,
                       uint32_t e, int idle)
{
	uint32_t ns = gm_n_real_out(g, b);
	long c = 0;
	while (e > s && g->in[e - 1].nop)
		e--;
	while (s < e && g->in[s].nop)
		s++;
	/* Ties go to layouts without empty blocks (an empty one is only a
	 * goto at -O0): lines cannot place code among blocks of one line. */
	if (s == e && !g->npred[b])
		return 0; /* gcc's abnormal dispatcher: a block without code */
	if (s == e && ns == 1 && gm_has_fake_out(g, b) &&
	    lines_within_succ(g, b))
		return VA_ARG_COST;
	if (s == e && codeless_dead_end(g, b))
		return 0;
	/* A test gcc deleted (gcda_deadtest.c) has no branch: its block
	 * is empty, or ends in the code before the test. */
	int gone = g->gone && (g->gone[b] & GM_GONE_TEST);
	if (s == e && gone)
		return GONE_COST;
	if (s == e)
		return ns >= 2 || gm_has_fake_out(g, b) ? SHAPE_COST :
		       cond_target(g, b) ? 3 : g->npred[b] >= 2 ? 1 : 2;
	if (idle && g->gone)
		c += IDLE_COST;
	/* A goto's stub (a jump) is laid out after the tests were gone. */
	if (g->gone && (g->gone[b] & GM_GONE_HUSH) &&
	    (e > s + 1 || g->in[s].cls != LT_INSN_JUMP ||
	     gm_is_call(&g->in[s])))
		c += HUSH_COST;
	const struct minsn *l = &g->in[e - 1];
	if (e - 1 > s && gm_branch_then_jump(g, e - 2))
		l = &g->in[e - 2];
	if (l->cls == LT_INSN_BRANCH && ns < 2)
		c += SHAPE_COST;
	if (ns >= 2 && l->cls != LT_INSN_BRANCH &&
	    !(l->cls == LT_INSN_IJUMP && l->link == LT_LINK_NONE))
		c += gone ? GONE_COST : SHAPE_COST;
	/* The dispatch jump sits wherever gcc placed it (at -O0 inside the
	 * first label's code, branched around) and has that code's line,
	 * so only its shape places it: no other block may be its home. */
	int ijump = l->cls == LT_INSN_IJUMP && l->link == LT_LINK_NONE;
	if (gm_goto_dispatch(g, b))
		return ijump ? c : c + SHAPE_COST;
	if (gm_has_fake_out(g, b) && !gm_is_call(l))
		c += 1;
	return c;
}

/* AVOID_COST when block b covering [s, e) starts (nops aside) where a
 * previous routing found no arc into b (g->avoid), else 0. */
static long avoided(const struct gm *g, uint32_t b, uint32_t s, uint32_t e)
{
	if (!g->navoid)
		return 0;
	s = gm_skip_nops(g, s);
	if (s >= e)
		return 0;
	uint64_t key = (uint64_t)b << 32 | s;
	for (uint32_t k = 0; k < g->navoid; k++)
		if (g->avoid[k] == key)
			return AVOID_COST;
	return 0;
}

/* The block that gcc's -O0 RTL cleanup merges into block p, or 0: p's
 * only real arc leads to a block later than p + 1 that p is the only way
 * into (a loop whose latch is dead: `for (...) { ...; return x; }` keeps
 * the condition block, entered only from the init block through a jump),
 * so the machine code has that block right after p, out of gcno order. */
static uint32_t merged_succ(const struct gm *g, uint32_t p)
{
	if (p < 2 || gm_n_real_out(g, p) != 1)
		return 0;
	for (uint32_t k = 0; k < g->nout[p]; k++) {
		const struct lt_gcno_arc *a = &g->f->arcs[g->outa[p][k]];
		if (a->flags & LT_GCOV_ARC_FAKE)
			continue;
		uint32_t b = a->dst;
		return b >= 2 && b != p + 1 && g->npred[b] == 1 ? b : 0;
	}
	return 0;
}

/* Fills ord[0..K) with blocks 2..n-1 in gcno order, except that a block
 * merged_succ() names follows its predecessor (chains followed). Returns
 * whether that differs from gcno order. */
static int merged_order(const struct gm *g, uint32_t *ord, uint8_t *seen)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	int moved = 0;
	memset(seen, 0, nb);
	for (uint32_t b = 2; b < nb; b++)
		if (merged_succ(g, b)) {
			seen[merged_succ(g, b)] = 1;
			moved = 1;
		}
	if (!moved)
		return 0;
	for (uint32_t b = 2; b < nb; b++) {
		if (seen[b] == 1)
			continue;
		for (uint32_t c = b; c && seen[c] != 2 && n < nb - 2;
		     c = merged_succ(g, c)) {
			ord[n++] = c;
			seen[c] = 2;
		}
	}
	/* A cycle of merges (not a real layout): keep gcno order. */
	if (n != nb - 2)
		return 0;
	for (uint32_t k = 0; k < n; k++)
		if (ord[k] != k + 2)
			return 1;
	return 0;
}


/* The target of block b's last real (not fake) out-arc, or 0. */
static uint32_t real_succ(const struct gm *g, uint32_t b)
{
	uint32_t t = 0;
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[g->outa[b][k]];
		if (!(arc->flags & LT_GCOV_ARC_FAKE))
			t = arc->dst;
	}
	return t;
}

/* Does block d, or a block the way from d reaches through up to three
 * blocks of one real out-arc each, list (file, line), or list no line at
 * all (the return's block: nothing to tell by)? */
static int leads_to_line(const struct gm *g, uint32_t d, uint32_t file,
                         uint32_t line)
{
	for (int k = 0; k < 4 && d >= 2; k++) {
		if (!g->f->blocks[d].n_lines ||
		    gm_block_has_line(g, d, file, line))
			return 1;
		if (gm_n_real_out(g, d) != 1)
			return 0;
		d = real_succ(g, d);
	}
	return 0;
}

/* Is gcno block b a possible goto stub for the nop `a`, followed by a
 * jump to insn t (-1: unknown): one real out-arc, to a later block d than
 * b + 1 (else b would sit there anyway), b listing the nop's line (`if
 * (c) goto bad;`: the goto's) or no line at all (the empty join of an
 * if-else chain nested in another `if`: the nop has the outer `if`'s
 * line, the goto location of the join's edge), and the code the jump
 * lands on having a line of d or of the jump-only blocks d leads through
 * (a second `goto error;` whose block goes through the first's)? Without
 * that last check a block of code on the nop's line (an arm of a `?:` on
 * an `if`'s line, going to the `?:`'s join) passes for the stub. */
static int stub_block(const struct gm *g, uint32_t b, const struct minsn *a,
                      long t, uint32_t *d)
{
	int own = gm_block_has_line(g, b, a->file, a->line);
	if ((!own && g->f->blocks[b].n_lines) || gm_n_real_out(g, b) != 1)
		return 0;
	*d = real_succ(g, b);
	if (*d < 2 || *d <= b + 1)
		return 0;
	if (t < 0 || !g->in[t].line)
		return own;
	return leads_to_line(g, *d, g->in[t].cfile, g->in[t].cline);
}

/* Goto stubs: for an edge with a goto location, gcc -O0 emits a `nop`
 * (the goto's line) and a jump to the target in a block of its own,
 * placed just before the target's code, in the order of the branches
 * that lead to them (`if (c) goto bad;` several times: all the stubs sit
 * right before `bad:`). Their gcno blocks (one real out-arc to a later
 * block; stub_block) are then out of gcno order. Fills ord[0..n-2) with
 * that order: each stub's block moved just before its target's block.
 * Returns whether any block moved. */
static int stub_order(const struct gm *g, uint32_t *ord, uint8_t *seen)
{
	uint32_t nb = g->f->n_blocks, n = 0, nst = 0;
	uint32_t *st = calloc(nb, sizeof(*st)), *tg = calloc(nb, sizeof(*tg));
	if (!st || !tg) {
		free(st);
		free(tg);
		return 0;
	}
	memset(seen, 0, nb);
	for (uint32_t i = 0; i + 1 < g->m && nst < nb; i++) {
		const struct minsn *a = &g->in[i], *j = &g->in[i + 1];
		if (!a->nop || !a->line || j->cls != LT_INSN_JUMP ||
		    gm_is_call(j) || !i ||
		    !((g->in[i - 1].cls == LT_INSN_JUMP ||
		       g->in[i - 1].cls == LT_INSN_IJUMP) &&
		      !gm_is_call(&g->in[i - 1])))
			continue;
		long t = gm_insn_at(g, j->tgt);
		if (t >= 0)
			t = gm_skip_nops(g, (uint32_t)t);
		if (t >= (long)g->m)
			t = -1;
		/* Several such blocks going to one target are the stubs of
		 * several `if (c) break;` on one line: gcc 12 laid their
		 * stubs out in the order of their branches, which is gcno
		 * order (seen in the corpus's textwrap -O0; no other order
		 * was met), so this stub is taken to be the first one not
		 * yet taken. Blocks listing the nop's line go first; blocks
		 * without lines only when none does. */
		uint32_t hit = 0, nhit = 0, tgt = 0;
		int one_target = 1;
		for (int pass = 0; pass < 2 && !nhit; pass++)
			for (uint32_t b = 2; b < nb; b++) {
				uint32_t d;
				if (seen[b] || !stub_block(g, b, a, t, &d) ||
				    (g->f->blocks[b].n_lines == 0) != pass)
					continue;
				if (!nhit++) {
					hit = b;
					tgt = d;
				} else if (d != tgt) {
					one_target = 0;
				}
			}
		if (!nhit || !one_target)
			continue;
		seen[hit] = 1;
		st[nst] = hit;
		tg[nst++] = tgt;
	}
	for (uint32_t b = 2; b < nb; b++) {
		for (uint32_t k = 0; k < nst; k++)
			if (tg[k] == b)
				ord[n++] = st[k];
		if (!seen[b])
			ord[n++] = b;
	}
	free(st);
	free(tg);
	return nst > 0 && n == nb - 2;
}

#define ALIGN_INF (1L << 60)

/* The dynamic programme over blocks ord[0..n-2) (a permutation of
 * 2..n-1, laid out in that order) and candidate boundaries A[0..na)
 * (mand: forced; nextm: next forced one), pc[(b - 2) * (m + 1) + i]: the
 * mismatch cost of instructions [0, i) in block b; dp and from are
 * scratch. Returns the cheapest cost (ALIGN_INF: no partition); with
 * write, stores that partition in g->bstart/bend/blk. */
static long align_dp(struct gm *g, const uint32_t *ord, uint32_t na,
                     const uint32_t *A, const uint8_t *mand,
                     const uint32_t *nextm, const long *pc,
                     const uint8_t *idle, long *dp, uint32_t *from,
                     int write)
{
	uint32_t m = g->m, K = g->f->n_blocks - 2;
	for (size_t i = 0; i < (size_t)(K + 1) * na; i++)
		dp[i] = ALIGN_INF;
	dp[0] = 0;
	for (uint32_t k = 0; k < K; k++) {
		uint32_t b = ord[k];
		const long *p = &pc[(size_t)(b - 2) * (m + 1)];
		for (uint32_t j = 0; j < na; j++) {
			long d = dp[(size_t)k * na + j];
			if (d >= ALIGN_INF)
				continue;
			uint32_t lim = nextm[nextm[nextm[j]]];
			long cross = 0;
			for (uint32_t j2 = j; j2 <= lim && j2 < na; j2++) {
				if (j2 > j && mand[A[j2 - 1]] && j2 - 1 > j)
					cross += CROSS_COST;
				long c = d + p[A[j2]] - p[A[j]] + cross +
					 shape_cost(g, b, A[j], A[j2],
					            idle[b]) +
					 avoided(g, b, A[j], A[j2]);
				size_t at = (size_t)(k + 1) * na + j2;
				if (c < dp[at]) {
					dp[at] = c;
					from[at] = j;
				}
			}
		}
	}
	long total = dp[(size_t)K * na + na - 1];
	if (total >= ALIGN_INF || !write)
		return total >= ALIGN_INF ? ALIGN_INF : total;
	for (uint32_t k = K, j = na - 1; k > 0; k--) {
		uint32_t j0 = from[(size_t)k * na + j], b = ord[k - 1];
		g->bstart[b] = A[j0];
		g->bend[b] = A[j];
		for (uint32_t i = A[j0]; i < A[j]; i++)
			g->blk[i] = b;
		j = j0;
	}
	return total;
}

/* Are insns i and i + 1 both in the comparison tree of one switch? At
 * -O0 gcc expands a sparse switch (its gcno block has three or more real
 * out-arcs, one per case and the default) into compare-and-branch chains
 * and trees, every instruction on the switch's line, ending in the case
 * targets; all of it is that one block, whose arcs its branches'
 * transfers out of the tree take (the ones inside the tree stay in the
 * block). So such a branch or jump ends no block, and a target inside
 * the tree starts none. */
static int in_switch_tree(const struct gm *g, uint32_t i)
{
	if (i + 1 >= g->m)
		return 0;
	const struct minsn *a = &g->in[i], *b = &g->in[i + 1];
	if (!gm_falls_to_next(g, i) || !a->line || a->line != b->line ||
	    a->file != b->file)
		return 0;
	/* A plain jump after straight-line code ends a case body on the
	 * switch's line (`case 1: return 1;` after a bit-test dispatch):
	 * the tree's own jumps follow its compare-and-branch (or another
	 * jump), never a computation. */
	if (a->cls == LT_INSN_JUMP && i > 0 && gm_falls_to_next(g, i - 1) &&
	    g->in[i - 1].cls != LT_INSN_BRANCH &&
	    g->in[i - 1].cls != LT_INSN_JUMP)
		return 0;
	/* A branch falling into straight-line code that ends in a plain
	 * jump falls into a case body (the last test of a bit-test
	 * dispatch falls into its case): the tree ends at the branch. */
	if (a->cls == LT_INSN_BRANCH) {
		uint32_t k = i + 1;
		while (k + 1 < g->m && g->in[k].cls == LT_INSN_OTHER &&
		       gm_falls_to_next(g, k) &&
		       g->in[k + 1].line == a->line &&
		       g->in[k + 1].file == a->file)
			k++;
		if (k > i + 1 && g->in[k].cls == LT_INSN_JUMP &&
		    !gm_is_call(&g->in[k]) && g->in[k].line == a->line)
			return 0;
	}
	/* The switch's line may also be listed by other blocks (a
	 * `continue` in a case lists it: the loop's latch is reached
	 * through it); exactly one of them must be a multi-way block
	 * whose switch is on it (its last line: a switch ends its block;
	 * the join of `x = a && b ? c : d;` before `switch (x)` lists
	 * that line too, whose tests are no comparison tree). */
	uint32_t nswitch = 0, sw = 0;
	for (uint32_t k = 2; k < g->f->n_blocks; k++)
		if (gm_last_line_is(g, k, a->file, a->line) &&
		    gm_n_real_out(g, k) >= 3) {
			nswitch++;
			sw = k;
		}
	if (nswitch != 1)
		return 0;
	/* The controlling expression may branch itself (`switch
	 * (fpclassify(d))`, `switch (a ? b : c)`): its two-way blocks list
	 * the switch's line and come before the switch's block, their
	 * branches (one each, gcno order) before the tree's. The tree's
	 * branches and jumps come after the last of them. */
	uint32_t before = 0, seen = 0;
	for (uint32_t k = 2; k < sw; k++)
		if (gm_block_has_line(g, k, a->file, a->line) &&
		    gm_n_real_out(g, k) == 2)
			before++;
	for (uint32_t k = 0; before && k <= i; k++)
		if (g->in[k].cls == LT_INSN_BRANCH &&
		    g->in[k].line == a->line && g->in[k].file == a->file)
			seen++;
	return !before || seen > before;
}

/* Is insn i a conditional branch over one instruction of its own line
 * (`bge a5,a4,1f; mv a5,a4; 1:`)? That is how -O0 expands the MIN_EXPR
 * and MAX_EXPR GIMPLE folds `a > b ? a : b` into on targets without a
 * min/max instruction: both ways stay inside one gcno block (transfers
 * forward inside a block are not routed), so neither the branch nor its
 * target forces a boundary. A real `if (c) x = y;` whose body is one
 * instruction keeps its boundaries: a condition block must end in its
 * branch (shape_cost), so the alignment splits there anyway. Only in
 * -O0 units: optimized code branches over one move for real conditions
 * (`x = c ? a : b` without a conditional-move instruction). */
static int skip_branch(const struct gm *g, uint32_t i)
{
	const struct minsn *b = &g->in[i];
	if (g->x->optimized || b->cls != LT_INSN_BRANCH || !b->line ||
	    i + 2 >= g->m || !gm_falls_to_next(g, i) ||
	    !gm_falls_to_next(g, i + 1))
		return 0;
	const struct minsn *x = &g->in[i + 1], *t = &g->in[i + 2];
	return b->tgt == t->addr && x->cls == LT_INSN_OTHER && !x->nop &&
	       x->line == b->line && x->file == b->file &&
	       t->line == b->line && t->file == b->file;
}

/* Does every conditional branch lie in a block (of the alignment) that
 * lists the branch's line, unless no gcno block lists that line? A
 * condition's branch carries the condition's line; when the cheapest
 * partition in gcno order puts it in another block anyway (optimized
 * code laid out in another order: a rotated loop's exit test `while
 * (i < n)` below the body's `if`, each branch landing in the other's
 * block), the transfers may still route and balance, but on the wrong
 * arcs. */
int gm_branches_agree(const struct gm *g)
{
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only;
		if (in->cls != LT_INSN_BRANCH || !in->line ||
		    !gm_line_blocks(g, in->file, in->line, &only))
			continue;
		if (!gm_block_has_line(g, g->blk[i], in->file, in->line))
			return 0;
	}
	return 1;
}

/* Does insn i end a way of the code (a jump or return: what follows is
 * reached only from elsewhere)? */
static int ends_way(const struct minsn *i)
{
	return (i->cls == LT_INSN_JUMP || i->cls == LT_INSN_IJUMP ||
	        i->cls == LT_INSN_TRET) && !gm_is_call(i);
}

/* Does every block (of the alignment) that lists lines hold code of a
 * line of its own in each run of its code (up to a jump or return) that
 * has lines? gcc's block reordering lays the arms of a condition out in
 * another order than the gcno's (the likely arm falls through, whatever
 * the source order); two arms of the same shape (each a tail call, each
 * a jump to the join) then take each other's place in a partition in
 * gcno order, every transfer routed and balanced on the swapped arcs,
 * each arm's code all of the other's lines. Runs are checked one by
 * one: gcc may lay another block's whole way (down to its return) out
 * before the block's own code, which the partition then gives the
 * block. Code of a line no block lists (the closing brace's return)
 * counts against the block too: gcc may have put a join's code there
 * while the join's block got none. Only in optimized units: -O0 runs no
 * reordering (and there the jump of a `break`, on the break's line, may
 * fall into an empty block). */
int gm_blocks_agree(const struct gm *g)
{
	if (!g->x->optimized)
		return 1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		int foreign = 0, own = 0;
		if (!g->f->blocks[b].n_lines)
			continue; /* nothing to tell its code by */
		for (uint32_t i = g->bstart[b]; i < g->bend[b]; i++) {
			const struct minsn *in = &g->in[i];
			if (i > g->bstart[b] && ends_way(&g->in[i - 1])) {
				if (foreign && !own)
					return 0;
				foreign = own = 0;
			}
			if (!in->line || in->nop)
				continue;
			if (gm_block_has_line(g, b, in->file, in->line))
				own = 1;
			else
				foreign = 1;
		}
		if (foreign && !own)
			return 0;
	}
	return 1;
}

/* Makes insn k (or g->m) a forced boundary, unless it is a goto stub's
 * jump (gm_stub_jump): transfers that land there are routed past it, so
 * it may end the block before it (a loop's exit jump, then a `break`'s
 * stub that jumps where the exit jump goes) as well as start one. */
static void mark_start(const struct gm *g, uint8_t *mand, uint8_t *allow,
                       uint32_t k)
{
	if (k < g->m && gm_stub_jump(g, k))
		allow[k] = 1;
	else
		mand[k] = 1;
}

/* Step 1: partitions the instructions into gcno blocks 2..n-1 in order.
 * Returns the total cost (mismatches and shape), or -1 on no memory. */
long gm_align(struct gm *g)
{
	uint32_t m = g->m, nb = g->f->n_blocks, K = nb - 2;
	uint8_t *mand = calloc(m + 1, 1), *allow = calloc(m + 1, 1);
	uint32_t *A = malloc((m + 1) * sizeof(*A));
	if (!mand || !allow || !A) {
		free(mand);
		free(allow);
		free(A);
		return -1;
	}
	mand[0] = mand[m] = 1;
	for (uint32_t i = 0; i < m; i++) {
		const struct minsn *in = &g->in[i];
		int tree = (in->cls == LT_INSN_BRANCH ||
		            in->cls == LT_INSN_JUMP) &&
		           !gm_is_call(in) && in_switch_tree(g, i);
		int skip = !tree && skip_branch(g, i);
		if (tree)
			; /* the switch's block goes on */
		else if (skip)
			allow[i + 1] = allow[i + 2] = 1;
		else if (gm_ends_block(in) && !gm_branch_then_jump(g, i))
			mark_start(g, mand, allow, gm_skip_nops(g, i + 1));
		else if (gm_ends_block(in))
			allow[i + 1] = 1;
		if (gm_is_call(in))
			allow[i + 1] = 1;
		if (i && (in->line != g->in[i - 1].line ||
		          in->file != g->in[i - 1].file))
			allow[i] = 1;
		if (in->tgt && !gm_is_call(in) && !skip) {
			long t = gm_insn_at(g, in->tgt);
			/* Inside the tree only when the code before it ends
			 * in a branch or jump: code falling into t makes t a
			 * join (the end of a case body on the same line). */
			if (t > 0 && in_switch_tree(g, (uint32_t)t - 1) &&
			    (g->in[t - 1].cls == LT_INSN_BRANCH ||
			     g->in[t - 1].cls == LT_INSN_JUMP))
				t = -1;
			if (t >= 0)
				mark_start(g, mand, allow,
				           gm_skip_nops(g, (uint32_t)t));
		}
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE) {
			size_t n;
			const struct gc_xfer *xs =
				gc_xfers_from(g->x->c, g->x->im, in->addr, &n);
			for (size_t k = 0; k < n; k++) {
				long t = gm_insn_at(g, xs[k].to);
				if (t >= 0)
					mand[gm_skip_nops(g, (uint32_t)t)] = 1;
			}
		}
	}
	uint32_t na = 0;
	for (uint32_t i = 0; i <= m; i++)
		if (mand[i] || allow[i])
			A[na++] = i;
	/* nextm[j]: index in A of the first mandatory boundary after A[j]. */
	uint32_t *nextm = malloc(na * sizeof(*nextm));
	long *pc = malloc((size_t)K * (m + 1) * sizeof(*pc));
	long *dp = malloc((size_t)(K + 1) * na * sizeof(*dp));
	uint32_t *from = malloc((size_t)(K + 1) * na * sizeof(*from));
	uint32_t *ord = malloc((size_t)(K + 1) * 2 * sizeof(*ord));
	uint32_t *sord = malloc((size_t)(K + 1) * sizeof(*sord));
	uint32_t *dord = malloc((size_t)(K + 1) * sizeof(*dord));
	/* Optimized code only: at -O0 the blocks keep their order and
	 * their lines place them. */
	uint32_t *bd = g->x->optimized ? gm_block_discriminators(g) : NULL;
	uint8_t *seen = malloc(nb), *idle = calloc(nb, 1);
	long total = -1;
	if (!nextm || !pc || !dp || !from || !ord || !seen || !sord || !idle ||
	    !dord)
		goto out;
	for (uint32_t b = 2; g->gone && b < nb; b++)
		idle[b] = (uint8_t)idle_block(g, b);
	for (long j = (long)na - 1, nm = (long)na - 1; j >= 0; j--) {
		nextm[j] = (uint32_t)nm;
		if (mand[A[j]])
			nm = j;
	}
	for (uint32_t k = 0; k < K; k++) {
		long *p = &pc[(size_t)k * (m + 1)];
		p[0] = 0;
		for (uint32_t i = 0; i < m; i++) {
			const struct minsn *in = &g->in[i];
			long c = 0;
			if (in->line && !in->nop &&
			    !gm_block_has_line(g, k + 2, in->file, in->line)) {
				uint32_t only;
				if (gm_line_blocks(g, in->file, in->line,
				                   &only))
					c = MISMATCH_COST;
			}
			if (bd && gm_discr_elsewhere(g, bd, k + 2, in))
				c += DISCR_COST;
			p[i + 1] = p[i] + c;
		}
	}
	/* gcno order unless a merged order is strictly cheaper. */
	uint32_t *ident = ord + K + 1;
	for (uint32_t k = 0; k < K; k++)
		ident[k] = k + 2;
	const uint32_t *use = ident;
	long best = align_dp(g, ident, na, A, mand, nextm, pc, idle, dp, from,
	                     0);
	if (merged_order(g, ord, seen)) {
		long c = align_dp(g, ord, na, A, mand, nextm, pc, idle, dp,
		                  from, 0);
		if (c < best) {
			best = c;
			use = ord;
		}
	}
	/* ord's second half holds ident; the stub order goes into a third
	 * buffer. */
	if (stub_order(g, sord, seen)) {
		long c = align_dp(g, sord, na, A, mand, nextm, pc, idle, dp,
		                  from, 0);
		if (c < best) {
			best = c;
			use = sord;
		}
	}
	if (bd && gm_discr_order(g, bd, dord)) {
		long c = align_dp(g, dord, na, A, mand, nextm, pc, idle, dp,
		                  from, 0);
		if (c < best) {
			best = c;
			use = dord;
		}
	}
	total = align_dp(g, use, na, A, mand, nextm, pc, idle, dp, from, 1);
	if (total >= ALIGN_INF)
		goto out;
	/* Routing sees each block without its nops; a nop belongs to the
	 * block of the code it falls into. */
	for (uint32_t b = 2; b < nb; b++) {
		uint32_t s = g->bstart[b], e = g->bend[b];
		while (s < e && g->in[s].nop)
			s++;
		while (e > s && g->in[e - 1].nop)
			e--;
		g->bstart[b] = s;
		g->bend[b] = e;
	}
	for (uint32_t i = m; i-- > 0;)
		if (g->in[i].nop && i + 1 < m)
			g->blk[i] = g->blk[i + 1];
out:
	free(mand);
	free(allow);
	free(A);
	free(nextm);
	free(pc);
	free(dp);
	free(from);
	free(ord);
	free(sord);
	free(dord);
	free(bd);
	free(seen);
	free(idle);
	return total;
}
