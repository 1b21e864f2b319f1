/* Block estimates and entries counted from lines (gcda_mapper.h): anchor
 * lines of the function's own code, its inlined copies and clones, and
 * its copies inlined into itself; the calls on lines several blocks
 * share; the entries of a condition's line into its first block; and
 * (gcda_map.h) the count of a source line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Most lines gm_entry_estimates leaves out as tail-merged statements'. */
#define MAX_MERGED 16

/* The only gcno block with a real (not fake) arc to EXIT, or -1. */
static long return_block(const struct gm *g)
{
	long r = -1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst != 1 || (arc->flags & LT_GCOV_ARC_FAKE))
			continue;
		if (r >= 0 && r != (long)arc->src)
			return -1;
		r = arc->src;
	}
	return r;
}

/* Times the machine function returned: its returns plus its tail calls
 * (jumps out of it). */
static uint64_t machine_exits(const struct gm *g)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_RET) {
			n += gc_insn_count(g->x->c, g->x->im, in->addr);
		} else if (in->cls == LT_INSN_JUMP && !gm_is_call(in) &&
		           gm_insn_at(g, in->tgt) < 0) {
			n += gc_taken(g->x->c, g->x->im, in->addr);
		} else if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE) {
			size_t k;
			const struct gc_xfer *xs =
				gc_xfers_from(g->x->c, g->x->im, in->addr, &k);
			for (size_t q = 0; q < k; q++)
				if (gm_insn_at(g, xs[q].to) < 0)
					n += xs[q].n;
		}
	}
	return n;
}

/* The count of one instruction on an anchor line of a block. */
struct linecount {
	uint32_t b;    /* the only gcno block listing the line */
	uint32_t file; /* DWARF file of the line */
	uint32_t line; /* the line */
	int64_t n;     /* executions of the instruction */
};

static int cmp_linecount(const void *a, const void *b)
{
	const struct linecount *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

void gm_store_caps(const int64_t *st, int64_t *est, uint32_t nb)
{
	for (uint32_t b = 2; st && b < nb; b++)
		if (st[b] > 0 && st[b] < est[b])
			est[b] = st[b];
}

/* Where most of a block's anchor lines (at least three, over half)
 * agree on their largest count, that count is the block's estimate,
 * not the largest of all: the line table also gives an anchor line to
 * code it merely precedes (a row of `return 1` running on into the
 * loop body after a jump), which then counts the loop, not the block.
 * Sorts lc[n]. */
static void majority_lines(struct linecount *lc, size_t n, int64_t *est)
{
	if (!lc || !n)
		return;
	qsort(lc, n, sizeof(*lc), cmp_linecount);
	/* Reduce to one entry per line: its largest count. */
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && lc[w - 1].b == lc[i].b && lc[w - 1].file == lc[i].file &&
		    lc[w - 1].line == lc[i].line)
			lc[w - 1].n = lc[i].n;
		else
			lc[w++] = lc[i];
	}
	for (size_t i = 0; i < w;) {
		size_t j = i;
		while (j < w && lc[j].b == lc[i].b)
			j++;
		size_t nl = j - i, best = 0;
		int64_t bv = -1;
		for (size_t k = i; k < j; k++) {
			size_t c = 0;
			for (size_t q = i; q < j; q++)
				c += lc[q].n == lc[k].n;
			if (c > best || (c == best && lc[k].n > bv)) {
				best = c;
				bv = lc[k].n;
			}
		}
		if (nl >= 3 && 2 * best > nl && bv < est[lc[i].b])
			est[lc[i].b] = bv;
		i = j;
	}
}

/* Estimates from calls on lines several blocks list: gcc ends a block
 * after each call that may not return (its fake arc to EXIT), so a call
 * on line L is in a block with a fake arc that lists L last; when
 * exactly one block is such and one call of the function's own code
 * (not code inlined late) is on L, its count estimates the block (a
 * line's other code may belong to the block after the call: `s +=
 * f(x)` lists L in both). Several calls there are copies (a function
 * inlined into itself) splitting the count, or calls the compiler
 * added: no estimate; so are recursive calls (the copies of the
 * function inlined into itself hold the rest of its calls, some of
 * them without a call left). Only blocks without an estimate take one. */
