/* A line's conditional tests and the counts of the code around them,
 * for the count written for gcc (afdo_mid.c's top comment):
 * - the ARM of an `if (c) x;` on one line: the outcome of the line's one
 *   test that runs the line's own code (afdo_branch_arm); or, when gcc
 *   if-converted the arm into the statement before it (`t->kind = r % 7;
 *   if (r % 97 == 0) t->kind = TX_CLOSE;` became: kind = TX_CLOSE; test;
 *   the fall through runs line 116's `kind = r % 7` and joins the taken
 *   target), the count of the outcome that skips that earlier line's
 *   code, the times the arm's value was kept. gcc still has the arm as a
 *   GIMPLE block holding only the line's statement, so the test's count
 *   (3000, the arm's true count 25) made bankacct's rare TX_CLOSE look
 *   always taken (-12% of FDO's instruction savings -> 116%; no other
 *   corpus program changed). The skipped run must be straight
 *   code from the fall through to the target, else the branch is a loop's
 *   exit to an outer loop's step (matrix's equal(): that made the inner
 *   loop's test look less run than it is, 66% -> 58%);
 * - code HOISTED above a test: gcc's scheduler moves the start of a
 *   statement (with its is_stmt row) above the test of an earlier line
 *   that decides whether it runs, when the rest of it follows one
 *   outcome (wordfreq's probe loop `if (!strcmp(..)) break; i = (i + 1)
 *   & (CAP - 1);`: the step's first instruction and row sit before the
 *   strcmp test, in the block that runs 2099 times, while the step ran
 *   75 times). Counted there, the statement (and gcc's GIMPLE block
 *   holding it, the loop latch) looks as hot as the test, the latch
 *   always taken; so the code's count is capped at that outcome's count
 *   (afdo_hoist_cap). Corpus (scripts/afdo-parity.sh, 62 programs):
 *   73% -> 75% of FDO's instruction savings, taken branches 57% -> 58%
 *   (wordfreq -105% -> -71%, huffman 74% -> 87%, graphs -45% -> 9%,
 *   bsearchq 11% -> 74%, exprcalc 58% -> 71%; nothing down by more
 *   than 2 points). The test may be the CALLER's, of a line before the
 *   call site the code was inlined through: dijkstra's sift_down loop
 *   `if (m == i) break; hswap(h, i, m);` has hswap's first statement
 *   (line 35) above the break test, 2350 runs, while hswap ran 2176
 *   times; counted there, the inlined hswap block is as hot as the test
 *   block and gcc gave the loop's break exit 0%. Capped, the exit gets
 *   7.4% (truth 1112 of 3288 before jump threading). Corpus (74
 *   programs): 3,619,207 -> 3,620,385 instructions saved of FDO's
 *   4,577,972, taken branches 780,615 -> 782,092 of 1,267,863; only
 *   clones changed (+1.2k); dijkstra's code is the same (gcc 12 does
 *   not peel or unroll under AutoFDO, README "AutoFDO"). */
#include <stdint.h>

#include "afdo.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"

/* Returns 1 if the straight run of position (f, off) starting at addr,
 * each instruction run n times, reaches a conditional branch (a further
 * test of the line: the outcome that led there is part of a condition
 * like `a && b`, not an arm), 0 if it ends otherwise, or LT_ERR_NOMEM. */
static int run_tests_more(struct afdo_prof *p, const struct afdo_input *in,
                          const struct afdo_pair *ic, size_t nic,
                          uint64_t addr, uint64_t n,
                          const struct afdo_inst *f, uint32_t off)
{
	for (;;) {
		const struct lt_region *r = lt_image_region(in->img, addr);
		if (!r || afdo_count_at(ic, nic, addr) != n)
			return 0;
		const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
		struct afdo_pos *q;
		struct afdo_inst *g;
		int w = afdo_position_of(p, in, addr, &q, &g);
		if (w < 0)
			return w;
		if (w != AFDO_WALK_OK || g != f || q->off != off)
			return 0;
		if (h->cls == LT_INSN_BRANCH)
			return 1;
		if (h->cls != LT_INSN_OTHER || !h->len)
			return 0;
		addr += h->len;
	}
}

/* Returns 1 if the code from a (run n times) up to b is a straight run
 * of an earlier line of f than off (the line's test skips it when
 * taken), 0 if not, or LT_ERR_NOMEM. */
static int skips_earlier(struct afdo_prof *p, const struct afdo_input *in,
                         const struct afdo_pair *ic, size_t nic, uint64_t a,
                         uint64_t b, uint64_t n, const struct afdo_inst *f,
                         uint32_t off)
{
	struct afdo_pos *q;
	struct afdo_inst *g;
	if (a >= b || afdo_count_at(ic, nic, a) != n)
		return 0;
	int w = afdo_position_of(p, in, a, &q, &g);
	if (w < 0)
		return w;
	if (w != AFDO_WALK_OK || g != f || q->off >= off)
		return 0;
	while (a < b) {
		const struct lt_region *r = lt_image_region(in->img, a);
		if (!r || a >= r->end)
			return 0;
		const struct lt_hwinfo *h = &r->info[lt_region_idx(r, a)];
		if (h->cls != LT_INSN_OTHER || !h->len)
			return 0;
		a += h->len;
	}
	return a == b;
}

/* Sets *arm to the smaller count among the outcomes of the conditional
 * branch at addr (run n times) of position (f, off) that run the line's
 * own code: the outcome's first instruction is of the position and ran
 * exactly as often as the outcome (control reaches it from the branch
 * alone), and its straight run tests nothing more. When there is none and
 * the forward branch, taken and not taken, skips a straight run of an
 * earlier line's code (its first instruction run as often as the fall
 * through), *arm is the taken count (an if-converted arm, see the top
 * comment). Leaves *arm as it is otherwise. Returns 0 or LT_ERR_NOMEM. */
