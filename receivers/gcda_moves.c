/* Machine registers of the instructions the branch pins read
 * (gcda_mapper.h): the operands of conditional branches, the moves
 * out-of-SSA puts on the edges into a join, and the registers an
 * instruction writes or updates (gcda_thread.c). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Edge copies a way may run before it lands (gm_copy_arms). */
#define MAX_COPIES 4

uint32_t gm_branch_regs(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0xffffffffu;
	uint32_t a, b;
	if (d.len == 2) {
		a = 8 + (d.raw >> 7 & 7); /* c.beqz / c.bnez rs1' */
		b = 0;
	} else {
		a = d.raw >> 15 & 31;
		b = d.raw >> 20 & 31;
	}
	return a < b ? a << 5 | b : b << 5 | a;
}

/* The destination register of insn k when it is a register move
 * (gm_reg_move) or a constant load (li: addi rd, x0, imm; c.li), else 0. */
static uint32_t move_rd(const struct gm *g, long k)
{
	uint32_t rs, rd = gm_reg_move(g, g->in[k].addr, &rs);
	struct lt_insn d;
	if (rd || lt_image_insn(g->x->img, g->in[k].addr, &d) < 0)
		return rd;
	uint32_t r = d.raw;
	if (d.len == 2)
		return (r & 0xe003) == 0x4001 ? r >> 7 & 31 : 0;
	return d.len == 4 && (r & 0x707f) == 0x13 && !(r >> 15 & 31) ?
	       r >> 7 & 31 : 0;
}

uint32_t gm_reg_move(const struct gm *g, uint64_t addr, uint32_t *rs)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, rd = r >> 7 & 31;
	if (d.len == 2) { /* c.mv rd, rs2 */
		*rs = r >> 2 & 31;
		return (r & 0xf003) == 0x8002 && *rs && rd ? rd : 0;
	}
	*rs = r >> 15 & 31; /* addi rd, rs1, 0 */
	return d.len == 4 && (r & 0x707f) == 0x13 && !(r >> 20) && *rs &&
	       rd ? rd : 0;
}

/* Contract in gcda_regs.h. */
int gm_unequal_way(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return -1;
	uint32_t r = d.raw;
	if (d.len == 2) {
		uint32_t f3 = r >> 13 & 7;
		return (r & 3) == 1 && (f3 == 6 || f3 == 7) ? f3 == 6 : -1;
	}
	uint32_t f3 = r >> 12 & 7;
	return (r & 0x7f) == 0x63 && f3 <= 1 ? f3 == 0 : -1;
}

/* Do the code at insns a and b run the same instructions (plain jumps
 * followed) up to one return: a return gcc tail-duplicated, one copy
 * after a way's moves, one where the other way lands? */
static int same_tail(const struct gm *g, long a, long b)
{
	for (int steps = 0; steps < 32 && a >= 0 && b >= 0 &&
	     a < (long)g->m && b < (long)g->m; steps++) {
		const struct minsn *p = &g->in[a], *q = &g->in[b];
		if (p->cls == LT_INSN_JUMP && p->link == LT_LINK_NONE) {
			a = gm_insn_at(g, p->tgt);
			continue;
		}
		if (q->cls == LT_INSN_JUMP && q->link == LT_LINK_NONE) {
			b = gm_insn_at(g, q->tgt);
			continue;
		}
		struct lt_insn dp, dq;
		if (p->cls != q->cls || p->len != q->len ||
		    lt_image_insn(g->x->img, p->addr, &dp) < 0 ||
		    lt_image_insn(g->x->img, q->addr, &dq) < 0 ||
		    dp.raw != dq.raw)
			return 0;
		if (p->cls == LT_INSN_IJUMP)
			return p->link == LT_LINK_RET;
		if (p->cls != LT_INSN_OTHER ||
		    !gm_falls_to_next(g, (uint32_t)a) ||
		    !gm_falls_to_next(g, (uint32_t)b))
			return 0;
		a++;
		b++;
	}
	return 0;
}

