/* Jump-table landings that run several cases' code (gcda_mapper.h:
 * gm_mixed_landing). gcc hoists and merges code the cases of a switch
 * share: a remainder several cases compute, a load of a variable several
 * cases update (partial redundancy elimination) lands at the top of one
 * case's code, with the line of the case it came from. A landing then
 * runs lines of two or more cases before its own statements:
 *
 *     li    s3,13; remuw s3,s11,s3   y % 13 (case 4's line, CSE'd)
 *     ld    a5,0(s1)                  sink (the default's line, PRE)
 *     srlw  a1,s11,1                  x = y >> 1 (case 0's line)
 *     j     .Lbreak
 *
 * The first line names the wrong case. Lines of several cases in a
 * landing are only what the source says when the cases fall through
 * into each other in that order (case 3's code, then case 4's). A
 * landing of only loads and copies that jumps on into another case's
 * code (`lw s0,0(a0)` with case 1's line, then case 2's statements that
 * case 1 falls into) sets registers up for that code: its line does not
 * name its case either. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Instructions of a landing looked at, up to its first transfer (a jump
 * on is a tail gcc merged with another case's, cross-jumping, whose line
 * is that other case's). */
#define LANDING_MAX 12

/* The arc of switch block sb whose destination alone lists the line of
 * insn t, or -1. */
static long line_arm(const struct gm *g, uint32_t sb, long t)
{
	const struct minsn *in = &g->in[t];
	long hit = -1;
	for (uint32_t k = 0; k < g->nout[sb]; k++) {
		uint32_t a = g->outa[sb][k];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE ||
		    !gm_block_has_line(g, g->f->arcs[a].dst, in->cfile,
		                       in->cline))
			continue;
		if (hit >= 0 && g->f->arcs[hit].dst != g->f->arcs[a].dst)
			return -1;
		hit = a;
	}
	return hit;
}

/* Does gcno block `from` reach block `to` without passing block `avoid`
 * (real arcs)? seen[] is scratch of f->n_blocks entries. */
static int reaches(const struct gm *g, uint32_t from, uint32_t to,
                   uint32_t avoid, uint8_t *seen, uint32_t *stk)
{
	uint32_t top = 0;
	memset(seen, 0, g->f->n_blocks);
	seen[from] = 1;
	stk[top++] = from;
	while (top) {
		uint32_t b = stk[--top];
		if (b == to)
			return 1;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			const struct lt_gcno_arc *arc =
				&g->f->arcs[g->outa[b][k]];
			if (arc->flags & LT_GCOV_ARC_FAKE || arc->dst == avoid ||
			    seen[arc->dst])
				continue;
			seen[arc->dst] = 1;
			stk[top++] = arc->dst;
		}
	}
	return 0;
}

int gm_mixed_landing(const struct gm *g, uint32_t sb, long t)
{
	uint8_t *seen = malloc(g->f->n_blocks + 1);
	uint32_t *stk = malloc((g->f->n_blocks + 1) * sizeof(*stk));
	long prev = -1;
	int mixed = !seen || !stk, computes = 0;
	for (int steps = 0; !mixed && t >= 0 && t < (long)g->m &&
	                    steps < LANDING_MAX; steps++) {
		const struct minsn *in = &g->in[t];
		long a = in->cline && !in->nop ? line_arm(g, sb, t) : -1;
		if (a >= 0 && prev >= 0 && a != prev &&
		    !reaches(g, g->f->arcs[prev].dst, g->f->arcs[a].dst, sb,
		             seen, stk))
			mixed = 1;
		if (a >= 0)
			prev = a;
		computes |= gm_computes(g, in->addr);
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			/* Only loads and copies, then on into another
			 * case's code: they set up registers for the code
			 * where the jump goes (a value both cases read),
			 * so their line need not be the landing's case. */
			long j = gm_insn_at(g, in->tgt);
			long to = j >= 0 ? line_arm(g, sb, j) : -1;
			mixed = !computes && prev >= 0 && to >= 0 &&
				to != prev;
			break;
		}
		if (gm_ends_block(in) || gm_is_call(in))
			break;
		t++;
	}
	free(seen);
	free(stk);
	return mixed;
}
