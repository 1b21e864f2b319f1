/* Estimates and entries of a function's inlined copies and clones
 * (gcda_mapper.h: gm_copy_estimates, gm_span_entries): per copy, the
 * counts of the lines only one gcno block lists, and the copy's calls
 * from the arrivals at its code from outside it. Split from
 * gcda_estimate.c, which keeps the function's own code's estimates. */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* One instruction of a copy, for copy_entries. */
struct cinsn {
	uint64_t addr;   /* its address */
	uint64_t end;    /* one past its last byte */
	uint64_t cnt;    /* executions */
	uint64_t fall;   /* of those, continuing to the next address */
	uint64_t inside; /* arrivals from the copy itself */
	int ret_run;     /* a straight run from here ends in a return (or
	                    falls out of the copy, see copy_entries): its
	                    outside arrivals are no entries */
	int out_run;     /* a straight run from here falls out of the copy */
	int plain;       /* not a transfer (no branch, jump or call) */
	int jump;        /* a plain jump (no link) */
};

/* Index of the instruction at addr in v[n] (sorted), or -1. */
static long cinsn_at(const struct cinsn *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].addr == addr ? (long)lo : -1;
}

/* Most instructions of other code between two spans of one copy that
 * copy_entries takes into the copy (see bridge_len). */
#define MAX_BRIDGE 4

/* Length in bytes of the gap [lo, hi) between two spans of one copy when
 * it is at most MAX_BRIDGE instructions of straight-line code (no
 * transfer, no call) in one region, else 0. The scheduler moves single
 * instructions of the caller or of a sibling inlined copy (a register
 * move the line table gives another inline instance) into a copy's
 * loop; control passing through them is still inside the copy, not a
 * new entry each time round. */
static uint64_t bridge_len(const struct gm *g, uint64_t lo, uint64_t hi)
{
	const struct lt_region *r = lt_image_region(g->x->img, lo);
	if (!r || hi <= lo || hi > r->end)
		return 0;
	int k = 0;
	for (uint64_t a = lo; a < hi; k++) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		if (k == MAX_BRIDGE || hw->cls == LT_INSN_BRANCH ||
		    hw->cls == LT_INSN_JUMP || hw->cls == LT_INSN_IJUMP ||
		    hw->cls == LT_INSN_TRET)
			return 0;
		a += hw->len ? hw->len : 2;
	}
	return hi - lo;
}

/* The instruction of v[m] (a copy's code) a transfer of the copy to
 * `to` arrives at: the one at `to`, or the one a straight run of at most
 * MAX_BRIDGE instructions of other code at `to` falls into (the copy's
 * loop back edge lands on register moves the line table gives a sibling
 * copy or the caller, scheduled at the loop's head: matrix's equal,
 * inlined after mul_blocked, whose outer loop's head shows
 * mul_blocked's line); -1 if none. */
static long lead_in(const struct gm *g, const struct cinsn *v, size_t m,
                    uint64_t to)
{
	long t = cinsn_at(v, m, to);
	const struct lt_region *r = lt_image_region(g->x->img, to);
	for (int k = 0; t < 0 && r && k < MAX_BRIDGE && to < r->end; k++) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, to)];
		if (hw->cls == LT_INSN_BRANCH || hw->cls == LT_INSN_JUMP ||
		    hw->cls == LT_INSN_IJUMP || hw->cls == LT_INSN_TRET)
			return -1;
		to += hw->len ? hw->len : 2;
		t = cinsn_at(v, m, to);
	}
	return t;
}

/* Does the instruction at addr only set a constant: li, lui, auipc or
 * the address of a global off gp (addi rd,gp,imm)? Such code of an
 * inlined copy may be hoisted out of the caller's loop, even to its
 * prologue: how often it runs says nothing of the copy's runs. */
