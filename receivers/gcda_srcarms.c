/* The arms of a `?:` told by its source text (gcda_arms.h:
 * gm_source_arms). Which way of a branch is the condition's true arc, the
 * lines cannot tell when the arms keep no code of their own or both list
 * the test's line; the source can, in three ways. A literal arm whose
 * constant a way loads into the join's register:
 *
 *     (x & 31u) < 7u ? x : 10u      bgeu t4,a3,L ; li a5,10 ; L:
 *
 * the fallthrough delivers 10, the else arm. An equality test whose
 * machine branch tests equality too:
 *
 *     x % 10u == 0u ? x : g_cnt     remuw a2,a5,t5 ; beqz a2,L ; mv a5,t3
 *
 * beqz is taken when the residue is zero: the test's true way. A
 * relational test whose operands the branch's registers are told by the
 * immediates that computed them (`(a >> 1) < (a + 3u)`: srlw 1 is the
 * left side, addw 3 the right; bltu left,right is taken when true). Two
 * facts of gcc make a source arm or a true way an arc: the C front end
 * folds the `?:` (fold_ternary), swapping its arms and inverting its test
 * when tree_swap_operands_p says the then-arm is the simpler operand
 * (gcda_srctext.c), and gimplification gives the condition's block its
 * true edge first, an order the gcno's arcs keep (later cleanups redirect
 * edges in place; so does the early tail-recursion pass, which rebuilds
 * a self-recursive function's call in tail position into a loop:
 * scripts/gcc-true-edge.py found no false edge first in 42 such functions
 * of gcc 12 -O2, and only in tests gcc makes itself elsewhere, switch
 * conversion's range checks and the like). So the gcno block's first
 * out-arc is the folded test's true way. Over the corpus every branch this decided agreed with the
 * instrumented twin where the counts tell (112 blocks, 19 undecidable
 * from the twin's sums). A guess all the same (the text is read, not
 * compiled: macros, types): the caller keeps such pins soft. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_srctext.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Straight-line instructions before the branch searched for the
 * constant the taken way keeps. */
#define KEEP_BACK 8

/* Does the register branch i tests hold a truth value computed before it
 * (slt, sltu, slti(u), xori with 1: seqz/snez and friends), whose
 * polarity the source's test need not share? Straight-line code only. */
static int tests_flag(const struct gm *g, uint32_t i)
{
	uint32_t regs = gm_branch_regs(g, g->in[i].addr);
	for (uint32_t n = 0, k = i; n < KEEP_BACK && k > 0; n++) {
		k--;
		if (!gm_falls_to_next(g, k) || g->in[k].cls != LT_INSN_OTHER)
			return 0;
		uint32_t rd = gm_int_rd(g, g->in[k].addr);
		if (!rd || (rd != (regs & 31) && rd != (regs >> 5 & 31)))
			continue;
		struct lt_insn d;
		if (lt_image_insn(g->x->img, g->in[k].addr, &d) < 0)
			return 1;
		uint32_t r = d.raw, op = r & 0x7f, f3 = r >> 12 & 7;
		if (d.len != 4)
			return 0;
		return ((op == 0x13 || op == 0x33) && (f3 == 2 || f3 == 3)) ||
		       (op == 0x13 && f3 == 4 && (r >> 20) == 1);
	}
	return 0;
}

/* The constant an li (addi rd, x0, imm; c.li) at addr loads: 1, *rd and
 * *v set; else 0. */
static int load_imm(const struct gm *g, uint64_t addr, uint32_t *rd,
                    uint64_t *v)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2 && (r & 0xe003) == 0x4001 && (r >> 7 & 31)) {
		int32_t imm = (int32_t)((r >> 2 & 31) | (r >> 12 & 1) << 5);
		*rd = r >> 7 & 31;
		*v = (uint64_t)(int64_t)(imm >= 32 ? imm - 64 : imm);
		return 1;
	}
	if (d.len != 4 || (r & 0x707f) != 0x13 || (r >> 15 & 31) ||
	    !(r >> 7 & 31))
		return 0;
	*rd = r >> 7 & 31;
	*v = (uint64_t)(int64_t)((int32_t)r >> 20);
	return 1;
}

/* Is insn k the target of a transfer other than a call (a join: what
 * was loaded before it need not hold)? */
