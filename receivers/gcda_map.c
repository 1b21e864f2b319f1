/* Mapping machine counts onto a gcno function's CFG (gcda_map.h): the
 * per-function driver. The steps (gcda_mapper.h) are alignment of the
 * machine code to the gcno blocks (gcda_align.c), routing of machine
 * transitions onto gcno arcs (gcda_route.c), branch pins
 * (gcda_pin.c), block estimates from lines (gcda_estimate.c) and a
 * min-cost flow that makes the result consistent (gcda_flow.c).
 *
 * A function with no called out-of-line copy but a called whole clone
 * (f.constprop.0) is mapped from that clone as if it were f. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_discr.h"
#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define MAX_REALIGN 3

/* Makes arc a's pin a lower bound only, keeping GM_SOFT_UNSEEN (which is
 * one already) for the flow. */
static void soften(uint8_t *soft, uint32_t a)
{
	if (soft[a] != GM_SOFT_UNSEEN)
		soft[a] = 1;
}

/* Clears what gm_transfers computed, for another alignment. */
static void reset_routing(struct gm *g)
{
	memset(g->arc, 0, g->f->n_arcs * sizeof(*g->arc));
	g->ambiguous = 0;
	g->unrouted = 0;
	g->mid_exit = 0;
	g->entries = 0;
	g->why = NULL;
	g->blind = 0;
	if (g->unsure)
		memset(g->unsure, 0, g->f->n_arcs);
}

/* Step 1, aligning again while gm_gone_settle drops test-deletion
 * candidates the alignment contradicts (each round drops one).
 * Returns the cost of the last alignment, or -1 on no memory. */
static long align_gone(struct gm *g)
{
	long cost = gm_align(g);
	while (cost >= 0 && gm_gone_settle(g))
		cost = gm_align(g);
	return cost;
}

/* Steps 1 and 2: aligns and, when the alignment is clean, routes the
 * transfers. Lines cannot place blocks that share one line (`x = a < b ?
 * 4 : c ? 8 : 0`), so the cheapest partition may put a transfer's target
 * in a block its source has no arc to; then the alignment is redone
 * avoiding such starts (at most MAX_REALIGN times). If that never routes
 * every transfer, the first alignment stands. Returns its cost, or -1
 * on no memory. */
static long align_route(struct gm *g)
{
	long cost = align_gone(g), first = cost;
	if (cost < 0 || cost >= SHAPE_COST)
		return cost;
	gm_transfers(g);
	for (int k = 0; g->unrouted && k < MAX_REALIGN; k++) {
		uint32_t had = g->navoid;
		reset_routing(g);
		cost = align_gone(g);
		if (cost < 0)
			return cost;
		if (cost < SHAPE_COST)
			gm_transfers(g);
		else
			g->unrouted = 1;
		if (!g->unrouted || g->navoid == had)
			break;
	}
	if (!g->unrouted)
		return cost;
	g->navoid = 0;
	reset_routing(g);
	cost = align_gone(g);
	if (cost >= 0)
		gm_transfers(g);
	return cost < 0 ? cost : first;
}

/* Could executions that skipped arc a's condition (a copy of the test
 * the compiler resolved, so no branch saw them) and landed at arc b's
 * destination have gone a's way first? They could when a's destination
 * leads there through blocks that need not run any code of their own on
 * the way: condition blocks (whose tests the compiler may have resolved on
 * that path too: jump threading of `a == b && b == c` after a test that
 * decided `a != c` skips both) and blocks without lines. Blocks with
 * other code would have shown those executions. */