static int const_setup(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, f3 = r >> 13 & 7, rd = r >> 7 & 31;
	if (d.len == 2) /* c.li; c.lui (not c.addi16sp) */
		return (r & 3) == 1 && rd &&
		       (f3 == 2 || (f3 == 3 && rd != 2));
	uint32_t op = r & 0x7f, rs1 = r >> 15 & 31;
	return d.len == 4 && rd &&
	       (op == 0x37 || op == 0x17 ||
	        (op == 0x13 && !(r >> 12 & 7) && (rs1 == 0 || rs1 == 3)));
}

/* Farthest a back edge covering a piece of a copy is looked for past it:
 * a conditional branch reaches 4 KiB. */
#define LOOP_REACH 4096

/* Is the instruction at addr inside a loop of other code than the copy
 * v[m]: is there a branch or plain jump at or after addr (within
 * LOOP_REACH) whose target is at or before addr, either not of the copy or
 * the copy's way back into its caller's code (the copy's own loops land
 * on its code, or on a few instructions leading into it: lead_in)?
 * (Layout only: an arm placed after the loop jumps back into it, so it is
 * covered too.) */
static int other_loop_covers(const struct gm *g, const struct cinsn *v,
                             size_t m, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(g->x->img, addr);
	if (!r)
		return 0;
	for (uint64_t a = addr; a < r->end && a < addr + LOOP_REACH;) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		if ((hw->cls == LT_INSN_BRANCH ||
		     (hw->cls == LT_INSN_JUMP && hw->link == LT_LINK_NONE)) &&
		    a + (uint64_t)(int64_t)hw->tgt <= addr &&
		    (cinsn_at(v, m, a) < 0 ||
		     lead_in(g, v, m, a + (uint64_t)(int64_t)hw->tgt) < 0))
			return 1;
		a += hw->len ? hw->len : 2;
	}
	return 0;
}

/* Does v[q] (a copy's code) finish a constant: `addi(w) rd,rd,imm` after
 * a `lui rd` of the copy earlier in it (`lui a2,0x10; addi a2,a2,-1`
 * for 0xffff, the two halves apart when scheduled)? */
static int const_low_half(const struct gm *g, const struct cinsn *v,
                          size_t q)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, v[q].addr, &d) < 0)
		return 0;
	uint32_t r = d.raw, rd = 0;
	if (d.len == 4 && ((r & 0x7f) == 0x13 || (r & 0x7f) == 0x1b) &&
	    !(r >> 12 & 7) && (r >> 15 & 31) == (r >> 7 & 31))
		rd = r >> 7 & 31;
	else if (d.len == 2 && ((r & 0xe003) == 0x0001 ||
	                        (r & 0xe003) == 0x2001))
		rd = r >> 7 & 31; /* c.addi, c.addiw: rd += imm */
	for (size_t p = 0; rd && p < q; p++) {
		if (lt_image_insn(g->x->img, v[p].addr, &d) < 0)
			continue;
		r = d.raw;
		if ((r >> 7 & 31) == rd &&
		    ((d.len == 4 && (r & 0x7f) == 0x37) ||
		     (d.len == 2 && (r & 0xe003) == 0x6001)))
			return 1;
	}
	return 0;
}

/* Entries of one copy (spans span[n], sorted by address, disjoint): the
 * arrivals at its instructions that did not come from the copy itself
 * (falling through, a call returning, a branch or jump of the copy).
 * With `bridge`, short straight-line gaps between its spans count as
 * the copy's own code (bridge_len); a copy interleaved with its caller's
 * code in other ways counts each return to it, so this is an upper
 * bound. Returns UINT64_MAX when out of memory. */
