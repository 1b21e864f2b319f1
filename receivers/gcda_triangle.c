/* Branches over one arm (gcda_mapper.h: gm_triangle_arms,
 * gm_triangle_moves_placed, gm_diamond_arms_told, gm_triangle_split and
 * gm_sunk_arms): gcc -O2 often computes one arm of an if/else or ?:
 * before the test (the cheap value, or code every path needs) and leaves
 * a branch that skips the other arm's few instructions, landing where
 * that arm's way lands:
 *
 *     srlw  a5,a5,1        n / 2 (the else arm, line 83, run always)
 *     beqz  a3,.Ljoin      even: skip the then arm
 *     addw  a5,a4,1        3 * n + 1 (the then arm, line 82)
 *   .Ljoin:
 *
 * Both ways then reach the join's lines, which every arm of the gcno
 * condition reaches too, so line matching cannot tell the ways apart
 * (gcda_pin.c: match_branch matches the condition both ways round). The
 * shape can: the way that runs instructions of its own before reaching
 * the other way's landing is the arm whose lines those instructions are
 * (the other arm lists none of them), or, when the gcno has no second
 * arm (the condition's one arc goes straight to the join the other arc's
 * block leads to), the arc through that block. An arm that computes
 * nothing (copies, constants, loads) tells nothing: out of SSA, the
 * value a join receives from the arc without a block is put on that
 * arc's way as well (gm_computes). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Instructions an arm may hold before it reaches the join. */
#define MAX_ARM 8

/* Does the instruction at addr compute (integer arithmetic or logic,
 * not a register copy, a zero-extension, a constant, a stack address or
 * a load)? Out of
 * SSA, the value a join receives from the arc without a block of its
 * own is put on that arc's way by copies, constants or a reload of a
 * variable kept in memory (the old value of `if (c) v[i] += k;` whose
 * store was sunk below the test), never by a computation. */
/* The destination register of a shift by 32 at addr: left (dir 0,
 * slli/c.slli) or right logical (dir 1, srli/c.srli), with rs1 in *rs;
 * 0 when the instruction is no such shift. */
static uint32_t shift32(const struct gm *g, uint64_t addr, int dir,
                        uint32_t *rs)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2) {
		uint32_t imm = (r >> 12 & 1) << 5 | (r >> 2 & 31);
		uint32_t rd = dir ? 8 + (r >> 7 & 7) : r >> 7 & 31;
		int ok = dir ? (r & 0xec03) == 0x8001 : (r & 0xe003) == 2;
		*rs = rd;
		return ok && imm == 32 ? rd : 0;
	}
	*rs = r >> 15 & 31;
	return (r & 0x707f) == (dir ? 0x5013u : 0x1013u) &&
	       (r >> 20) == 32 ? r >> 7 & 31 : 0;
}

/* The length of the instruction at addr, 0 when none decodes there. */
static int insn_len(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	return lt_image_insn(g->x->img, addr, &d) < 0 ? 0 : (int)d.len;
}

/* Is the instruction at addr half of a zero-extension of a 32-bit value
 * (`slli rd,rs,32; srli rd,rd,32`, zext.w): a conversion out of SSA
 * puts on an edge like a copy? */
static int zext_half(const struct gm *g, uint64_t addr)
{
	uint32_t rs, rs2, rd = shift32(g, addr, 0, &rs);
	for (int len = 2; rd && len <= 4; len += 2)
		if (shift32(g, addr + (uint64_t)len, 1, &rs2) == rd &&
		    rs2 == rd && insn_len(g, addr) == len)
			return 1;
	rd = shift32(g, addr, 1, &rs);
	for (int len = 2; rd && rs == rd && len <= 4; len += 2)
		if (shift32(g, addr - (uint64_t)len, 0, &rs2) == rd &&
		    insn_len(g, addr - (uint64_t)len) == len)
			return 1;
	return 0;
}