int gm_edge_copies(const struct gm *g, uint32_t i)
{
	const struct minsn *in = &g->in[i];
	long way[2] = {gm_insn_at(g, in->tgt),
	               gm_falls_to_next(g, i) ? (long)i + 1 : -1};
	uint64_t land[2] = {in->tgt, in->addr + in->len};
	uint32_t regs = gm_branch_regs(g, in->addr);
	int ne = gm_unequal_way(g, in->addr);
	for (int w = 0; w < 2; w++) {
		long k = way[w];
		int moves = 0, own = 1;
		uint32_t rd;
		/* past: the address after the moves, which may lie outside
		 * the copy's spans (the join is the caller's code when the
		 * copy's value is the caller's: `x += c ? g : y`, inlined). */
		uint64_t past = 0;
		while (k >= 0 && moves < 2 && g->in[k].addr != land[1 - w] &&
		       (rd = move_rd(g, k)) != 0) {
			own &= g->in[k].line == in->line &&
			       g->in[k].file == in->file &&
			       (w == ne || (rd != (regs & 31) &&
			                    rd != (regs >> 5 & 31)));
			moves++;
			past = g->in[k].addr + g->in[k].len;
			k = gm_falls_to_next(g, (uint32_t)k) ? k + 1 : -1;
		}
		if (moves && own && past == land[1 - w])
			return 1;
		if (!moves || !own || k < 0 || k >= (long)g->m)
			continue;
		const struct minsn *n = &g->in[k];
		uint64_t at = n->cls == LT_INSN_JUMP &&
		              n->link == LT_LINK_NONE ? n->tgt : n->addr;
		if (at == land[1 - w] ||
		    same_tail(g, k, gm_insn_at(g, land[1 - w])))
			return 1;
	}
	return 0;
}

int gm_shared_moves(const struct gm *g, uint32_t i)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt);
	long f = gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	if (t < 0 || f < 0 || t >= (long)g->m || f >= (long)g->m ||
	    !move_rd(g, t) || !move_rd(g, f))
		return 0;
	const struct minsn *a = &g->in[t], *b = &g->in[f];
	struct lt_insn da, db;
	if (!a->line || (a->line == in->line && a->file == in->file) ||
	    a->line != b->line || a->file != b->file ||
	    lt_image_insn(g->x->img, a->addr, &da) < 0 ||
	    lt_image_insn(g->x->img, b->addr, &db) < 0)
		return 0;
	return da.len == db.len && da.raw == db.raw;
}

uint32_t gm_int_rd(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, rd = r >> 7 & 31, f3 = r >> 13 & 7;
	if (d.len == 4) {
		switch (r & 0x7f) {
		case 0x37: case 0x17: case 0x03: case 0x13: case 0x1b:
		case 0x33: case 0x3b: case 0x2f:
			return rd; /* lui auipc load op-imm(-32) op(-32) amo */
		default:
			return 0; /* stores, branches, jumps, float */
		}
	}
	if (d.len != 2)
		return 0;
	switch (r & 3) {
	case 0: /* c.addi4spn, c.lw, c.ld: rd' */
		return f3 <= 3 && f3 != 1 ? 8 + (r >> 2 & 7) : 0;
	case 1: /* c.addi(w), c.li, c.lui/addi16sp; c.srli.. c.and: rd' */
		return f3 <= 3 ? rd : f3 == 4 ? 8 + (r >> 7 & 7) : 0;
	default: /* c.slli, c.lwsp, c.ldsp; c.mv, c.add (rs2 != 0) */
		if (f3 == 0 || f3 == 2 || f3 == 3)
			return rd;
		return f3 == 4 && (r >> 2 & 31) ? rd : 0;
	}
}

