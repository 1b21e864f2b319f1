/* A loop's STEP moved into its body, for the count written for gcc
 * (afdo_mid.c's top comment). gcc's scheduler (and the loop's
 * rotation) moves a `for` loop's step (`i++`, a down-counting
 * replacement of it) up into the body, above the body's last test, the
 * back edge, whose taken way goes on to the rest of the loop's line (its
 * exit test) and whose other way leaves the loop (a `break`, a return).
 * There the step runs once per pass through the body, while the step
 * itself ran only when the body went on: my_sqrt's `for (i = 0; i < 60;
 * i++) { n = ..; if (n == g) break; g = n; }` runs its counter's `addw`
 * 14299 times, 1500 of them before the break. gcc's latch block holds
 * only the step (`g = n` became a PHI argument), so with that count it
 * is as hot as the body, the break edge gets 0 and the loop looks
 * endless: unrolled 9 times (fpmath). afdo_hoist_cap (afdo_tests.c)
 * does not see it: the test's line is after the step's. So the step's
 * code counts as often as the back edge was taken (fpmath 74% -> 76%
 * of FDO's instruction savings, its taken branches 27199 -> 19704, FDO
 * 15059; tokenc -1.2k instructions; corpus +1.8k instructions, +7.5k
 * taken branches saved). */
#include <stdint.h>
#include <stdlib.h>

#include "afdo.h"
#include "ltpipe/insn.h"

uint64_t afdo_step_cap(struct afdo_prof *p, const struct afdo_input *in,
                       uint64_t addr, const struct afdo_inst *f,
                       uint32_t off, int *rc)
{
	uint64_t b;
	const struct lt_hwinfo *h = afdo_next_transfer(in, addr, &b);
	if (!h || h->cls != LT_INSN_BRANCH || h->tgt >= 0)
		return UINT64_MAX;
	uint64_t t = b + (uint64_t)(int64_t)h->tgt;
	/* Only executed code is looked up (a lookup creates the
	 * position). */
	uint64_t n = afdo_taken_to(in, b, t);
	if (t > addr || !n)
		return UINT64_MAX;
	struct afdo_pos *q;
	struct afdo_inst *g;
	int w = afdo_position_of(p, in, b, &q, &g);
	if (w < 0)
		*rc = w;
	if (w != AFDO_WALK_OK || g != f || q->off <= off)
		return UINT64_MAX;
	/* The back edge's target: straight code up to the loop's own
	 * test, which must hold more of the step's line. */
	for (uint64_t a = t; a < addr;) {
		const struct lt_region *s = lt_image_region(in->img, a);
		if (!s || a >= s->end)
			return UINT64_MAX;
		const struct lt_hwinfo *i = &s->info[lt_region_idx(s, a)];
		w = afdo_position_of(p, in, a, &q, &g);
		if (w < 0) {
			*rc = w;
			return 0;
		}
		if (w == AFDO_WALK_OK && g == f && q->off == off)
			return n;
		if (!i->len || i->cls != LT_INSN_OTHER)
			return UINT64_MAX;
		a += i->len;
	}
	return UINT64_MAX;
}
