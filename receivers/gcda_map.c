/* Mapping machine counts onto a gcno function's CFG (gcda_map.h).
 *
 * Step 1, alignment: when the machine code keeps the GIMPLE block order
 * (always at -O0, where no pass reorders blocks), every gcno block 2..n-1
 * is a contiguous, possibly empty, run of the function's instructions, in
 * block order. A dynamic programme over block index x candidate
 * boundaries finds the partition: boundaries are forced after every
 * jump/branch and at every jump target, allowed after calls and where the
 * DWARF line changes; an instruction whose line belongs to other gcno
 * blocks only costs 4, and a block whose shape contradicts its gcno arcs
 * (two successors without a branch at its end, a branch without two
 * successors) costs 1000.
 *
 * Step 2, transitions: every machine transfer out of a block (taken and
 * not-taken branches, jumps, returns to the instruction after a call,
 * indirect jumps, function returns) is routed to the gcno arc path from
 * its block to the target's block through empty blocks only, preferring
 * the path whose first arc's fallthrough flag matches the transfer. A call
 * followed by a setjmp receiver (an ENTRY -> block fake arc) splits its
 * landings: the first return of each call is the normal one, the rest are
 * longjmps arriving through the fake arc. Fake arcs to EXIT (calls that
 * did not return: exit, longjmp) take each block's in-count minus its
 * other out-counts.
 *
 * Step 3, consistency: the arc counts become targets of a min-cost flow
 * over the CFG (ENTRY's out-flow fixed to the function's entries, a
 * deviation from an arc target costing 16 per unit, from a block estimate
 * 1 per unit), solved by successive shortest paths over non-negative
 * residual costs after pre-saturating the "reward" edges. When the
 * alignment was clean, every transfer routed unambiguously and every
 * block balanced, the targets are already a flow and come back unchanged:
 * the function is exact. Otherwise (reordered or merged code at -O1/-O2)
 * only block estimates from anchor lines (lines of one gcno block only;
 * the maximum count over the function's instructions of that line) and
 * the entry count are used, and the flow fills in the rest: inferred, but
 * always flow-consistent and non-negative. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define MISMATCH_COST 4
#define SHAPE_COST 1000
#define CROSS_COST 50
#define MAX_PATH 6
#define INF_CAP ((int64_t)1 << 60)

/* One instruction of the machine function. */
struct minsn {
	uint64_t addr;   /* its address */
	uint64_t tgt;    /* direct target, or 0 */
	uint32_t file;   /* DWARF file index, LT_DWARF_NO_FILE without line */
	uint32_t line;   /* DWARF line, 0 without */
	uint8_t len;     /* length in bytes */
	uint8_t cls;     /* enum lt_insn_class */
	uint8_t link;    /* enum lt_insn_link */
	uint8_t nop;     /* a nop (gcc -O0 emits them for goto locations) */
};

/* Working state of one function. */
struct gm {
	const struct gm_ctx *x;       /* context */
	const struct lt_gcno_fn *f;   /* the gcno function */
	uint64_t lo, hi;              /* machine range */
	struct minsn *in;             /* instructions */
	uint32_t m;                   /* number of instructions */
	uint32_t *bstart, *bend;      /* per gcno block: insn range [s, e) */
	uint32_t *blk;                /* per insn: its gcno block */
	uint32_t **outa;              /* per block: its out-arc indices */
	uint32_t *nout;               /* per block: number of out arcs */
	uint32_t *npred;              /* per block: number of in arcs */
	int64_t *arc;                 /* arc counts (targets) */
	int ambiguous;                /* a transfer had two equal routes */
	int unrouted;                 /* a transfer found no route */
	uint64_t entries;             /* calls of the function */
	const char *why;              /* first reason for inexactness */
};

static int is_call(const struct minsn *i)
{
	return (i->cls == LT_INSN_JUMP || i->cls == LT_INSN_IJUMP) &&
	       (i->link == LT_LINK_CALL || i->link == LT_LINK_CORO);
}

/* A transfer that ends a machine block (the next insn starts a new one). */
static int ends_block(const struct minsn *i)
{
	return (i->cls == LT_INSN_BRANCH || i->cls == LT_INSN_JUMP ||
	        i->cls == LT_INSN_IJUMP || i->cls == LT_INSN_TRET) &&
	       !is_call(i);
}

