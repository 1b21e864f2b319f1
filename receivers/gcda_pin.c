/* Mapping a gcno function (gcda_mapper.h), step 2b, branch pins
 * (functions that are not exact): each machine conditional branch whose
 * line and successors' lines identify one gcno condition block gives its
 * two arcs lower bounds (gm_pin_branches); the flow must meet them (a
 * deviation costs HARD_COST per unit) and may exceed them for free where
 * a block estimate asks for more. Jump tables pin the arcs of a switch's
 * block the same way, and calls that did not return (longjmp, exit) the
 * fake arc to EXIT of their block. Where the pinned ways land and which
 * of them control also reaches otherwise: gcda_ways.c. */
#include <stdlib.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_discr.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_waydest.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Is (file, line) the line of gcno block b's condition: the last line b
 * lists? gcc lists each line of a block once, in the order its
 * statements first use it, and the condition is the block's last
 * statement. A block may also list lines of code that only passes
 * through it (the label and statements of the case or computed-goto
 * target before a condition that gcc gave another line), and a branch on
 * such a line is that code's own test, not a copy of b's: every NEXT of
 * a threaded interpreter tests `++steps > limit` alike. A loose match
 * (match_branch) needs the branch on this line; a strict one off it
 * still bounds the arcs but does not determine them (a condition whose
 * line came earlier in the block is then left unclaimed). */
static int cond_line(const struct gm *g, uint32_t b, uint32_t file,
                     uint32_t line)
{
	return gm_last_line_is(g, b, file, line);
}

/* Copies the n (file, line) pairs of fl[] but (file, line) to out[];
 * returns how many it copied. */
static int drop_line(uint32_t fl[][2], int n, uint32_t out[][2],
                     uint32_t file, uint32_t line)
{
	int m = 0;
	for (int k = 0; k < n; k++)
		if (fl[k][0] != file || fl[k][1] != line) {
			out[m][0] = fl[k][0];
			out[m][1] = fl[k][1];
			m++;
		}
	return m;
}

/* Is the condition whose ways lead to gcno blocks dx and dy a triangle:
 * one way's block leads on to the other's (`c ? v + 1 : 8`, the constant
 * a PHI argument on the direct arc, no block of its own)? Out of SSA
 * that arc's value is computed on its way, with the statement's line,
 * which on one line (a helper `return x == 4 ? x + x : x % m;`) is the
 * condition's line, the arm block's line as well: a way's run holding
 * the condition's own line then tells neither way, in the loose match. */
static int one_arm_block(const struct gm *g, uint32_t dx, uint32_t dy)
{
	return (dx >= 2 && gm_only_succ(g, dx) == (long)dy) ||
	       (dy >= 2 && gm_only_succ(g, dy) == (long)dx);
}

/* Matches the branch at insn i to a gcno condition block: strictly (the
 * first line each successor runs starts its gcno destination) or, when
 * nothing matches strictly, loosely (some line of each successor's first
 * straight-line run is in its destination or the chain after it; a line
 * other than the branch's own where one way's block leads to the other
 * way's, one_arm_block).
 * Returns the number of matches (2 for one block matching both ways);
 * on exactly one, *ta / *fa are the taken / not-taken arcs; when the
 * only candidate block matched both ways (a ?: whose arms share its
 * line), *both is that block, else -1. A branch with a way of only edge
 * copies (gm_edge_copies) matches nothing: its lines cannot tell its
 * arms apart; nor does one whose ways both start with one move of
 * another line (gm_shared_moves). */
