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
 * the test, which runs as often as the header: exact. An arm laid out
 * behind the loop jumps back into it, backward too: no loop of its own
 * (into_loop).
 *
 * Loops nested on one line (`for (i = 0; i < n;) { r = 1; while (i + r < n
 * && ...) r++; ... }`) are taken apart where the gcno and the machine code
 * nest alike: the line's blocks (with the blocks without a line only they
 * enter and leave, `r = 1;` between the two tests) form loops each holding
 * the next one but its header, and the line's machine loops ([target,
 * backward transfer]) nest as deep; then each latch gets the runs of the
 * tops of the machine loops at its depth. Otherwise the line is one loop,
 * whose latch gets every machine loop's iterations (too many when they
 * nest: the inner ones' count too). */
#include <stdint.h>

#include "gcda_mapper.h"
#include "ltpipe/insn.h"

#define MAX_LINE_BLOCKS 32 /* blocks of one line this looks at */
#define MAX_LINE_LOOPS 8   /* machine loops, and nesting depths, of one line */

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
 * block going back to the header. Returns the latch, or -1; *hd gets the
 * header's index in bl and *cy the set (bit i: bl[i]). */
static long line_latch(const struct gm *g, const uint32_t *bl, uint32_t n,
                       long *hd, uint32_t *cy)
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
	*cy = cyc;
	*hd = -1;
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
	*hd = head;
	*cy = cyc;
	return latch < 0 ? -1 : (long)bl[latch];
}

/* Is the plain jump at insn i (of the line's own code, backward) the end
 * of an arm bb-reorder placed after a machine loop of the line, going
 * back into the middle of that loop (`if (c == ' ') in = 0;` laid out
 * behind the return, its `j` back to the latch's code)? The arm's
 * straight run is entered only by branches from within the loop [its
 * latch's target, the latch], not by a fallthrough, and the jump lands
 * strictly inside the loop: its target runs once per iteration of that
 * loop, which the latch's target counts already. Not in a function
 * inlined into itself, whose nested machine loops are copies of one loop,
 * one per level: a jump from past one may start a deeper level's pass
 * (fib's counts fell 10% below the twin's without this). */
static int into_loop(const struct gm *g, uint32_t i, uint32_t file,
                     uint32_t line)
{
	const struct minsn *in = &g->in[i];
	if (in->cls != LT_INSN_JUMP || in->link != LT_LINK_NONE)
		return 0;
	uint32_t s = i;
	while (s > 0 && gm_falls_to_next(g, s - 1) &&
	       !gm_ends_block(&g->in[s - 1]) && !gm_is_call(&g->in[s - 1]))
		s--;
	if (s > 0 && gm_falls_to_next(g, s - 1) &&
	    !(g->in[s - 1].cls == LT_INSN_JUMP ||
	      g->in[s - 1].cls == LT_INSN_IJUMP))
		return 0;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *o = &g->in[k];
		if (k == i || o->tgt > o->addr || !gm_own_line(g, k, file, line) ||
		    !(o->cls == LT_INSN_BRANCH ||
		      (o->cls == LT_INSN_JUMP && !gm_is_call(o))) ||
		    !(o->tgt < in->tgt && in->tgt <= o->addr && in->addr > o->addr))
			continue;
		/* Entered from that loop only. */
		int from = 0, out = 0;
		for (uint32_t q = 0; q < g->m; q++) {
			const struct minsn *e = &g->in[q];
			if (e->tgt != g->in[s].addr || gm_is_call(e) ||
			    !(e->cls == LT_INSN_BRANCH || e->cls == LT_INSN_JUMP))
				continue;
			if (e->addr >= o->tgt && e->addr <= o->addr)
				from = 1;
			else
				out = 1;
		}
		if (from && !out)
			return !gm_self_entries(g);
	}
	return 0;
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
		if (t < 0 || !gm_own_line(g, t, file, line) ||
		    into_loop(g, i, file, line))
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

/* A machine loop of one line: the target of backward transfers and the
 * last of them. */
struct mloop {
	uint64_t tgt;  /* the loop's top */
	uint64_t end;  /* its last backward transfer */
	size_t copy;   /* its copy (gm_copy_of) */
};

/* Is insn i a backward branch or plain jump among the own instructions
 * of (file, line)? */
static int line_back(const struct gm *g, uint32_t i, uint32_t file,
                     uint32_t line)
{
	const struct minsn *in = &g->in[i];
	long t = gm_insn_at(g, in->tgt);
	return gm_own_line(g, i, file, line) &&
	       (in->cls == LT_INSN_BRANCH ||
	        (in->cls == LT_INSN_JUMP && !gm_is_call(in))) &&
	       in->tgt <= in->addr && t >= 0 && gm_own_line(g, t, file, line);
}