/* Returns the index of the instruction at addr, or -1. */
static long insn_at(const struct gm *g, uint64_t addr)
{
	long lo = 0, hi = (long)g->m;
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (g->in[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (long)g->m && g->in[lo].addr == addr ? lo : -1;
}

/* Index of the first non-nop instruction at or after i (m if none):
 * a jump to a goto-location nop really reaches the code after it. */
static uint32_t skip_nops(const struct gm *g, uint32_t i)
{
	while (i < g->m && g->in[i].nop)
		i++;
	return i;
}

/* Is insn i a conditional branch followed by a plain jump? gcc emits
 * that pair for one gcno block whose fallthrough successor is not next in
 * the layout, so no boundary is forced between them. */
static int branch_then_jump(const struct gm *g, uint32_t i)
{
	return g->in[i].cls == LT_INSN_BRANCH && i + 1 < g->m &&
	       g->in[i + 1].cls == LT_INSN_JUMP &&
	       g->in[i + 1].link == LT_LINK_NONE;
}

/* Decodes the function's instructions with their lines. */
static int load_insns(struct gm *g)
{
	const struct lt_region *r = lt_image_region(g->x->img, g->lo);
	if (!r)
		return 0;
	uint64_t hi = g->hi < r->end ? g->hi : r->end;
	size_t cap = (size_t)((hi - g->lo) / 2 + 1);
	g->in = calloc(cap, sizeof(*g->in));
	if (!g->in)
		return LT_ERR_NOMEM;
	for (uint64_t a = g->lo; a < hi;) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		struct minsn *i = &g->in[g->m++];
		i->addr = a;
		i->len = hw->len ? hw->len : 2;
		i->cls = hw->cls;
		i->link = hw->link;
		i->tgt = (i->cls == LT_INSN_BRANCH || i->cls == LT_INSN_JUMP) ?
			 a + (uint64_t)(int64_t)hw->tgt : 0;
		const struct lt_line_row *row =
			g->x->dw ? lt_dwarf_line(g->x->dw, a) : NULL;
		i->file = row && row->line ? row->file : LT_DWARF_NO_FILE;
		i->line = row ? row->line : 0;
		const uint8_t *by = r->bytes + (a - r->base);
		i->nop = (i->len == 2 && a + 2 <= r->end && by[0] == 0x01 &&
		          by[1] == 0) ||
			 (i->len == 4 && a + 4 <= r->end && by[0] == 0x13 &&
			  !by[1] && !by[2] && !by[3]);
		a += i->len;
	}
	return 0;
}

/* Does gcno block b list the DWARF (file, line)? */
static int block_has_line(const struct gm *g, uint32_t b, uint32_t file,
                          uint32_t line)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	for (uint32_t k = 0; k < bl->n_lines; k++)
		if (bl->lines[k].line == line &&
		    g->x->filemap[bl->lines[k].file] == file)
			return 1;
	return 0;
}

/* Number of gcno blocks listing (file, line); *only gets one of them. */
static uint32_t line_blocks(const struct gm *g, uint32_t file, uint32_t line,
                            uint32_t *only)
{
	uint32_t n = 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (block_has_line(g, b, file, line)) {
			n++;
			*only = b;
		}
	return n;
}

static uint32_t n_real_out(const struct gm *g, uint32_t b)
{
	uint32_t n = 0;
	for (uint32_t k = 0; k < g->nout[b]; k++)
		if (!(g->f->arcs[g->outa[b][k]].flags & LT_GCOV_ARC_FAKE))
			n++;
	return n;
}

static int has_fake_out(const struct gm *g, uint32_t b)
{
	for (uint32_t k = 0; k < g->nout[b]; k++)
		if (g->f->arcs[g->outa[b][k]].flags & LT_GCOV_ARC_FAKE)
			return 1;
	return 0;
}

/* Is b the target of a conditional branch? -O0 keeps no empty block
 * there (cfg cleanup forwards such edges), so b has code of its own;
 * e.g. `return a || b;`: the `1` block is not the empty join. */
static int cond_target(const struct gm *g, uint32_t b)
{
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->dst == b && arc->src >= 2 && n_real_out(g, arc->src) >= 2)
			return 1;
	}
	return 0;
}

/* Cost of block b covering instructions [s, e) beyond its mismatches. */
static long shape_cost(const struct gm *g, uint32_t b, uint32_t s,
                       uint32_t e)
{
	uint32_t ns = n_real_out(g, b);
	long c = 0;
	while (e > s && g->in[e - 1].nop)
		e--;
	while (s < e && g->in[s].nop)
		s++;
	/* Ties go to layouts without empty blocks (an empty one is only a
	 * goto at -O0): lines cannot place code among blocks of one line. */
	if (s == e && !g->npred[b])
		return 0; /* gcc's abnormal dispatcher: a block without code */
	if (s == e)
		return ns >= 2 || has_fake_out(g, b) ? SHAPE_COST :
		       cond_target(g, b) ? 3 : g->npred[b] >= 2 ? 1 : 2;
	const struct minsn *l = &g->in[e - 1];
	if (e - 1 > s && branch_then_jump(g, e - 2))
		l = &g->in[e - 2];
	if (l->cls == LT_INSN_BRANCH && ns < 2)
		c += SHAPE_COST;
	if (ns >= 2 && l->cls != LT_INSN_BRANCH &&
	    !(l->cls == LT_INSN_IJUMP && l->link == LT_LINK_NONE))
		c += SHAPE_COST;
	if (has_fake_out(g, b) && !is_call(l))
		c += 1;
	return c;
}

