/* A test whose outcome CONTINUES its loop, for the count written for gcc
 * (afdo_mid.c's top comment). In GIMPLE a `continue` (and a `goto`)
 * leaves a GIMPLE_PREDICT hint (PRED_CONTINUE, kept by the early
 * strip_predict_hints until after the afdo pass) in a block of its own,
 * and the gimplifier gives that location-less statement the location of
 * the `if` around it; gcc's afdo_set_bb_count counts every non-debug
 * statement, so the `continue` block takes the if line's count, the
 * test's. In the binary the outcome has no code at all: the test jumps
 * straight into the loop's continuation (its step and latch test, code
 * of another line, also reached by the loop's other paths), and there is
 * no line-table row for the `continue`. So the line's count is capped at
 * that outcome's count, the times the `continue` ran: the test's block
 * mostly holds the statements before the test (their lines keep it),
 * and otherwise is raised by afdo_propagate_edge from its in-edges.
 * With the test's count, the `continue` block looked as hot as the
 * test, afdo_propagate_edge left the latch's in-edge from the loop's
 * other statements at 0, and the call they hold was on cunroll's hot
 * path: dijkstra's `u = neighbour(v, d); if (u < 0) continue;` kept its
 * 4-step loop rolled (`contains call and code would grow`), which FDO
 * unrolls (64% -> 77% of FDO's instruction savings).
 * The binary cannot tell a `continue` from an `if (c) { body }` ending
 * the loop's body (no predict block: the test's line reaches only the
 * test's block), so the cap is only taken when the test's block holds an
 * earlier statement of the loop's body (code of a line between the
 * loop's and the test's, or inlined code, calls included), whose count
 * the block keeps either way: without that condition huffman's put_bits
 * (`p = (*pos)++` folded into the loop's induction variable, the test's
 * block left to the test's line) lost 20k instructions. Corpus (67
 * programs): 77% -> 78% of FDO's instruction savings (dijkstra +34k,
 * sched +30k), taken branches 59% -> 60%, nothing down. */
#include <stdint.h>
#include <stdlib.h>

#include "afdo.h"
#include "ltpipe/insn.h"

/* Returns 1 if the straight run from addr (a join: it ran more often
 * than `n`, the outcome reaching it) holds no code of position (f, off)
 * and ends in a backward transfer (a loop's latch test or jump) of an
 * earlier line of f, setting *loop to that line's offset; 0 if not, or
 * LT_ERR_NOMEM. */
static int continues_loop(struct afdo_prof *p, const struct afdo_input *in,
                          const struct afdo_pair *ic, size_t nic,
                          uint64_t addr, uint64_t n,
                          const struct afdo_inst *f, uint32_t off,
                          uint32_t *loop)
{
	if (afdo_count_at(ic, nic, addr) <= n)
		return 0;
	for (;;) {
		const struct lt_region *r = lt_image_region(in->img, addr);
		if (!r || addr >= r->end)
			return 0;
		const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
		struct afdo_pos *q;
		struct afdo_inst *g;
		int w = afdo_position_of(p, in, addr, &q, &g);
		if (w < 0)
			return w;
		if (w == AFDO_WALK_OK && g == f && q->off == off)
			return 0;
		if (h->cls == LT_INSN_BRANCH ||
		    (h->cls == LT_INSN_JUMP && !afdo_is_call(in->img, addr))) {
			if (h->tgt >= 0 || w != AFDO_WALK_OK || g != f ||
			    q->off >= off)
				return 0;
			*loop = q->off;
			return 1;
		}
		if (h->cls != LT_INSN_OTHER || !h->len)
			return 0;
		addr += h->len;
	}
}

/* Returns the start of the executed block that reaches addr from the
 * nearest start before it (blocks of other paths end before addr; a
 * kilobyte bounds the search), or 0. */
static uint64_t block_start(const struct afdo_input *in, uint64_t addr)
{
	size_t lo = afdo_pairs_first(in->blk, in->nblk, addr + 1);
	for (size_t k = lo; k-- > 0 && in->blk[k].a + 1024 > addr;)
		if (in->blk[k].b >= addr)
			return in->blk[k].a;
	return 0;
}

/* Returns 1 if the straight code that runs into the test at addr (run n
 * times; from the last executed block start, after any earlier test)
 * holds code of the loop's body before the test: of a line of f between
 * the loop's (loop) and the test's (off), or inlined code. Then GIMPLE's
 * test block holds that earlier statement and keeps its count whatever
 * the test's line gets. 0 if not, or LT_ERR_NOMEM. */
static int body_before(struct afdo_prof *p, const struct afdo_input *in,
                       const struct afdo_pair *ic, size_t nic, uint64_t addr,
                       uint64_t n, const struct afdo_inst *f, uint32_t loop,
                       uint32_t off)
{
	uint64_t a = block_start(in, addr);
	/* A call returning to the run's start is part of it (GIMPLE
	 * blocks go on across calls): start at the call's own block. */
	for (int i = 0; i < 4 && a; i++) {
		uint64_t c = 0;
		for (uint64_t len = 4; len >= 2 && !c; len -= 2) {
			const struct lt_region *r = lt_image_region(in->img,
			                                            a - len);
			if (r && a - len < r->end &&
			    r->info[lt_region_idx(r, a - len)].len == len &&
			    afdo_is_call(in->img, a - len))
				c = a - len;
		}
		uint64_t b = c ? block_start(in, c) : 0;
		if (!b)
			break;
		a = b;
	}
	int found = 0;
	while (a && a < addr) {
		const struct lt_region *r = lt_image_region(in->img, a);
		if (!r || a >= r->end)
			return 0;
		const struct lt_hwinfo *h = &r->info[lt_region_idx(r, a)];
		if (!h->len)
			return 0;
		if (h->cls == LT_INSN_BRANCH) {
			found = 0;
		} else if (afdo_count_at(ic, nic, a) == n) {
			struct afdo_pos *q;
			struct afdo_inst *g;
			int w = afdo_position_of(p, in, a, &q, &g);
			if (w < 0)
				return w;
			if (w == AFDO_WALK_OK && (g != f ||
			    (q->off > loop && q->off < off)))
				found = 1;
		}
		a += h->len;
	}
	return found;
}

int afdo_continue_arm(struct afdo_prof *p, const struct afdo_input *in,
                      const struct afdo_pair *ic, size_t nic, uint64_t addr,
                      uint64_t n, const struct afdo_inst *f, uint32_t off,
                      uint64_t *arm)
{
	const struct lt_region *r = lt_image_region(in->img, addr);
	const struct lt_hwinfo *h = &r->info[lt_region_idx(r, addr)];
	if (h->tgt <= 0)
		return 0;
	uint64_t t = afdo_taken_from(in, addr);
	uint64_t succ[2] = {addr + h->len, addr + (uint64_t)(int64_t)h->tgt};
	uint64_t out[2] = {n - t, t};
	for (int k = 0; k < 2; k++) {
		if (!out[k] || out[k] >= n || out[k] >= *arm)
			continue;
		uint32_t loop = 0;
		int rc = continues_loop(p, in, ic, nic, succ[k], out[k], f, off,
		                        &loop);
		if (rc > 0)
			rc = body_before(p, in, ic, nic, addr, n, f, loop, off);
		if (rc < 0)
			return rc;
		if (rc)
			*arm = out[k];
	}
	return 0;
}