static int match_branch(const struct gm *g, uint32_t i, long *ta, long *fa,
                        long *both, long *cands, long skip)
{
	const struct minsn *in = &g->in[i];
	uint32_t ft = 0, ff = 0, flt[GM_MAX_RUN][2], flf[GM_MAX_RUN][2];
	long t = gm_reentry(g, in->tgt, in->file, in->line);
	uint32_t lt = t >= 0 ? gm_line_at(g, t, &ft) : 0;
	/* The next instruction decoded may lie past a gap in the spans
	 * of an inlined copy: then the fallthrough leaves it, unless
	 * straight code of the caller leads back into it (gm_resume). */
	long nx = i + 1 < g->m && g->in[i + 1].addr == in->addr + in->len ?
		  (long)i + 1 : gm_resume(g, in->addr + in->len,
		                          gm_copy_of(g, i));
	uint32_t lf = gm_line_at(g, nx, &ff);
	int nt = t >= 0 ? gm_run_lines(g, t, in, flt) : 0;
	int nf = gm_run_lines(g, nx, in, flf);
	/* The same runs without the branch's own line (one_arm_block). */
	uint32_t olt[GM_MAX_RUN][2], olf[GM_MAX_RUN][2];
	int ot = drop_line(flt, nt, olt, in->file, in->line);
	int of = drop_line(flf, nf, olf, in->file, in->line);
	int xt = gm_way_leaves(g, t), xf = gm_way_leaves(g, nx);
	*both = -1;
	if (gm_edge_copies(g, i) || gm_shared_moves(g, i))
		return 0;
	/* A copy of a call inlined early beside others on its line tests
	 * its own block only. */
	long sib = gm_sibling_block(g, i);
	/* A way's first code another block's by its discriminator. */
	uint32_t *bd = gm_block_discriminators(g);
	long wt = bd ? gm_discr_owner(g, bd, t) : -1;
	long wf = bd ? gm_discr_owner(g, bd, nx) : -1;
	free(bd);
	/* Copies each holding several conditions of the line: only the
	 * branch's copy's blocks. */
	uint32_t glo = 0, ghi = 0;
	int grp = sib < 0 && gm_sibling_group(g, i, &glo, &ghi);
	/* A test of what a call returned: only the blocks its call's
	 * block falls into, when one of the line's is. */
	long call = gm_call_result(g, i);
	int after = 0;
	for (uint32_t b = 2; call >= 0 && !after && b < g->f->n_blocks; b++)
		after = gm_n_real_out(g, b) == 2 &&
			gm_last_line_is(g, b, in->file, in->line) &&
			gm_after_call(g, b, (uint32_t)call);
	for (int loose = 0; loose < 2; loose++) {
		int nmatch = 0, ncand = 0, nsingle = 0;
		struct gm_condpick cp = {0, -1, -1};
		if (cands)
			cands[0] = cands[1] = -1;
		for (uint32_t b = 2; b < g->f->n_blocks; b++) {
			if ((long)b == skip ||
			    gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
			    !gm_block_has_line(g, b, in->file, in->line) ||
			    (sib >= 0 && b != (uint32_t)sib) ||
			    (grp && (b < glo || b > ghi) &&
			     gm_last_line_is(g, b, in->file, in->line)) ||
			    (after && !gm_after_call(g, b, (uint32_t)call)))
				continue;
			if (loose && !cond_line(g, b, in->file, in->line))
				continue;
			uint32_t x = g->outa[b][0], y = g->outa[b][1];
			uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
			if (dx == dy)
				continue;
			int fw, bw;
			if (!loose) {
				fw = gm_dest_owned(g, b, dx, ft, lt, xt, in, wt) &&
				     gm_dest_owned(g, b, dy, ff, lf, xf, in, wf);
				bw = gm_dest_owned(g, b, dy, ft, lt, xt, in, wt) &&
				     gm_dest_owned(g, b, dx, ff, lf, xf, in, wf);
			} else if (one_arm_block(g, dx, dy)) {
				fw = gm_dest_has_any(g, dx, olt, ot) &&
				     gm_dest_has_any(g, dy, olf, of);
				bw = gm_dest_has_any(g, dy, olt, ot) &&
				     gm_dest_has_any(g, dx, olf, of);
			} else {
				fw = gm_dest_has_any(g, dx, flt, nt) &&
				     gm_dest_has_any(g, dy, flf, nf);
				bw = gm_dest_has_any(g, dy, flt, nt) &&
				     gm_dest_has_any(g, dx, flf, nf);
			}
			if (fw || bw)
				ncand++;
			if (fw && bw) {
				nmatch += 2;
				*both = b;
			} else if (fw || bw) {
				if (cands && nsingle < 2)
					cands[nsingle] = b;
				nmatch++;
				nsingle++;
				*ta = fw ? x : y;
				*fa = fw ? y : x;
			}
			if (fw || bw)
				gm_cond_note(g, &cp, b, in, fw, bw, x, y);
		}
		if (!loose && nmatch > 1 && gm_cond_pick(&cp, ta, fa, both))
			return 1;
		if (ncand != 1)
			*both = -1;
		/* One block told the ways apart, the others only matched
		 * both ways round (their arms' lines are alike): those
		 * say nothing about this branch, the one does. */
		if (nmatch > 1 && nsingle == 1) {
			*both = -1;
			return 1;
		}
		if (nmatch)
			return nmatch;
	}
	return 0;
}

/* Could the branch at insn i be a copy of gcno block b's condition: does
 * either way it goes reach one of b's destinations (loosely, as in
 * match_branch)? */
static int may_copy(const struct gm *g, uint32_t i, uint32_t b)
{
	const struct minsn *in = &g->in[i];
	uint32_t fl[GM_MAX_RUN][2];
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && g->in[i + 1].addr == in->addr + in->len ?
		  (long)i + 1 : -1;
	long way[2] = {t, nx};
	for (int w = 0; w < 2; w++) {
		int n = gm_run_lines(g, way[w], NULL, fl);
		int out = gm_way_leaves(g, way[w]);
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t d = g->f->arcs[g->outa[b][k]].dst;
			if ((out && gm_dest_exits(g, d)) ||
			    gm_dest_has_any(g, d, fl, n))
				return 1;
		}
	}
	return 0;
}

/* Does the branch at insn i jump to code other transfers of the
 * function jump to as well: a tail cross-jumping shared between
 * statements (`return 1;` of several lines, one copy carrying the row of
 * one of them)? Its line then tells nothing about which gcno
 * destination the branch went to: a copy of a condition whose taken way
 * lands there is no less a copy (may_copy cannot see it). */