static void call_estimates(const struct gm *g, int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	int64_t *best = malloc(2 * nb * sizeof(*best));
	if (!best)
		return;
	int64_t *ncall = best + nb;
	for (uint32_t b = 0; b < nb; b++) {
		best[b] = -1;
		ncall[b] = 0;
	}
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only = 0;
		if (!gm_is_call(in) || !in->line || in->cline != in->line ||
		    in->cfile != in->file || gm_insn_at(g, in->tgt) >= 0 ||
		    gm_line_blocks(g, in->file, in->line, &only) < 2)
			continue;
		long cb = -1;
		int nc = 0;
		for (uint32_t b = 2; b < nb; b++)
			if (gm_has_fake_out(g, b) &&
			    gm_last_line_is(g, b, in->file, in->line)) {
				cb = b;
				nc++;
			}
		int64_t n = (int64_t)gc_insn_count(g->x->c, g->x->im, in->addr);
		if (nc == 1) {
			ncall[cb]++;
			best[cb] = n;
		}
	}
	for (uint32_t b = 2; b < nb; b++)
		if (est[b] < 0 && ncall[b] == 1 && best[b] > 0)
			est[b] = best[b];
	free(best);
}

/* Is DWARF instance fq a copy of g's function inlined (into itself: the
 * caller looks only inside its code)? */
static int is_self_copy(const struct gm *g, const struct lt_inline_func *fq)
{
	return fq->depth && strcmp(fq->name, g->f->name) == 0;
}

/* The copy of the function inlined into itself (an index into the DWARF
 * instances) that insn i belongs to, innermost first; -1 for the
 * function's own outermost code. */
static long self_copy(const struct gm *g, uint32_t i)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw || !dw->nirange)
		return -1;
	for (long q = lt_dwarf_inline_find(dw, g->in[i].addr); q >= 0;
	     q = dw->func[q].parent)
		if (is_self_copy(g, &dw->func[q]))
			return q;
	return -1;
}

/* Anchor estimates est[nb] (gm_estimates) from the instructions i with
 * copy[i] == k only (copy NULL: all of them). */
static void anchor_estimates(const struct gm *g, const long *copy, long k,
                             int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	int64_t *calls = malloc(4 * nb * sizeof(*calls));
	int64_t *late = calls ? calls + nb : NULL;
	int64_t *ncall = calls ? calls + 2 * nb : NULL;
	int64_t *st = calls ? calls + 3 * nb : NULL;
	struct linecount *lc = malloc((g->m + 1) * sizeof(*lc));
	size_t nlc = 0;
	for (uint32_t b = 0; b < nb; b++) {
		est[b] = -1;
		if (calls) {
			calls[b] = late[b] = st[b] = -1;
			ncall[b] = 0;
		}
	}
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only = 0;
		if (!in->cline || (copy && copy[i] != k) ||
		    gm_line_blocks(g, in->cfile, in->cline, &only) != 1)
			continue;
		int64_t n = (int64_t)gc_insn_count(g->x->c, g->x->im, in->addr);
		if (in->cline != in->line || in->cfile != in->file) {
			/* Branchy inlined code runs parts more or less often
			 * than its call site: no estimate (-2). */
			if (!late || late[only] == -2)
				continue;
			if (gm_ends_block(in))
				late[only] = -2;
			else if (n > late[only])
				late[only] = n;
			continue;
		}
		/* Code hoisted above its block's guard counts the
		 * guard's executions. */
		if (gm_hoisted_above_guard(g, i, only))
			continue;
		if (n > est[only])
			est[only] = n;
		if (late && gm_is_store(g->x->img, in->addr) && n > st[only])
			st[only] = n;
		if (lc)
			lc[nlc++] = (struct linecount){only, in->cfile,
			                               in->cline, n};
		if (calls && gm_is_call(in)) {
			ncall[only]++;
			if (n > calls[only])
				calls[only] = n;
		}
	}
	majority_lines(lc, nlc, est);
	free(lc);
	gm_store_caps(st, est, nb);
	for (uint32_t b = 0; calls && b < nb; b++) {
		if (ncall[b] == 1 && 2 * calls[b] < est[b] &&
		    gm_has_fake_out(g, b))
			est[b] = calls[b];
		else if (est[b] < 0 && late[b] >= 0)
			est[b] = late[b];
	}
	free(calls);
}

