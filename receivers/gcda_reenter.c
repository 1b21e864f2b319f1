/* Ways of a branch in an inlined copy that step out of the copy's code
 * for a few of the caller's instructions and come straight back
 * (gcda_mapper.h). */
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* How many of the caller's instructions such a way may run. */
#define MAX_OUTSIDE 3

/* A branch of a copy inlined into a loop of its caller may land on the
 * caller's instructions placed between the copy's spans (a flag or a
 * move the caller's loop keeps, `li a5,1`, given the caller's line)
 * that fall straight into the copy's next test of the branch's own
 * condition line: the way stays in the copy (a rotated loop's next
 * test), it does not return to the caller. Returns the index of the
 * instruction at `addr`; for an `addr` outside the function's decoded
 * code, the index of that test when straight code from there (at most
 * MAX_OUTSIDE instructions, no transfer) reaches a conditional branch
 * of the function on (file, line); else -1. */
long gm_reentry(const struct gm *g, uint64_t addr, uint32_t file,
                uint32_t line)
{
	long at = gm_insn_at(g, addr);
	if (at >= 0 || !line)
		return at;
	for (int n = 0; n < MAX_OUTSIDE; n++) {
		struct lt_insn d;
		int len = lt_image_insn(g->x->img, addr, &d);
		if (len <= 0 || d.cls != LT_INSN_OTHER)
			return -1;
		addr += (uint64_t)len;
		long t = gm_insn_at(g, addr);
		if (t < 0)
			continue;
		const struct minsn *in = &g->in[t];
		return in->cls == LT_INSN_BRANCH && in->line == line &&
		       in->file == file ? t : -1;
	}
	return -1;
}

/* The lowest address of copy `copy`'s spans (where a caller's loop
 * would enter the copy anew), 0 without spans. */
static uint64_t copy_low(const struct gm *g, size_t copy)
{
	uint64_t lo = 0;
	for (size_t s = 0; s < g->nspan; s++)
		if (g->span[s].copy == copy && (!lo || g->span[s].lo < lo))
			lo = g->span[s].lo;
	return lo;
}

/* (contract in gcda_mapper.h) */
long gm_resume(const struct gm *g, uint64_t addr, size_t copy)
{
	for (int n = 0; n <= MAX_OUTSIDE; n++) {
		long t = gm_insn_at(g, addr);
		if (t >= 0)
			return n && gm_copy_of(g, (uint32_t)t) == copy ? t : -1;
		struct lt_insn d;
		int len = lt_image_insn(g->x->img, addr, &d);
		if (len <= 0)
			return -1;
		/* A plain jump back into the copy, not to where the copy
		 * begins: the caller's copies placed on the way (`mv a5,s11;
		 * j .Lswitch`, the move given an inlined neighbour's row). */
		if (d.cls == LT_INSN_JUMP && d.link == LT_LINK_NONE) {
			t = gm_insn_at(g, d.target);
			return t >= 0 && gm_copy_of(g, (uint32_t)t) == copy &&
			       d.target != copy_low(g, copy) ? t : -1;
		}
		if (d.cls != LT_INSN_OTHER)
			return -1;
		addr += (uint64_t)len;
	}
	return -1;
}