/* Step 1: partitions the instructions into gcno blocks 2..n-1 in order.
 * Returns the total cost (mismatches and shape), or -1 on no memory. */
static long align(struct gm *g)
{
	uint32_t m = g->m, nb = g->f->n_blocks, K = nb - 2;
	uint8_t *mand = calloc(m + 1, 1), *allow = calloc(m + 1, 1);
	uint32_t *A = malloc((m + 1) * sizeof(*A));
	if (!mand || !allow || !A) {
		free(mand);
		free(allow);
		free(A);
		return -1;
	}
	mand[0] = mand[m] = 1;
	for (uint32_t i = 0; i < m; i++) {
		const struct minsn *in = &g->in[i];
		if (ends_block(in) && !branch_then_jump(g, i))
			mand[skip_nops(g, i + 1)] = 1;
		else if (ends_block(in))
			allow[i + 1] = 1;
		if (is_call(in))
			allow[i + 1] = 1;
		if (i && (in->line != g->in[i - 1].line ||
		          in->file != g->in[i - 1].file))
			allow[i] = 1;
		if (in->tgt && in->tgt >= g->lo && in->tgt < g->hi &&
		    !is_call(in)) {
			long t = insn_at(g, in->tgt);
			if (t >= 0)
				mand[skip_nops(g, (uint32_t)t)] = 1;
		}
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE) {
			size_t n;
			const struct gc_xfer *xs =
				gc_xfers_from(g->x->c, g->x->im, in->addr, &n);
			for (size_t k = 0; k < n; k++) {
				long t = insn_at(g, xs[k].to);
				if (t >= 0)
					mand[skip_nops(g, (uint32_t)t)] = 1;
			}
		}
	}
	uint32_t na = 0;
	for (uint32_t i = 0; i <= m; i++)
		if (mand[i] || allow[i])
			A[na++] = i;
	/* nextm[j]: index in A of the first mandatory boundary after A[j]. */
	uint32_t *nextm = malloc(na * sizeof(*nextm));
	long *pc = malloc((size_t)K * (m + 1) * sizeof(*pc));
	long *dp = malloc((size_t)(K + 1) * na * sizeof(*dp));
	uint32_t *from = malloc((size_t)(K + 1) * na * sizeof(*from));
	long total = -1;
	if (!nextm || !pc || !dp || !from)
		goto out;
	for (long j = (long)na - 1, nm = (long)na - 1; j >= 0; j--) {
		nextm[j] = (uint32_t)nm;
		if (mand[A[j]])
			nm = j;
	}
	for (uint32_t k = 0; k < K; k++) {
		long *p = &pc[(size_t)k * (m + 1)];
		p[0] = 0;
		for (uint32_t i = 0; i < m; i++) {
			const struct minsn *in = &g->in[i];
			long c = 0;
			if (in->line && !in->nop && !block_has_line(g, k + 2, in->file,
			                                 in->line)) {
				uint32_t only;
				if (line_blocks(g, in->file, in->line, &only))
					c = MISMATCH_COST;
			}
			p[i + 1] = p[i] + c;
		}
	}
	const long INF = 1L << 60;
	for (size_t i = 0; i < (size_t)(K + 1) * na; i++)
		dp[i] = INF;
	dp[0] = 0;
	for (uint32_t k = 0; k < K; k++) {
		const long *p = &pc[(size_t)k * (m + 1)];
		for (uint32_t j = 0; j < na; j++) {
			long d = dp[(size_t)k * na + j];
			if (d >= INF)
				continue;
			uint32_t lim = nextm[nextm[nextm[j]]];
			long cross = 0;
			for (uint32_t j2 = j; j2 <= lim && j2 < na; j2++) {
				if (j2 > j && mand[A[j2 - 1]] && j2 - 1 > j)
					cross += CROSS_COST;
				long c = d + p[A[j2]] - p[A[j]] + cross +
					 shape_cost(g, k + 2, A[j], A[j2]);
				size_t at = (size_t)(k + 1) * na + j2;
				if (c < dp[at]) {
					dp[at] = c;
					from[at] = j;
				}
			}
		}
	}
	total = dp[(size_t)K * na + na - 1];
	if (total >= INF) {
		total = INF;
		goto out;
	}
	for (uint32_t k = K, j = na - 1; k > 0; k--) {
		uint32_t j0 = from[(size_t)k * na + j];
		g->bstart[k + 1] = A[j0];
		g->bend[k + 1] = A[j];
		for (uint32_t i = A[j0]; i < A[j]; i++)
			g->blk[i] = k + 1;
		j = j0;
	}
	/* Routing sees each block without its nops; a nop belongs to the
	 * block of the code it falls into. */
	for (uint32_t b = 2; b < nb; b++) {
		uint32_t s = g->bstart[b], e = g->bend[b];
		while (s < e && g->in[s].nop)
			s++;
		while (e > s && g->in[e - 1].nop)
			e--;
		g->bstart[b] = s;
		g->bend[b] = e;
	}
	for (uint32_t i = m; i-- > 0;)
		if (g->in[i].nop && i + 1 < m)
			g->blk[i] = g->blk[i + 1];