static int merged_tail(const struct gm *g, uint32_t i)
{
	uint64_t to = g->in[i].tgt;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (k != i && in->tgt == to && !gm_is_call(in) &&
		    (in->cls == LT_INSN_BRANCH || in->cls == LT_INSN_JUMP))
			return 1;
	}
	return 0;
}

/* Are gcno blocks b and b2 linked by arcs (either way round) through
 * two-way condition blocks of (file, line) only: one condition of a
 * chain on one line (`c1 ? v : c2 ? w : c3 || c4 ? u : z`) leading
 * to the other through that line's tests? A test gcc folded (c3, known
 * true once c2 failed) leaves its neighbours' branches to be read as
 * the folded tests' copies, whose arms' code gcc computed before the
 * tests, anywhere along the chain. */
static int line_conds_linked(const struct gm *g, uint32_t b, uint32_t b2,
                             uint32_t file, uint32_t line)
{
	uint32_t nb = g->f->n_blocks, stk[64], top = 0;
	uint8_t seen[1024];
	if (nb > sizeof(seen))
		return 1;
	memset(seen, 0, nb);
	seen[b] = 1;
	stk[top++] = b;
	while (top) {
		uint32_t c = stk[--top];
		if (c == b2)
			return 1;
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *r = &g->f->arcs[a];
			uint32_t o = r->src == c ? r->dst :
				     r->dst == c ? r->src : 0;
			if (o < 2 || seen[o] || gm_n_real_out(g, o) != 2 ||
			    gm_has_fake_out(g, o) ||
			    !cond_line(g, o, file, line))
				continue;
			if (top == 64)
				return 1;
			seen[o] = 1;
			stk[top++] = o;
		}
	}
	return 0;
}

/* match_branch's one match of branch i, for gm_shape_match. */
static int line_match(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	long both;
	return gm_group_arms(g, i, ta, fa) ||
	       match_branch(g, i, ta, fa, &both, NULL, -1) == 1;
}

/* The registers (gm_branch_regs) the first of the branches cp[n] matched
 * to block cb compares, -1 when none was. Mapped from inlined copies
 * only (g->span), only a branch of branch i's copy counts: a copy
 * inlined into another caller holds its values in other registers. */
static int64_t first_regs(const struct gm *g, const struct gm_copy *cp,
                          uint32_t n, uint32_t cb, uint32_t i)
{
	size_t copy = gm_copy_of(g, i);
	for (uint32_t k = 0; k < n; k++)
		if (g->f->arcs[cp[k].ta].src == cb &&
		    gm_copy_of(g, cp[k].insn) == copy)
			return gm_branch_regs(g, g->in[cp[k].insn].addr);
	return -1;
}

/* Per gcno block b, the registers (gm_branch_regs) its uniquely matched
 * executed branches compare (r[2b]) and the inline instance
 * (lt_dwarf_inline_find) they lie in (r[2b + 1]): -1 none, -2 several.
 * NULL on no memory; the caller frees it. */
static int64_t *unique_regs(const struct gm *g)
{
	int64_t *r = malloc(2 * (size_t)g->f->n_blocks * sizeof(*r));
	for (uint32_t b = 0; r && b < 2 * g->f->n_blocks; b++)
		r[b] = -1;
	for (uint32_t i = 0; r && i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		long ta, fa, both;
		if (in->cls != LT_INSN_BRANCH || !in->line ||
		    !gc_insn_count(g->x->c, g->x->im, in->addr) ||
		    match_branch(g, i, &ta, &fa, &both, NULL, -1) != 1 ||
		    both >= 0)
			continue;
		uint32_t b = g->f->arcs[ta].src;
		int64_t x = gm_branch_regs(g, in->addr);
		int64_t q = lt_dwarf_inline_find(g->x->dw, in->addr);
		r[2 * b] = r[2 * b] == -1 || r[2 * b] == x ? x : -2;
		r[2 * b + 1] = r[2 * b + 1] == -1 || r[2 * b + 1] == q ? q : -2;
	}
	return r;
}

/* Branch i matched two blocks c[0], c[1] one way round each. Copies of
 * one condition compare the same registers, and an early-inlined copy's
 * blocks are one inline instance's code: when one candidate's unique
 * branches all compare another pair than i's, in another inline
 * instance than i's (another copy of the callee, inlined late), and the
 * other candidate's none or i's registers, i is the other's (a
 * late-inlined copy's `n == 0` beside an early copy's on one line:
 * mutcopy, regpair). Two conditions of one instance (`tok[i] && i <
 * 15`, whose loop test ivopts rewrote) are left alone. *ureg:
 * unique_regs, computed on first need. Returns the block to skip, or
 * -1. */
