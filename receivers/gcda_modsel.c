/* Branchless selects on a residue (gcda_mapper.h: gm_mod_select): for
 * `x = i % 7 == 0 ? 2 : 1` gcc -O2 computes the select without a branch,
 *
 *     li     a1,7           (often hoisted out of the loop)
 *     remuw  a4,a5,a1
 *     seqz   a4,a4
 *     addiw  a4,a4,1
 *
 * so no trace can tell how often each way of the gcno condition ran:
 * the flow has only its total. An even split is a poor guess here (the
 * -fprofile-use build differs: atomics, taken branches +30%): the residue
 * of a value by K equals one value about once in K, so the equal way
 * takes 1/K of the count. Which gcno arc is the equal way: gimplification
 * writes `if (c) goto then; else goto else;` with the then arm first and
 * both arms become PHI arguments; cfg cleanup removes the then arm's empty
 * forwarder (its arc now goes straight to the join) and must keep the
 * else arm's (two arcs from one block into one PHI need distinct
 * predecessors). So the arc straight to the join is the test's true way:
 * the equal way when the machine code tests equality (seqz), the other
 * way for `!=` (snez). An estimate (the flow's split of counts nothing
 * prices), never a claim. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Largest modulus taken: past it the split hardly differs from "never"
 * and a register holding a large constant is more often no modulus. */
#define MAX_MOD 4096
/* Instructions the zero test may come after the rem (scheduling). */
#define MAX_GAP 6

/* rem, remu, remw or remuw at addr: *rd, *rs2 set, 1; else 0. */
static int is_rem(const struct gm *g, uint64_t addr, uint32_t *rd,
                  uint32_t *rs2)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0 || d.len != 4)
		return 0;
	uint32_t r = d.raw, op = r & 0x7f, f3 = r >> 12 & 7;
	if ((op != 0x33 && op != 0x3b) || (r >> 25) != 1 || f3 < 6)
		return 0;
	*rd = r >> 7 & 31;
	*rs2 = r >> 20 & 31;
	return 1;
}

/* seqz (sltiu rd,rs,1: 1) or snez (sltu rd,zero,rs: 2) at addr, with
 * *rs set; else 0. */
static int zero_test(const struct gm *g, uint64_t addr, uint32_t *rs)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0 || d.len != 4)
		return 0;
	uint32_t r = d.raw;
	if ((r & 0x707f) == 0x3013 && (r >> 20) == 1) {
		*rs = r >> 15 & 31;
		return 1;
	}
	if ((r & 0xfe00707f) == 0x3033 && (r >> 15 & 31) == 0) {
		*rs = r >> 20 & 31;
		return 2;
	}
	return 0;
}

/* The constant `li reg,K` (addi reg,zero,K or c.li) at addr loads into
 * reg, or -1 when the instruction is no such load. */
static long li_value(const struct gm *g, uint64_t addr, uint32_t reg)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return -1;
	uint32_t r = d.raw;
	if (d.len == 4 && (r & 0xff07f) == 0x13 && (r >> 7 & 31) == reg)
		return (long)((int32_t)r >> 20);
	if (d.len == 2 && (r & 0xe003) == 0x4001 && (r >> 7 & 31) == reg) {
		long v = (long)((r >> 12 & 1) << 5 | (r >> 2 & 31));
		return v >= 32 ? v - 64 : v;
	}
	return -1;
}

/* The modulus of the rem at instruction k: the constant the last
 * instruction before it (in address order, where gcc puts a constant
 * hoisted out of the loop) that writes the divisor register loads; 0
 * when that is no constant load. */
static uint32_t modulus(const struct gm *g, uint32_t k, uint32_t div)
{
	for (uint32_t j = k; j-- > 0;) {
		if (g->in[j].addr > g->in[k].addr)
			continue;
		if (gm_int_rd(g, g->in[j].addr) != div)
			continue;
		long v = li_value(g, g->in[j].addr, div);
		return v >= 2 && v <= MAX_MOD ? (uint32_t)v : 0;
	}
	return 0;
}

/* Does instruction t's tested register come from the rem's result rd:
 * the register itself, or one instruction of the same line between them
 * (an `addi` by the compared residue) that reads rd and writes it? */
static int tests_residue(const struct gm *g, uint32_t k, uint32_t t,
                         uint32_t rd, uint32_t rs)
{
	if (rs == rd)
		return 1;
	for (uint32_t j = k + 1; j < t; j++)
		if (gm_int_rd(g, g->in[j].addr) == rs &&
		    gm_reads_reg(g, g->in[j].addr, rd))
			return 1;
	return 0;
}

/* Is block e a forwarder without code whose only real successor is d? */
static int empty_forwarder(const struct gm *g, uint32_t e, uint32_t d)
{
	return e >= 2 && gm_n_real_out(g, e) == 1 &&
	       gm_only_succ(g, e) == (long)d && gm_block_without_code(g, e) &&
	       !gm_has_fake_out(g, e);
}

uint32_t gm_mod_select(const struct gm *g, uint32_t b, uint32_t *eq)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	if (b < 2 || !bl->n_lines || gm_n_real_out(g, b) != 2 ||
	    gm_has_fake_out(g, b))
		return 0;
	uint32_t a[2], n = 0;
	for (uint32_t q = 0; q < g->nout[b]; q++)
		if (!(g->f->arcs[g->outa[b][q]].flags & LT_GCOV_ARC_FAKE))
			a[n++] = g->outa[b][q];
	/* direct: the arc straight to the join the other's forwarder
	 * leads to. */
	long direct = -1;
	for (uint32_t w = 0; w < 2; w++)
		if (empty_forwarder(g, g->f->arcs[a[1 - w]].dst,
		                    g->f->arcs[a[w]].dst))
			direct = (long)w;
	if (direct < 0)
		return 0;
	/* One rem by a constant whose residue a zero test soon after it
	 * reads, both on the condition's line (other rems there are other
	 * values' and a branch there may be another test's: a pinned way
	 * is not split here). */
	uint32_t mod = 0, kind = 0, npair = 0;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		uint32_t rd, div, z = 0;
		if (!gm_last_line_is(g, b, in->cfile, in->cline) ||
		    !is_rem(g, in->addr, &rd, &div))
			continue;
		for (uint32_t t = k + 1; t < g->m && t <= k + MAX_GAP && !z;
		     t++) {
			uint32_t rs;
			z = zero_test(g, g->in[t].addr, &rs);
			if (z && (!gm_last_line_is(g, b, g->in[t].cfile,
			                           g->in[t].cline) ||
			          !tests_residue(g, k, t, rd, rs)))
				z = 0;
		}
		if (!z)
			continue;
		if (++npair > 1)
			return 0;
		kind = z;
		mod = modulus(g, k, div);
	}
	if (!mod || !kind)
		return 0;
	/* seqz: the true way is the equal one; snez: the other way. */
	*eq = a[kind == 1 ? direct : 1 - direct];
	return mod;
}