static int jumped_to(const struct gm *g, uint32_t k)
{
	for (uint32_t j = 0; j < g->m; j++)
		if ((g->in[j].cls == LT_INSN_BRANCH ||
		     (g->in[j].cls == LT_INSN_JUMP &&
		      g->in[j].link == LT_LINK_NONE)) &&
		    g->in[j].tgt == g->in[k].addr)
			return 1;
	return 0;
}

/* The constant register rd holds at branch i, loaded in the straight code
 * before it: 1 and *v set; else 0. */
static int kept_imm(const struct gm *g, uint32_t i, uint32_t rd,
                    uint64_t *v)
{
	for (uint32_t n = 0, k = i; n < KEEP_BACK && k > 0; n++) {
		if (jumped_to(g, k))
			return 0;
		k--;
		if (!gm_falls_to_next(g, k) || g->in[k].cls != LT_INSN_OTHER)
			return 0;
		uint32_t r;
		if (gm_int_rd(g, g->in[k].addr) == rd)
			return load_imm(g, g->in[k].addr, &r, v) && r == rd;
	}
	return 0;
}

/* The immediate of an op-imm at addr that reads a register (addi,
 * andi, shifts, their -w and compressed forms; not li): 1 and *v set;
 * else 0. Shift amounts unsigned, other immediates sign-extended. */
static int op_imm(const struct gm *g, uint64_t addr, int64_t *v)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, f3 = r >> 13 & 7;
	if (d.len == 4) {
		uint32_t op = r & 0x7f, f = r >> 12 & 7;
		if ((op != 0x13 && op != 0x1b) || !(r >> 15 & 31) || f == 2 ||
		    f == 3)
			return 0;
		*v = f == 1 || f == 5 ? (int64_t)(r >> 20 & 0x3f) :
		     (int64_t)((int32_t)r >> 20);
		return 1;
	}
	int32_t imm = (int32_t)((r >> 2 & 31) | (r >> 12 & 1) << 5);
	int64_t sx = imm >= 32 ? imm - 64 : imm;
	if ((r & 3) == 1 && (f3 == 0 || f3 == 1) && (r >> 7 & 31)) {
		*v = sx; /* c.addi, c.addiw */
		return 1;
	}
	if ((r & 3) == 1 && f3 == 4 && (r >> 10 & 3) != 3) {
		*v = (r >> 10 & 3) == 2 ? sx : imm; /* c.andi; c.srli, c.srai */
		return 1;
	}
	if ((r & 3) == 2 && f3 == 0 && (r >> 7 & 31)) {
		*v = imm; /* c.slli */
		return 1;
	}
	return 0;
}

/* Does insn k run straight on to insn k + 1: falling into it, or through
 * up to two instructions outside g (a caller's code the scheduler put
 * amid an inlined copy's), none a transfer or writing register reg? */
static int straight_on(const struct gm *g, uint32_t k, uint32_t reg)
{
	if (gm_falls_to_next(g, k))
		return 1;
	if (k + 1 >= g->m)
		return 0;
	uint64_t a = g->in[k].addr + g->in[k].len;
	for (int n = 0; n < 2 && a < g->in[k + 1].addr; n++) {
		struct lt_insn d;
		if (lt_image_insn(g->x->img, a, &d) < 0 ||
		    d.cls != LT_INSN_OTHER || gm_int_rd(g, a) == reg)
			return 0;
		a += d.len;
	}
	return a == g->in[k + 1].addr;
}

/* The base register of a load at addr from an offset of a register
 * (lb ... ld, c.lw, c.ld; not from sp), else 0. */
static uint32_t load_base(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 4)
		return (r & 0x7f) == 0x03 && (r >> 12 & 7) != 7 ?
		       r >> 15 & 31 : 0;
	if ((r & 3) == 0 && ((r >> 13 & 7) == 2 || (r >> 13 & 7) == 3))
		return 8 + (r >> 7 & 7);
	return 0;
}

/* Is insn k a load whose address a register-register add computed in
 * the straight code just before it (`add a7,a7,t5; lw a5,0(a7)`: an
 * element at a variable subscript, not a global or a stack slot)? */
static int element_load(const struct gm *g, uint32_t k)
{
	uint32_t base = load_base(g, g->in[k].addr);
	if (!base || base == 2 || base == 3 || base == 4)
		return 0;
	for (uint32_t n = 0; n < KEEP_BACK && k > 0; n++) {
		if (jumped_to(g, k))
			return 0;
		k--;
		if (!straight_on(g, k, base) || g->in[k].cls != LT_INSN_OTHER)
			return 0;
		if (gm_int_rd(g, g->in[k].addr) != base)
			continue;
		struct lt_insn d;
		if (lt_image_insn(g->x->img, g->in[k].addr, &d) < 0)
			return 0;
		uint32_t r = d.raw;
		if (d.len == 4)
			return (r & 0xfe00707f) == 0x33;
		return (r & 0xf003) == 0x9002 && (r >> 2 & 31);
	}
	return 0;
}