static long other_regs_block(const struct gm *g, uint32_t i, const long *c,
                             int64_t **ureg)
{
	if (c[0] < 0 || c[1] < 0)
		return -1;
	if (!*ureg && !(*ureg = unique_regs(g)))
		return -1;
	int64_t r = gm_branch_regs(g, g->in[i].addr);
	int64_t q = lt_dwarf_inline_find(g->x->dw, g->in[i].addr);
	for (int k = 0; k < 2; k++) {
		int64_t x = (*ureg)[2 * c[k]], y = (*ureg)[2 * c[1 - k]];
		int64_t xq = (*ureg)[2 * c[k] + 1];
		if (x >= 0 && x != r && xq != -2 && xq != q &&
		    (y == -1 || y == r))
			return c[k];
	}
	return -1;
}

/* Pins gcno condition arcs to the machine's conditional branches: a
 * branch on line L whose taken and not-taken successors start on lines
 * Lt and Lf corresponds to the gcno block that lists L and has exactly
 * two real out-arcs, one to a block starting with Lt and the other to
 * one starting with Lf (match_branch). Only a unique match counts;
 * copies of one condition (loop rotation: header and latch) add up.
 * hard[a] becomes the sum, a lower bound of the arc's count (a copy
 * whose outcome the compiler knew, e.g. the first test of a rotated
 * loop, has no branch left), or -1 where the machine code says nothing.
 * A block some of whose executed branches on its lines found no match may
 * hide a copy of its condition there (or of another condition of a chain
 * on its condition line): its arcs still get the bounds of
 * the copies that did match (copies only add), marked soft[a] = 1 (not
 * determined by the machine code); so are the arcs of a block matched by
 * a branch off its condition's line (cond_line) and those of a switch
 * whose jump-table targets may serve several arcs (pin_switch) and
 * those of a condition gcc moved out of its loop (gm_hoisted_tests). A
 * branch that only
 * one block matches, both ways round, adds its executions to that
 * block's lb[] (zeroed by the caller): a lower bound of its count, its
 * split unknown, unless the one arm it skips tells the ways apart
 * (gm_triangle_arms), or one way starts the next copy of a call
 * inlined early beside others on the line (gm_sibling_arms): then it is
 * matched. Else the shape of its copy's code may match it
 * (gm_shape_match; soft[a] = GM_SOFT_SHAPE). shared[a] = 1 where
 * control also reaches the code a matched way of arc a lands at by
 * other paths (gm_ways_mark_shared). Returns the arcs pinned. */
/* Is insn i code of a copy inlined late at a call its caller's gcno
 * kept in a block of its own (gcda_map.h: late_call 2)? The other late
 * copies (late_call 1: a block lists the call's line) keep their branches
 * matched by their own lines: call_kept may take an early copy for a late
 * one when its call's line also holds another call's early copy. Code
 * of a copy of the function itself is its own. */
static int in_kept_call_copy(const struct gm *g, uint32_t i)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!g->x->late_call || !dw)
		return 0;
	for (long q = lt_dwarf_inline_find(dw, g->in[i].addr);
	     q >= 0 && dw->func[q].depth > 0; q = dw->func[q].parent) {
		if (strcmp(dw->func[q].name, g->f->name) == 0)
			return 0; /* a copy of the function itself */
		if (g->x->late_call[q] == 2)
			return 1;
	}
	return 0;
}