/* Anchor estimates of a function inlined into itself: each copy runs its
 * blocks apart from the others (a recursive tree walk's inner levels run
 * the same lines as the outer one, in other code), so a block's count is
 * the sum over the copies, each copy's estimate taken as for a function
 * of its own. Returns 0 when the function holds no copy of itself (est
 * untouched). */
static int self_copy_estimates(const struct gm *g, int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	long *copy = malloc((g->m + 1) * sizeof(*copy));
	long *ks = malloc((g->m + 2) * sizeof(*ks));
	int64_t *one = malloc(nb * sizeof(*one));
	size_t nk = 0;
	int done = 0;
	if (!copy || !ks || !one)
		goto out;
	ks[nk++] = -1;
	for (uint32_t i = 0; i < g->m; i++) {
		copy[i] = self_copy(g, i);
		size_t q = 0;
		while (q < nk && ks[q] != copy[i])
			q++;
		if (q == nk)
			ks[nk++] = copy[i];
	}
	if (nk < 2)
		goto out;
	for (uint32_t b = 0; b < nb; b++)
		est[b] = -1;
	for (size_t q = 0; q < nk; q++) {
		anchor_estimates(g, copy, ks[q], one);
		for (uint32_t b = 2; b < nb; b++)
			if (one[b] >= 0)
				est[b] = (est[b] > 0 ? est[b] : 0) + one[b];
	}
	done = 1;
out:
	free(copy);
	free(ks);
	free(one);
	return done;
}

/* Block estimates from anchor lines: the largest count of an instruction
 * whose line belongs to this gcno block only (-1: no anchor); for a
 * function inlined into itself, summed over its copies
 * (self_copy_estimates). A call on
 * such a line is preferred: scheduling hoists cheap instructions (moves,
 * address setup) above the branch that guards their block, so they count
 * the guard's executions, while a call stays in its block. Only a lone
 * call counts (duplicated code splits the block's count among copies),
 * only in a block with a fake arc (a call the gcno saw: the memset or
 * memcpy that loop distribution makes of a loop's stores runs once per
 * loop, not per iteration), and only when the line's other code ran
 * over twice as often (a hoist above a guard, not a scheduling detail). A block with
 * no such line but straight-line code inlined late at a line of its own
 * (fail() into its caller) takes that code's count. The return block
 * (the only one with a real arc to EXIT) runs at least as often as the
 * machine function returns: gcc duplicates a return into the paths
 * leading to it, and the largest count of one copy's line misses the
 * others. The arms of a condition on one line take the counts of what
 * they run (gm_arm_estimates). A computed goto's label block runs at
 * least as often as the dispatch jumps landed at its label
 * (gm_goto_label_estimates). */
void gm_estimates(const struct gm *g, int64_t *est)
{
	if (!self_copy_estimates(g, est))
		anchor_estimates(g, NULL, 0, est);
	call_estimates(g, est);
	gm_arm_estimates(g, est);
	gm_goto_label_estimates(g, est);
	long r = return_block(g);
	if (r >= 0) {
		int64_t n = (int64_t)machine_exits(g);
		if (n > est[r])
			est[r] = n;
	}
}

/* Entries of the copies of the function inlined into itself (recursive
 * inlining): each such DWARF instance inside [g->lo, g->hi) is entered
 * as often as its lowest address runs. Those are calls in the
 * instrumented run, so they add to the entries. */