int gm_computes(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0 || zext_half(g, addr))
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2) {
		uint32_t q = r & 3, f3 = r >> 13 & 7, rd = r >> 7 & 31;
		uint32_t imm = (r >> 12 & 1) << 5 | (r >> 2 & 31);
		if (q == 1)
			/* c.addi, c.addiw (imm 0 is sext.w), c.srli ..
			 * c.and, c.subw, c.addw. */
			return (f3 == 0 && rd && imm) ||
			       (f3 == 1 && imm) || f3 == 4;
		/* c.slli, c.add (funct4 1001, rs2 != 0, rd != 0). */
		return q == 2 && ((f3 == 0 && rd) ||
		                  ((r >> 12 & 15) == 9 && (r >> 2 & 31) && rd));
	}
	uint32_t op = r & 0x7f, f3 = r >> 12 & 7, rs1 = r >> 15 & 31;
	int32_t imm = (int32_t)r >> 20;
	if (op == 0x33 || op == 0x3b)
		return 1; /* OP, OP-32 */
	/* OP-IMM but li, mv; OP-IMM-32 but sext.w. */
	return (op == 0x13 && (f3 || (rs1 && imm))) ||
	       (op == 0x1b && (f3 || imm));
}

/* Follows the straight-line code from insn `from` (plain jumps
 * followed; no branch, call or other transfer on the way) to address
 * `to`, within MAX_ARM instructions. Returns the number of instructions
 * run before `to` (0 when from is at `to`) with their indices in arm[],
 * or -1 when the code does not reach `to` that way. */
static int arm_to(const struct gm *g, long from, uint64_t to,
                  uint32_t arm[MAX_ARM])
{
	int n = 0;
	for (int steps = 0; from >= 0 && steps < 2 * MAX_ARM; steps++) {
		const struct minsn *i = &g->in[from];
		if (i->addr == to)
			return n;
		if (i->cls == LT_INSN_JUMP && i->link == LT_LINK_NONE) {
			from = gm_insn_at(g, i->tgt);
			continue;
		}
		if (gm_ends_block(i) || gm_is_call(i) || n == MAX_ARM ||
		    !gm_falls_to_next(g, (uint32_t)from))
			return -1;
		arm[n++] = (uint32_t)from;
		from++;
	}
	return -1;
}

/* Which of gcno blocks d (arc 0) and e (arc 1) do the arm's
 * instructions arm[n] belong to: 0 or 1, -1 when the lines do not
 * say. Every instruction with a line must have one that block lists and
 * the other does not. */
static int arm_block(const struct gm *g, const uint32_t *arm, int n,
                     uint32_t d, uint32_t e)
{
	int side = -1;
	for (int k = 0; k < n; k++) {
		const struct minsn *i = &g->in[arm[k]];
		if (!i->cline || i->nop)
			continue;
		int hd = gm_block_has_line(g, d, i->cfile, i->cline);
		int he = gm_block_has_line(g, e, i->cfile, i->cline);
		if (hd == he)
			return -1;
		if (side >= 0 && side != he)
			return -1;
		side = he;
	}
	return side;
}

/* Does gcno block d list lines, among them the line of every
 * instruction of arm[n] that has one (a triangle's arm block, b -> d ->
 * join)? An empty block (a PHI's edge) has no code to recognise. */
static int arm_lines_in(const struct gm *g, const uint32_t *arm, int n,
                        uint32_t d)
{
	if (!g->f->blocks[d].n_lines)
		return 0;
	for (int k = 0; k < n; k++) {
		const struct minsn *i = &g->in[arm[k]];
		if (i->cline && !i->nop &&
		    !gm_block_has_line(g, d, i->cfile, i->cline))
			return 0;
	}
	return 1;
}

/* Does gcno block j list the line of every instruction of arm[n]? */
static int lines_of(const struct gm *g, const uint32_t *arm, int n,
                    uint32_t j)
{
	for (int k = 0; k < n; k++) {
		const struct minsn *in = &g->in[arm[k]];
		if (in->cline && !gm_block_has_line(g, j, in->cfile, in->cline))
			return 0;
	}
	return 1;
}

/* Are the arm's instructions arm[n] code of the condition block b sunk
 * below its test: every one with a line has a line b lists and the arm
 * block d does not, and one has? `x = a; if (c) x = b;` becomes `x = c ?
 * b : a` with a computed only on the way that needs it, the way that does
 * not go through d (which overwrites x). Only when d lists lines: the
 * code of an empty block (switch conversion's table load or bit test,
 * `sum += 31` of a case folded into its caller) carries its neighbours'
 * lines, the condition's among them. And only when the join (the block
 * both ways reach) does not list every arm line too: then the code may as
 * well be the join's, kept on one way because gcc folded it for the value
 * the other way brings. A helper `if (t[x] > x) return x; return 0;`
 * inlined early into `v |= h(x) % m;` leaves the `%` on the `return x`
 * way only (0 % m is 0), on the caller's line, which b and the join list
 * and d (the helper's `return x`) does not. */