out:
	free(mand);
	free(allow);
	free(A);
	free(nextm);
	free(pc);
	free(dp);
	free(from);
	return total;
}

/* Best route search state. */
struct route {
	uint32_t path[MAX_PATH];  /* arcs of the current path */
	uint32_t best[MAX_PATH];  /* arcs of the best path */
	int nbest;                /* its length, -1 if none */
	long score;               /* its score */
	int tie;                  /* another path had the same score */
};

/* Can a transfer pass through gcno block d without running its code?
 * Yes when d is empty, or only a jump: gcc threads a jump to a jump
 * (e.g. a loop latch to the -O0 "goto" into the loop's condition) even
 * at -O0, so the machine code skips it while GIMPLE passes through. */
static int passable(const struct gm *g, uint32_t d)
{
	uint32_t s = g->bstart[d], e = g->bend[d];
	return s == e || (e - s == 1 && g->in[s].cls == LT_INSN_JUMP &&
	                  g->in[s].link == LT_LINK_NONE);
}

static void dfs(struct gm *g, struct route *r, uint32_t b, uint32_t to,
                uint32_t at, int depth, int fall, long score)
{
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		uint32_t a = g->outa[b][k];
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->flags & LT_GCOV_ARC_FAKE)
			continue;
		long s = score;
		if (depth == 0)
			s += ((arc->flags & LT_GCOV_ARC_FALLTHROUGH) != 0) ==
			     (fall != 0) ? 8 : 0;
		r->path[depth] = a;
		if (arc->dst == to) {
			if (s > r->score || r->nbest < 0) {
				r->score = s;
				r->nbest = depth + 1;
				r->tie = 0;
				memcpy(r->best, r->path,
				       (size_t)(depth + 1) * sizeof(uint32_t));
			} else if (s == r->score) {
				r->tie = 1;
			}
			continue;
		}
		uint32_t d = arc->dst;
		if (d < 2 || depth + 1 >= MAX_PATH || !passable(g, d))
			continue;
		/* An empty block sitting at the target scores higher. */
		s += g->bstart[d] == at ? 1 : -2;
		dfs(g, r, d, to, at, depth + 1, fall, s);
	}
}

/* Routes n transfers from gcno block b to instruction index t (to EXIT
 * when t < 0) along the best path through empty blocks. */
static void route(struct gm *g, uint32_t b, long t, int fall, uint64_t n)
{
	if (!n)
		return;
	if (t >= 0) {
		t = skip_nops(g, (uint32_t)t);
		if (t >= (long)g->m)
			t = -1;
	}
	uint32_t to = t < 0 ? 1 : g->blk[t];
	if (t >= 0 && g->bstart[to] != (uint32_t)t) {
		g->unrouted = 1;
		if (!g->why)
			g->why = "transfer into the middle of a block";
	}
	struct route r = {.nbest = -1};
	dfs(g, &r, b, to, t < 0 ? g->m : (uint32_t)t, 0, fall, 0);
	if (r.nbest < 0) {
		g->unrouted = 1;
		if (!g->why)
			g->why = "a machine transfer has no gcno arc";
		return;
	}
	if (r.tie) {
		g->ambiguous = 1;
		if (!g->why)
			g->why = "a machine transfer has two gcno routes";
	}
	for (int k = 0; k < r.nbest; k++)
		g->arc[r.best[k]] += (int64_t)n;
}

/* Direct branches/jumps and indirect jumps inside the function landing at
 * instruction t (not calls: those are recursion, i.e. entries). */