uint64_t gm_self_entries(const struct gm *g)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw || !dw->nirange)
		return 0;
	/* First irange at or after lo. */
	size_t a = 0, b = dw->nirange;
	while (a < b) {
		size_t mid = (a + b) / 2;
		if (dw->irange[mid].lo < g->lo)
			a = mid + 1;
		else
			b = mid;
	}
	uint32_t *inst = NULL;
	uint64_t *first = NULL;
	size_t n = 0, cap = 0, total = 0;
	for (size_t r = a; r < dw->nirange && dw->irange[r].lo < g->hi; r++) {
		for (int32_t q = (int32_t)dw->irange[r].func; q >= 0;
		     q = dw->func[q].parent) {
			const struct lt_inline_func *fq = &dw->func[q];
			if (!is_self_copy(g, fq))
				continue;
			size_t k = 0;
			while (k < n && inst[k] != (uint32_t)q)
				k++;
			if (k == n) {
				if (n == cap) {
					size_t nc = cap ? 2 * cap : 16;
					uint32_t *ni = realloc(inst,
					                       nc * sizeof(*ni));
					if (ni)
						inst = ni;
					uint64_t *nf = realloc(first,
					                       nc * sizeof(*nf));
					if (nf)
						first = nf;
					if (!ni || !nf)
						goto out;
					cap = nc;
				}
				inst[n] = (uint32_t)q;
				first[n++] = dw->irange[r].lo;
			} else if (dw->irange[r].lo < first[k]) {
				first[k] = dw->irange[r].lo;
			}
		}
	}
	for (size_t k = 0; k < n; k++)
		total += gc_insn_count(g->x->c, g->x->im, first[k]);
out:
	free(inst);
	free(first);
	return total;
}

uint64_t gm_line_count(const struct gm_ctx *x, uint32_t file, uint32_t line,
                       uint32_t unit)
{
	const struct lt_dwarf *dw = x->dw;
	uint64_t best = 0;
	for (size_t r = 0; dw && r + 1 < dw->nrows; r++) {
		const struct lt_line_row *w = &dw->row[r];
		if (w->end_seq || w->line != line || w->file != file ||
		    (unit != LT_DWARF_NO_FILE && w->unit != unit))
			continue;
		/* Rows of one sequence ascend; the next row ends this one. */
		uint64_t end = dw->row[r + 1].addr;
		if (end <= w->addr || end - w->addr > 4096)
			end = w->addr + 2;
		for (uint64_t a = w->addr; a < end; a += 2) {
			uint64_t c = gc_insn_count(x->c, x->im, a);
			if (c > best)
				best = c;
		}
	}
	return best;
}

/* Is insn j of the function's own code on (file, line)? */
int gm_own_line(const struct gm *g, long j, uint32_t file, uint32_t line)
{
	const struct minsn *in = &g->in[j];
	return j >= 0 && in->line == line && in->file == file &&
	       in->cline == line && in->cfile == file;
}

/* The code code_entries counts: the function's own code on (file, line),
 * or, with blk set, on any line that only gcno block blk lists. */
struct linesel {
	uint32_t file; /* DWARF file of the line (without blk) */
	uint32_t line; /* the line (without blk) */
	long blk;      /* the block whose own lines count, or -1 */
};

/* The last line internal_line answered for. */
struct linememo {
	uint32_t file;  /* its DWARF file */
	uint32_t line;  /* the line, 0: none yet */
	int internal;   /* the answer */
};

/* Is insn j code that sel selects? */
static int selected(const struct gm *g, long j, const struct linesel *sel)
{
	if (j < 0)
		return 0;
	if (sel->blk < 0)
		return gm_own_line(g, j, sel->file, sel->line);
	const struct minsn *in = &g->in[j];
	uint32_t only = 0;
	return in->line && gm_own_line(g, j, in->file, in->line) &&
	       gm_line_blocks(g, in->file, in->line, &only) == 1 &&
	       (long)only == sel->blk;
}

