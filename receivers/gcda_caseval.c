/* The tests of a switch's comparison tree told by the values they
 * compare (gcda_mapper.h: gm_case_value_pins). Optimized gcc expands a
 * switch without a jump table into equality tests of the controlling
 * value against the case constants, on the switch's line:
 *
 *     switch (v % 4u) { case 0u: ... case 2u: ... case 3u: ... }
 *     beq a4,t2,.Lcase2 ; bne a4,t0,.Lnext ; <case 3's code>
 *
 * where t2 and t0 hold 2 and 3, often loaded once before a loop. Where a
 * case's code lands on lines of another statement (code gcc shared, a
 * fallthrough, a join) the lines cannot tell the case, the value can:
 * the equal way of a test against K runs case K, whose arc is the one
 * whose destination lists the line of the label `case K:` (gcc lists a
 * case label's line in the block it starts). The constant a register
 * holds is the one every definition reaching the test loads (li); the
 * label's value is read from the source text. A case whose block gcc
 * dropped (its code folded into PHI arguments: no block lists its label's
 * line) serves the one arc whose destination lists no label
 * (unlisted_arc). Bounds only (unsure): the register compared need not
 * hold the switch's value itself (a bit test compares a mask with zero),
 * so a register must be compared with two or more case values on the
 * line. */
#include "gcda_count.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_srctext.h"
#include "gcda_waydest.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#include <stdlib.h>

/* Most instructions the walk back from a test visits. */
#define WALK_MAX 4096
/* Most labels read from one line. */
#define MAX_LABELS 16

/* The constant an li (addi rd, x0, imm; c.li) at addr loads into reg:
 * 1 and *v set; else 0. */
static int li_value(const struct gm *g, uint64_t addr, uint32_t reg,
                    uint64_t *v)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 2 && (r & 0xe003) == 0x4001 && (r >> 7 & 31) == reg) {
		int32_t imm = (int32_t)((r >> 2 & 31) | (r >> 12 & 1) << 5);
		*v = (uint64_t)(int64_t)(imm >= 32 ? imm - 64 : imm);
		return 1;
	}
	if (d.len != 4 || (r & 0x707f) != 0x13 || (r >> 15 & 31) ||
	    (r >> 7 & 31) != reg)
		return 0;
	*v = (uint64_t)(int64_t)((int32_t)r >> 20);
	return 1;
}

/* Does insn k write reg in a way gm_int_rd does not name (a float
 * compare or move to an integer register, a CSR read, a link)? Calls
 * clobber every register the callee need not preserve. */
static int clobbers(const struct gm *g, uint32_t k, uint32_t reg)
{
	const struct minsn *in = &g->in[k];
	int saved = reg == 2 || reg == 3 || reg == 4 || reg == 8 ||
		    reg == 9 || (reg >= 18 && reg <= 27);
	if (gm_is_call(in))
		return !saved;
	struct lt_insn d;
	if (lt_image_insn(g->x->img, in->addr, &d) < 0)
		return 1;
	uint32_t op = d.raw & 0x7f;
	return d.len == 4 && (d.raw >> 7 & 31) == reg &&
	       (op == 0x53 || op == 0x73 || op == 0x6f || op == 0x67);
}

/* The constant register reg holds at insn i: every definition reaching
 * i along the machine code's paths (fallthroughs, direct branches and
 * jumps; none where an indirect jump could land) is an li of one value.
 * 1 and *v set; else 0. */