static uint64_t inner_ins(const struct gm *g, uint32_t t)
{
	uint64_t n = 0, a = g->in[t].addr;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (is_call(in))
			continue;
		if (in->tgt == a)
			n += gc_taken(g->x->c, g->x->im, in->addr);
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE) {
			size_t k;
			const struct gc_xfer *xs =
				gc_xfers_from(g->x->c, g->x->im, in->addr, &k);
			for (size_t q = 0; q < k; q++)
				if (xs[q].to == a)
					n += xs[q].n;
		}
	}
	return n;
}

/* Returns the ENTRY -> b fake arc (setjmp receiver), or -1. */
static long entry_fake(const struct gm *g, uint32_t b)
{
	for (uint32_t k = 0; k < g->nout[0]; k++) {
		const struct lt_gcno_arc *a = &g->f->arcs[g->outa[0][k]];
		if (a->dst == b && (a->flags & LT_GCOV_ARC_FAKE))
			return g->outa[0][k];
	}
	return -1;
}

/* Routes the transfer from insn i to insn j (-1: EXIT) unless it stays
 * inside i's gcno block (e.g. the branch of a ?: that GIMPLE computes
 * without one, or a call in the middle of a block). */
static void xfer(struct gm *g, uint32_t i, long j, int fall, uint64_t n)
{
	uint32_t b = g->blk[i];
	if (j >= 0) {
		j = skip_nops(g, (uint32_t)j);
		if (j >= (long)g->m)
			j = -1;
	}
	if (j >= 0 && g->blk[j] == b && (uint32_t)j != g->bstart[b])
		return;
	if (j >= 0 && g->blk[j] == b && (uint32_t)j > i)
		return;
	route(g, b, j, fall, n);
}

/* Step 2: routes every machine transfer. */
static void transfers(struct gm *g)
{
	const struct gc_counts *c = g->x->c;
	size_t im = g->x->im;
	uint64_t e = gc_insn_count(c, im, g->lo);
	uint64_t inner = inner_ins(g, 0);
	g->entries = e > inner ? e - inner : 0;
	route(g, 0, 0, 1, g->entries);
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *l = &g->in[i];
		if (l->nop)
			continue;
		uint64_t cnt = gc_insn_count(c, im, l->addr);
		long nx = i + 1 < g->m ? (long)i + 1 : -2;
		if (is_call(l)) {
			if (nx < 0)
				continue;
			size_t k;
			uint64_t land = 0;
			const struct gc_xfer *xs =
				gc_xfers_to(c, im, l->addr + l->len, &k);
			for (size_t q = 0; q < k; q++) {
				long s = insn_at(g, xs[q].from);
				if (s >= 0 && g->in[s].cls == LT_INSN_IJUMP &&
				    g->in[s].link == LT_LINK_NONE)
					continue;
				land += xs[q].n;
			}
			uint32_t nb = g->blk[skip_nops(g, (uint32_t)nx) < g->m ?
					    skip_nops(g, (uint32_t)nx) : i];
			long fk = nb != g->blk[i] ? entry_fake(g, nb) : -1;
			if (fk >= 0) {
				uint64_t normal = land < cnt ? land : cnt;
				g->arc[fk] += (int64_t)(land - normal);
				land = normal;
			}
			xfer(g, i, nx, 1, land);
		} else if (l->cls == LT_INSN_BRANCH) {
			uint64_t tk = gc_taken(c, im, l->addr);
			xfer(g, i, insn_at(g, l->tgt), 0, tk);
			if (nx >= 0)
				xfer(g, i, nx, 1, cnt - tk);
		} else if (l->cls == LT_INSN_JUMP) {
			/* After a branch, the jump carries its fallthrough. */
			int f = i > 0 && branch_then_jump(g, i - 1) &&
				g->blk[i - 1] == g->blk[i];
			xfer(g, i, insn_at(g, l->tgt), f,
			     gc_taken(c, im, l->addr));
		} else if (l->cls == LT_INSN_IJUMP) {
			if (l->link == LT_LINK_RET) {
				route(g, g->blk[i], -1, 0, cnt);
				continue;
			}
			size_t k;
			const struct gc_xfer *xs =
				gc_xfers_from(c, im, l->addr, &k);
			for (size_t q = 0; q < k; q++)
				xfer(g, i, insn_at(g, xs[q].to), 0, xs[q].n);
		} else if (nx >= 0) {
			xfer(g, i, nx, 1, cnt);
		}
	}
	/* Calls that did not return: the fake arc to EXIT takes the rest. */
	uint32_t nb = g->f->n_blocks;
	for (uint32_t b = 2; b < nb; b++) {
		long fk = -1;
		int64_t in = 0, out = 0;
		for (uint32_t a = 0; a < g->f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &g->f->arcs[a];
			if (arc->dst == b)
				in += g->arc[a];
			if (arc->src == b) {
				if ((arc->flags & LT_GCOV_ARC_FAKE) && fk < 0)
					fk = a;
				else
					out += g->arc[a];
			}
		}
		/* Negative after a setjmp: its block's out-arc counts the
		 * longjmp landings too, as the instrumented run does (the
		 * fake arc is a tree arc, so no counter shows it). */
		if (fk >= 0)
			g->arc[fk] = in - out;
	}
}