/* Which side of relational test s (0 below, 1 above when true) register
 * reg of branch i holds: x0 the side written as 0; a register an op-imm
 * set in the straight code before the branch the one side whose text
 * holds its immediate (`x & 31u` is andi 31, `a + 3u` addi 3); a register
 * an element load set there (element_load) the side that reads an
 * element when the other is a name alone (`t[a & 15u] > x3`). -1: not
 * told. */
static int side_of(const struct gm *g, uint32_t i, const struct gm_select *s,
                   uint32_t reg)
{
	int hit[2] = {0, 0};
	if (!reg) {
		for (int d = 0; d < 2; d++)
			hit[d] = gm_select_side_zero(s, d);
		return hit[0] == hit[1] ? -1 : hit[1];
	}
	for (uint32_t n = 0, k = i; n < KEEP_BACK && k > 0; n++) {
		if (jumped_to(g, k))
			return -1;
		k--;
		if (!straight_on(g, k, reg) || g->in[k].cls != LT_INSN_OTHER)
			return -1;
		if (gm_int_rd(g, g->in[k].addr) != reg)
			continue;
		if (element_load(g, k)) {
			for (int d = 0; d < 2; d++)
				hit[d] = gm_select_side_element(s, d) &&
					 gm_select_side_plain(s, 1 - d);
			return hit[0] == hit[1] ? -1 : hit[1];
		}
		/* Not an update in place (`n -= 2` of a loop gcc made of a
		 * recursion): its immediate is no operand's. */
		int64_t v;
		if (!op_imm(g, g->in[k].addr, &v) ||
		    gm_updated_rd(g, g->in[k].addr))
			return -1;
		for (int d = 0; d < 2; d++)
			hit[d] = gm_select_side_holds(s, d, v);
		return hit[0] == hit[1] ? -1 : hit[1];
	}
	return -1;
}

/* For the relational test of s and branch i (blt, bge, bltu, bgeu): 1
 * when the branch is taken on the test's true way, 0 when on its false
 * way, -1 when its operands' sides are not told. */
static int relational_taken(const struct gm *g, uint32_t i,
                            const struct gm_select *s)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, g->in[i].addr, &d) < 0 || d.len != 4 ||
	    (d.raw & 0x7f) != 0x63 || (d.raw >> 12 & 7) < 4)
		return -1;
	uint32_t f3 = d.raw >> 12 & 7, rs1 = d.raw >> 15 & 31;
	uint32_t rs2 = d.raw >> 20 & 31;
	int s1 = side_of(g, i, s, rs1), s2 = side_of(g, i, s, rs2);
	if ((s1 < 0 && s2 < 0) || (s1 >= 0 && s1 == s2))
		return -1;
	int rs1_below = s1 >= 0 ? s1 == 0 : s2 == 1;
	int below = f3 == 4 || f3 == 6; /* blt, bltu: taken if rs1 < rs2 */
	return below == rs1_below;
}

/* Is insn t reached by a transfer other than a call besides insn i, or
 * by code falling into it? */
static int entered_besides(const struct gm *g, uint32_t t, uint32_t i)
{
	const struct minsn *p = t > 0 ? &g->in[t - 1] : NULL;
	if (p && t - 1 != i && gm_falls_to_next(g, t - 1) &&
	    (p->cls == LT_INSN_OTHER || p->cls == LT_INSN_BRANCH ||
	     gm_is_call(p)))
		return 1;
	for (uint32_t j = 0; j < g->m; j++)
		if (j != i && (g->in[j].cls == LT_INSN_BRANCH ||
		               (g->in[j].cls == LT_INSN_JUMP &&
		                g->in[j].link == LT_LINK_NONE)) &&
		    g->in[j].tgt == g->in[t].addr)
			return 1;
	return 0;
}

/* Votes (vote[s]: the fallthrough delivers arm s) from the taken way of
 * branch i when it runs only edge copies from its target, a place no
 * other code reaches, into a join other code jumps to: each literal
 * they load that is one arm's only is the taken way's arm, so the
 * fallthrough delivers the other. */