uint32_t gm_updated_rd(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, rd = r >> 7 & 31, f3 = r >> 13 & 7;
	if (d.len == 4) {
		uint32_t op = r & 0x7f, rs1 = r >> 15 & 31, rs2 = r >> 20 & 31;
		int reg = op == 0x33 || op == 0x3b;
		if (op != 0x13 && op != 0x1b && !reg)
			return 0;
		return rs1 == rd || (reg && rs2 == rd) ? rd : 0;
	}
	if (d.len != 2)
		return 0;
	if ((r & 3) == 1) /* c.addi, c.addiw; c.srli .. c.and */
		return f3 <= 1 ? rd : f3 == 4 ? 8 + (r >> 7 & 7) : 0;
	if ((r & 3) == 2) /* c.slli; c.add */
		return f3 == 0 || (f3 == 4 && (r >> 12 & 1) && (r >> 2 & 31))
		       ? rd : 0;
	return 0;
}

int gm_reads_reg(const struct gm *g, uint64_t addr, uint32_t reg)
{
	struct lt_insn d;
	if (!reg || lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, f3 = r >> 13 & 7, rd = r >> 7 & 31;
	uint32_t s1 = 0, s2 = 0;
	if (d.len == 4) {
		uint32_t op = r & 0x7f;
		int two = op == 0x33 || op == 0x3b || op == 0x23 ||
		          op == 0x63 || op == 0x2f;
		int one = two || op == 0x13 || op == 0x1b || op == 0x03 ||
		          op == 0x67 || op == 0x07 || op == 0x27;
		s1 = one ? r >> 15 & 31 : 0;
		s2 = two ? r >> 20 & 31 : 0;
		return s1 == reg || s2 == reg;
	}
	uint32_t p1 = 8 + (r >> 7 & 7), p2 = 8 + (r >> 2 & 7);
	switch (r & 3) {
	case 0: /* c.addi4spn (sp); loads rs1'; stores rs1', rs2' */
		s1 = f3 == 0 ? 2 : p1;
		s2 = f3 >= 5 ? p2 : 0;
		break;
	case 1: /* c.addi(w) rd; c.addi16sp sp; alu rd' (rs2'); c.beqz rs1' */
		s1 = f3 <= 1 ? rd : f3 == 3 && rd == 2 ? 2 :
		     f3 == 4 || f3 >= 6 ? p1 : 0;
		s2 = f3 == 4 && (r >> 10 & 3) == 3 ? p2 : 0;
		break;
	default: /* c.slli rd; sp loads; c.jr/c.mv/c.add/c.jalr; sp stores */
		s1 = f3 == 0 ? rd : f3 <= 3 || f3 >= 5 ? 2 :
		     ((r >> 12 & 1) || !(r >> 2 & 31)) ? rd : 0;
		s2 = f3 >= 4 ? r >> 2 & 31 : 0;
		break;
	}
	return s1 == reg || s2 == reg;
}

/* Is the instruction at addr a load from a base other than sp: a value
 * the arm fetches (a switch turned into a table lookup), not the reload
 * of a spilled variable out of SSA puts on an edge? */
static int own_load(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, f3 = r >> 13 & 7;
	if (d.len == 2) /* c.lw, c.ld, c.flw/c.fld (sp loads are quadrant 2) */
		return (r & 3) == 0 && f3 >= 1 && f3 <= 3;
	return ((r & 0x7f) == 0x03 || (r & 0x7f) == 0x07) &&
	       (r >> 15 & 31) != 2;
}

int gm_edge_copy(const struct gm *g, uint32_t k)
{
	uint64_t a = g->in[k].addr;
	return g->in[k].cls == LT_INSN_OTHER && gm_int_rd(g, a) &&
	       !gm_computes(g, a) && !own_load(g, a);
}

/* Is optimized code's gcno block b a triangle (b -> arm -> j, b -> j:
 * *arm, *direct) whose arm block lists no line (a PHI argument's edge)? */
static int lineless_triangle(const struct gm *g, uint32_t b, long *arm,
                             long *direct)
{
	return g->x->optimized && gm_n_real_out(g, b) == 2 &&
	       !gm_has_fake_out(g, b) && g->nout[b] == 2 &&
	       gm_triangle_split(g, b, arm, direct) &&
	       !g->f->blocks[g->f->arcs[*arm].dst].n_lines;
}

/* Contract in gcda_arms.h. Which of a triangle's two arcs keeps the
 * empty arm block is gcc's choice (both arms empty forwarders, one
 * removed), and so is where the copies go. Where the source's `?:` tells
 * the ways apart (gm_source_arms: a literal arm loaded on a way, the
 * test's polarity), that decides; else the guess: over the corpus the
 * copies' way was the direct arc in 15 branches out of 22 (the value of
 * the arm block set above the branch: `mv a0,x2; bltu ...; mv a0,x3`, or
 * the register an equality test compared). A move into a register the
 * branch tests, off the way an equality test fails, is its own arm's
 * (gm_edge_copies: `len ? len : 1`). With the source first, the blocks
 * this function decides agree with the twins' counts in 24 of the 26
 * that the counts tell (18 of 26 before; dijkstra's `?:` continues a
 * statement from an earlier line, textwrap's arms are addresses). */
int gm_copy_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa)
{
	const struct minsn *in = &g->in[i];
	long arm, direct;
	if (!lineless_triangle(g, b, &arm, &direct) ||
	    !gm_falls_to_next(g, i) || in->tgt <= in->addr)
		return 0;
	/* The fallthrough runs up to the target: at least one
	 * instruction, each writing an integer register, none computing
	 * or transferring. */
	long k = (long)i + 1;
	int n = 0, own = 0;
	uint32_t regs = gm_branch_regs(g, in->addr);
	while (k < (long)g->m && g->in[k].addr < in->tgt && n <= MAX_COPIES) {
		uint32_t rd = gm_int_rd(g, g->in[k].addr);
		if (!gm_edge_copy(g, (uint32_t)k) ||
		    !gm_falls_to_next(g, (uint32_t)k))
			return 0;
		own |= rd == (regs & 31) || rd == (regs >> 5 & 31);
		n++;
		k++;
	}
	if (!n || n > MAX_COPIES || k >= (long)g->m ||
	    g->in[k].addr != in->tgt)
		return 0;
	/* The source's `?:`, where it tells, decides. */
	if (gm_source_arms(g, i, b, ta, fa))
		return 1;
	if (own && gm_unequal_way(g, in->addr) != 1) {
		*ta = direct;
		*fa = arm;
	} else {
		*ta = arm;
		*fa = direct;
	}
	return 1;
}