/* Does every block but ENTRY and EXIT balance? */
static int balanced(const struct gm *g)
{
	uint32_t nb = g->f->n_blocks;
	int64_t *bal = calloc(nb, sizeof(*bal));
	if (!bal)
		return 0;
	for (uint32_t a = 0; a < g->f->n_arcs; a++) {
		if (g->arc[a] < 0 &&
		    !(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)) {
			free(bal);
			return 0;
		}
		bal[g->f->arcs[a].dst] += g->arc[a];
		bal[g->f->arcs[a].src] -= g->arc[a];
	}
	int ok = 1;
	for (uint32_t b = 2; b < nb; b++)
		if (bal[b])
			ok = 0;
	free(bal);
	return ok;
}

/* Min-cost flow graph edge. */
struct fe {
	uint32_t to;    /* head node */
	uint32_t rev;   /* index of the reverse edge in e[] */
	int64_t cap;    /* residual capacity */
	int64_t cost;   /* cost per unit */
};

/* Min-cost flow graph. */
struct fg {
	struct fe *e;   /* edges (pairs: forward, reverse) */
	uint32_t ne;    /* edges used */
	uint32_t cap;   /* edges allocated */
	uint32_t nn;    /* nodes */
	int64_t *sup;   /* per node: supply (+) or demand (-) */
};

static int fg_add(struct fg *f, uint32_t u, uint32_t v, int64_t cap,
                  int64_t cost)
{
	if (f->ne + 2 > f->cap) {
		uint32_t nc = f->cap ? f->cap * 2 : 64;
		struct fe *ne = realloc(f->e, nc * sizeof(*ne));
		if (!ne)
			return -1;
		f->e = ne;
		f->cap = nc;
	}
	f->e[f->ne] = (struct fe){v, f->ne + 1, cap, cost};
	f->e[f->ne + 1] = (struct fe){u, f->ne, 0, -cost};
	f->ne += 2;
	return (int)(f->ne - 2);
}

/* Adds a "target" link u -> v: up to t units are rewarded (-w each), any
 * more cost w each. The reward edge is pre-saturated (its flow moved into
 * the supplies) so every residual cost stays non-negative. Returns the
 * index of the first of its two forward edges, whose flow sum is the
 * link's flow. */
static int fg_target(struct fg *f, uint32_t u, uint32_t v, int64_t t,
                     int64_t w)
{
	int r = fg_add(f, u, v, 0, -w);
	if (r < 0 || fg_add(f, u, v, INF_CAP, w) < 0)
		return -1;
	/* Saturated: the reverse edge holds t units of residual. */
	f->e[r + 1].cap = t;
	f->sup[u] -= t;
	f->sup[v] += t;
	return r;
}

/* Flow on a target link (reward edge flow + extra edge flow). */
static int64_t fg_flow(const struct fg *f, int r)
{
	return f->e[r + 1].cap + f->e[r + 3].cap;
}

/* Successive shortest paths (Bellman-Ford on non-negative residual
 * costs) from supply nodes to demand nodes until all are met. */