uint32_t gm_pin_branches(const struct gm *g, int64_t *hard,
                         int64_t *lb, uint8_t *soft, uint8_t *shared)
{
	uint32_t nb = g->f->n_blocks, pinned = 0;
	int sw = 0;
	struct gm_ways w = {0};
	memset(shared, 0, g->f->n_arcs);
	int64_t *sum = calloc(3 * (size_t)g->f->n_arcs, sizeof(*sum));
	/* Per arc: the ways that passed its test, its outcome known. */
	int64_t *psum = sum ? sum + g->f->n_arcs : NULL;
	/* Per arc: matched ways that passed its test (gm_passed_after_arc). */
	int64_t *asum = sum ? sum + 2 * (size_t)g->f->n_arcs : NULL;
	uint8_t *bad = calloc(g->f->n_arcs, 1);
	/* Per gcno block: executed branches matched to it, and the line of
	 * the last one. */
	uint32_t *nmb = calloc(nb, sizeof(*nmb));
	uint32_t (*mline)[2] = calloc(nb, sizeof(*mline));
	/* The executed branches matched to one block (gcda_hoist.c). */
	struct gm_copy *cp = malloc((g->m + 1) * sizeof(*cp));
	uint32_t ncp = 0;
	/* The executed branches that matched no block (gcda_passby.c). */
	uint32_t *un = malloc((g->m + 1) * sizeof(*un));
	uint32_t nun = 0;
	/* The branches of a switch's tree gm_if_switch_pins read. */
	uint8_t *tree = calloc(g->m + 1, 1);
	/* Per arc: the equal way of a narrowed relational test
	 * (gm_narrowed_equal_way), which the runs its branch did not see
	 * took. */
	uint8_t *rest = calloc(g->f->n_arcs, 1);
	/* unique_regs, on first need. */
	int64_t *ureg = NULL;
	struct gm_shape shp = {0, NULL};
	uint8_t *head = gm_loop_heads(g);
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		hard[a] = -1;
		soft[a] = 0;
	}
	if (!sum || !bad || !nmb || !mline || !cp || !un || !head)
		goto out;
	/* A switch made of an if-chain: its tree's leaves by value. */
	sw = tree && gm_if_switch_pins(g, sum, bad, GM_SWITCH_UNSURE, tree);
	/* Lines of branches that matched nothing: blocks listing them get
	 * soft bounds only (a copy may be hidden there). */
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE &&
		    in->line && gm_pin_switch(g, i, sum, bad, &w)) {
			sw = 1;
			continue;
		}
		if (in->cls != LT_INSN_BRANCH || !in->line || (tree && tree[i]))
			continue;
		/* A branch of a copy inlined late at a call ending a block
		 * of its own (counted at its call site, though its own line
		 * is one the gcno lists from an early copy of the same
		 * callee) is the callee's, no test of this function's; so is
		 * one of a callee nested in a late copy none of whose own
		 * lines the gcno lists (in_late: a pure function's call ends
		 * no block). */
		if (in_kept_call_copy(g, i) || in->in_late)
			continue;
		uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
		uint64_t tk = gc_taken(g->x->c, g->x->im, in->addr);
		/* A test of a switch's comparison tree (lower bounds). */
		int tree = gm_case_tree_pins(g, i, sum, bad, GM_SWITCH_UNSURE);
		sw |= tree || gm_case_value_pins(g, i, sum, bad,
		                                 GM_SWITCH_UNSURE);
		long ma = -1, mb = -1, both, cand[2];
		int nmatch = match_branch(g, i, &ma, &mb, &both, cand, -1);
		/* Two blocks, one way round each: the one whose tests
		 * compare other registers is not this test's (a guess). */
		long other = nmatch == 2 && both < 0 && cnt ?
			     other_regs_block(g, i, cand, &ureg) : -1;
		long ra, rb, rboth;
		int regpick = other >= 0 &&
			      match_branch(g, i, &ra, &rb, &rboth, NULL,
			                   other) == 1 && rboth < 0;
		if (regpick) {
			nmatch = 1;
			ma = ra;
			mb = rb;
		}
		/* A test of an early copy among several alike: how the
		 * copy's tests run into each other tells its block. */
		int grouped = gm_group_arms(g, i, &ma, &mb);
		if (grouped) {
			nmatch = 1;
			both = -1;
		}
		/* The lines named another block of the line than the
		 * branch's own discriminator: the number decides (a
		 * guess, soft). */
		long named = !grouped && (both >= 0 || nmatch == 1) ?
			     gm_discr_own_block(g, i, both >= 0 ? both :
			                        (long)g->f->arcs[ma].src) : -1;
		int renamed = 0;
		if (named >= 0) {
			long na, nb2;
			if (gm_named_arms(g, i, (uint32_t)named, &na, &nb2)) {
				ma = na;
				mb = nb2;
				nmatch = 1;
				both = -1;
				renamed = 1;
			}
		}
		/* Several blocks of a condition chain on the line, or
		 * none (a way threaded into code of another line): the
		 * run of its tests tells which. */
		if (nmatch != 1 &&
		    gm_chain_arms(g, i, nmatch == 0, &ma, &mb)) {
			nmatch = 1;
			both = -1;
		}
		/* Lines alike on a mixed chain's blocks and the rotated
		 * loop test before it (`j > 0 && (a || (b && c))`, all one
		 * line): one line match may be the loop's test; the run of
		 * the chain's tests in source order tells. */
		long ca, cb;
		if (nmatch == 1 && gm_chain_arms(g, i, 0, &ca, &cb) == 2) {
			ma = ca;
			mb = cb;
			both = -1;
		}
		/* Several blocks of one line both ways round: the arms'
		 * discriminators may name one. */
		if (nmatch > 1 && both < 0 &&
		    gm_discr_block(g, i, &ma, &mb) >= 0)
			nmatch = 1;
		/* One block both ways round: the arms' discriminators,
		 * or the arm the branch skips, may tell which. */
		int tri = 0; /* 2: gm_triangle_arms unsure (a guess) */
		if (both >= 0 && (gm_discr_arms(g, i, (uint32_t)both, &ma,
		                                &mb) ||
		                  (tri = gm_triangle_arms(g, i, (uint32_t)both,
		                                          &ma, &mb)) ||
		                  gm_sibling_arms(g, i, (uint32_t)both, &ma,
		                                  &mb) ||
		                  gm_deref_arms(g, i, (uint32_t)both, &ma,
		                                &mb) ||
		                  gm_table_arms(g, i, (uint32_t)both, &ma,
		                                &mb) ||
		                  gm_call_arms(g, i, (uint32_t)both, &ma, &mb))) {
			nmatch = 1;
			both = -1;
		}
		int guess = renamed || tri == 2 || regpick || (both >= 0 &&
			    (gm_source_arms(g, i, (uint32_t)both, &ma, &mb) ||
			     gm_discr_one_arm(g, i, (uint32_t)both, &ma,
			                      &mb) ||
			     gm_body_arms(g, i, (uint32_t)both, &ma, &mb) ||
			     gm_sunk_arms(g, i, (uint32_t)both, &ma, &mb) ||
			     gm_stub_arms(g, i, (uint32_t)both, &ma, &mb)));
		if (guess) {
			nmatch = 1;
			both = -1;
		}
		/* Several conditions of an `&&` chain on the line, the
		 * later ones branch-free: the head (a guess, soft). */
		if (nmatch > 1 && both < 0 &&
		    gm_chain_head_arms(g, i, &ma, &mb)) {
			nmatch = 1;
			guess = 1;
		}
		/* Several blocks of the line, one of which the arm the
		 * branch skips tells (the others' arcs lead to no arm
		 * block): that one (a guess, soft). */
		if (nmatch > 1 && both < 0 &&
		    gm_one_triangle_block(g, i, &ma, &mb)) {
			nmatch = 1;
			guess = 1;
		}
		/* Unmatched, on a line its block lists but does not end
		 * on (a merged range test): its ways' landings (a guess). */
		if (!nmatch && gm_listed_line_arms(g, i, &ma, &mb)) {
			nmatch = 1;
			guess = 1;
		}
		/* Unmatched, its taken way past a test threading
		 * resolved (a guess, soft). */
		long pa = -1;
		int pw = 0;
		if (!nmatch && (gm_threaded_arms(g, i, &ma, &mb) ||
		                gm_passed_test_arms(g, i, &ma, &mb, &pa,
		                                    &pw))) {
			nmatch = 1;
			guess = 1;
		}
		/* No block matched either way (a way lands on stores of
		 * the condition's block sunk below the test, and the join
		 * has no code): the skipped arm may still tell the ways of
		 * the one two-way block whose condition the line is. */
		long one = nmatch ? -1 : gm_only_cond_block(g, in);
		int latch = one >= 0 &&
			    gm_latch_arms(g, i, (uint32_t)one, &ma, &mb);
		if (latch || (one >= 0 &&
		    (tri = gm_triangle_arms(g, i, (uint32_t)one, &ma,
		                            &mb)))) {
			nmatch = 1;
			guess |= tri == 2;
		}
		/* An arm whose statement tail merging left under another
		 * line's row (gm_tail_merged_arms): its lines match no block,
		 * or every block of the chain after the tests alike. A
		 * guess. */
		long own = nmatch != 1 ? gm_only_cond_block(g, in) : -1;
		if (own >= 0 &&
		    gm_tail_merged_arms(g, i, (uint32_t)own, &ma, &mb)) {
			nmatch = 1;
			both = -1;
			guess = 1;
		}
		/* A way of copies only (match_branch matched nothing):
		 * copies putting back a value computed from tell the `if`
		 * they skip; or the lines the ways run first, each reached
		 * from one arc only (gm_reach_arms: a hoisted test ahead of
		 * a loop's way in). A guess. */
		if (nmatch != 1 && one >= 0 &&
		    (gm_restore_arms(g, i, (uint32_t)one, &ma, &mb) ||
		     gm_reach_arms(g, i, (uint32_t)one, &ma, &mb))) {
			nmatch = 1;
			guess = 1;
		}
		/* A branch of the line matched to block b runs by one way
		 * straight into this test: the block that way leads to is
		 * its condition (not b, though the lines said so), whose
		 * lineless arm tells the ways: the arm's stub is the way
		 * other code enters too (gm_stub_arms; a guess, soft). */
		long from = -1, land = gm_landed_block(g, i, line_match,
		                                       &from);
		if (land >= 0 && (!nmatch || (nmatch == 1 &&
		                              g->f->arcs[ma].src == from))) {
			long la, lb2;
			if (gm_stub_arms(g, i, (uint32_t)land, &la, &lb2)) {
				nmatch = 1;
				guess = 1;
				ma = la;
				mb = lb2;
			} else if (nmatch) {
				nmatch = 0; /* not b's: unmatched */
			}
		}
		/* Lines alike both ways, or no line at all, and one way
		 * only edge copies: which arc those belong to. */
		long cpb = both >= 0 ? both : nmatch ? -1 : one;
		if (nmatch != 1 && cpb >= 0 &&
		    (gm_copy_arms(g, i, (uint32_t)cpb, &ma, &mb) ||
		     gm_gone_stmt_arms(g, i, (uint32_t)cpb, &ma, &mb))) {
			nmatch = 1;
			both = -1;
			guess = 1;
		}
		/* Otherwise the source's `?:` may tell (a guess). */
		if (nmatch != 1 && cpb >= 0 &&
		    gm_source_arms(g, i, (uint32_t)cpb, &ma, &mb)) {
			nmatch = 1;
			both = -1;
			guess = 1;
		}
		/* A copy jump threading made of a test whose other copy
		 * the lines matched (a guess). */
		if (cnt &&
		    gm_dup_test_arms(g, i, line_match,
		                     nmatch == 1 ? (long)g->f->arcs[ma].src : -1,
		                     &ma, &mb)) {
			nmatch = 1;
			both = -1;
			guess = 1;
		}
		/* A way delivering the values another test's way delivers
		 * into one landing: the arc into their shared PHI
		 * argument's block (a guess). */
		if (nmatch != 1 && cnt &&
		    gm_phishare_arms(g, i, cp, ncp, &ma, &mb)) {
			nmatch = 1;
			both = -1;
			guess = 1;
		}
		/* Lines alike on every condition: the code's shape. */
		int shaped = nmatch != 1 && cnt &&
			     gm_shape_match(g, &shp, line_match, i, &ma, &mb);
		both = shaped ? -1 : both;
		nmatch = shaped ? 1 : nmatch;
		/* An arm's code above the branch: its way reads as the
		 * arm skipped; the register it set tells (a guess). */
		if (nmatch == 1 && !guess && cnt &&
		    gm_hoisted_arm(g, i, &ma, &mb))
			guess = 1;
		/* A way of edge copies on the condition's line: which arc
		 * its value is, the lines do not say (a guess). */
		if (nmatch == 1 && !guess && cnt &&
		    gm_cond_line_copies(g, i, g->f->arcs[ma].src))
			guess = 1;
		if (both >= 0)
			lb[both] += (int64_t)cnt;
		if (nmatch == 1) {
			sum[ma] += (int64_t)tk + gm_folded_first_tests(g, i,
			                                               ma);
			sum[mb] += (int64_t)(cnt - tk);
			/* The test a way passed, its outcome known, ran
			 * that way's arc too (gm_passed_test_arms). */
			if (pa >= 0)
				psum[pa] += (int64_t)(pw ? cnt - tk : tk);
			/* A matched way past a later test (a lower bound of
			 * that arc where branches matched its block too). */
			for (int v = 0; pa < 0 && cnt && v < 2; v++) {
				long pp = gm_passed_after_arc(
					g, i, (uint32_t)(v ? mb : ma), v, head);
				if (pp >= 0)
					asum[pp] += (int64_t)(v ? cnt - tk : tk);
			}
			int eqw = guess && cnt && rest ?
				  gm_narrowed_equal_way(g, i) : -1;
			if (eqw >= 0)
				rest[eqw ? mb : ma] = 1;
			gm_way_add(&w, in->tgt, (int64_t)tk, (uint32_t)ma);
			gm_way_add(&w, in->addr + in->len, (int64_t)(cnt - tk),
			        (uint32_t)mb);
			/* Off the condition's own line: its successors'
			 * lines say it is a copy, its own line does not;
			 * a guess (gm_sunk_arms) or a latch test whose loop
			 * entry test may be gone (gm_latch_arms) bounds only. */
			uint32_t cb = g->f->arcs[ma].src;
			if (cnt && (guess || latch || shaped ||
			            !cond_line(g, cb, in->file, in->line))) {
				bad[ma] |= shaped ? 1 | GM_BAD_SHAPE : 1;
				bad[mb] |= shaped ? 1 | GM_BAD_SHAPE : 1;
			}
			if (cnt)
				cp[ncp++] = (struct gm_copy){
					i, (uint32_t)ma, (uint32_t)mb, cnt, tk};
			if (cnt) {
				/* Copies of one condition (a rotated loop's top
				 * and bottom tests) compare the same registers,
				 * whatever way round; a test of other registers
				 * that the lines sent here is another condition
				 * (hoisted code ahead of its way made it look
				 * alike), so the sum is no count. */
				int64_t r0 = first_regs(g, cp, ncp - 1, cb, i);
				if (r0 >= 0 &&
				    gm_branch_regs(g, in->addr) != (uint32_t)r0)
					gm_soften_line_conds(g, in, NULL, bad);
				nmb[cb]++;
				mline[cb][0] = in->file;
				mline[cb][1] = in->line;
			}
			continue;
		}
		if (!cnt)
			continue;
		un[nun++] = i;
		/* Executed and unmatched: blocks of its line stay free,
		 * unless neither way it goes reaches one of their
		 * destinations (a misattributed line, no copy). */
		for (uint32_t b = 2; b < nb; b++) {
			if (!gm_block_has_line(g, b, in->file, in->line) ||
			    !(may_copy(g, i, b) ||
			      (cond_line(g, b, in->file, in->line) &&
			       merged_tail(g, i))))
				continue;
			for (uint32_t k = 0; k < g->nout[b]; k++)
				bad[g->outa[b][k]] |= 1;
			/* A copy of one condition of a chain on one line
			 * (`while (i < n && x % 3 != 1)`: the entry copy of
			 * the rotated loop's second test exits into the
			 * middle of the code after the loop, past a test
			 * the entry path decided) may be any of the chain's
			 * conditions: its ways' lines tell the chain (they
			 * matched the first test's destinations), not the
			 * condition. */
			if (!cond_line(g, b, in->file, in->line))
				continue;
			for (uint32_t b2 = 2; b2 < nb; b2++)
				if (b2 != b && gm_n_real_out(g, b2) == 2 &&
				    cond_line(g, b2, in->file, in->line) &&
				    line_conds_linked(g, b, b2, in->file,
				                      in->line))
					for (uint32_t k = 0; k < g->nout[b2];
					     k++)
						bad[g->outa[b2][k]] |= 1;
		}
	}
	/* A condition block matched while another condition of the same
	 * line (`a || b`, `a && b`) matched no branch: the machine's test
	 * may be that other condition's, read as this one's because the
	 * code its successor runs first (the rest of the line, a statement
	 * hoisted above the second test) looks like this condition's
	 * destination, so that two branches pass for copies of one
	 * condition; or gcc merged the two conditions into one test
	 * (`c == 'x' || c == 'X'` as `(c & ~32) == 'X'`), whose counts are
	 * neither's. Bounds only, when the other condition leads to this
	 * one or from it through the line's conditions (line_conds_linked),
	 * or this one took several branches. */
	for (uint32_t b = 2; b < nb; b++) {
		if (!nmb[b])
			continue;
		for (uint32_t b2 = 2; b2 < nb; b2++) {
			if (b2 == b || nmb[b2] || gm_n_real_out(g, b2) != 2 ||
			    gm_has_fake_out(g, b2) ||
			    !cond_line(g, b2, mline[b][0], mline[b][1]))
				continue;
			int next = nmb[b] >= 2 ||
				   line_conds_linked(g, b, b2, mline[b][0],
				                     mline[b][1]);
			if (!next)
				continue;
			for (uint32_t k = 0; k < g->nout[b]; k++)
				bad[g->outa[b][k]] |= 1;
			break;
		}
	}
	/* Matched ways past a test whose block branches matched too add
	 * to its arc (copies only add), a guess: soft. (The unmatched
	 * branches gm_passed_test_arms reads stay with psum below: added
	 * to a matched block's sums they overcount regex's valid.) */
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		uint32_t b = g->f->arcs[a].src;
		if (!nmb[b] || !asum[a])
			continue;
		sum[a] += asum[a];
		for (uint32_t k = 0; k < g->nout[b]; k++)
			bad[g->outa[b][k]] |= 1;
	}
	/* Tests of two lines merged into one (gcda_merged.c). */
	gm_merged_tests(g, nmb, bad);
	gm_chain_sums(g, nmb, sum, bad);
	gm_hoisted_tests(g, cp, ncp, bad);
	gm_passed_by(g, cp, ncp, un, nun, nmb, bad);
	for (uint32_t b = 2; b < nb; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b))
			continue;
		uint32_t x = g->outa[b][0], y = g->outa[b][1];
		if (!sum[x] && !sum[y])
			continue;
		soft[x] = soft[y] = (bad[x] | bad[y]) & GM_BAD_SHAPE ?
				    GM_SOFT_SHAPE : bad[x] || bad[y];
		hard[x] = sum[x];
		hard[y] = sum[y];
		pinned += 2;
		/* A narrowed test's one branch: the block's other runs, on
		 * paths that decided the relation, took its equal way. */
		if (rest && nmb[b] == 1 && soft[x] == 1 && rest[x] != rest[y])
			soft[rest[x] ? x : y] = GM_SOFT_UNSEEN;
	}
	/* Switch arcs: only those the jump reached (the default and the
	 * cases a range check or a branch tree handles stay free). */
	for (uint32_t b = 2; sw && b < nb; b++) {
		if (gm_n_real_out(g, b) <= 2)
			continue;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t a = g->outa[b][k];
			if (sum[a] > 0) {
				hard[a] = sum[a];
				soft[a] = (bad[a] & GM_SWITCH_UNSURE) != 0;
				pinned++;
			}
		}
	}
	/* A passed test's arc, where no branch matched its block (there
	 * the branches' own pins count its runs, and a way into a loop's
	 * body is counted once as its folded first test): a lower bound,
	 * its other way pinned at 0 for what the rest of the block's runs
	 * take (GM_SOFT_UNSEEN). */
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		uint32_t b = g->f->arcs[a].src;
		if (!psum[a] || nmb[b])
			continue;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t o = g->outa[b][k];
			if (o == a || (g->f->arcs[o].flags & LT_GCOV_ARC_FAKE))
				continue;
			if (hard[o] < 0) {
				hard[o] = 0;
				soft[o] = GM_SOFT_UNSEEN;
				pinned++;
			} else if (!soft[o]) {
				soft[o] = 1;
			}
		}
		pinned += hard[a] < 0;
		hard[a] = (hard[a] > 0 ? hard[a] : 0) + psum[a];
		soft[a] = 1;
	}
	pinned += gm_pin_unreturned(g, hard);
	gm_ways_mark_shared(g, &w, shared, lb);
	gm_threaded_jumps(g, cp, ncp, shared);
out:
	if (!sum || !bad || !nmb || !mline || !cp || !un || !head)
		memset(shared, 1, g->f->n_arcs);
	free(ureg);
	free(rest);
	free(sum);
	free(bad);
	free(nmb);
	free(mline);
	free(cp);
	free(un);
	free(tree);
	free(head);
	free(w.w);
	gm_shape_free(&shp);
	return pinned;
}