/* Does control reach insn t other than by branch i: another branch or
 * jump to it, or code falling into it? */
static int entered_elsewhere(const struct gm *g, uint32_t i, long t)
{
	if (t < 0)
		return 0;
	if (t > 0 && (uint32_t)t - 1 != i &&
	    gm_falls_to_next(g, (uint32_t)t - 1) &&
	    !gm_ends_block(&g->in[t - 1]))
		return 1;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (k != i && !gm_is_call(in) &&
		    (in->cls == LT_INSN_JUMP || in->cls == LT_INSN_BRANCH) &&
		    in->tgt == g->in[t].addr)
			return 1;
	}
	return 0;
}

/* Contract in gcda_mapper.h. */
int gm_stub_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa)
{
	const struct minsn *in = &g->in[i];
	long arm, direct;
	if (!lineless_triangle(g, b, &arm, &direct) ||
	    g->npred[g->f->arcs[arm].dst] < 2 || !gm_falls_to_next(g, i))
		return 0;
	long way[2] = {gm_insn_at(g, in->tgt), (long)i + 1};
	int shared[2];
	for (int w = 0; w < 2; w++) {
		if (way[w] < 0)
			return 0;
		shared[w] = entered_elsewhere(g, i, way[w]);
	}
	if (shared[0] == shared[1])
		return 0;
	*ta = shared[0] ? arm : direct;
	*fa = shared[0] ? direct : arm;
	return 1;
}