static uint64_t copy_entries(const struct gm *g, const struct gm_span *span,
                             size_t n, int bridge)
{
	const struct gc_counts *c = g->x->c;
	size_t im = g->x->im, m = 0, cap = 0;
	struct cinsn *v = NULL;
	uint64_t *tg = NULL, *tk = NULL;
	for (size_t k = 0; k < n; k++)
		cap += (size_t)((span[k].hi - span[k].lo) / 2 + 1) +
		       (bridge ? MAX_BRIDGE : 0);
	v = calloc(cap, sizeof(*v));
	tg = calloc(cap, sizeof(*tg));
	tk = calloc(cap, sizeof(*tk));
	uint64_t total = UINT64_MAX;
	if (!v || !tg || !tk)
		goto out;
	for (size_t k = 0; k < n; k++) {
		uint64_t hi = 0;
		const struct lt_region *r =
			gm_span_region(g, &span[k], &hi);
		if (!r)
			continue;
		if (bridge && k + 1 < n && hi == span[k].hi)
			hi += bridge_len(g, hi, span[k + 1].lo);
		for (uint64_t a = span[k].lo; a < hi;) {
			const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
			uint32_t len = hw->len ? hw->len : 2;
			struct cinsn *x = &v[m];
			int call = (hw->cls == LT_INSN_JUMP ||
			            hw->cls == LT_INSN_IJUMP) &&
			           (hw->link == LT_LINK_CALL ||
			            hw->link == LT_LINK_CORO);
			x->addr = a;
			x->end = a + len;
			x->cnt = gc_insn_count(c, im, a);
			tg[m] = 0;
			if (hw->cls == LT_INSN_BRANCH ||
			    (hw->cls == LT_INSN_JUMP && !call)) {
				tg[m] = a + (uint64_t)(int64_t)hw->tgt;
				tk[m] = gc_taken(c, im, a);
			}
			x->ret_run = hw->cls == LT_INSN_IJUMP &&
				     hw->link == LT_LINK_RET;
			x->plain = !call && hw->cls != LT_INSN_BRANCH &&
				   hw->cls != LT_INSN_JUMP &&
				   hw->cls != LT_INSN_IJUMP &&
				   hw->cls != LT_INSN_TRET;
			x->jump = hw->cls == LT_INSN_JUMP && !call;
			x->fall = call ? x->cnt :
				  hw->cls == LT_INSN_BRANCH ? x->cnt - tk[m] :
				  hw->cls == LT_INSN_JUMP ||
				  hw->cls == LT_INSN_IJUMP ||
				  hw->cls == LT_INSN_TRET ? 0 : x->cnt;
			m++;
			a += len;
		}
	}
	for (size_t k = 0; k < m; k++) {
		if (k && v[k - 1].end == v[k].addr)
			v[k].inside += v[k - 1].fall;
		if (tg[k]) {
			long t = lead_in(g, v, m, tg[k]);
			if (t >= 0)
				v[t].inside += tk[k];
		}
		size_t nx;
		const struct gc_xfer *xs = gc_xfers_from(c, im, v[k].addr, &nx);
		for (size_t q = 0; q < nx; q++) {
			long t = lead_in(g, v, m, xs[q].to);
			if (t >= 0)
				v[t].inside += xs[q].n;
		}
	}
	/* A straight run of the copy ending in the machine function's
	 * return is where gcc cross-jumped the caller's own return (`mv a0,
	 * s; ret`) with the copy's, in a tail position: the line table
	 * gives the shared code the copy's line, but the caller's other
	 * ways out arrive there too. Those arrivals are not entries unless
	 * the copy has no other (a copy that is only its return). */
	for (size_t k = m; k-- > 1;)
		if (v[k].ret_run && v[k - 1].end == v[k].addr &&
		    v[k - 1].plain)
			v[k - 1].ret_run = 1;
	/* So are arrivals by transfers from outside at a straight run that
	 * falls out of the copy's code, right after the copy's own code
	 * (falling in from it is no entry, so every outside arrival is a
	 * transfer): the scheduler leaves the copy's last register moves at
	 * the head of the code after it, a sibling copy's loop, whose back
	 * edge arrives there each time round (matrix's mul_blocked: 46
	 * entries for 4). A run the caller's code falls into is an
	 * interleaved piece of the copy, entered once per call. */
	for (size_t k = m; k-- > 0;)
		if (v[k].plain && (k + 1 == m || v[k].end != v[k + 1].addr ||
		                   v[k + 1].out_run))
			v[k].out_run = 1;
	/* Not when all the copy's code falling into the run is constant
	 * set-up (const_setup): that is a loop's preheader, where loop
	 * invariant motion put the copy's constants (`lui a2,0x10; addi
	 * a2,a2,-1` of a `% 65536u`), and the back edge arriving at the run is the next
	 * call of a copy inlined in that loop (`g[i] = rnd();`). */
	for (size_t k = 1; k < m; k++) {
		if (!v[k].out_run || v[k - 1].end != v[k].addr)
			continue;
		size_t q = k;
		while (q > 0 && v[q - 1].end == v[q].addr &&
		       (const_setup(g, v[q - 1].addr) ||
		        const_low_half(g, v, q - 1)))
			q--;
		if (q == k || (q > 0 && v[q - 1].end == v[q].addr))
			v[k].ret_run = 1;
	}
	/* A piece of the copy (contiguous code) of constants only that
	 * runs on into code of others (`li s3,91; li s6,92` of a late copy
	 * testing c == '[', hoisted into its caller's prologue) is set-up
	 * moved out of the loops the copy runs in: its arrivals are not the
	 * copy's runs, unless the copy has no others. */
	/* So is a piece of plain code of a copy (maybe ending in a jump into
	 * its caller's code) whose other code runs in a loop of its caller,
	 * where that piece runs in no loop of other code (loop invariant
	 * motion computed `x & 1` of `h2(c ? x : 13)` once before the
	 * caller's loop, and spilled it): it runs once per entry of the
	 * loop, not once per call. */
	int in_loop = 0;
	for (size_t k = 0; k < m; k++)
		if ((k + 1 == m || v[k].end != v[k + 1].addr) &&
		    other_loop_covers(g, v, m, v[k].addr))
			in_loop = 1;
	uint64_t hoisted = 0;
	for (size_t k = 0, e; k < m; k = e) {
		int consts = 1, plain = 1;
		for (e = k; e < m && (e == k || v[e - 1].end == v[e].addr);
		     e++) {
			consts &= const_setup(g, v[e].addr);
			plain &= v[e].plain ||
				 (v[e].jump && (e + 1 == m ||
				                v[e].end != v[e + 1].addr) &&
				  lead_in(g, v, m, tg[e]) < 0);
		}
		if (!consts && !(plain && in_loop &&
		                 !other_loop_covers(g, v, m, v[e - 1].addr)))
			continue;
		for (size_t q = k; q < e; q++)
			if (v[q].cnt > v[q].inside && !v[q].ret_run)
				hoisted += v[q].cnt - v[q].inside;
	}
	uint64_t all = 0;
	total = 0;
	for (size_t k = 0; k < m; k++)
		if (v[k].cnt > v[k].inside) {
			all += v[k].cnt - v[k].inside;
			if (!v[k].ret_run)
				total += v[k].cnt - v[k].inside;
		}
	if (total > hoisted)
		total -= hoisted;
	if (!total)
		total = all;
out:
	free(v);
	free(tg);
	free(tk);
	return total;
}

