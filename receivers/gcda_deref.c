/* The arms of a null test (`n ? n->height : 0`) told apart by the way
 * that reads through the tested pointer (gcda_mapper.h). */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Instructions of a way searched for the read, or for the read's
 * address on the other way. */
#define MAX_WAY 6

/* The register a conditional branch tests against zero (beq/bne with
 * x0, c.beqz, c.bnez), with *eq = 1 for a test of equality; 0 for any
 * other branch. */
static uint32_t zero_test(const struct lt_image *img, uint64_t addr,
                          int *eq)
{
	struct lt_insn d;
	if (lt_image_insn(img, addr, &d) < 0 || d.cls != LT_INSN_BRANCH)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2) {
		uint32_t f3 = r >> 13 & 7;
		*eq = f3 == 6;
		return (r & 3) == 1 && (f3 == 6 || f3 == 7) ?
		       8 + (r >> 7 & 7) : 0;
	}
	uint32_t f3 = r >> 12 & 7, rs1 = r >> 15 & 31, rs2 = r >> 20 & 31;
	*eq = f3 == 0;
	if (f3 > 1 || (rs1 && rs2))
		return 0;
	return rs1 ? rs1 : rs2;
}

/* The base register of the load at addr (LOAD, c.lw, c.ld, c.flw,
 * c.fld), or 0 when it is no load or loads off sp. */
static uint32_t load_base(const struct lt_image *img, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(img, addr, &d) < 0 || d.cls != LT_INSN_OTHER)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2)
		return (r & 3) == 0 && (r >> 13 & 7) >= 1 &&
		       (r >> 13 & 7) <= 3 ? 8 + (r >> 7 & 7) : 0;
	uint32_t op = r & 0x7f, rs1 = r >> 15 & 31;
	return (op == 0x03 || op == 0x07) && rs1 != 2 ? rs1 : 0;
}

/* Straight code from insn t (plain jumps followed), up to MAX_WAY
 * instructions and no branch or call: the address of the first load
 * based on register reg, before anything writes reg (a way that reads
 * through the pointer does so at once), or 0. Sets run[] to the addresses of the instructions it
 * passed (*n of them). */
static uint64_t way_read(const struct gm *g, long t, uint32_t reg,
                         uint64_t *run, int *n)
{
	*n = 0;
	for (int k = 0; k < MAX_WAY && t >= 0 && t < (long)g->m; k++) {
		const struct minsn *in = &g->in[t];
		run[(*n)++] = in->addr;
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (in->cls != LT_INSN_OTHER)
			return 0;
		if (load_base(g->x->img, in->addr) == reg)
			return in->addr;
		/* Set anew: a later load based on it reads something
		 * else (`a[i]` through an address computed into the
		 * register a `(y & 3) == 0` test left). */
		if (gm_int_rd(g, in->addr) == reg)
			return 0;
		if (!gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

/* A null test `n ? n->f : K` is a triangle in the gcno: the condition
 * block b goes to a block d that reads n->f and on to the join, or to
 * the join directly (K on the edge). When its machine branch matched b
 * both ways round (both arms' code carries the lines of what follows,
 * maxi's in `maxi(height(l), height(r))`), the way that reads through
 * the tested register at once is the arm through d, provided the other
 * way never reaches that read within a few instructions and d calls
 * nothing (in `if (!p) p = alloc(); use(p->f);` both ways reach the
 * read at the join, and the way that reads first is the direct arc).
 * Sets *ta / *fa to the taken / fallthrough arcs of branch i and
 * returns 1, else 0. Lines play no part: the arcs' counts are lower
 * bounds like every matched branch's. */
int gm_deref_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	const struct minsn *in = &g->in[i];
	int eq = 0;
	uint32_t reg = zero_test(g->x->img, in->addr, &eq);
	if (!reg || gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
	    g->nout[b] != 2 || !gm_falls_to_next(g, i))
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	long sx = dx >= 2 ? gm_only_succ(g, dx) : -1;
	long sy = dy >= 2 ? gm_only_succ(g, dy) : -1;
	long arm, direct;
	if (sx == (long)dy && sy != (long)dx) {
		arm = x;
		direct = y;
	} else if (sy == (long)dx && sx != (long)dy) {
		arm = y;
		direct = x;
	} else {
		return 0;
	}
	/* An arm that calls (`p = alloc()`) is no read of the pointer. */
	if (gm_has_fake_out(g, g->f->arcs[arm].dst))
		return 0;
	/* The way on which the register is not zero. */
	long nz = eq ? (long)i + 1 : gm_insn_at(g, in->tgt);
	long z = eq ? gm_insn_at(g, in->tgt) : (long)i + 1;
	uint64_t rn[MAX_WAY], rz[MAX_WAY];
	int nn, nzr;
	uint64_t rd = way_read(g, nz, reg, rn, &nn);
	if (!rd || way_read(g, z, reg, rz, &nzr))
		return 0;
	for (int k = 0; k < nzr; k++)
		if (rz[k] == rd)
			return 0;
	*ta = eq ? direct : arm;
	*fa = eq ? arm : direct;
	return 1;
}