static int reg_const(const struct gm *g, uint32_t i, uint32_t reg,
                     uint64_t *v)
{
	if (!reg) {
		*v = 0;
		return 1;
	}
	uint8_t *seen = calloc(g->m, 1);
	uint32_t *stack = malloc(g->m * sizeof(*stack));
	uint32_t n = 0, visits = 0;
	int ok = seen && stack, have = 0;
	/* Predecessors of i itself: start from i, its own write aside. */
	if (ok)
		stack[n++] = i;
	while (ok && n) {
		uint32_t k = stack[--n];
		if (++visits > WALK_MAX || k < 1) {
			ok = 0; /* the entry, with reg undefined or an argument */
			break;
		}
		/* Each predecessor of k: the one before falling in, and
		 * every direct transfer to k. */
		for (uint32_t p = 0; ok && p <= g->m; p++) {
			uint32_t q;
			if (p == g->m) {
				if (!gm_falls_to_next(g, k - 1) ||
				    g->in[k - 1].cls == LT_INSN_JUMP ||
				    g->in[k - 1].cls == LT_INSN_IJUMP ||
				    g->in[k - 1].cls == LT_INSN_TRET)
					continue;
				q = k - 1;
			} else if ((g->in[p].cls == LT_INSN_BRANCH ||
			            (g->in[p].cls == LT_INSN_JUMP &&
			             g->in[p].link == LT_LINK_NONE)) &&
			           g->in[p].tgt == g->in[k].addr) {
				q = p;
			} else {
				continue;
			}
			if (seen[q])
				continue;
			seen[q] = 1;
			uint64_t x = 0;
			if (gm_int_rd(g, g->in[q].addr) == reg) {
				if (!li_value(g, g->in[q].addr, reg, &x) ||
				    (have && x != *v))
					ok = 0;
				*v = x;
				have = 1;
			} else if (clobbers(g, q, reg)) {
				ok = 0;
			} else {
				stack[n++] = q;
			}
		}
	}
	free(seen);
	free(stack);
	return ok && have;
}

/* The arc of switch block sb whose destination lists the line of a
 * `case K:` label for value v: the arc, -1 when none does, -2 when the
 * labels cannot tell (several arcs, or a label not read). */
static long label_arc(const struct gm *g, uint32_t sb, uint64_t v)
{
	long hit = -1;
	for (uint32_t k = 0; k < g->nout[sb]; k++) {
		uint32_t a = g->outa[sb][k], d = g->f->arcs[a].dst;
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		const struct lt_gcno_block *bl = &g->f->blocks[d];
		for (uint32_t l = 0; l < bl->n_lines; l++) {
			uint32_t file = g->x->filemap[bl->lines[l].file];
			if (file == LT_DWARF_NO_FILE || file >= g->x->dw->nfiles)
				continue;
			uint64_t vals[MAX_LABELS];
			int nv = gm_case_labels(g->x->src,
			                        g->x->dw->file[file],
			                        bl->lines[l].line, vals,
			                        MAX_LABELS);
			if (nv < 0)
				return -2;
			for (int j = 0; j < nv; j++) {
				if (vals[j] != v &&
				    (uint32_t)vals[j] != (uint32_t)v)
					continue;
				if (hit >= 0 && hit != (long)a)
					return -2;
				hit = a;
			}
		}
	}
	return hit;
}

/* Does gcno block d list the line of a `case` label? 1 yes, 0 no, -1
 * when a line cannot be read or holds a label that is no literal. */
static int lists_label(const struct gm *g, uint32_t d)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t l = 0; l < bl->n_lines; l++) {
		uint32_t file = g->x->filemap[bl->lines[l].file];
		if (file == LT_DWARF_NO_FILE || file >= g->x->dw->nfiles)
			return -1;
		uint64_t vals[MAX_LABELS];
		int nv = gm_case_labels(g->x->src, g->x->dw->file[file],
		                        bl->lines[l].line, vals, MAX_LABELS);
		if (nv)
			return nv < 0 ? -1 : 1;
	}
	return 0;
}

/* The arc of switch block sb that serves value v, whose `case v:` line
 * no block lists (label_arc found none), for the equality test i: gcc
 * dropped the case's block (its code became PHI arguments, or it had
 * none: `case 1u: break;`), so v's arc goes where the code after the
 * switch starts, the one arc of sb whose destination lists no label.
 * Only when the label is no stacked one (`case 2u:` above `case 3u:`
 * starts one block listing the first label's line alone), and the
 * test's equal way runs first code of that destination (or of the
 * blocks it runs straight into) and of no labelled destination itself
 * (a case whose code became PHI arguments of the next case's block, a
 * fallthrough, enters that block). -1 when that does not hold. */