static void taken_votes(const struct gm *g, uint32_t i,
                        const struct gm_select *sel, int *vote)
{
	long t = g->in[i].tgt ? gm_insn_at(g, g->in[i].tgt) : -1;
	if (t < 0 || entered_besides(g, (uint32_t)t, i))
		return;
	uint32_t k = (uint32_t)t;
	while (k < g->m && k - (uint32_t)t < KEEP_BACK &&
	       gm_edge_copy(g, k) && gm_falls_to_next(g, k) &&
	       (k == (uint32_t)t || !jumped_to(g, k)))
		k++;
	if (k == (uint32_t)t || k >= g->m || !jumped_to(g, k) ||
	    g->in[k - 1].addr + g->in[k - 1].len != g->in[k].addr)
		return;
	for (uint32_t q = (uint32_t)t; q < k; q++) {
		uint32_t r;
		uint64_t v;
		for (int s = 0; s < 2; s++)
			if (load_imm(g, g->in[q].addr, &r, &v) &&
			    gm_select_delivers(sel, s, v) &&
			    !gm_select_delivers(sel, 1 - s, v))
				vote[1 - s]++;
	}
}

/* Does an li on branch i's line load register r (`exsign > 0` of
 * exsign in {-1, 1}: li a2,1; beq exsign,a2, an equality with another
 * value than the relation's operands)? */
static int line_constant(const struct gm *g, uint32_t i, uint32_t r)
{
	for (uint32_t k = 0; r && k < g->m; k++) {
		uint32_t rd;
		uint64_t v;
		if (g->in[k].file == g->in[i].file &&
		    g->in[k].line == g->in[i].line &&
		    load_imm(g, g->in[k].addr, &rd, &v) && rd == r)
			return 1;
	}
	return 0;
}

/* A relational test whose branch tests equality: a range known on the
 * branch's path (an earlier test of the same values) left one side of
 * the relation possible, so VRP narrowed it (`d < 0`, d = a - b, after
 * `a > b` failed: bne a,b). A strict test then holds when the operands
 * differ, a non-strict one when they are equal; only for sides no
 * constant fold moves (`x < 1u` is `x == 0`). ne: gm_unequal_way of the
 * branch. 1 when the branch is taken on the source test's true way, 0
 * on its false way, -1 when the rule does not apply. */
static int narrowed_taken(const struct gm *g, uint32_t i,
                          const struct gm_select *s, int ne)
{
	uint32_t regs = gm_branch_regs(g, g->in[i].addr);
	if (s->test.kind != GM_TEST_LT || s->test.negated || ne < 0 ||
	    tests_flag(g, i) || !gm_select_side_unmoved(s, 0) ||
	    !gm_select_side_unmoved(s, 1) || regs == 0xffffffffu ||
	    line_constant(g, i, regs & 31) ||
	    line_constant(g, i, regs >> 5 & 31))
		return -1;
	return s->test.strict ? ne == 0 : ne == 1;
}