static int sunk_from(const struct gm *g, const uint32_t *arm, int n,
                     uint32_t b, uint32_t d, uint32_t join)
{
	int any = 0;
	if (!g->f->blocks[d].n_lines || lines_of(g, arm, n, join))
		return 0;
	for (int k = 0; k < n; k++) {
		const struct minsn *i = &g->in[arm[k]];
		if (!i->cline || i->nop)
			continue;
		if (!gm_block_has_line(g, b, i->cfile, i->cline) ||
		    gm_block_has_line(g, d, i->cfile, i->cline))
			return 0;
		any = 1;
	}
	return any;
}

/* Is the arm's code arm[n] one of two values a join receives, both
 * computed on lines the condition block b lists too? Yes when an arm
 * instruction computes into a register that the arm did not read before
 * (a new value, not an update) and whose last write before the branch at
 * insn i (straight code back to the previous transfer) computed it on a
 * line of the arm, the branch not testing it: gcc computed the cheap
 * value of `x = c ? v : w` before the test and overwrites it on one way.
 * Which of v and w the way's code is, the lines (one line for the test
 * and both values) cannot tell, nor the shape: the value a gcno arc
 * brings without a block of its own may be recomputed on the way
 * rather than copied. */
static int overwrites_early_value(const struct gm *g, uint32_t i,
                                  const uint32_t *arm, int n, uint32_t b)
{
	uint32_t fresh = 0, read = 0;
	for (int k = 0; k < n; k++) {
		const struct minsn *a = &g->in[arm[k]];
		if (!a->cline || a->nop ||
		    !gm_block_has_line(g, b, a->cfile, a->cline))
			return 0;
		for (uint32_t r = 1; r < 32; r++)
			if (gm_reads_reg(g, a->addr, r))
				read |= 1u << r;
		uint32_t rd = gm_int_rd(g, a->addr);
		if (rd && gm_computes(g, a->addr) && !(read >> rd & 1))
			fresh |= 1u << rd;
	}
	uint32_t tested = gm_branch_regs(g, g->in[i].addr), later = 0;
	fresh &= ~(1u << (tested & 31) | 1u << (tested >> 5 & 31) | 1u);
	for (long j = (long)i - 1; fresh && j >= 0 && j >= (long)i - MAX_ARM;
	     j--) {
		const struct minsn *p = &g->in[j];
		if (gm_ends_block(p) || gm_is_call(p) ||
		    !gm_falls_to_next(g, (uint32_t)j))
			return 0;
		uint32_t rd = gm_int_rd(g, p->addr);
		if (!rd || (later >> rd & 1))
			continue;
		later |= 1u << rd;
		int on_arm_line = 0;
		for (int k = 0; k < n; k++)
			on_arm_line |= p->cline == g->in[arm[k]].cline &&
			               p->cfile == g->in[arm[k]].cfile;
		if (on_arm_line && (fresh >> rd & 1) &&
		    gm_computes(g, p->addr))
			return 1;
	}
	return 0;
}

/* Does control at insn t return from the function at once, after the
 * epilogue's restores (the closing brace's line) if any? */
static int returns_at(const struct gm *g, long t)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 24;
	     steps++, t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_RET)
			return 1;
		if (!in->nop && (in->cline != g->f->end_line ||
		                 in->cls != LT_INSN_OTHER))
			return 0;
	}
	return 0;
}

/* Has the statement on gcno block j's last line (the return of a return
 * block) no instruction of its own in the function? gcc folded it into
 * the ways that reach it. */
static int last_line_gone(const struct gm *g, uint32_t j)
{
	if (!g->f->blocks[j].n_lines)
		return 0;
	for (uint32_t k = 0; k < g->m; k++)
		if (g->in[k].cline &&
		    gm_last_line_is(g, j, g->in[k].cfile, g->in[k].cline))
			return 0;
	return 1;
}