/* Is insn j code of a line that only blocks listing sel's line list (a
 * loop's body on the line after its `for`: flow from there back into the
 * `for` line's increment stays inside the line's blocks)? Line mode only;
 * *memo caches the answer for the last line asked. */
static int internal_line(const struct gm *g, long j, const struct linesel *sel,
                         struct linememo *memo)
{
	const struct minsn *in = &g->in[j];
	if (sel->blk >= 0 || !in->line || !gm_own_line(g, j, in->file, in->line))
		return 0;
	if (memo->file == in->file && memo->line == in->line)
		return memo->internal;
	int any = 0, out = 0;
	for (uint32_t b = 2; b < g->f->n_blocks && !out; b++) {
		if (!gm_block_has_line(g, b, in->file, in->line))
			continue;
		any = 1;
		out = !gm_block_has_line(g, b, sel->file, sel->line);
	}
	memo->file = in->file;
	memo->line = in->line;
	memo->internal = any && !out;
	return memo->internal;
}

/* Is insn j a constant load (lui, li) into an integer register? Sets *rd. */
static int const_load(const struct gm *g, uint32_t j, uint32_t *rd)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, g->in[j].addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	int c = d.len == 4 ? (r & 0x7f) == 0x37 ||
			     (((r & 0x7f) == 0x13 || (r & 0x7f) == 0x1b) &&
			      !(r >> 12 & 7) && !(r >> 15 & 31)) :
		d.len == 2 && ((r & 0xe003) == 0x4001 ||
			       ((r & 0xe003) == 0x6001 && (r >> 7 & 31) != 2));
	*rd = c ? gm_int_rd(g, g->in[j].addr) : 0;
	return *rd != 0;
}

/* Does the instruction at addr reload a register from the stack (an
 * epilogue's restore, a spill's reload: ld/lw rd, N(sp), c.ldsp,
 * c.lwsp)? */
static int stack_reload(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, f3 = r >> 13 & 7;
	if (d.len == 4)
		return (r & 0x7f) == 0x03 && (r >> 15 & 31) == 2;
	return d.len == 2 && (r & 3) == 2 && (f3 == 2 || f3 == 3);
}

/* Is insn j, code of sel's line, a loop invariant gcc hoisted out of the
 * line's loop (`li s4,1` for `b % 10u < 2u`, placed before the loop with
 * the line's row): a constant load whose register other code of the line
 * reads, more often than the load runs, and nothing else in the function
 * writes (but reloads from the stack)? Control reaching it is no entry
 * of the line: it runs once per entry of the loop, not once per
 * execution of the statement. (Without a loop, a constant scheduled
 * early runs as often as its readers: an entry like any.) */
static int hoisted_const(const struct gm *g, uint32_t j,
                         const struct linesel *sel)
{
	uint32_t rd;
	if (sel->blk >= 0 || !const_load(g, j, &rd))
		return 0;
	uint64_t n = gc_insn_count(g->x->c, g->x->im, g->in[j].addr), most = 0;
	for (uint32_t k = 0; k < g->m; k++) {
		if (k == j)
			continue;
		uint64_t a = g->in[k].addr;
		if (gm_int_rd(g, a) == rd && !stack_reload(g, a))
			return 0;
		if (gm_own_line(g, k, sel->file, sel->line) &&
		    gm_reads_reg(g, a, rd)) {
			uint64_t r = gc_insn_count(g->x->c, g->x->im, a);
			most = r > most ? r : most;
		}
	}
	return most > n;
}

/* Times control entered the code sel selects: the executions of its
 * instructions minus the arrivals there from its own instructions (a
 * branch or jump of that code, or falling through from it, also past
 * instructions of other lines that scheduling put in between; for a
 * line, also from code of lines only the line's own blocks list: a
 * loop's body on the lines after its `for` reaches the increment on
 * the `for` line once per iteration, the loop is entered once). Each
 * copy of the code that the compiler made (a jump-threaded state machine
 * repeats a case's test in every state that reaches it; a function
 * inlined into itself repeats its body) counts its own entries, so they
 * add up, which the largest count of one instruction does not. A line's
 * code in a shared tail (gm_shared_tail_marks) is not its own, nor is a
 * constant hoisted out of its loop (hoisted_const). */
