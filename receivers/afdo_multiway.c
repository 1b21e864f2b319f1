/* A MULTI-WAY decision on one line, for the count written for gcc
 * (afdo_mid.c's top comment): a switch gcc lowered into bit tests and
 * compare trees instead of a jump table (afdo_switch.c has those). gcc 12
 * reads the profile before pass_lower_switch, when the switch is still one
 * GIMPLE block whatever tests the machine code runs for it, so the line's
 * first statement's count (every time control reached the switch) fits it.
 * With its tests' different counts the line looked like several decisions
 * and was left out, and the switch's block took its count from flow, or
 * none. A condition, however many tests it has (`a && b || c`), leaves its
 * line two ways, to its then and else code; a switch leaves it for each
 * case group and the default. So a line of one statement (one is_stmt
 * column) with no call and no backward test (a loop's condition copies
 * leave it to the body and the exit from each copy; a do-while's jumps
 * back) whose conditional branches and plain jumps leave its code, by the
 * ways that ran, for three or more addresses is taken for a switch and
 * gets its first statement's count. Copies of one two-way test at one
 * position match too (avltree's `return n ? n->height : 0;` inlined twice
 * at one call line, the copies merged by the line key): each copy then
 * gets the statement's count, the sum, as one copy's block does under the
 * first-statement rule. Corpus (71 programs, scripts/afdo-parity.sh):
 * AutoFDO's instruction savings 3598482 -> 3609048 of FDO's 4566467 (79%),
 * taken branches 767628 -> 775501 (61%); avltree +6.2k instructions (its
 * taken branches 37531 -> 30548, FDO 22561), strtab +4.0k (shape's letter
 * classes, `switch (*w)` as bit tests), dispatch, aggr, sudoku and two
 * `?:`/`||` value chains (ctlflow, geom) a little; no program down.
 * Allowing backward tests (a switch in a loop whose default goes back to
 * the loop's step) cost exprcalc 13k and regex 8k; lines with calls or
 * more statements (`if (a && b) return report(..);`) cost bankacct 7k. */
#include <stdint.h>
#include <stdlib.h>

#include "afdo.h"
#include "ltpipe/insn.h"

int afdo_branch_exits(struct afdo_prof *p, const struct afdo_input *in,
                      uint64_t addr, uint64_t n, const struct afdo_inst *f,
                      uint32_t off, uint64_t exits[2])
{
	exits[0] = exits[1] = 0;
	const struct lt_region *r = lt_image_region(in->img, addr);
	if (!r || addr >= r->end)
		return 0;
	const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
	int jump = h->cls == LT_INSN_JUMP && !afdo_is_call(in->img, addr);
	if (h->cls != LT_INSN_BRANCH && !jump)
		return 0;
	uint64_t t = addr + (uint64_t)(int64_t)h->tgt;
	uint64_t nt = jump ? n : afdo_taken_to(in, addr, t);
	uint64_t dst[2] = {t, addr + h->len};
	uint64_t ran[2] = {nt, n > nt ? n - nt : 0};
	for (int k = 0; k < 2; k++) {
		if (!ran[k])
			continue;
		struct afdo_pos *q;
		struct afdo_inst *g;
		int w = afdo_position_of(p, in, dst[k], &q, &g);
		if (w < 0)
			return w;
		if (w != AFDO_WALK_OK || g != f || q->off != off)
			exits[k] = dst[k];
	}
	return 0;
}