static int may_pass_to(const struct gm *g, uint32_t a, uint32_t b)
{
	uint32_t nb = g->f->n_blocks, src = g->f->arcs[a].src;
	uint32_t to = g->f->arcs[b].dst, n = 0;
	uint32_t *stack = malloc(nb * sizeof(*stack));
	uint8_t *seen = calloc(nb, 1);
	int hit = !stack || !seen; /* no memory: assume the worst */
	if (!hit) {
		stack[n++] = g->f->arcs[a].dst;
		seen[g->f->arcs[a].dst] = 1;
	}
	while (n && !hit) {
		uint32_t d = stack[--n];
		if (d < 2 || d == src || (gm_n_real_out(g, d) != 2 &&
		                          g->f->blocks[d].n_lines))
			continue;
		for (uint32_t k = 0; k < g->nout[d] && !hit; k++) {
			const struct lt_gcno_arc *x = &g->f->arcs[g->outa[d][k]];
			if (x->flags & LT_GCOV_ARC_FAKE)
				continue;
			hit = x->dst == to;
			if (!seen[x->dst]) {
				seen[x->dst] = 1;
				stack[n++] = x->dst;
			}
		}
	}
	free(stack);
	free(seen);
	return hit;
}

/* Did the machine code determine arc a's count (the flow's g->arc[a])?
 * A pin is the sum of the branches matched to the arc's condition, a
 * lower bound (a copy of the test the compiler resolved has no branch
 * left), so the flow meeting it proves nothing by itself. It is the
 * count when every execution of the condition that went a's way passed
 * a matched branch: no unmatched branch may be a copy (soft), control
 * reaches the code a's ways land at by no other path (shared: there the
 * path that skips a resolved test would land) and each other way out of
 * the block meets its pin too, or exceeds it where such other arrivals
 * show the unseen executions went that way, and not first a's way
 * (may_pass_to). A switch block's arc no jump took (unpinned) must carry
 * nothing. */
static int determined(const struct gm *g, uint32_t a, const int64_t *hard,
                      const uint8_t *soft, const uint8_t *shared)
{
	const struct lt_gcno_arc *arc = &g->f->arcs[a];
	if ((arc->flags & LT_GCOV_ARC_ON_TREE) || hard[a] < 0 || shared[a] ||
	    g->arc[a] != hard[a])
		return 0;
	for (uint32_t k = 0; k < g->nout[arc->src]; k++) {
		uint32_t b = g->outa[arc->src][k];
		if (g->f->arcs[b].flags & LT_GCOV_ARC_FAKE)
			continue;
		if (hard[b] < 0 ? g->arc[b] != 0 :
		    soft[b] || g->arc[b] < hard[b] ||
		    (g->arc[b] > hard[b] &&
		     (shared[b] != 1 || may_pass_to(g, a, b))))
			return 0;
	}
	return 1;
}

/* With no out-of-line copy the pins come from the branches of the inlined
 * copies together. A copy that ran but has no executed branch on the
 * condition line of block b (gcc merged its test into a test of the
 * caller's line, or resolved it there) sends executions down b's arcs
 * that no pin sees: b's pins are then lower bounds only (soft). */
static void soften_uncovered(const struct gm *g, const struct gm_span *span,
                             size_t nspan, const int64_t *hard, uint8_t *soft)
{
	const struct gm_ctx *x = g->x;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b))
			continue;
		uint32_t a0 = g->outa[b][0], a1 = g->outa[b][1];
		if (hard[a0] < 0 || (soft[a0] && soft[a1]))
			continue;
		for (size_t s = 0, e; s < nspan; s = e) {
			int ran = 0, tested = 0;
			for (e = s; e < nspan && span[e].copy == span[s].copy; e++)
				;
			for (uint32_t i = 0; i < g->m && !tested; i++) {
				const struct minsn *in = &g->in[i];
				size_t k = s;
				while (k < e && (in->addr < span[k].lo ||
				                 in->addr >= span[k].hi))
					k++;
				if (k == e ||
				    !gc_insn_count(x->c, x->im, in->addr))
					continue;
				ran = 1;
				tested = in->cls == LT_INSN_BRANCH && in->line &&
				         gm_last_line_is(g, b, in->file,
				                         in->line);
			}
			if (ran && !tested) {
				soften(soft, a0);
				soften(soft, a1);
				break;
			}
		}
	}
}

/* Did the function run although nothing entered it: a trace that began
 * inside it (a forked child returning from fork into it, a trace enabled
 * mid-run), whose routed transfers balance through the calls that
 * returned more often than they were made (their fake arcs to EXIT
 * negative, as after a setjmp)? */