static long unlisted_arc(const struct gm *g, uint32_t sb, uint32_t i,
                         uint64_t v)
{
	const struct minsn *in = &g->in[i];
	const struct lt_dwarf *dw = g->x->dw;
	if (in->file == LT_DWARF_NO_FILE || in->file >= dw->nfiles ||
	    g->f->end_line <= in->line)
		return -1;
	const char *path = dw->file[in->file];
	long lab = gm_case_label_line(g->x->src, path, in->line + 1,
	                              g->f->end_line, v);
	uint32_t only;
	if (lab < 0 || gm_line_blocks(g, in->file, (uint32_t)lab, &only) ||
	    gm_label_stacked(g->x->src, path, (uint32_t)lab) != 0)
		return -1;
	int ne = gm_unequal_way(g, in->addr);
	long t = ne == 1 ? gm_insn_at(g, in->tgt) : (long)i + 1;
	uint32_t fl[GM_MAX_RUN][2];
	int n = t >= 0 ? gm_run_lines(g, t, in, fl) : 0;
	if (!n)
		return -1;
	long hit = -1;
	for (uint32_t k = 0; k < g->nout[sb]; k++) {
		uint32_t a = g->outa[sb][k], d = g->f->arcs[a].dst;
		if ((g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) || d == sb)
			continue;
		int lab_d = d < 2 ? 0 : lists_label(g, d);
		if (lab_d < 0)
			return -1;
		for (int j = 0; lab_d && j < n; j++)
			if (gm_block_has_line(g, d, fl[j][0], fl[j][1]))
				return -1;
		if (lab_d)
			continue;
		if (hit >= 0 || d < 2 || !gm_dest_has_any(g, d, fl, n))
			return -1;
		hit = a;
	}
	return hit;
}

/* For an equality test i of switch block sb's line: the register it
 * compares with a constant, the constant in *v and its case's arc in
 * *arc. Returns the register (0: no such test). */
static uint32_t value_test(const struct gm *g, uint32_t i, uint32_t sb,
                           uint64_t *v, long *arc)
{
	const struct minsn *in = &g->in[i];
	if (in->cls != LT_INSN_BRANCH || gm_unequal_way(g, in->addr) < 0)
		return 0;
	uint32_t regs = gm_branch_regs(g, in->addr);
	if (regs == 0xffffffffu)
		return 0;
	uint32_t r[2] = {regs & 31, regs >> 5 & 31};
	uint64_t c[2];
	int k0 = reg_const(g, i, r[0], &c[0]), k1 = reg_const(g, i, r[1], &c[1]);
	if (k0 == k1)
		return 0;
	*v = k0 ? c[0] : c[1];
	*arc = label_arc(g, sb, *v);
	if (*arc == -1)
		*arc = unlisted_arc(g, sb, i, *v);
	return *arc >= 0 ? r[k0 ? 1 : 0] : 0;
}

/* Contract in gcda_mapper.h. */
int gm_case_value_pins(const struct gm *g, uint32_t i, int64_t *sum,
                       uint8_t *bad, uint8_t unsure)
{
	const struct minsn *in = &g->in[i];
	if (!g->x->optimized || g->span || in->cls != LT_INSN_BRANCH ||
	    !in->line || !gm_falls_to_next(g, i))
		return 0;
	long sb = gm_switch_block(g, in->file, in->line);
	if (sb < 0)
		return 0;
	for (uint32_t k = 0; k < g->m; k++)
		if (g->in[k].cls == LT_INSN_IJUMP &&
		    g->in[k].link == LT_LINK_NONE)
			return 0;
	uint64_t v;
	long arc;
	uint32_t reg = value_test(g, i, (uint32_t)sb, &v, &arc);
	if (!reg)
		return 0;
	/* Another test of the line compares the same register with
	 * another case's value: a tree over the switch's value. */
	int tree = 0;
	for (uint32_t k = 0; k < g->m && !tree; k++) {
		uint64_t v2;
		long a2;
		if (k != i && g->in[k].line == in->line &&
		    g->in[k].file == in->file &&
		    value_test(g, k, (uint32_t)sb, &v2, &a2) == reg &&
		    v2 != v && a2 != arc)
			tree = 1;
	}
	if (!tree)
		return 0;
	uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
	uint64_t tk = gc_taken(g->x->c, g->x->im, in->addr);
	int ne = gm_unequal_way(g, in->addr);
	sum[arc] += (int64_t)(ne == 0 ? cnt - tk : tk);
	bad[arc] |= unsure;
	return 1;
}
