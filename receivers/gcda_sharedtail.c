/* Shared tails: code gcc's cross-jumping made one copy of for several
 * statements (`return report(2, ..)`, `return report(7, ..)` and
 * `return report(0, ..)` each set up their arguments, then jump into one
 * epilogue and tail call that keeps the line-table row of one of them).
 * Control entering such a tail from the other statements' code runs none
 * of the kept row's statement (a tail is code that leaves the function:
 * a return or a tail call): counting those arrivals as entries of its
 * line (gcda_estimate.c: code_entries) gives the line the sum of every
 * merged statement's executions. So does a PHI's stub of constants or
 * copies that several ways share (copy_stub), which goes on in the
 * function but is no statement of its own. */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Source lines recorded per run start: enough to see two of them. */
#define TAIL_SRCS 4

/* A run start's arrivals: the (file, line) of the transfers that jump
 * there and of the code falling into it. */
struct tail_srcs {
	uint32_t n;                  /* distinct lines recorded */
	uint32_t fl[TAIL_SRCS][2];   /* their (file, line) */
};

static void add_src(struct tail_srcs *s, const struct minsn *from)
{
	if (!from->line)
		return;
	for (uint32_t q = 0; q < s->n; q++)
		if (s->fl[q][0] == from->file && s->fl[q][1] == from->line)
			return;
	if (s->n < TAIL_SRCS) {
		s->fl[s->n][0] = from->file;
		s->fl[s->n][1] = from->line;
		s->n++;
	}
}

/* Does control running insn i go on to insn i + 1 (its fallthrough)? */
static int falls(const struct gm *g, uint32_t i)
{
	const struct minsn *in = &g->in[i];
	return gm_falls_to_next(g, i) &&
	       (in->cls == LT_INSN_BRANCH || !gm_ends_block(in));
}

/* Is the code from insn s a PHI's stub: a few edge copies (constants,
 * moves) and a plain jump on to a join? Out of SSA, gcc puts the values
 * a join receives on the edges into it, and cross-jumping makes one
 * copy of a stub several ways share (`state = 3;` of a switch's default
 * and `state = 3 - 3 * (c & 1);` of another case when c is even, both
 * `li a2,3; li a3,3; j latch`): the stub is no statement of its own,
 * whatever line its row has. */
static int copy_stub(const struct gm *g, uint32_t s)
{
	for (uint32_t t = s; t < g->m && t < s + 4; t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && !gm_is_call(in))
			return t > s;
		if (!gm_edge_copy(g, t) || !gm_falls_to_next(g, t))
			return 0;
	}
	return 0;
}

/* Does straight-line code from insn s leave the function within a few
 * instructions: a return, or a plain jump out of its code (a tail
 * call)? A tail cross-jumping merged is an epilogue; code several
 * statements reach that goes on in the function (a loop's head, a join)
 * runs for each of them as its own line. */
static int ends_function(const struct gm *g, uint32_t s)
{
	for (uint32_t t = s; t < g->m && t < s + 16; t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_RET)
			return 1;
		if (in->cls == LT_INSN_JUMP && !gm_is_call(in))
			return gm_insn_at(g, in->tgt) < 0;
		if (gm_ends_block(in) || !gm_falls_to_next(g, t))
			return 0;
	}
	return 0;
}

uint8_t *gm_shared_tail_marks(const struct gm *g)
{
	uint8_t *mark = calloc(g->m + 1, 1);
	struct tail_srcs *src = calloc(g->m + 1, sizeof(*src));
	uint8_t *jumped = calloc(g->m + 1, 1);
	if (!mark || !src || !jumped) {
		free(src);
		free(jumped);
		return mark;
	}
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (gm_is_call(in) ||
		    (in->cls != LT_INSN_JUMP && in->cls != LT_INSN_BRANCH))
			continue;
		long t = gm_insn_at(g, in->tgt);
		if (t < 0)
			continue;
		jumped[t] = 1;
		add_src(&src[t], in);
	}
	for (uint32_t t = 1; t < g->m; t++)
		if (jumped[t] && falls(g, t - 1))
			add_src(&src[t], &g->in[t - 1]);
	/* Each instruction belongs to the run that starts at the nearest
	 * jump target above it that control falls through from, within a
	 * few instructions and no transfer in between. */
	for (uint32_t j = 0; j < g->m; j++) {
		long s = j;
		for (int steps = 0; s >= 0 && !jumped[s] && steps < 16;
		     steps++) {
			if (s == 0 || !gm_falls_to_next(g, (uint32_t)s - 1) ||
			    gm_ends_block(&g->in[s - 1])) {
				s = -1;
				break;
			}
			s--;
		}
		if (s < 0 || !jumped[s] || src[s].n < 2 ||
		    (!ends_function(g, (uint32_t)s) &&
		     !copy_stub(g, (uint32_t)s)))
			continue;
		const struct minsn *in = &g->in[j];
		for (uint32_t q = 0; q < src[s].n; q++)
			if (src[s].fl[q][0] == in->file &&
			    src[s].fl[q][1] == in->line)
				mark[j] = 1;
	}
	free(src);
	free(jumped);
	return mark;
}