/* Contract in gcda_arms.h. */
int gm_source_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                   long *fa)
{
	const struct minsn *in = &g->in[i];
	if (g->nout[b] != 2 || gm_has_fake_out(g, b) ||
	    in->file == LT_DWARF_NO_FILE || in->file >= g->x->dw->nfiles)
		return 0;
	struct gm_select sel;
	int ok = gm_select_read(g->x->src, g->x->dw->file[in->file], in->line,
	                        &sel);
	int swap = ok ? gm_select_swapped(&sel) : -1;
	/* taken_src: the branch is taken on the source test's true way. */
	int taken_src = -1, ne = gm_unequal_way(g, in->addr);
	const struct gm_test *test = &sel.test;
	enum gm_test_kind kind = test->kind;
	if (kind == GM_TEST_LT && test->negated && ne >= 0)
		kind = GM_TEST_EQ;
	if (swap >= 0 && kind == GM_TEST_LT && !tests_flag(g, i))
		taken_src = relational_taken(g, i, &sel);
	if (swap < 0) {
		gm_select_fini(&sel);
		return 0;
	}
	/* Votes for the arm (0 then, 1 else) the fallthrough delivers, when
	 * it runs only edge copies up to the target: each constant they
	 * load, and each one their register held before the branch (the
	 * taken way's value). */
	int vote[2] = {0, 0};
	int copies = gm_falls_to_next(g, i) && in->tgt > in->addr;
	for (uint32_t k = i + 1; copies && k < g->m && g->in[k].addr < in->tgt;
	     k++)
		copies = gm_edge_copy(g, k) && gm_falls_to_next(g, k);
	for (uint32_t k = i + 1; copies && k < g->m && g->in[k].addr < in->tgt;
	     k++) {
		uint32_t rd = gm_int_rd(g, g->in[k].addr), r;
		uint64_t v;
		for (int s = 0; s < 2; s++) {
			if (load_imm(g, g->in[k].addr, &r, &v) &&
			    gm_select_delivers(&sel, s, v) &&
			    !gm_select_delivers(&sel, 1 - s, v))
				vote[s]++;
			if (rd && kept_imm(g, i, rd, &v) &&
			    gm_select_delivers(&sel, s, v) &&
			    !gm_select_delivers(&sel, 1 - s, v))
				vote[1 - s]++;
		}
	}
	/* Without edge copies on the fallthrough, the taken way's: an arm
	 * gcc laid out elsewhere (`li a5,13` at the target, falling into
	 * the join the other way jumps to) delivers the other arm than the
	 * fallthrough does. */
	if (!vote[0] && !vote[1])
		taken_votes(g, i, &sel, vote);
	/* fall_true: the fallthrough is the folded test's true way. */
	int fall_true = -1;
	if (!vote[0] != !vote[1])
		fall_true = (vote[1] > 0) == swap;
	/* An equality test whose branch tests equality (against zero when
	 * the source compares with nothing): taken on the source's true way
	 * when both are true on the equal way or both on the unequal way. */
	if ((kind == GM_TEST_EQ || kind == GM_TEST_NE) &&
	    ne >= 0 && !tests_flag(g, i) &&
	    (test->explicit || !(gm_branch_regs(g, in->addr) >> 5 & 31)))
		taken_src = (kind == GM_TEST_NE) == (ne == 0);
	if (taken_src < 0)
		taken_src = narrowed_taken(g, i, &sel, ne);
	gm_select_fini(&sel);
	if (taken_src >= 0) {
		int pol = taken_src == swap;
		if (fall_true >= 0 && fall_true != pol)
			return 0;
		fall_true = pol;
	}
	if (fall_true < 0)
		return 0;
	/* The gcno block's first arc is the folded test's true way. */
	long t = g->outa[b][0], f = g->outa[b][1];
	*fa = fall_true ? t : f;
	*ta = fall_true ? f : t;
	return 1;
}

/* Contract in gcda_arms.h. */
long gm_literal_arm_arc(const struct gm *g, uint32_t i, uint32_t b,
                        const uint32_t *arm, int n)
{
	const struct minsn *in = &g->in[i];
	if (g->nout[b] != 2 || gm_has_fake_out(g, b) ||
	    in->file == LT_DWARF_NO_FILE || in->file >= g->x->dw->nfiles)
		return -1;
	struct gm_select sel;
	int ok = gm_select_read(g->x->src, g->x->dw->file[in->file], in->line,
	                        &sel);
	int swap = ok ? gm_select_swapped(&sel) : -1, lit = -1;
	for (int k = 0; swap >= 0 && k < n; k++) {
		int64_t v;
		if (!op_imm(g, g->in[arm[k]].addr, &v))
			continue;
		for (int s = 0; s < 2; s++)
			if (gm_select_delivers(&sel, s, (uint64_t)v) &&
			    !gm_select_delivers(&sel, 1 - s, (uint64_t)v))
				lit = lit < 0 || lit == s ? s : 2;
	}
	gm_select_fini(&sel);
	if (lit < 0 || lit > 1)
		return -1;
	/* The gcno block's first arc is the folded test's true way, which
	 * delivers the then arm unless fold swapped the arms. */
	return g->outa[b][(lit == 0) == (swap == 0) ? 0 : 1];
}

/* Contract in gcda_arms.h. */
int gm_narrowed_equal_way(const struct gm *g, uint32_t i)
{
	const struct minsn *in = &g->in[i];
	int ne = gm_unequal_way(g, in->addr);
	if (ne < 0 || in->file == LT_DWARF_NO_FILE ||
	    in->file >= g->x->dw->nfiles)
		return -1;
	struct gm_select sel;
	int ok = gm_select_read(g->x->src, g->x->dw->file[in->file], in->line,
	                        &sel);
	int r = ok && gm_select_swapped(&sel) >= 0 &&
		narrowed_taken(g, i, &sel, ne) >= 0 ? 1 - ne : -1;
	gm_select_fini(&sel);
	return r;
}
