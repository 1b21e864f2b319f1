/* The arms of a switch gcc turned into a value table told apart by the
 * way that reads the table (gcda_mapper.h). gcc's switch conversion
 * replaces a switch whose cases only set a value by a load from a
 * constant array named CSWTCH.N behind a range check: the gcno has a
 * triangle (the check, a block without lines that loads the value, the
 * join), and both machine ways of the check run the join's lines at once
 * (the default's constant is folded into the join's code), so lines
 * cannot tell them apart. */
#include <elf.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Instructions of a way searched for a read of the table's address. */
#define MAX_WAY 8

/* gm_elf_syms callback: 1 when *(uint64_t *)user lies in this symbol, a
 * data object named CSWTCH.N (gcc's name for a switch conversion's
 * table). */
static uint64_t is_switch_table(void *user, const char *name, uint64_t value,
                                uint64_t size, int type)
{
	uint64_t addr = *(const uint64_t *)user;
	return type == STT_OBJECT && addr >= value &&
	       addr < value + (size ? size : 1) &&
	       strncmp(name, "CSWTCH.", 7) == 0;
}

/* Does addr lie in a data object of img named CSWTCH.N? */
static int in_switch_table(const struct lt_image *img, uint64_t addr)
{
	return gm_elf_syms(img, is_switch_table, &addr) != 0;
}

/* The registers (bit mask) the function sets, by an auipc and the addi
 * right after it, to an address in a switch table: only such a
 * register's only auipc counts (a register set twice could hold
 * anything at the way's read). */
static uint32_t table_regs(const struct gm *g)
{
	uint32_t mask = 0, seen = 0, twice = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		struct lt_insn a, b;
		if (lt_image_insn(g->x->img, g->in[i].addr, &a) < 0 ||
		    a.len != 4 || (a.raw & 0x7f) != 0x17)
			continue;
		uint32_t rd = a.raw >> 7 & 31;
		twice |= seen & 1u << rd;
		seen |= 1u << rd;
		if (!gm_falls_to_next(g, i) ||
		    lt_image_insn(g->x->img, g->in[i + 1].addr, &b) < 0 ||
		    b.len != 4 || (b.raw & 0x707f) != 0x13 ||
		    (b.raw >> 7 & 31) != rd || (b.raw >> 15 & 31) != rd)
			continue;
		uint64_t addr = g->in[i].addr +
				(uint64_t)(int64_t)(int32_t)(a.raw & 0xfffff000u) +
				(uint64_t)(int64_t)((int32_t)b.raw >> 20);
		if (in_switch_table(g->x->img, addr))
			mask |= 1u << rd;
	}
	return mask & ~twice;
}

/* The registers (bit mask) instruction raw of length len reads as a
 * source: both of an R-type, the base of an I-type, load or store and a
 * store's data, c.add's and c.mv's. 0 for others. */
static uint32_t reads(uint32_t raw, uint32_t len)
{
	if (len == 2) {
		uint32_t rd = raw >> 7 & 31, rs2 = raw >> 2 & 31;
		if ((raw & 3) != 2 || !rs2 || (raw >> 13 & 7) != 4)
			return 0;
		return 1u << rs2 | (raw >> 12 & 1 ? 1u << rd : 0);
	}
	uint32_t op = raw & 0x7f, rs1 = raw >> 15 & 31, rs2 = raw >> 20 & 31;
	switch (op) {
	case 0x33: case 0x3b: case 0x23:
		return 1u << rs1 | 1u << rs2;
	case 0x13: case 0x1b: case 0x03:
		return 1u << rs1;
	default:
		return 0;
	}
}

/* Does straight code from insn t (plain jumps followed, up to MAX_WAY
 * instructions, no branch or call) read one of the registers in mask? */
static int way_reads(const struct gm *g, long t, uint32_t mask)
{
	for (int k = 0; k < MAX_WAY && t >= 0 && t < (long)g->m; k++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		struct lt_insn d;
		if (in->cls != LT_INSN_OTHER ||
		    lt_image_insn(g->x->img, in->addr, &d) < 0)
			return 0;
		if (reads(d.raw, d.len) & mask & ~1u)
			return 1;
		if (!gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

/* Contract in gcda_mapper.h. The load's block has no line because gcc
 * gives the statements switch conversion creates none; the default's
 * value is a constant the other way needs no table for. */
int gm_table_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
	    g->nout[b] != 2 || !gm_falls_to_next(g, i))
		return 0;
	long arm, direct;
	if (!gm_triangle_split(g, b, &arm, &direct))
		return 0;
	/* The load's block has no line of its own, nor a call. */
	uint32_t d = g->f->arcs[arm].dst;
	if (g->f->blocks[d].n_lines || gm_has_fake_out(g, d))
		return 0;
	uint32_t mask = table_regs(g);
	if (!mask)
		return 0;
	int rt = way_reads(g, gm_insn_at(g, g->in[i].tgt), mask);
	int rf = way_reads(g, (long)i + 1, mask);
	if (rt == rf)
		return 0;
	*ta = rt ? arm : direct;
	*fa = rt ? direct : arm;
	return 1;
}