int gm_triangle_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                     long *fa)
{
	const struct minsn *in = &g->in[i];
	uint32_t arm[MAX_ARM];
	long t = gm_insn_at(g, in->tgt);
	long nx = gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (t < 0 || nx < 0 || gm_n_real_out(g, b) != 2 ||
	    gm_has_fake_out(g, b) || g->nout[b] != 2)
		return 0;
	/* taken_arm: the taken way runs the arm, the fallthrough lands on
	 * the join. */
	int n = arm_to(g, nx, in->tgt, arm), taken_arm = 0;
	if (n <= 0) {
		n = arm_to(g, t, g->in[nx].addr, arm);
		taken_arm = 1;
	}
	if (n <= 0)
		return 0;
	int work = 0;
	for (int k = 0; k < n; k++)
		work |= gm_computes(g, g->in[arm[k]].addr);
	if (!work || overwrites_early_value(g, i, arm, n, b))
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	long sx = dx >= 2 ? gm_only_succ(g, dx) : -1;
	long sy = dy >= 2 ? gm_only_succ(g, dy) : -1;
	int side;
	if (sx == (long)dy && sy != (long)dx)
		side = arm_lines_in(g, arm, n, dx) ? 0 :
		       sunk_from(g, arm, n, b, dx, dy) ? 1 : -1;
	else if (sy == (long)dx && sx != (long)dy)
		side = arm_lines_in(g, arm, n, dy) ? 1 :
		       sunk_from(g, arm, n, b, dy, dx) ? 0 : -1;
	else if (sx >= 0 && sx == sy)
		side = arm_block(g, arm, n, dx, dy);
	else
		return 0;
	if (side < 0)
		return 0;
	/* The other way returns at once, the join lists the arm's line and
	 * its own last statement left no code (`x = c ? x ^ y : x; return
	 * x ^ y;`): the code may be the return's computation, which gcc
	 * folded for the other way (x ^ y ^ y is x) and kept on this one. */
	long join = sx == (long)dy ? (long)dy : sy == (long)dx ? (long)dx : sx;
	if (join >= 2 && returns_at(g, taken_arm ? nx : t) &&
	    lines_of(g, arm, n, (uint32_t)join) &&
	    last_line_gone(g, (uint32_t)join))
		return 0;
	long arm_arc = side ? y : x, join_arc = side ? x : y;
	*ta = taken_arm ? arm_arc : join_arc;
	*fa = taken_arm ? join_arc : arm_arc;
	/* The join lists the arm's lines too: the code may be the join's
	 * operation, which gcc folded away on the arm block's way and kept
	 * on the direct arc's, with the literal that arc's `?:` arm brings
	 * (`(c ? s.a : 255u) ^ v`, s.a a zero no store changes: `xori
	 * v,255` on the 255 way only). The literal's arc then (a guess). */
	long lit = join >= 2 && lines_of(g, arm, n, (uint32_t)join) ?
		   gm_literal_arm_arc(g, i, b, arm, n) : -1;
	if (lit >= 0 && lit != arm_arc) {
		*ta = taken_arm ? lit : arm_arc;
		*fa = taken_arm ? arm_arc : lit;
		return 2;
	}
	return 1;
}

/* Out of SSA, gcc puts the value a join receives from a direct arc on
 * that arc's way; when it inverts the branch, that way is laid out where
 * the alignment (keeping the gcno order) sees the other arm. An arm that
 * computes something is its own (computes); copies tell nothing. */
int gm_triangle_moves_placed(const struct gm *g)
{
	if (!g->x->optimized)
		return 1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (g->npred[b] != 1 || gm_n_real_out(g, b) != 1)
			continue;
		uint32_t j = 0, p = 0;
		for (uint32_t k = 0; k < g->nout[b]; k++)
			if (!(g->f->arcs[g->outa[b][k]].flags &
			      LT_GCOV_ARC_FAKE))
				j = g->f->arcs[g->outa[b][k]].dst;
		for (uint32_t a = 0; a < g->f->n_arcs; a++)
			if (g->f->arcs[a].dst == b)
				p = g->f->arcs[a].src;
		if (p < 2 || gm_n_real_out(g, p) != 2)
			continue;
		int direct = 0, code = 0, comp = 0;
		for (uint32_t k = 0; k < g->nout[p]; k++)
			direct |= g->f->arcs[g->outa[p][k]].dst == j;
		for (uint32_t i = g->bstart[b]; i < g->bend[b]; i++) {
			if (g->in[i].nop || gm_ends_block(&g->in[i]))
				continue;
			code = 1;
			comp |= gm_computes(g, g->in[i].addr);
		}
		if (direct && code && !comp)
			return 0;
	}
	/* The copies may also sit where the alignment starts the join
	 * (the arm's block left empty): a branch with a way of only edge
	 * copies (`mv a0,x3; bgeu ...; mv a0,x2` for `c ? x2 : x3`) says
	 * as little about which arm ran. */
	for (uint32_t i = 0; i < g->m; i++)
		if (g->in[i].cls == LT_INSN_BRANCH && gm_edge_copies(g, i))
			return 0;
	return 1;
}

