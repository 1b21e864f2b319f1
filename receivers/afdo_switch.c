/* A SWITCH's dispatch through a jump table, for the count written for gcc
 * (afdo_mid.c's top comment). gcc 12 reads the profile
 * (pass_ipa_auto_profile) before it lowers switches (pass_lower_switch
 * makes the jump table's bound check, the table jump and the compare
 * trees late), so at that point a `switch` is one GIMPLE statement in one
 * block, whatever tests the machine code runs for it: the bound check's
 * copies (loop rotation puts one before the loop and one at the latch)
 * ran with different counts, and the line looked like several decisions
 * and was left out. One count fits one block: the line's first
 * statement's, every time control reached the switch. tokenc's lexer
 * `again: c = src[pos]; cur.line = line; switch (c)`, re-entered by
 * `goto again` for white space: left out, the switch's block read the
 * entry count 3290 instead of 5804 (its in-flow), and the cases' edges
 * looked hotter than the switch (19% of FDO's instruction savings ->
 * 33%). */
#include "afdo.h"
#include "ltpipe/insn.h"

/* Whether addr is a switch's table jump (contract in afdo.h). */
int afdo_table_jump(const struct afdo_input *in, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(in->img, addr);
	if (!r || r->info[lt_region_idx(r, addr)].cls != LT_INSN_IJUMP ||
	    afdo_is_call(in->img, addr))
		return 0;
	const struct lt_sym *s = lt_symtab_lookup(in->syms, addr);
	size_t k = afdo_pairs_first(in->br, in->nbr, addr);
	if (!s || k == in->nbr || in->br[k].a != addr)
		return 0;
	/* A return or a tail call leaves the function (or re-enters it at
	 * its entry): only jumps within the body are a table's. */
	for (; k < in->nbr && in->br[k].a == addr; k++)
		if (lt_symtab_lookup(in->syms, in->br[k].b) != s ||
		    in->br[k].b == s->start)
			return 0;
	return 1;
}