static int resumed(const struct gm *g)
{
	for (uint32_t i = 0; i < g->m; i++)
		if (gc_insn_count(g->x->c, g->x->im, g->in[i].addr))
			return 1;
	return 0;
}

/* Copies' pins sum the branches of the copies that test: a copy whose
 * test gcc resolved (inlined at `h(c ? x : 255u)`, the constant arm's copy
 * of h folded) runs an arm's code with no branch. Where the copies' lines
 * show a block that only arc a enters running more often than a's pin,
 * the pins of a's condition are lower bounds (soft). */
static void soften_short(const struct gm *g, const int64_t *hard,
                         uint8_t *soft, const int64_t *est)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		uint32_t d = g->f->arcs[a].dst, cb = g->f->arcs[a].src;
		if (hard[a] < 0 || soft[a] || d < 2 || g->npred[d] != 1 ||
		    est[d] <= hard[a])
			continue;
		for (uint32_t k = 0; k < g->nout[cb]; k++)
			soften(soft, g->outa[cb][k]);
	}
}

/* A loop written on one line gets its body's estimate from the machine
 * loop's iterations (gm_line_loop_estimates, guess[b] = 1), too many when
 * loops nest on the line (the inner loop's iterations count too) or when
 * the loop's test stayed ahead of its rotated body (the test's runs:
 * lru's hremove, inlined early into cache_get, 4077 for 128). There,
 * where the branch pins bound every arc into block b or every arc out
 * of it, they count its executions: the guess is dropped. Not where gcc
 * resolved the loop's first test on entry: the pins miss one pass per
 * entry (matrix, bitops). */
static void drop_covered_guesses(const struct gm *g, const int64_t *hard,
                                 const uint8_t *guess, int64_t *est)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		const struct lt_gcno_block *bl = &g->f->blocks[b];
		if (!guess[b] || !bl->n_lines)
			continue;
		uint32_t file = g->x->filemap[bl->lines[0].file];
		if (file == LT_DWARF_NO_FILE ||
		    (!gm_nested_on_line(g, file, bl->lines[0].line) &&
		     !gm_line_entry_tested(g, file, bl->lines[0].line)))
			continue;
		int in = 1, out = 1;
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *r = &g->f->arcs[a];
			if (r->flags & LT_GCOV_ARC_FAKE)
				continue;
			if (r->dst == b && hard[a] < 0)
				in = 0;
			if (r->src == b && hard[a] < 0)
				out = 0;
		}
		if (in || out)
			est[b] = -1;
	}
}

/* gm_map_function for a chosen out-of-line copy [lo, hi) with its cold
 * parts cold[ncold]; with no code and no copies, gm_map_entries for
 * `given` entries (0: the function never ran). */