/* The landing of a way starting at insn k: past a run of edge copies
 * (their number in *n, their line in *file / *line when they share one,
 * else *line = 0) and a plain jump after them. -1 when the way leaves
 * the function's code. */
static long way_landing(const struct gm *g, long k, int *n, uint32_t *file,
                        uint32_t *line)
{
	*n = 0;
	*line = 0;
	while (k >= 0 && k < (long)g->m && *n <= MAX_COPIES &&
	       gm_edge_copy(g, (uint32_t)k)) {
		const struct minsn *in = &g->in[k];
		if (!*n) {
			*file = in->file;
			*line = in->line;
		} else if (in->line != *line || in->file != *file) {
			*line = 0;
		}
		if (!in->line)
			*line = 0;
		(*n)++;
		if (!gm_falls_to_next(g, (uint32_t)k))
			return -1;
		k++;
	}
	if (k >= 0 && k < (long)g->m && *n &&
	    g->in[k].cls == LT_INSN_JUMP && g->in[k].link == LT_LINK_NONE)
		k = gm_insn_at(g, g->in[k].tgt);
	return k < (long)g->m ? k : -1;
}

/* Contract in gcda_arms.h. */
int gm_gone_stmt_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                      long *fa)
{
	const struct minsn *in = &g->in[i];
	long arm, direct;
	if (!g->x->optimized || in->cls != LT_INSN_BRANCH ||
	    gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
	    g->nout[b] != 2 || !gm_triangle_split(g, b, &arm, &direct) ||
	    !g->f->blocks[g->f->arcs[arm].dst].n_lines ||
	    !gm_falls_to_next(g, i))
		return 0;
	long start[2] = {gm_insn_at(g, in->tgt), (long)i + 1}, land[2];
	int n[2];
	uint32_t file[2] = {0, 0}, line[2];
	for (int w = 0; w < 2; w++) {
		if (start[w] < 0)
			return 0;
		land[w] = way_landing(g, start[w], &n[w], &file[w], &line[w]);
	}
	/* One way of copies only, rejoining the other at once. */
	int c = n[0] ? 0 : 1;
	uint32_t only;
	if (!n[c] || n[1 - c] || n[c] > MAX_COPIES || land[c] < 0 ||
	    land[c] != land[1 - c] || !line[c] ||
	    gm_line_blocks(g, file[c], line[c], &only))
		return 0;
	/* The copies are of the branch's own inline instance (the
	 * function's body or a copy inlined early, some of whose lines
	 * the gcno lists), not of a callee inlined late. */
	const struct lt_dwarf *dw = g->x->dw;
	long q = dw ? lt_dwarf_inline_find(dw, in->addr) : -1;
	for (long k = start[c]; dw && k < start[c] + n[c]; k++)
		if (lt_dwarf_inline_find(dw, g->in[k].addr) != q)
			return 0;
	*ta = c == 0 ? direct : arm;
	*fa = c == 0 ? arm : direct;
	return 1;
}

int gm_cond_line_copies(const struct gm *g, uint32_t i, uint32_t b)
{
	const struct minsn *in = &g->in[i];
	long way[2] = {gm_insn_at(g, in->tgt),
	               gm_falls_to_next(g, i) ? (long)i + 1 : -1};
	uint64_t land[2] = {in->tgt, in->addr + in->len};
	for (int w = 0; w < 2; w++) {
		long k = way[w];
		int moves = 0, own = 1;
		while (k >= 0 && moves < MAX_COPIES &&
		       g->in[k].addr != land[1 - w] && move_rd(g, k)) {
			own &= g->in[k].cline &&
			       gm_block_has_line(g, b, g->in[k].cfile,
			                         g->in[k].cline);
			moves++;
			k = gm_falls_to_next(g, (uint32_t)k) ? k + 1 : -1;
		}
		if (moves && own && k >= 0 && g->in[k].addr == land[1 - w])
			return 1;
	}
	return 0;
}