/* The machine loops of (file, line) by nesting: it[d] gets the runs of
 * the tops of the loops d others of its copy enclose ([tgt, end] within
 * theirs), every copy summed. Returns the number of depths (0: none, or
 * more loops or depths than this looks at). */
static uint32_t line_depths(const struct gm *g, uint32_t file, uint32_t line,
                            uint64_t *it)
{
	struct mloop lp[MAX_LINE_LOOPS];
	uint32_t n = 0, depths = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		if (!line_back(g, i, file, line))
			continue;
		size_t copy = gm_copy_of(g, i);
		uint32_t k = 0;
		while (k < n && !(lp[k].tgt == g->in[i].tgt && lp[k].copy == copy))
			k++;
		if (k == MAX_LINE_LOOPS)
			return 0;
		if (k == n)
			lp[n++] = (struct mloop){g->in[i].tgt, g->in[i].addr, copy};
		else if (g->in[i].addr > lp[k].end)
			lp[k].end = g->in[i].addr;
	}
	for (uint32_t d = 0; d < MAX_LINE_LOOPS; d++)
		it[d] = 0;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t d = 0;
		for (uint32_t k = 0; k < n; k++)
			d += k != j && lp[k].copy == lp[j].copy &&
			     lp[k].tgt <= lp[j].tgt && lp[k].end >= lp[j].end;
		it[d] += gc_insn_count(g->x->c, g->x->im, lp[j].tgt);
		if (d + 1 > depths)
			depths = d + 1;
	}
	return depths;
}

/* Does every real arc into and out of block b join it to a block of
 * bl[n]? */
static int among(const struct gm *g, uint32_t b, const uint32_t *bl,
                 uint32_t n)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if ((arc->flags & LT_GCOV_ARC_FAKE) ||
		    (arc->src != b && arc->dst != b))
			continue;
		uint32_t o = arc->src == b ? arc->dst : arc->src, k = 0;
		while (k < n && bl[k] != o)
			k++;
		if (k == n)
			return 0;
	}
	return 1;
}

/* The line's blocks bl[n] and the blocks without a line that only they
 * enter and leave (gcc leaves `int r = 1;` of an inner loop's start in a
 * block of its own, without a line, between the two tests), in out[];
 * returns their number, 0 when more than MAX_LINE_BLOCKS. */
static uint32_t line_and_bare(const struct gm *g, const uint32_t *bl,
                              uint32_t n, uint32_t *out)
{
	uint32_t k = 0;
	for (; k < n; k++)
		out[k] = bl[k];
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (g->f->blocks[b].n_lines || !among(g, b, bl, n))
			continue;
		if (k == MAX_LINE_BLOCKS)
			return 0;
		out[k++] = b;
	}
	return k;
}

/* The latches of the loops nested on the line's blocks bl[n] (modified),
 * outermost first, in lat[]: each loop's blocks but its header hold the
 * next loop. Returns their number, 0 when the blocks' cycles are no such
 * chain (sibling loops, a loop with two headers or latches). */
static uint32_t line_nest(const struct gm *g, uint32_t *bl, uint32_t n,
                          long *lat)
{
	uint32_t depth = 0;
	for (;;) {
		long hd;
		uint32_t cy;
		long latch = line_latch(g, bl, n, &hd, &cy);
		if (!cy)
			return depth;
		if (latch < 0 || depth == MAX_LINE_LOOPS)
			return 0;
		lat[depth++] = latch;
		uint32_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if ((cy >> i & 1) && (long)i != hd)
				bl[k++] = bl[i];
		n = k;
	}
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
		long lat[MAX_LINE_LOOPS];
		uint64_t per[MAX_LINE_LOOPS];
		uint32_t sub[MAX_LINE_BLOCKS];
		uint32_t ns = line_and_bare(g, bl, n, sub);
		uint32_t nest = ns ? line_nest(g, sub, ns, lat) : 0;
		if (nest >= 2 &&
		    line_depths(g, in->file, in->line, per) == nest) {
			/* Loops nested alike in the gcno and the machine
			 * code: each latch from its own depth's loops. */
			for (uint32_t d = 0; d < nest; d++)
				if (est[lat[d]] < 0 && per[d])
					est[lat[d]] = (int64_t)per[d];
			continue;
		}
		long hd;
		uint32_t cy;
		long latch = line_latch(g, bl, n, &hd, &cy);
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