/* Entries of the copy whose code is span[n] (gcda_mapper.h): its plain
 * inflow, no bridging (the caller names every span of the copy). */
uint64_t gm_span_entries(const struct gm *g, const struct gm_span *span,
                         size_t n)
{
	return copy_entries(g, span, n, 0);
}

/* Is addr inside a machine loop of the copy whose code is span[n]: at
 * or after the target of a backward branch or jump of the copy's, and
 * not after that transfer? */
static int in_copy_loop(const struct gm *g, const struct gm_span *span,
                        size_t n, uint64_t addr)
{
	for (size_t j = 0; j < n; j++) {
		uint64_t hi = 0;
		const struct lt_region *r =
			gm_span_region(g, &span[j], &hi);
		if (!r)
			continue;
		for (uint64_t a = span[j].lo; a < hi;) {
			const struct lt_hwinfo *hw =
				&r->info[lt_region_idx(r, a)];
			uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
			if ((hw->cls == LT_INSN_BRANCH ||
			     (hw->cls == LT_INSN_JUMP &&
			      hw->link == LT_LINK_NONE)) &&
			    t <= addr && addr <= a)
				for (size_t q = 0; q < n; q++)
					if (t >= span[q].lo && t < span[q].hi)
						return 1;
			a += hw->len ? hw->len : 2;
		}
	}
	return 0;
}