static uint64_t code_entries(const struct gm *g, const struct linesel *sel)
{
	const struct gc_counts *c = g->x->c;
	size_t im = g->x->im;
	uint64_t all = 0, inner = 0, carried = 0;
	struct linememo memo = {0, 0, 0};
	uint8_t *tail = sel->blk < 0 ? gm_shared_tail_marks(g) : NULL;
	uint8_t *inv = sel->blk < 0 ? gm_invariant_marks(g) : NULL;
	for (uint32_t j = 0; j < g->m; j++) {
		const struct minsn *in = &g->in[j];
		uint64_t n = gc_insn_count(c, im, in->addr);
		uint64_t tk = in->cls == LT_INSN_BRANCH ||
			      (in->cls == LT_INSN_JUMP && !gm_is_call(in)) ?
			      gc_taken(c, im, in->addr) : 0;
		uint64_t fall = in->cls == LT_INSN_BRANCH ? n - tk :
				gm_ends_block(in) ? 0 : n;
		int on = selected(g, j, sel) && !(tail && tail[j]) &&
			 !hoisted_const(g, j, sel) && !(inv && inv[j]);
		if (j && !gm_falls_to_next(g, j - 1))
			carried = 0;
		if (!on && internal_line(g, j, sel, &memo)) {
			/* Arrivals from here are not entries. */
			carried = fall;
		} else if (on) {
			all += n;
			inner += carried < n ? carried : n;
			carried = fall;
		} else if (sel->blk >= 0 &&
		           (gm_ends_block(in) || gm_is_call(in))) {
			/* A block's code past a transfer of other code is
			 * another execution of it (copies inlined into
			 * themselves run one's exit right after another's). */
			carried = 0;
			continue;
		} else {
			carried = carried < fall ? carried : fall;
			continue;
		}
		if (tk && selected(g, gm_insn_at(g, in->tgt), sel))
			inner += tk;
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE) {
			size_t k;
			const struct gc_xfer *xs =
				gc_xfers_from(c, im, in->addr, &k);
			for (size_t q = 0; q < k; q++)
				if (selected(g, gm_insn_at(g, xs[q].to), sel))
					inner += xs[q].n;
		}
	}
	free(tail);
	free(inv);
	return all > inner ? all - inner : 0;
}

/* Times control entered the code of (file, line) (code_entries). */
static uint64_t line_entries(const struct gm *g, uint32_t file,
                             uint32_t line)
{
	struct linesel sel = {file, line, -1};
	return code_entries(g, &sel);
}

uint64_t gm_exit_entries(const struct gm *g, int64_t *est)
{
	long r = return_block(g);
	if (r < 0 || gm_n_real_out(g, (uint32_t)r) != 1)
		return 0;
	struct linesel sel = {0, 0, r};
	uint64_t n = code_entries(g, &sel);
	if ((int64_t)n > est[r])
		est[r] = (int64_t)n;
	return n;
}

/* Has block b a real in-arc from a block listing (file, line)? With
 * from_others, an in-arc from a block not listing it? */
static int in_from(const struct gm *g, uint32_t b, uint32_t file,
                   uint32_t line, int from_others)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst != b || (arc->flags & LT_GCOV_ARC_FAKE))
			continue;
		int has = arc->src >= 2 &&
			  gm_block_has_line(g, arc->src, file, line);
		if (has != from_others)
			return 1;
	}
	return 0;
}

/* Does control at insn t run straight (no transfer taken or passed) to
 * insn j within a few instructions? */
static int straight_to(const struct gm *g, long t, uint32_t j)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 16;
	     steps++, t++) {
		if ((uint32_t)t == j)
			return 1;
		if (gm_ends_block(&g->in[t]) || gm_is_call(&g->in[t]) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return 0;
	}
	return 0;
}