/* Do gcno blocks x and y list the same lines? */
static int same_lines(const struct gm *g, uint32_t x, uint32_t y)
{
	const struct lt_gcno_block *bx = &g->f->blocks[x];
	const struct lt_gcno_block *by = &g->f->blocks[y];
	for (int pass = 0; pass < 2; pass++) {
		const struct lt_gcno_block *s = pass ? by : bx;
		uint32_t o = pass ? x : y;
		for (uint32_t k = 0; k < s->n_lines; k++)
			if (!gm_block_has_line(g, o,
			                       g->x->filemap[s->lines[k].file],
			                       s->lines[k].line))
				return 0;
	}
	return 1;
}

/* Has gcno block b machine code of its own in the alignment? */
static int has_code(const struct gm *g, uint32_t b)
{
	for (uint32_t i = g->bstart[b]; i < g->bend[b]; i++)
		if (!g->in[i].nop && !gm_ends_block(&g->in[i]))
			return 1;
	return 0;
}

int gm_diamond_arms_told(const struct gm *g)
{
	if (!g->x->optimized)
		return 1;
	for (uint32_t p = 2; p < g->f->n_blocks; p++) {
		if (gm_n_real_out(g, p) != 2 || gm_has_fake_out(g, p) ||
		    g->nout[p] != 2)
			continue;
		uint32_t x = g->f->arcs[g->outa[p][0]].dst;
		uint32_t y = g->f->arcs[g->outa[p][1]].dst;
		if (x < 2 || y < 2 || x == y || g->npred[x] != 1 ||
		    g->npred[y] != 1 || gm_n_real_out(g, x) != 1 ||
		    gm_n_real_out(g, y) != 1 ||
		    gm_only_succ(g, x) != gm_only_succ(g, y))
			continue;
		if (has_code(g, x) != has_code(g, y) && same_lines(g, x, y))
			return 0;
	}
	return 1;
}

/* Contract in gcda_mapper.h; the shape gm_deref_arms, gm_table_arms and
 * gm_sunk_arms tell the arms of. */
int gm_triangle_split(const struct gm *g, uint32_t b, long *arm,
                      long *direct)
{
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	long sx = dx >= 2 ? gm_only_succ(g, dx) : -1;
	long sy = dy >= 2 ? gm_only_succ(g, dy) : -1;
	if (sx == (long)dy && sy != (long)dx) {
		*arm = x;
		*direct = y;
	} else if (sy == (long)dx && sx != (long)dy) {
		*arm = y;
		*direct = x;
	} else {
		return 0;
	}
	return 1;
}

/* Counts the computing instructions (gm_computes) of the straight code
 * from insn t up to its first transfer (at most MAX_ARM instructions);
 * *sunk is set when one of them has a line none of gcno blocks b, d and
 * j lists (code of an earlier statement gcc sank into this way). */
static int way_work(const struct gm *g, long t, uint32_t b, uint32_t d,
                    uint32_t j, int *sunk)
{
	int n = 0;
	*sunk = 0;
	for (int k = 0; k < MAX_ARM && t >= 0 && t < (long)g->m; k++) {
		const struct minsn *in = &g->in[t];
		if (gm_ends_block(in) || gm_is_call(in))
			break;
		if (gm_computes(g, in->addr)) {
			n++;
			if (in->cline && !in->nop &&
			    !gm_block_has_line(g, b, in->cfile, in->cline) &&
			    !gm_block_has_line(g, d, in->cfile, in->cline) &&
			    !gm_block_has_line(g, j, in->cfile, in->cline))
				*sunk = 1;
		}
		if (!gm_falls_to_next(g, (uint32_t)t))
			break;
		t++;
	}
	return n;
}