/* Adds the counts of the other copies span[n] to the block estimates
 * est[] and returns their entries: per copy, each block's largest count
 * of an instruction on a line unique to that block (not counting code
 * hoisted above its guard, gm_hoisted_above_guard, where the copies are
 * the decoded code: no out-of-line body); a copy's entries are
 * its first block's estimate capped by its inflow (copy_entries), else
 * that inflow, else the count of its first instruction, else its
 * smallest non-zero count. */
uint64_t gm_copy_estimates(const struct gm *g, const struct gm_span *span,
                           size_t n, int64_t *est, int64_t *loc)
{
	uint32_t nb = g->f->n_blocks;
	uint64_t entries = 0;
	int64_t *st = malloc(nb * sizeof(*st));
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t first = UINT64_MAX, first_n = 0, min_nz = 0;
		for (uint32_t b = 0; b < nb; b++)
			loc[b] = -1;
		for (uint32_t b = 0; st && b < nb; b++)
			st[b] = -1;
		size_t e = i;
		while (e < n && span[e].copy == span[i].copy)
			e++;
		for (; j < n && span[j].copy == span[i].copy; j++) {
			uint64_t hi = 0;
			const struct lt_region *r =
				gm_span_region(g, &span[j], &hi);
			if (!r)
				continue;
			for (uint64_t a = span[j].lo; a < hi;) {
				const struct lt_hwinfo *hw =
					&r->info[lt_region_idx(r, a)];
				uint64_t c = gc_insn_count(g->x->c, g->x->im, a);
				if (a < first) {
					first = a;
					first_n = c;
				}
				if (c && (!min_nz || c < min_nz))
					min_nz = c;
				const struct lt_line_row *row =
					g->x->dw ? lt_dwarf_line(g->x->dw, a) :
						   NULL;
				uint32_t only = 0;
				/* Decoded copies (no out-of-line body) show
				 * code hoisted above its guard, as there. */
				long k = gm_insn_at(g, a);
				/* The first block, entered from ENTRY
				 * only, is in no loop: its lines' code in
				 * a machine loop of the copy is a copy gcc
				 * made there (a register move the loop's
				 * way back needs, given the line of the
				 * value it moves), which runs once per
				 * round, not per call. */
				if (row && row->line &&
				    gm_line_blocks(g, row->file, row->line,
				                   &only) == 1 &&
				    (k < 0 || !gm_hoisted_above_guard(
				                      g, (uint32_t)k, only)) &&
				    (only != 2 || g->npred[2] != 1 ||
				     !in_copy_loop(g, span + i, e - i, a))) {
					if ((int64_t)c > loc[only])
						loc[only] = (int64_t)c;
					if (st && gm_is_store(g->x->img, a) &&
					    (int64_t)c > st[only])
						st[only] = (int64_t)c;
				}
				a += hw->len ? hw->len : 2;
			}
		}
		gm_store_caps(st, loc, nb);
		/* The first block runs once per entry; its anchor lines may
		 * hide a loop (an expanded memcpy). */
		uint64_t ce = copy_entries(g, span + i, j - i, 0);
		if (ce != UINT64_MAX && loc[2] > (int64_t)ce)
			loc[2] = (int64_t)ce;
		/* Without an anchor the inflow is the count: there the
		 * scheduler's strays in the copy's loops must not count as
		 * entries. (The cap above keeps the plain inflow: an
		 * anchor line's count is the better evidence.) */
		if (loc[2] <= 0 && ce != UINT64_MAX)
			ce = copy_entries(g, span + i, j - i, 1);
		gm_copy_low(g, span + i, j - i, loc, g->est_low);
		for (uint32_t b = 2; b < nb; b++)
			if (loc[b] >= 0)
				est[b] = (est[b] > 0 ? est[b] : 0) + loc[b];
		entries += loc[2] > 0 ? (uint64_t)loc[2] :
			   ce != UINT64_MAX ? ce : first_n ? first_n : min_nz;
		i = j;
	}
	free(st);
	return entries;
}
