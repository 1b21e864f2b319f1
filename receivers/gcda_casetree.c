/* The tests of a switch that optimized code compiles as a comparison
 * tree (gcda_mapper.h): which case arc a way of one of its conditional
 * branches serves when the case's code was hoisted above the test. */
#include "gcda_count.h"
#include "gcda_mapper.h"
#include "ltpipe/insn.h"

/* How far back from a test the scan for a case's hoisted code looks. */
#define HOIST_SCAN 4

/* The out-arc of switch block sb (not fake, not back to sb) whose
 * destination lists (file, line), when exactly one does: returns it, -1
 * when none does, -2 when several do. */
static long case_arc(const struct gm *g, uint32_t sb, uint32_t file,
                     uint32_t line)
{
	long hit = -1;
	for (uint32_t k = 0; k < g->nout[sb]; k++) {
		uint32_t a = g->outa[sb][k], d = g->f->arcs[a].dst;
		if ((g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) || d < 2 ||
		    d == sb || !gm_block_has_line(g, d, file, line))
			continue;
		if (hit >= 0)
			return -2;
		hit = a;
	}
	return hit;
}

/* The switch block of (file, line) (contract in gcda_mapper.h). */
long gm_switch_block(const struct gm *g, uint32_t file, uint32_t line)
{
	long sb = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (gm_n_real_out(g, b) <= 2 ||
		    !gm_block_has_line(g, b, file, line))
			continue;
		if (sb >= 0)
			return -1;
		sb = b;
	}
	return sb;
}

/* What control landing at insn t runs first, for a test of switch block
 * sb on (file, line): -3 unknown (no line there), -4 the switch's own
 * line (the tree's next test), -5 a line no case lists (code every case
 * shares: the return), else the case arc whose code it is (-2 when
 * several cases list the line). */
static long landing(const struct gm *g, uint32_t sb, long t, uint32_t file,
                    uint32_t line)
{
	if (t < 0 || (uint32_t)t >= g->m || !g->in[t].cline)
		return -3;
	const struct minsn *in = &g->in[t];
	if (in->cline == line && in->cfile == file)
		return -4;
	long a = case_arc(g, sb, in->cfile, in->cline);
	return a == -1 ? -5 : a;
}

/* The case whose code gcc hoisted above test i (the tree's leaf loads
 * the case's result, `li a0,K`, before it compares, so that its equal
 * way can go straight to the return every case shares): the straight
 * code just before i, on the lines of one case only (the switch's and
 * unlisted lines aside). Returns that case's arc or -1. */
static long hoisted_case(const struct gm *g, uint32_t sb, uint32_t i,
                         uint32_t file, uint32_t line)
{
	long found = -1;
	for (uint32_t n = 0, k = i; n < HOIST_SCAN && k > 0; n++) {
		k--;
		const struct minsn *in = &g->in[k];
		if (in->cls != LT_INSN_OTHER || in->nop ||
		    !gm_falls_to_next(g, k))
			break;
		if (!in->cline || (in->cline == line && in->cfile == file))
			continue;
		long a = case_arc(g, sb, in->cfile, in->cline);
		if (a == -2 || (a >= 0 && found >= 0 && a != found))
			return -1;
		if (a >= 0)
			found = a;
	}
	return found;
}

/* Optimized gcc expands a sparse switch (no jump table) into a tree of
 * compare-and-branch tests on the switch's line. A leaf test may load
 * its case's result above the compare (`li a0,K; beq a5,a4,.Lret`), so
 * that its equal way goes straight to the return every case shares: the
 * way that lands on code no case lists then serves the case whose line
 * that code just before the test has, provided the other way stays in
 * the tree (the switch's line) or goes to another case. A way landing on
 * a case's own line is left to the routing: that code may be another
 * case's that cross-jumping shared (`case 'G':` after `case 'A' ...
 * 'F':` reads as the range's line). Sets *ta and *fa to the case arcs of
 * test i's taken and fallthrough ways (-1: none) and returns 1 when one
 * of them is known, else 0. Only in optimized code of switches without
 * a jump table (a range check's ways are the jump table's business); the
 * counts are lower bounds of the arcs (the caller marks them unsure):
 * which values a test separates is in its operands, not its lines. */
static int case_tree_arms(const struct gm *g, uint32_t i, long *ta,
                          long *fa)
{
	const struct minsn *in = &g->in[i];
	*ta = *fa = -1;
	if (!g->x->optimized || in->cls != LT_INSN_BRANCH || !in->line ||
	    !gm_falls_to_next(g, i))
		return 0;
	long sb = gm_switch_block(g, in->file, in->line);
	if (sb < 0)
		return 0;
	for (uint32_t k = 0; k < g->m; k++)
		if (g->in[k].cls == LT_INSN_IJUMP &&
		    g->in[k].link == LT_LINK_NONE &&
		    g->in[k].line == in->line && g->in[k].file == in->file)
			return 0;
	long t = landing(g, (uint32_t)sb, gm_insn_at(g, in->tgt), in->file,
	                 in->line);
	long f = landing(g, (uint32_t)sb, (long)i + 1, in->file, in->line);
	if (t == -3 || f == -3 || t == -2 || f == -2)
		return 0;
	if ((t == -5) != (f == -5)) {
		long h = hoisted_case(g, (uint32_t)sb, i, in->file, in->line);
		t = t == -5 ? h : -1;
		f = f == -5 ? h : -1;
	} else {
		t = f = -1;
	}
	*ta = t >= 0 ? t : -1;
	*fa = f >= 0 ? f : -1;
	return *ta >= 0 || *fa >= 0;
}

/* gm_case_tree_pins: adds the ways of test i that case_tree_arms places
 * to sum[] of their case arcs and marks those arcs `unsure` in bad[]. */
int gm_case_tree_pins(const struct gm *g, uint32_t i, int64_t *sum,
                      uint8_t *bad, uint8_t unsure)
{
	long ta, fa;
	if (!case_tree_arms(g, i, &ta, &fa))
		return 0;
	const struct minsn *in = &g->in[i];
	uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
	uint64_t tk = gc_taken(g->x->c, g->x->im, in->addr);
	if (ta >= 0) {
		sum[ta] += (int64_t)tk;
		bad[ta] |= unsure;
	}
	if (fa >= 0) {
		sum[fa] += (int64_t)(cnt - tk);
		bad[fa] |= unsure;
	}
	return 1;
}