/* Contract in gcda_mapper.h. gcc sinks a statement's computation into
 * the one way that uses its value (`alive` of `n == 2 ? alive : 0`); the
 * way that computes nothing takes a constant or a copy on its arc
 * (gm_computes). Which of the two arcs kept the PHI's empty block is
 * gcc's choice, so this is a guess. */
int gm_sunk_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa)
{
	long t = gm_insn_at(g, g->in[i].tgt);
	if (t < 0 || !gm_falls_to_next(g, i) || gm_n_real_out(g, b) != 2 ||
	    gm_has_fake_out(g, b) || g->nout[b] != 2)
		return 0;
	long arm, direct;
	if (!gm_triangle_split(g, b, &arm, &direct))
		return 0;
	uint32_t d = g->f->arcs[arm].dst, j = g->f->arcs[direct].dst;
	if (g->f->blocks[d].n_lines || j < 2)
		return 0;
	int st, sf;
	int wt = way_work(g, t, b, d, j, &st);
	int wf = way_work(g, (long)i + 1, b, d, j, &sf);
	if (!((st && !wf) || (sf && !wt)))
		return 0;
	*ta = st ? arm : direct;
	*fa = st ? direct : arm;
	return 1;
}

/* Is gcno block b a two-way condition whose last line is (file, line)? */
static int line_cond(const struct gm *g, uint32_t b, uint32_t file,
                     uint32_t line)
{
	return gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b) &&
	       g->nout[b] == 2 && gm_last_line_is(g, b, file, line);
}

/* The pair of an `a && b` (or `a || b`) chain on one line: head block h,
 * whose arc *into reaches the next condition c of the line and whose
 * other arc *skip reaches a block without lines that is one of c's
 * destinations (the PHI edge of the value the chain gives when h
 * decides it: no code of its own, as the branch's skip way runs none).
 * A destination with lines is a statement the chain guards (`if (a ||
 * b) c |= 2;`), whose code a way over it would run. */
static int chain_pair(const struct gm *g, uint32_t h, uint32_t file,
                      uint32_t line, long *into, long *skip)
{
	for (int k = 0; k < 2; k++) {
		uint32_t x = g->outa[h][k], y = g->outa[h][!k];
		uint32_t c = g->f->arcs[x].dst, e = g->f->arcs[y].dst;
		if (c < 2 || c == h || e < 2 || g->f->blocks[e].n_lines ||
		    !line_cond(g, c, file, line))
			continue;
		if (g->f->arcs[g->outa[c][0]].dst == e ||
		    g->f->arcs[g->outa[c][1]].dst == e) {
			*into = x;
			*skip = y;
			return 1;
		}
	}
	return 0;
}

int gm_chain_head_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	uint32_t arm[MAX_ARM];
	long t = gm_insn_at(g, in->tgt);
	long nx = gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (t < 0 || nx < 0 || !in->line)
		return 0;
	int n = arm_to(g, nx, in->tgt, arm), taken_arm = 0;
	if (n <= 0) {
		n = arm_to(g, t, g->in[nx].addr, arm);
		taken_arm = 1;
	}
	int work = 0;
	for (int k = 0; k < n; k++)
		work |= gm_computes(g, g->in[arm[k]].addr) &&
			g->in[arm[k]].cline == in->cline &&
			g->in[arm[k]].cfile == in->cfile;
	if (n <= 0 || !work)
		return 0;
	long into = -1, skip = -1;
	int pairs = 0;
	for (uint32_t h = 2; h < g->f->n_blocks && pairs < 2; h++) {
		long a, b;
		if (line_cond(g, h, in->cfile, in->cline) &&
		    chain_pair(g, h, in->cfile, in->cline, &a, &b)) {
			pairs++;
			into = a;
			skip = b;
		}
	}
	if (pairs != 1)
		return 0;
	*ta = taken_arm ? into : skip;
	*fa = taken_arm ? skip : into;
	return 1;
}

int gm_one_triangle_block(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	int n = 0;
	for (uint32_t b = 2; b < g->f->n_blocks && n < 2; b++) {
		long a, c;
		if (line_cond(g, b, in->cfile, in->cline) &&
		    gm_triangle_arms(g, i, b, &a, &c)) {
			n++;
			*ta = a;
			*fa = c;
		}
	}
	return n == 1;
}