static int map_one(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                   uint64_t lo, uint64_t hi, const struct gm_span *cold,
                   size_t ncold, const struct gm_span *span, size_t nspan,
                   uint64_t given, uint64_t *arc, struct gm_result *res)
{
	uint8_t *det = res->det;
	memset(res, 0, sizeof(*res));
	res->det = det;
	if (det)
		memset(det, 0, f->n_arcs);
	memset(arc, 0, f->n_arcs * sizeof(*arc));
	if (f->n_blocks < 3 || (hi <= lo && !nspan && !given))
		return 0;
	struct gm g = {.x = ctx, .f = f, .lo = lo, .hi = hi};
	char gone_why[96];
	uint32_t nb = f->n_blocks;
	int rc = hi > lo ? gm_load_insns(&g, cold, ncold) : 0;
	if (rc) {
		free(g.in);
		return rc;
	}
	/* An out-of-line copy never called contributes nothing, unless a
	 * trace began inside it (resumed). */
	if (g.m && !gc_insn_count(ctx->c, ctx->im, lo) &&
	    !resumed(&g))
		g.m = g.m_body = 0;
	if (!g.m && !nspan && !given) {
		free(g.in);
		return 0;
	}
	/* No called out-of-line copy: the other copies' branches still
	 * pin arcs (their counts add up, as in the instrumented run). */
	int copies_only = 0;
	if (!g.m && nspan) {
		rc = gm_load_copies(&g, span, nspan);
		if (rc) {
			free(g.in);
			return rc;
		}
		copies_only = g.m > 0;
		if (copies_only) {
			g.span = span;
			g.nspan = nspan;
		}
	}
	g.bstart = calloc(nb, sizeof(uint32_t));
	g.bend = calloc(nb, sizeof(uint32_t));
	g.blk = calloc(g.m + 1, sizeof(uint32_t));
	g.outa = calloc(nb, sizeof(uint32_t *));
	g.nout = calloc(nb, sizeof(uint32_t));
	g.npred = calloc(nb, sizeof(uint32_t));
	g.arc = calloc(f->n_arcs, sizeof(int64_t));
	int64_t *est = malloc(2 * nb * sizeof(int64_t));
	int64_t *hard = NULL;
	uint8_t *soft = NULL, *shared = NULL, *guess = NULL;
	uint32_t *pool = malloc((f->n_arcs + 1) * sizeof(uint32_t));
	rc = LT_ERR_NOMEM;
	if (!g.bstart || !g.bend || !g.blk || !g.outa || !g.nout || !g.arc ||
	    !g.npred ||
	    !est || !pool)
		goto out;
	for (uint32_t a = 0; a < f->n_arcs; a++) {
		g.nout[f->arcs[a].src]++;
		g.npred[f->arcs[a].dst]++;
	}
	for (uint32_t b = 0, at = 0; b < nb; b++) {
		g.outa[b] = pool + at;
		at += g.nout[b];
		g.nout[b] = 0;
	}
	for (uint32_t a = 0; a < f->n_arcs; a++) {
		uint32_t s = f->arcs[a].src;
		g.outa[s][g.nout[s]++] = a;
	}
	/* trust: the alignment matched most lines (under one mismatch per
	 * four instructions on average), so routed transfers are good
	 * arc targets; else, where branches pinned arcs, the routed
	 * counts of a reordered function only fight the pins. */
	int clean = 0, exact = 0, trust = 0, partial = 0;
	if (g.m && !copies_only) {
		if (!ctx->optimized)
			g.unsure = calloc(f->n_arcs + 1, 1);
		if ((!ctx->optimized && !g.unsure) || gm_find_gone_tests(&g))
			goto out;
		long cost = align_route(&g);
		if (cost < 0)
			goto out;
		clean = cost < SHAPE_COST;
		trust = clean && cost < (long)g.m;
		if (!clean)
			g.why = "machine code does not follow the gcno block "
				"order";
		exact = clean && !g.unrouted && !g.mid_exit && gm_balanced(&g);
		/* Sound but for transfers with several routes (a test gcc
		 * deleted has its two): the arcs off those routes keep their
		 * routed counts. */
		uint32_t gone = gm_gone_unbranched(&g);
		if (gone)
			gm_gone_unsure(&g);
		partial = exact && !ctx->optimized && !g.blind &&
			  (g.ambiguous || gone);
		exact = exact && !g.ambiguous && !gone;
		if (exact && !gm_branches_agree(&g)) {
			exact = 0;
			g.why = "a branch lies in a block that does not list "
				"its line";
		}
		if (exact && !gm_blocks_agree(&g)) {
			exact = 0;
			g.why = "a block's code has none of the block's lines";
		}
		if (exact && !gm_triangle_moves_placed(&g)) {
			exact = 0;
			g.why = "an arm between a test and its join holds only "
				"copies: they may be the other way's";
		}
		if (exact && !gm_diamond_arms_told(&g)) {
			exact = 0;
			g.why = "one arm of a two-way test lost its code, and "
				"the arms' lines cannot tell which";
		}
		if (exact && ctx->optimized && !gm_discr_agree(&g)) {
			exact = 0;
			g.why = "code lies in another block than the one its "
				"discriminator names";
		}
		if (partial && !gm_branches_agree(&g))
			partial = 0;
		if (partial && gone) {
			const struct lt_gcno_block *bl = &f->blocks[gone];
			snprintf(gone_why, sizeof(gone_why),
			         "the test on line %u lost its branch (its "
			         "ways meet): the arcs of its ways inferred",
			         bl->lines[bl->n_lines - 1].line);
			g.why = gone_why;
		} else if (partial) {
			g.why = "a machine transfer has two gcno routes: the "
				"arcs of those inferred";
		}
		if (clean && !g.why && !exact)
			g.why = "machine transfers do not balance on the gcno "
				"CFG";
		if (!clean) {
			uint64_t e = gc_insn_count(ctx->c, ctx->im, lo);
			uint64_t inner = gm_inner_ins(&g, 0);
			g.entries = e > inner ? e - inner : 0;
		}
	}
	/* Optimized code a trace began inside (a forked child returning
	 * from fork into it) balances through no calls as -O0's does: the
	 * flow gets one entry, an estimate (the instrumented child's
	 * counters start at the fork, its entry arc 0). */
	if (!g.entries && g.m && !copies_only && !exact && resumed(&g)) {
		g.entries = 1;
		g.why = "a trace began inside it (a forked child, a trace "
			"enabled mid-run): one entry assumed";
	}
	uint64_t self = 0, own = g.entries;
	if (g.m && !copies_only && !exact) {
		self = gm_self_entries(&g);
		g.entries += self;
	}
	if (copies_only || !g.m)
		for (uint32_t b = 0; b < nb; b++)
			est[b] = -1; /* copy_estimates counts their lines */
	else
		gm_estimates(&g, est);
	/* Copies inlined into themselves may share code that runs once
	 * for several of their calls (hoisted out of their loops), which
	 * self undercounts: their way out still runs once per call. Only
	 * there: elsewhere the machine entry counts the calls, and a
	 * line's code may also be loop code the line table gave the
	 * epilogue's line. */
	if (self) {
		uint64_t out = gm_exit_entries(&g, est);
		if (out > g.entries)
			g.entries = out;
	}
	if (!g.m && !nspan) {
		g.entries = given;
		g.why = "no code or inline record in the binary: calls counted "
			"from the source lines that make them";
	}
	g.est_low = nspan ? calloc(nb, 1) : NULL;
	uint64_t more = gm_copy_estimates(&g, span, nspan, est, est + nb);
	/* A block no estimate counts stays priced by none (later
	 * estimates of it are whole). */
	for (uint32_t b = 0; g.est_low && b < nb; b++)
		g.est_low[b] &= est[b] >= 0;
	/* Blocks still without an estimate that head a line several
	 * blocks list: the line's entries, every copy summed. */
	gm_entry_estimates(&g, est);
	guess = malloc(nb);
	if (!guess) {
		rc = LT_ERR_NOMEM;
		goto out;
	}
	for (uint32_t b = 0; b < nb; b++)
		guess[b] = est[b] < 0;
	/* Bodies of loops written on one line: the machine loop's
	 * iterations (guesses: drop_covered_guesses). */
	gm_line_loop_estimates(&g, est);
	for (uint32_t b = 0; b < nb; b++)
		guess[b] = guess[b] && est[b] >= 0;
	if (more) {
		g.entries += more;
		if (exact || partial || !g.why)
			g.why = "inlined or cloned copies counted from their "
				"lines";
		exact = 0;
	}
	if (!g.entries && !(exact && resumed(&g))) {
		rc = 0;
		goto out;
	}
	if (self || more)
		partial = 0;
	if (self)
		gm_self_block_estimate(&g, span, nspan, own, est);
	uint32_t pinned = 0;
	if (!exact && !partial) {
		hard = malloc(f->n_arcs * sizeof(*hard));
		soft = malloc(f->n_arcs);
		shared = malloc(f->n_arcs);
		if (!hard || !soft || !shared) {
			rc = LT_ERR_NOMEM;
			goto out;
		}
		int64_t *lb = est + nb; /* copy_estimates' scratch, free now */
		memset(lb, 0, nb * sizeof(*lb));
		if (g.m)
			pinned = gm_pin_branches(&g, hard, lb, soft, shared);
		/* The copies' own branches pin as the body's do; not in
		 * a function inlined into itself, whose self copies the
		 * body's flow recounts (gm_recount_self): there the
		 * copies' pins drew calls' runs away from its returns
		 * (calls' paths: +0.3% -> -3.7% instructions). */
		if (g.m && !copies_only && more && !self)
			pinned += gm_copy_pins(&g, span, nspan, hard, soft);
		int shaped = 0;
		for (uint32_t a = 0; pinned && a < f->n_arcs; a++)
			shaped |= soft[a] == GM_SOFT_SHAPE;
		if (pinned && copies_only) {
			soften_uncovered(&g, span, nspan, hard, soft);
			soften_short(&g, hard, soft, est);
		}
		if (pinned)
			drop_covered_guesses(&g, hard, guess, est);
		for (uint32_t b = 2; b < nb; b++)
			if (lb[b] > 0 && lb[b] > est[b])
				est[b] = lb[b];
		/* Entries counted from lines (copies, no machine entry)
		 * are at least the returns the pins show. */
		if (pinned && (copies_only || more)) {
			/* Copies' calls are counted from their lines, too
			 * many where their code is shared with or hoisted
			 * into their callers; where lines could not place
			 * the conditions (shape matches), fewer from the
			 * pins stand. Pins are lower bounds (a call may
			 * have resolved the first test), so calls from
			 * them prove no count: every pin becomes soft. */
			int64_t pe = copies_only && shaped ?
				     gm_pinned_entries(&g, hard) : -1;
			if (pe > 0 && (uint64_t)pe < g.entries) {
				g.entries = (uint64_t)pe;
				for (uint32_t a = 0; a < f->n_arcs; a++)
					soften(soft, a);
			}
			uint64_t ret = gm_pinned_returns(&g, hard, soft);
			/* A condition every call passes once counts the
			 * calls: more than the lines of copies whose code
			 * sits on the callers' lines, or fewer than the
			 * lines of code shared with or hoisted into the
			 * callers. Its pins are lower bounds too (a copy
			 * may have resolved or threaded its test): fewer
			 * calls from them prove no count. */
			int64_t once = copies_only ?
				       gm_once_entries(&g, hard, soft) : -1;
			if (once > 0 && (uint64_t)once < g.entries)
				for (uint32_t a = 0; a < f->n_arcs; a++)
					soften(soft, a);
			if (once > 0)
				g.entries = (uint64_t)once;
			if (ret > g.entries)
				g.entries = ret;
		}
		/* Lower bounds alone (soft) do not make the routed
		 * transfers less trustworthy than without pins. */
		uint32_t firm = 0;
		for (uint32_t a = 0; pinned && a < f->n_arcs; a++)
			firm += hard[a] >= 0 && !soft[a];
		/* Inlined into itself: the flow's counts of the blocks
		 * calling itself may show more calls (gcda_recurse.c). */
		int64_t *routed = self ?
				  malloc(f->n_arcs * sizeof(*routed)) : NULL;
		if (routed)
			memcpy(routed, g.arc, f->n_arcs * sizeof(*routed));
		int have = firm ? trust : clean;
		g.soft = pinned ? soft : NULL;
		rc = gm_make_flow(&g, have, est, pinned ? hard : NULL);
		if (!rc && ctx->optimized && !self)
			gm_fortrip_counts(&g, pinned ? hard : NULL,
			                  pinned ? soft : NULL);
		if (!rc && routed)
			rc = gm_recount_self(&g, span, nspan, est,
			                     pinned ? hard : NULL, have,
			                     own + more, routed);
		free(routed);
		if (rc)
			goto out;
	}
	for (uint32_t a = 0; a < f->n_arcs; a++)
		arc[a] = g.arc[a] > 0 ? (uint64_t)g.arc[a] : 0;
	res->status = exact ? GM_EXACT : GM_INFERRED;
	res->n_exact = exact ? f->n_arcs : 0;
	for (uint32_t a = 0; exact && det && a < f->n_arcs; a++)
		det[a] = 1;
	if (partial && det)
		res->n_exact = gm_claim_sure(&g, det);
	/* Counters the machine code determined (tree arcs carry none).
	 * Copies elsewhere (inlined, cloned) run their own copies of the
	 * branches, which the pins of the out-of-line body do not see:
	 * there the pins are lower bounds. */
	for (uint32_t a = 0; !exact && pinned && (!more || copies_only) &&
	                     a < f->n_arcs; a++)
		if (determined(&g, a, hard, soft, shared)) {
			res->n_exact++;
			if (det)
				det[a] = 1;
		}
	/* The calls are known when every one reached the out-of-line
	 * body's entry, which no inner jump reaches (a sibling call to
	 * itself would be one call the machine code does not show). */
	int entry_known = g.m && !copies_only && !more && !self &&
	                  !gm_inner_ins(&g, 0) &&
	                  g.entries == gc_insn_count(ctx->c, ctx->im, lo);
	if (!exact && (pinned || partial || entry_known) &&
	    (!more || copies_only) && det)
		res->n_exact += gm_close_determined(&g, det, entry_known);
	if (!exact && g.why)
		snprintf(res->why, sizeof(res->why), "%s", g.why);
	rc = 0;
out:
	free(g.in);
	free(g.bstart);
	free(g.bend);
	free(g.blk);
	free(g.outa);
	free(g.nout);
	free(g.npred);
	free(g.arc);
	free(est);
	free(hard);
	free(soft);
	free(shared);
	free(pool);
	free(guess);
	free(g.avoid);
	free(g.gone);
	free(g.unsure);
	free(g.est_low);
	return rc;
}


