/* Estimates of a loop written on one line (gcda_mapper.h):
 *
 *     while (i < len && t[i] == ' ') i++;
 *     for (k = 0; k < n; k++) h = h * 31 + s[k];
 *
 * Its tests and its body are gcno blocks that list the same line, so no
 * line anchors the body, and an even split of the line's count leaves it
 * far off (or at 0). The machine code has the loop too: a backward branch
 * or jump among the line's own instructions. Its target runs once per
 * iteration of the body: at the top of a body the compiler rotated under
 * a test copied before the loop, or past a jump into the loop's test; a
 * loop left in its source form (test on top, jump back to it) runs its
 * test once more per entry, so the estimate may be high by the entries.
 * When the latch is the header itself (`while (*p++) ;`), the target is
 * the test, which runs as often as the header: exact. Nested loops on one
 * line give the outer latch both loops' iterations (too many; telling the
 * machine loops apart by nesting was tried and came out worse on lru and
 * lz77, whose inner loops then got nothing). */
#include <stdint.h>

#include "gcda_mapper.h"
#include "ltpipe/insn.h"

#define MAX_LINE_BLOCKS 32 /* blocks of one line this looks at */

/* Is there a real (not fake) gcno arc a -> b? */
static int has_arc(const struct gm *g, uint32_t a, uint32_t b)
{
	for (uint32_t k = 0; k < g->nout[a]; k++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[g->outa[a][k]];
		if (arc->dst == b && !(arc->flags & LT_GCOV_ARC_FAKE))
			return 1;
	}
	return 0;
}

/* The loop's latch among the line's blocks bl[n]: the blocks that lie on
 * a cycle through the line's blocks only must be one strongly connected
 * set with one header (the only one entered from outside it) and one
 * block going back to the header. Returns the latch, or -1. */
static long line_latch(const struct gm *g, const uint32_t *bl, uint32_t n)
{
	uint32_t reach[MAX_LINE_BLOCKS];
	for (uint32_t i = 0; i < n; i++) {
		reach[i] = 0;
		for (uint32_t j = 0; j < n; j++)
			if (has_arc(g, bl[i], bl[j]))
				reach[i] |= 1u << j;
	}
	for (int changed = 1; changed;) { /* transitive closure */
		changed = 0;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < n; j++)
				if ((reach[i] >> j & 1) &&
				    (reach[i] | reach[j]) != reach[i]) {
					reach[i] |= reach[j];
					changed = 1;
				}
	}
	uint32_t cyc = 0;
	for (uint32_t i = 0; i < n; i++)
		if (reach[i] >> i & 1)
			cyc |= 1u << i;
	if (!cyc)
		return -1;
	for (uint32_t i = 0; i < n; i++) /* one strongly connected set */
		if ((cyc >> i & 1) && (reach[i] & cyc) != cyc)
			return -1;
	long head = -1, latch = -1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->flags & LT_GCOV_ARC_FAKE)
			continue;
		int src = -1, dst = -1;
		for (uint32_t i = 0; i < n; i++) {
			if (bl[i] == arc->src && (cyc >> i & 1))
				src = (int)i;
			if (bl[i] == arc->dst && (cyc >> i & 1))
				dst = (int)i;
		}
		if (dst >= 0 && src < 0) {
			if (head >= 0 && head != dst)
				return -1;
			head = dst;
		}
	}
	if (head < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (!(cyc >> i & 1) || !has_arc(g, bl[i], bl[head]))
			continue;
		if (latch >= 0)
			return -1;
		latch = (long)i;
	}
	return latch < 0 ? -1 : (long)bl[latch];
}

/* Executions of the targets of the backward branches and jumps among the
 * own instructions of (file, line), every copy in g->in summed. */
static uint64_t line_iterations(const struct gm *g, uint32_t file,
                                uint32_t line)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (!gm_own_line(g, i, file, line) ||
		    !(in->cls == LT_INSN_BRANCH ||
		      (in->cls == LT_INSN_JUMP && !gm_is_call(in))) ||
		    in->tgt > in->addr)
			continue;
		long t = gm_insn_at(g, in->tgt);
		if (t < 0 || !gm_own_line(g, t, file, line))
			continue;
		/* A target two backward transfers share counts once. */
		int seen = 0;
		for (uint32_t k = 0; k < i && !seen; k++) {
			const struct minsn *o = &g->in[k];
			seen = o->tgt == in->tgt && o->tgt <= o->addr &&
			       gm_own_line(g, k, file, line) &&
			       (o->cls == LT_INSN_BRANCH ||
			        (o->cls == LT_INSN_JUMP && !gm_is_call(o)));
		}
		if (!seen)
			n += gc_insn_count(g->x->c, g->x->im, in->tgt);
	}
	return n;
}

void gm_line_loop_estimates(const struct gm *g, int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only = 0;
		if (in->nop || !in->line ||
		    !gm_own_line(g, i, in->file, in->line) ||
		    gm_line_blocks(g, in->file, in->line, &only) < 2)
			continue;
		uint32_t k = 0; /* once per line: at its first instruction */
		while (k < i && !gm_own_line(g, k, in->file, in->line))
			k++;
		if (k < i)
			continue;
		uint32_t bl[MAX_LINE_BLOCKS], n = 0;
		for (uint32_t b = 2; b < nb && n <= MAX_LINE_BLOCKS; b++)
			if (gm_block_has_line(g, b, in->file, in->line)) {
				if (n == MAX_LINE_BLOCKS) {
					n++;
					break;
				}
				bl[n++] = b;
			}
		if (n > MAX_LINE_BLOCKS)
			continue;
		long latch = line_latch(g, bl, n);
		if (latch < 0 || est[latch] >= 0)
			continue;
		uint64_t it = line_iterations(g, in->file, in->line);
		if (it)
			est[latch] = (int64_t)it;
	}
}

/* Is executed insn k a branch or plain jump of (file, line) going
 * backward to an instruction of the line (a machine loop's latch: [tgt,
 * addr] is the loop; a jump back into the caller's code is none)? */
static int line_latch_insn(const struct gm *g, uint32_t k, uint32_t file,
                           uint32_t line)
{
	const struct minsn *in = &g->in[k];
	if (!((in->cls == LT_INSN_BRANCH ||
	       (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE)) &&
	      in->file == file && in->line == line && in->tgt <= in->addr &&
	      gc_insn_count(g->x->c, g->x->im, in->addr)))
		return 0;
	long t = gm_insn_at(g, in->tgt);
	return t >= 0 && g->in[t].file == file && g->in[t].line == line;
}

int gm_line_entry_tested(const struct gm *g, uint32_t file, uint32_t line)
{
	for (uint32_t k = 0; k < g->m; k++) {
		if (!line_latch_insn(g, k, file, line))
			continue;
		size_t copy = gm_copy_of(g, k);
		int entry = 0;
		for (uint32_t i = 0; i < g->m && !entry; i++) {
			const struct minsn *in = &g->in[i];
			if (in->cls != LT_INSN_BRANCH || in->file != file ||
			    in->line != line || gm_copy_of(g, i) != copy ||
			    !gc_insn_count(g->x->c, g->x->im, in->addr))
				continue;
			int inside = 0;
			for (uint32_t q = 0; q < g->m && !inside; q++)
				inside = line_latch_insn(g, q, file, line) &&
				         gm_copy_of(g, q) == copy &&
				         in->addr >= g->in[q].tgt &&
				         in->addr <= g->in[q].addr;
			entry = !inside;
		}
		if (!entry)
			return 0;
	}
	return 1;
}