int gm_hoisted_above_guard(const struct gm *g, uint32_t j, uint32_t head)
{
	const struct minsn *at = &g->in[j];
	for (uint32_t t = j; t < g->m && t < j + 8; t++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_BRANCH &&
		    (in->cline != at->cline || in->cfile != at->cfile)) {
			/* A loop's test that goes back to j is the next
			 * iteration's guard, not one j was hoisted over. */
			if (straight_to(g, gm_insn_at(g, in->tgt), j))
				return 0;
			/* A test of head's own successor (a loop's
			 * update and test after its body's last
			 * statement, `prev[i] = x;` then `i--, i >= 0`)
			 * runs after head's code, which falls into it. */
			for (uint32_t k = 0; head < g->f->n_blocks &&
			                     k < g->nout[head]; k++) {
				const struct lt_gcno_arc *a =
					&g->f->arcs[g->outa[head][k]];
				if (!(a->flags & LT_GCOV_ARC_FAKE) &&
				    a->dst >= 2 &&
				    gm_last_line_is(g, a->dst, in->cfile,
				                    in->cline))
					return 0;
			}
			return gm_guards(g, in->cfile, in->cline, head);
		}
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, t))
			return 0;
	}
	return 0;
}

/* The estimates summed of the blocks whose only real arc leads into
 * block h: h runs at least as often as they do. A line's entries miss
 * the arrivals from a loop body whose code scheduling put between the
 * line's instructions (the next round's load of the loop's test hoisted
 * above the body's code: `.L: lw (test line); and; addw (body lines);
 * beqz (test line)` runs from the line into itself). */
static uint64_t preds_into(const struct gm *g, uint32_t h, const int64_t *est)
{
	uint64_t n = 0;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		uint32_t p = arc->src;
		if (arc->dst == h && p >= 2 && p != h && est[p] > 0 &&
		    !(arc->flags & LT_GCOV_ARC_FAKE) && gm_n_real_out(g, p) == 1)
			n += (uint64_t)est[p];
	}
	return n;
}

/* Estimates the head block of each line several blocks list from the
 * line's entries (gcda_mapper.h); a block with an estimate keeps it, and
 * a line whose blocks are not one head plus blocks reached only from the
 * line's blocks (a loop's test, increment and init) gives none, nor does
 * a line whose code other statements' arms run (gm_tail_merged_lines). */
void gm_entry_estimates(const struct gm *g, int64_t *est)
{
	uint32_t nb = g->f->n_blocks;
	/* Lines whose code other statements' arms run (tail merging), read
	 * once when first needed (-1: not yet). */
	uint32_t merged[MAX_MERGED][2];
	int nmerged = -1;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only = 0;
		if (in->nop || !gm_own_line(g, i, in->file, in->line) ||
		    gm_line_blocks(g, in->file, in->line, &only) < 2)
			continue;
		/* Once per line: at its first instruction. */
		uint32_t k = 0;
		while (k < i && !gm_own_line(g, k, in->file, in->line))
			k++;
		if (k < i)
			continue;
		long head = -1;
		int ok = 1;
		for (uint32_t b = 2; b < nb && ok; b++) {
			if (!gm_block_has_line(g, b, in->file, in->line))
				continue;
			if (!in_from(g, b, in->file, in->line, 0)) {
				ok = head < 0;
				head = b;
			} else if (in_from(g, b, in->file, in->line, 1)) {
				ok = 0;
			}
		}
		if (!ok || head < 0 || est[head] >= 0)
			continue;
		if (nmerged < 0)
			nmerged = gm_tail_merged_lines(g, merged, MAX_MERGED);
		int gone = 0;
		for (int q = 0; q < nmerged && !gone; q++)
			gone = merged[q][0] == in->file &&
			       merged[q][1] == in->line;
		if (gone)
			continue;
		uint64_t n = line_entries(g, in->file, in->line);
		uint64_t from = preds_into(g, (uint32_t)head, est);
		if (from > n)
			n = from;
		if (n)
			est[head] = (int64_t)n;
	}
}