/* Is span k a whole clone (f.constprop.0, ...: a copy of its own,
 * gcda.c marks those with the top bit) whose other spans, if any, are
 * its cold parts? */
static int whole_clone(const struct gm_span *span, size_t nspan, size_t k)
{
	if (!(span[k].copy & 0x80000000u) || span[k].cold)
		return 0;
	for (size_t q = 0; q < nspan; q++)
		if (q != k && span[q].copy == span[k].copy && !span[q].cold)
			return 0;
	return 1;
}

int gm_map_function(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                    uint64_t lo, uint64_t hi, const struct gm_span *cold,
                    size_t ncold, const struct gm_span *span, size_t nspan,
                    uint64_t *arc, struct gm_result *res)
{
	/* Without a called out-of-line copy, the most called whole clone
	 * takes its place: its branches and transfers then count in full,
	 * not only its lines. */
	if (hi <= lo || !gc_insn_count(ctx->c, ctx->im, lo)) {
		long best = -1;
		uint64_t bn = 0;
		for (size_t k = 0; k < nspan; k++) {
			uint64_t n = gc_insn_count(ctx->c, ctx->im, span[k].lo);
			if (whole_clone(span, nspan, k) && n > bn) {
				best = (long)k;
				bn = n;
			}
		}
		if (best >= 0) {
			/* The clone's cold parts go with it; f's own never
			 * ran (its body was not called). */
			struct gm_span *rest = malloc(2 * nspan * sizeof(*rest));
			if (!rest)
				return LT_ERR_NOMEM;
			struct gm_span *bcold = rest + nspan;
			size_t nr = 0, nc = 0;
			for (size_t k = 0; k < nspan; k++)
				if (span[k].copy != span[best].copy)
					rest[nr++] = span[k];
				else if ((long)k != best)
					bcold[nc++] = span[k];
			int rc = map_one(ctx, f, span[best].lo, span[best].hi,
			                 bcold, nc, rest, nr, 0, arc, res);
			free(rest);
			return rc;
		}
	}
	return map_one(ctx, f, lo, hi, cold, ncold, span, nspan, 0, arc, res);
}

int gm_map_entries(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                   uint64_t entries, uint64_t *arc, struct gm_result *res)
{
	return map_one(ctx, f, 0, 0, NULL, 0, NULL, 0, entries, arc, res);
}