static int fg_solve(struct fg *f)
{
	uint32_t nn = f->nn + 2, S = f->nn, T = f->nn + 1;
	for (uint32_t v = 0; v < f->nn; v++) {
		if (f->sup[v] > 0 && fg_add(f, S, v, f->sup[v], 0) < 0)
			return -1;
		if (f->sup[v] < 0 && fg_add(f, v, T, -f->sup[v], 0) < 0)
			return -1;
	}
	int64_t *dist = malloc(nn * sizeof(*dist));
	uint32_t *pe = malloc(nn * sizeof(*pe));
	uint32_t *head = malloc(nn * sizeof(*head));
	uint32_t *next = malloc(f->ne * sizeof(*next));
	int rc = 0;
	if (!dist || !pe || !head || !next) {
		rc = -1;
		goto out;
	}
	for (;;) {
		for (uint32_t v = 0; v < nn; v++)
			dist[v] = INF_CAP;
		dist[S] = 0;
		for (uint32_t it = 0, changed = 1; changed && it < nn; it++) {
			changed = 0;
			for (uint32_t k = 0; k < f->ne; k++) {
				const struct fe *e = &f->e[k];
				uint32_t u = f->e[e->rev].to;
				if (e->cap <= 0 || dist[u] >= INF_CAP)
					continue;
				if (dist[u] + e->cost < dist[e->to]) {
					dist[e->to] = dist[u] + e->cost;
					pe[e->to] = k;
					changed = 1;
				}
			}
		}
		if (dist[T] >= INF_CAP)
			break;
		int64_t push = INF_CAP;
		for (uint32_t v = T; v != S;) {
			const struct fe *e = &f->e[pe[v]];
			if (e->cap < push)
				push = e->cap;
			v = f->e[e->rev].to;
		}
		for (uint32_t v = T; v != S;) {
			struct fe *e = &f->e[pe[v]];
			e->cap -= push;
			f->e[e->rev].cap += push;
			v = f->e[e->rev].to;
		}
	}
out:
	free(dist);
	free(pe);
	free(head);
	free(next);
	return rc;
}

/* Step 3: makes the targets flow-consistent. Arc targets (weight 16) are
 * used when have_arcs, block estimates (weight 1) always; ENTRY's out-flow
 * is fixed to the entries. Writes the flow into g->arc. */
static int make_flow(struct gm *g, int have_arcs, const int64_t *est)
{
	uint32_t nb = g->f->n_blocks, na = g->f->n_arcs;
	/* Nodes: block b in = 2b, out = 2b+1; ENTRY out-flow via its out node. */
	struct fg f = {.nn = 2 * nb};
	f.sup = calloc(f.nn + 2, sizeof(*f.sup));
	int *ar = malloc(na * sizeof(*ar));
	if (!f.sup || !ar) {
		free(f.sup);
		free(ar);
		return LT_ERR_NOMEM;
	}
	int rc = 0;
	for (uint32_t a = 0; a < na && !rc; a++) {
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		int64_t t = have_arcs && g->arc[a] > 0 ? g->arc[a] : 0;
		ar[a] = fg_target(&f, 2 * arc->src + 1, 2 * arc->dst, t,
		                  have_arcs ? 16 : 0);
		if (ar[a] < 0)
			rc = LT_ERR_NOMEM;
	}
	for (uint32_t b = 2; b < nb && !rc; b++)
		if (fg_target(&f, 2 * b, 2 * b + 1, est[b] > 0 ? est[b] : 0,
		              1) < 0)
			rc = LT_ERR_NOMEM;
	/* ENTRY emits the entries, EXIT absorbs them. */
	f.sup[1] += (int64_t)g->entries;
	f.sup[2] -= (int64_t)g->entries;
	if (!rc && fg_solve(&f) < 0)
		rc = LT_ERR_NOMEM;
	if (!rc)
		for (uint32_t a = 0; a < na; a++)
			g->arc[a] = fg_flow(&f, ar[a]);
	free(f.e);
	free(f.sup);
	free(ar);
	return rc;
}

/* Block estimates from anchor lines: the largest count of an instruction
 * whose line belongs to this gcno block only (-1: no anchor). */
static void estimates(const struct gm *g, int64_t *est)
{
	for (uint32_t b = 0; b < g->f->n_blocks; b++)
		est[b] = -1;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		uint32_t only = 0;
		if (!in->line ||
		    line_blocks(g, in->file, in->line, &only) != 1)
			continue;
		int64_t n = (int64_t)gc_insn_count(g->x->c, g->x->im, in->addr);
		if (n > est[only])
			est[only] = n;
	}
}

/* Adds the counts of the other copies span[n] to the block estimates
 * est[] and returns their entries: per copy, each block's largest count
 * of an instruction on a line unique to that block; a copy's entries are
 * its first block's estimate, else the count of its first instruction,
 * else its smallest non-zero count. */
static uint64_t copy_estimates(const struct gm *g, const struct gm_span *span,
                               size_t n, int64_t *est, int64_t *loc)
{
	uint32_t nb = g->f->n_blocks;
	uint64_t entries = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t first = UINT64_MAX, first_n = 0, min_nz = 0;
		for (uint32_t b = 0; b < nb; b++)
			loc[b] = -1;
		for (; j < n && span[j].copy == span[i].copy; j++) {
			const struct lt_region *r =
				lt_image_region(g->x->img, span[j].lo);
			if (!r)
				continue;
			uint64_t hi = span[j].hi < r->end ? span[j].hi : r->end;
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
				if (row && row->line &&
				    line_blocks(g, row->file, row->line,
				                &only) == 1 &&
				    (int64_t)c > loc[only])
					loc[only] = (int64_t)c;
				a += hw->len ? hw->len : 2;
			}
		}
		for (uint32_t b = 2; b < nb; b++)
			if (loc[b] >= 0)
				est[b] = (est[b] > 0 ? est[b] : 0) + loc[b];
		entries += loc[2] > 0 ? (uint64_t)loc[2] :
			   first_n ? first_n : min_nz;
		i = j;
	}
	return entries;
}

