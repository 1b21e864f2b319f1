/* Duplicated tests (gcda_arms.h: gm_dup_test_arms). Jump threading copies
 * a test onto a path where a later test of the same chain is decided:
 *
 *     if (u > v) { t = u; u = v; v = t; }
 *     if (!g_add(g, u, v)) ...     g_add: if (ne >= MAXE || u == v) return 0;
 *
 * On the swap's path u == v is known false, so gcc gives that path its own
 * copy of `ne >= MAXE`, whose way on skips the equality test and runs the
 * swap's moves (sunk below the test, the caller's lines) into the body.
 * That copy's ways match no block by their lines (both seem to leave an
 * inlined copy), or match the equality test's block, whose ways look the
 * same (the body on one way, the give-up join on the other), though that
 * block's own test compares other registers. The copy is the same instruction as the test's other copy, the
 * same comparison of the same registers jumping to the same place: those
 * compare the same values and go the same way, so they are one condition.
 * The other copy's line match tells which. Registers alone do not make
 * one value (`a[i] < k && a[j] < k` may load both into a5): the copies
 * must share the line and neither may set the registers it compares in
 * the straight code before it (values both copies inherit). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* The bits of a conditional branch's encoding that do not encode its
 * offset: opcode, funct3 and the registers. */
static uint32_t test_bits(const struct lt_insn *d)
{
	return d->len == 2 ? d->raw & 0xe383u : d->raw & 0x01fff07fu;
}

/* Does the straight-line code before branch k (back to a transfer or
 * call) write a register the branch compares (regs: gm_branch_regs)? */
static int sets_own_regs(const struct gm *g, uint32_t k, uint32_t regs)
{
	uint32_t r1 = regs >> 5 & 31, r2 = regs & 31;
	while (k > 0 && gm_falls_to_next(g, k - 1) &&
	       !gm_ends_block(&g->in[k - 1]) && !gm_is_call(&g->in[k - 1])) {
		uint32_t rd = gm_int_rd(g, g->in[--k].addr);
		if (rd && (rd == r1 || rd == r2))
			return 1;
	}
	return 0;
}

/* (contract in gcda_arms.h) */
int gm_dup_test_arms(const struct gm *g, uint32_t i, gm_line_match_fn lines,
                     long cur, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	struct lt_insn d, e;
	uint32_t regs = gm_branch_regs(g, in->addr);
	if (in->cls != LT_INSN_BRANCH || !in->tgt || !in->line ||
	    lt_image_insn(g->x->img, in->addr, &d) < 0 ||
	    regs == 0xffffffffu || sets_own_regs(g, i, regs))
		return 0;
	long a = -1, b = -1;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *o = &g->in[k];
		if (k == i || o->cls != LT_INSN_BRANCH || o->tgt != in->tgt ||
		    o->len != in->len || o->line != in->line ||
		    o->file != in->file || sets_own_regs(g, k, regs) ||
		    lt_image_insn(g->x->img, o->addr, &e) < 0 ||
		    test_bits(&e) != test_bits(&d))
			continue;
		long x, y;
		if (!lines(g, k, &x, &y))
			continue;
		/* Copies that disagree say nothing. */
		if (a >= 0 && (x != a || y != b))
			return 0;
		a = x;
		b = y;
	}
	if (a < 0 || (cur >= 0 && g->f->arcs[a].src == (uint32_t)cur))
		return 0;
	/* Lines matched i to another block (its way skips that block's
	 * test, which the path decided): the copy wins when that block's
	 * own test, matched by its lines, compares other registers. */
	int other = cur < 0;
	for (uint32_t k = 0; !other && k < g->m; k++) {
		const struct minsn *o = &g->in[k];
		long x, y;
		other = k != i && o->cls == LT_INSN_BRANCH &&
			o->line == in->line && o->file == in->file &&
			gm_branch_regs(g, o->addr) != regs &&
			lines(g, k, &x, &y) &&
			g->f->arcs[x].src == (uint32_t)cur;
	}
	if (!other)
		return 0;
	*ta = a;
	*fa = b;
	return 1;
}