int afdo_branch_arm(struct afdo_prof *p, const struct afdo_input *in,
                    const struct afdo_pair *ic, size_t nic, uint64_t addr,
                    uint64_t n, const struct afdo_inst *f, uint32_t off,
                    uint64_t *arm)
{
	const struct lt_region *r = lt_image_region(in->img, addr);
	const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
	uint64_t t = afdo_taken_from(in, addr);
	uint64_t succ[2] = {addr + h->len, addr + (uint64_t)(int64_t)h->tgt};
	uint64_t out[2] = {n - t, t};
	for (int k = 0; k < 2; k++) {
		if (!out[k] || out[k] >= n || out[k] >= *arm)
			continue;
		int rc = run_tests_more(p, in, ic, nic, succ[k], out[k], f, off);
		if (rc < 0)
			return rc;
		struct afdo_pos *q;
		struct afdo_inst *g;
		int w = afdo_count_at(ic, nic, succ[k]) != out[k] ? AFDO_WALK_NONE
		      : afdo_position_of(p, in, succ[k], &q, &g);
		if (w < 0)
			return w;
		if (!rc && w == AFDO_WALK_OK && g == f && q->off == off)
			*arm = out[k];
	}
	if (*arm != UINT64_MAX || !out[0] || !out[1])
		return 0;
	int w = skips_earlier(p, in, ic, nic, succ[0], succ[1], out[0], f, off);
	if (w > 0)
		*arm = out[1];
	return w < 0 ? w : 0;
}

/* The first transfer from addr on (contract in afdo.h). */
const struct lt_hwinfo *afdo_next_transfer(const struct afdo_input *in,
                                           uint64_t addr, uint64_t *at)
{
	const struct lt_region *r = lt_image_region(in->img, addr);
	while (r && addr < r->end) {
		const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
		if (!h->len || (h->cls != LT_INSN_OTHER &&
		                !afdo_is_call(in->img, addr))) {
			*at = addr;
			return h;
		}
		addr += h->len;
	}
	return NULL;
}

/* Returns 1 if f is inlined somewhere below g (at any depth), with *off
 * set to the offset of g's own call site that leads to it; else 0. */
static int inlined_below(const struct afdo_inst *g, const struct afdo_inst *f,
                         uint32_t *off)
{
	for (size_t i = 0; i < g->nsite; i++) {
		uint32_t deeper;
		if (g->site[i].inst == f ||
		    inlined_below(g->site[i].inst, f, &deeper)) {
			*off = g->site[i].off;
			return 1;
		}
	}
	return 0;
}

/* Returns the cap on the count of position (f, off)'s code at addr
 * when the scheduler hoisted it above a test (see the top comment): the
 * first transfer after addr other than a call is a conditional branch of
 * an earlier line (of f, or of a caller g that f is inlined into, before
 * g's call site leading to f) at which no statement of that line begins
 * (it ends a statement begun before addr; a rotated loop's latch test
 * begins its own), and the executed straight run one of its outcomes
 * starts holds more code of (f, off) (the rest of the statement; not
 * addr's own run again, a one-block loop): the largest such outcome's
 * count. UINT64_MAX when there is none; 0 on error with *rc set. Only
 * executed instructions are looked up (a lookup creates the position). */
uint64_t afdo_hoist_cap(struct afdo_prof *p, const struct afdo_input *in,
                        const struct afdo_pair *ic, size_t nic,
                        uint64_t addr, const struct afdo_inst *f,
                        uint32_t off, int *rc)
{
	uint64_t b;
	const struct lt_hwinfo *h = afdo_next_transfer(in, addr, &b);
	if (!h || h->cls != LT_INSN_BRANCH)
		return UINT64_MAX;
	struct afdo_pos *q;
	struct afdo_inst *g;
	int w = afdo_position_of(p, in, b, &q, &g);
	if (w < 0)
		*rc = w;
	if (w != AFDO_WALK_OK)
		return UINT64_MAX;
	/* The test's line comes first in its function: before the code's
	 * own line, or before the call site the code was inlined through. */
	uint32_t before = off;
	if (g != f && !inlined_below(g, f, &before))
		return UINT64_MAX;
	if (q->off >= before)
		return UINT64_MAX;
	const struct lt_dwarf *dw = in->dw;
	long lr = lt_dwarf_line_find(dw, b);
	if (lr >= 0 && dw->range[lr].lo == b)
		for (uint32_t k = dw->range[lr].first; k <= dw->range[lr].last;
		     k++)
			if (dw->row[k].is_stmt &&
			    dw->row[k].line == g->decl_line + q->off)
				return UINT64_MAX;
	uint64_t succ[2] = {b + h->len, b + (uint64_t)(int64_t)h->tgt};
	uint64_t cap = 0;
	for (int k = 0; k < 2; k++) {
		uint64_t n = afdo_count_at(ic, nic, succ[k]);
		int more = 0;
		for (uint64_t a = succ[k]; n && a != addr;) {
			const struct lt_region *s = lt_image_region(in->img, a);
			if (!s || a >= s->end || afdo_count_at(ic, nic, a) != n)
				break;
			const struct lt_hwinfo *i = &s->info[lt_region_idx(s, a)];
			w = afdo_position_of(p, in, a, &q, &g);
			if (w < 0) {
				*rc = w;
				return 0;
			}
			more |= w == AFDO_WALK_OK && g == f && q->off == off;
			if (!i->len || i->cls != LT_INSN_OTHER)
				break;
			a += i->len;
		}
		if (more && n > cap)
			cap = n;
	}
	return cap ? cap : UINT64_MAX;
}