int gm_map_function(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                    uint64_t lo, uint64_t hi, const struct gm_span *span,
                    size_t nspan, uint64_t *arc, struct gm_result *res)
{
	memset(res, 0, sizeof(*res));
	memset(arc, 0, f->n_arcs * sizeof(*arc));
	if (f->n_blocks < 3 || (hi <= lo && !nspan))
		return 0;
	struct gm g = {.x = ctx, .f = f, .lo = lo, .hi = hi};
	uint32_t nb = f->n_blocks;
	int rc = hi > lo ? load_insns(&g) : 0;
	if (rc)
		return rc;
	/* An out-of-line copy never called contributes nothing. */
	if (g.m && !gc_insn_count(ctx->c, ctx->im, lo))
		g.m = 0;
	if (!g.m && !nspan) {
		free(g.in);
		return 0;
	}
	g.bstart = calloc(nb, sizeof(uint32_t));
	g.bend = calloc(nb, sizeof(uint32_t));
	g.blk = calloc(g.m + 1, sizeof(uint32_t));
	g.outa = calloc(nb, sizeof(uint32_t *));
	g.nout = calloc(nb, sizeof(uint32_t));
	g.npred = calloc(nb, sizeof(uint32_t));
	g.arc = calloc(f->n_arcs, sizeof(int64_t));
	int64_t *est = malloc(2 * nb * sizeof(int64_t));
	uint32_t *pool = malloc((f->n_arcs + 1) * sizeof(uint32_t));
	rc = LT_ERR_NOMEM;
	if (!g.bstart || !g.bend || !g.blk || !g.outa || !g.nout || !g.arc ||
	    !g.npred ||
	    !est || !pool)
		goto out;
	for (uint32_t a = 0; a < f->n_arcs; a++) {
		g.nout[f->arcs[a].src]++;
		g.npred[f->arcs[a].dst]++;
	}
	for (uint32_t b = 0, at = 0; b < nb; b++) {
		g.outa[b] = pool + at;
		at += g.nout[b];
		g.nout[b] = 0;
	}
	for (uint32_t a = 0; a < f->n_arcs; a++) {
		uint32_t s = f->arcs[a].src;
		g.outa[s][g.nout[s]++] = a;
	}
	int clean = 0, exact = 0;
	if (g.m) {
		long cost = align(&g);
		if (cost < 0)
			goto out;
		clean = cost < SHAPE_COST;
		if (!clean)
			g.why = "machine code does not follow the gcno block "
				"order";
		else
			transfers(&g);
		exact = clean && !g.ambiguous && !g.unrouted && balanced(&g);
		if (clean && !g.why && !exact)
			g.why = "machine transfers do not balance on the gcno "
				"CFG";
		if (!clean) {
			uint64_t e = gc_insn_count(ctx->c, ctx->im, lo);
			uint64_t inner = inner_ins(&g, 0);
			g.entries = e > inner ? e - inner : 0;
		}
	}
	estimates(&g, est);
	uint64_t more = copy_estimates(&g, span, nspan, est, est + nb);
	if (more) {
		g.entries += more;
		if (exact || !g.why)
			g.why = "inlined or cloned copies counted from their "
				"lines";
		exact = 0;
	}
	if (!g.entries) {
		rc = 0;
		goto out;
	}
	if (!exact) {
		rc = make_flow(&g, clean, est);
		if (rc)
			goto out;
	}
	for (uint32_t a = 0; a < f->n_arcs; a++)
		arc[a] = g.arc[a] > 0 ? (uint64_t)g.arc[a] : 0;
	res->status = exact ? GM_EXACT : GM_INFERRED;
	res->n_exact = exact ? f->n_arcs : 0;
	if (!exact && g.why)
		snprintf(res->why, sizeof(res->why), "%s", g.why);
	rc = 0;
out:
	free(g.in);
	free(g.bstart);
	free(g.bend);
	free(g.blk);
	free(g.outa);
	free(g.nout);
	free(g.npred);
	free(g.arc);
	free(est);
	free(pool);
	return rc;
}
