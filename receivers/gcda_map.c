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
 * Step 2b, branch pins (functions that are not exact): each machine
 * conditional branch whose line and successors' lines identify one gcno
 * condition block gives its two arcs lower bounds (pin_branches); the
 * flow must meet them (a deviation costs HARD_COST per unit) and may
 * exceed them for free where a block estimate asks for more.
 *
 * Step 3, consistency: the arc counts become targets of a min-cost flow
 * over the CFG (ENTRY's out-flow fixed to the function's entries, a
 * deviation from a routed arc target costing 1 per unit, from a block
 * estimate 4 per unit: an anchor line's count is the stronger evidence
 * when -O1 code only seems to follow the block order), solved by
 * successive shortest paths over non-negative
 * residual costs after pre-saturating the "reward" edges. When the
 * alignment was clean, every transfer routed unambiguously and every
 * block balanced, the targets are already a flow and come back unchanged:
 * the function is exact. Otherwise the branch pins, block estimates from
 * anchor lines (lines of one gcno block only; the maximum count over the
 * function's instructions of that line) and the entry count are used,
 * plus the routed transfers when the alignment matched most lines (or
 * nothing was pinned); a block without an estimate costs nothing to pass
 * (loops the estimates ask for can run), a call's fake arc to EXIT costs
 * FAKE_COST (calls return, as a rule). The flow fills in the rest:
 * inferred, but always flow-consistent and non-negative.
 *
 * A function with no called out-of-line copy but a called whole clone
 * (f.constprop.0) is mapped from that clone as if it were f. */
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
#define HARD_COST 4096
#define FAKE_COST 2
#define EST_W(have_arcs) ((have_arcs) ? 4 : 1)
#define MAX_PATH 6
#define INF_CAP ((int64_t)1 << 60)

/* One instruction of the machine function. */
struct minsn {
	uint64_t addr;   /* its address */
	uint64_t tgt;    /* direct target, or 0 */
	uint32_t file;   /* DWARF file index, LT_DWARF_NO_FILE without line */
	uint32_t line;   /* DWARF line, 0 without */
	uint32_t cfile;  /* file of cline */
	uint32_t cline;  /* line as the gcno function sees it: for code
	                    inlined late (its lines in no gcno block), the
	                    call site's line; else line */
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

static int block_has_line(const struct gm *g, uint32_t b, uint32_t file,
                          uint32_t line);

/* Sets i->cfile/cline: while (file, line) is in none of the gcno
 * function's blocks and the code is inlined, the call site one level
 * out; a successor running inlined code thus shows the caller's line of
 * the call. */
static void caller_line(const struct gm *g, uint64_t a, struct minsn *i)
{
	const struct lt_dwarf *dw = g->x->dw;
	i->cfile = i->file;
	i->cline = i->line;
	long q = dw && i->line ? lt_dwarf_inline_find(dw, a) : -1;
	for (; q >= 0 && dw->func[q].depth > 0; q = dw->func[q].parent) {
		uint32_t b;
		for (b = 2; b < g->f->n_blocks; b++)
			if (block_has_line(g, b, i->cfile, i->cline))
				return;
		if (!dw->func[q].call_line)
			return;
		i->cfile = dw->func[q].call_file;
		i->cline = dw->func[q].call_line;
	}
}

/* Decodes the instructions of [lo, hi) with their lines, appending to
 * g->in. Returns 0 or LT_ERR_NOMEM. */
static int load_range(struct gm *g, uint64_t lo, uint64_t hi)
{
	const struct lt_region *r = lt_image_region(g->x->img, lo);
	if (!r)
		return 0;
	if (hi > r->end)
		hi = r->end;
	size_t cap = g->m + (size_t)((hi - lo) / 2 + 1);
	struct minsn *n = realloc(g->in, cap * sizeof(*n));
	if (!n)
		return LT_ERR_NOMEM;
	g->in = n;
	memset(g->in + g->m, 0, (cap - g->m) * sizeof(*n));
	for (uint64_t a = lo; a < hi;) {
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
		caller_line(g, a, i);
		const uint8_t *by = r->bytes + (a - r->base);
		i->nop = (i->len == 2 && a + 2 <= r->end && by[0] == 0x01 &&
		          by[1] == 0) ||
			 (i->len == 4 && a + 4 <= r->end && by[0] == 0x13 &&
			  !by[1] && !by[2] && !by[3]);
		a += i->len;
	}
	return 0;
}

/* Decodes the function's own range [g->lo, g->hi). */
static int load_insns(struct gm *g)
{
	return load_range(g, g->lo, g->hi);
}

/* qsort order of spans: by first address. */
static int cmp_span_lo(const void *a, const void *b)
{
	const struct gm_span *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Decodes the instructions of every copy span[n], in address order, as
 * if they were one function (for branch pins only: they are no CFG);
 * g->lo / g->hi become their bounds. Returns 0 or LT_ERR_NOMEM. */
static int load_copies(struct gm *g, const struct gm_span *span, size_t n)
{
	struct gm_span *v = malloc(n * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	memcpy(v, span, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_span_lo);
	int rc = 0;
	g->lo = v[0].lo;
	g->hi = v[0].hi;
	for (size_t k = 0; k < n && !rc; k++) {
		if (k && v[k].lo < v[k - 1].hi)
			continue; /* overlapping: already decoded */
		rc = load_range(g, v[k].lo, v[k].hi);
		if (v[k].hi > g->hi)
			g->hi = v[k].hi;
	}
	free(v);
	return rc;
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
 * more cost over each. The reward edge is pre-saturated (its flow moved into
 * the supplies) so every residual cost stays non-negative. Returns the
 * index of the first of its two forward edges, whose flow sum is the
 * link's flow. */
static int fg_target(struct fg *f, uint32_t u, uint32_t v, int64_t t,
                     int64_t w, int64_t over)
{
	int r = fg_add(f, u, v, 0, -w);
	if (r < 0 || fg_add(f, u, v, INF_CAP, over) < 0)
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

/* Step 3: makes the targets flow-consistent. Arc targets (weight 1) are
 * used when have_arcs, block estimates (weight EST_W) always, arcs pinned by
 * machine branches (hard[a] >= 0; hard may be NULL) with a weight that
 * outbids any estimate; ENTRY's out-flow is fixed to the entries. Writes
 * the flow into g->arc. */
static int make_flow(struct gm *g, int have_arcs, const int64_t *est,
                     const int64_t *hard)
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
		int64_t w = have_arcs ? 1 : 0, over = w;
		/* A pinned arc is a lower bound: a copy of the condition
		 * may be gone (the first test of a rotated loop whose
		 * outcome was known), never one added. */
		if (hard && hard[a] >= 0) {
			t = hard[a];
			w = HARD_COST;
			over = 0;
		}
		/* Calls return, as a rule: leaving through a call's fake
		 * arc (exit, longjmp) takes an anchor line's evidence. */
		if (!have_arcs && (arc->flags & LT_GCOV_ARC_FAKE) &&
		    arc->dst == 1)
			over = FAKE_COST;
		ar[a] = fg_target(&f, 2 * arc->src + 1, 2 * arc->dst, t, w,
		                  over);
		if (ar[a] < 0)
			rc = LT_ERR_NOMEM;
	}
	for (uint32_t b = 2; b < nb && !rc; b++)
		if (fg_target(&f, 2 * b, 2 * b + 1, est[b] > 0 ? est[b] : 0,
		              EST_W(have_arcs),
		              est[b] >= 0 ? EST_W(have_arcs) : 0) < 0)
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

/* The (file, line) where control arriving at insn t starts running
 * source code: the first insn with a line, following plain jumps (a
 * branch's fallthrough is often a jump to the real successor). 0 if none
 * within a few steps. */
static uint32_t line_at(const struct gm *g, long t, uint32_t *file)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 8; steps++) {
		const struct minsn *in = &g->in[t];
		if (in->nop) {
			t++;
			continue;
		}
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = in->tgt >= g->lo && in->tgt < g->hi ?
			    insn_at(g, in->tgt) : -1;
			continue;
		}
		if (!in->cline)
			return 0;
		*file = in->cfile;
		return in->cline;
	}
	return 0;
}

/* Does control entering gcno block d reach code of (file, line) first?
 * Yes when d lists the line, or d is an empty forwarder (no lines, one
 * real successor) to such a block. */
static int dest_has_line(const struct gm *g, uint32_t d, uint32_t file,
                         uint32_t line)
{
	for (int depth = 0; d >= 2 && depth < 4; depth++) {
		if (g->f->blocks[d].n_lines)
			return block_has_line(g, d, file, line);
		if (n_real_out(g, d) != 1)
			return 0;
		for (uint32_t k = 0; k < g->nout[d]; k++) {
			const struct lt_gcno_arc *a =
				&g->f->arcs[g->outa[d][k]];
			if (!(a->flags & LT_GCOV_ARC_FAKE)) {
				d = a->dst;
				break;
			}
		}
	}
	return 0;
}

#define MAX_RUN 12

/* Lines of the straight-line code control runs first from insn t: up to
 * MAX_RUN instructions, following plain jumps, ending after the first
 * other transfer. Returns how many (file, line) pairs went to fl[]
 * (MAX_RUN at most). */
static int run_lines(const struct gm *g, long t, uint32_t fl[][2])
{
	int n = 0;
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < MAX_RUN;
	     steps++) {
		const struct minsn *in = &g->in[t];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = in->tgt >= g->lo && in->tgt < g->hi ?
			    insn_at(g, in->tgt) : -1;
			continue;
		}
		if (in->cline && !in->nop) {
			int k = 0;
			while (k < n && (fl[k][0] != in->cfile ||
			                 fl[k][1] != in->cline))
				k++;
			if (k == n) {
				fl[n][0] = in->cfile;
				fl[n][1] = in->cline;
				n++;
			}
		}
		if (ends_block(in) || is_call(in))
			break;
		t++;
	}
	return n;
}

/* Does gcno block d, or the chain of single real successors from it (a
 * block of a `continue` or `break` keeps its line though the machine code
 * jumps past it), list one of fl[n]? */
static int dest_has_any(const struct gm *g, uint32_t d, uint32_t fl[][2],
                        int n)
{
	for (int depth = 0; d >= 2 && depth < 3; depth++) {
		for (int k = 0; k < n; k++)
			if (block_has_line(g, d, fl[k][0], fl[k][1]))
				return 1;
		if (n_real_out(g, d) != 1)
			return 0;
		for (uint32_t k = 0; k < g->nout[d]; k++) {
			const struct lt_gcno_arc *a =
				&g->f->arcs[g->outa[d][k]];
			if (!(a->flags & LT_GCOV_ARC_FAKE)) {
				d = a->dst;
				break;
			}
		}
	}
	return 0;
}

/* Matches the branch at insn i to a gcno condition block: strictly (the
 * first line each successor runs starts its gcno destination) or, when
 * nothing matches strictly, loosely (some line of each successor's first
 * straight-line run is in its destination or the chain after it).
 * Returns the number of matches (2 for one block matching both ways);
 * on exactly one, *ta / *fa are the taken / not-taken arcs; when the
 * only candidate block matched both ways (a ?: whose arms share its
 * line), *both is that block, else -1. */
static int match_branch(const struct gm *g, uint32_t i, long *ta, long *fa,
                        long *both)
{
	const struct minsn *in = &g->in[i];
	uint32_t ft = 0, ff = 0, flt[MAX_RUN][2], flf[MAX_RUN][2];
	long t = in->tgt >= g->lo && in->tgt < g->hi ? insn_at(g, in->tgt) : -1;
	uint32_t lt = t >= 0 ? line_at(g, t, &ft) : 0;
	uint32_t lf = line_at(g, (long)i + 1, &ff);
	int nt = t >= 0 ? run_lines(g, t, flt) : 0;
	int nf = run_lines(g, (long)i + 1, flf);
	*both = -1;
	for (int loose = 0; loose < 2; loose++) {
		int nmatch = 0, ncand = 0;
		for (uint32_t b = 2; b < g->f->n_blocks; b++) {
			if (n_real_out(g, b) != 2 || has_fake_out(g, b) ||
			    !block_has_line(g, b, in->file, in->line))
				continue;
			uint32_t x = g->outa[b][0], y = g->outa[b][1];
			uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
			if (dx == dy)
				continue;
			int fw, bw;
			if (!loose) {
				fw = lt && lf && dest_has_line(g, dx, ft, lt) &&
				     dest_has_line(g, dy, ff, lf);
				bw = lt && lf && dest_has_line(g, dy, ft, lt) &&
				     dest_has_line(g, dx, ff, lf);
			} else {
				fw = dest_has_any(g, dx, flt, nt) &&
				     dest_has_any(g, dy, flf, nf);
				bw = dest_has_any(g, dy, flt, nt) &&
				     dest_has_any(g, dx, flf, nf);
			}
			if (fw || bw)
				ncand++;
			if (fw && bw) {
				nmatch += 2;
				*both = b;
			} else if (fw || bw) {
				nmatch++;
				*ta = fw ? x : y;
				*fa = fw ? y : x;
			}
		}
		if (ncand != 1)
			*both = -1;
		if (nmatch)
			return nmatch;
	}
	return 0;
}

/* Finds the arc of gcno block b that a transfer to insn t takes: the
 * only out-arc whose destination starts with the line t runs first, or,
 * failing that, the only one holding a line of t's straight-line run.
 * Returns the arc or -1. */
static long target_arc(const struct gm *g, uint32_t b, long t)
{
	uint32_t ft = 0, fl[MAX_RUN][2];
	uint32_t lt = line_at(g, t, &ft);
	int n = run_lines(g, t, fl);
	for (int loose = 0; loose < 2; loose++) {
		long hit = -1;
		int nhit = 0;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t a = g->outa[b][k];
			uint32_t d = g->f->arcs[a].dst;
			if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
				continue;
			if (loose ? dest_has_any(g, d, fl, n) :
			            lt && dest_has_line(g, d, ft, lt)) {
				hit = a;
				nhit++;
			}
		}
		if (nhit == 1)
			return hit;
		if (nhit)
			return -1;
	}
	return -1;
}

/* Pins the arcs of a switch's gcno block (more than two real out-arcs,
 * listing the line of the indirect jump at insn i) to the jump's
 * transfers: each target must identify one arc (target_arc). Adds to
 * sum[] and returns 1, or returns 0 (and adds nothing) when the block
 * is not unique or a target is not. */
static int pin_switch(const struct gm *g, uint32_t i, int64_t *sum)
{
	const struct minsn *in = &g->in[i];
	long sb = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (n_real_out(g, b) <= 2 ||
		    !block_has_line(g, b, in->file, in->line))
			continue;
		if (sb >= 0)
			return 0;
		sb = b;
	}
	if (sb < 0)
		return 0;
	size_t n;
	const struct gc_xfer *xs = gc_xfers_from(g->x->c, g->x->im, in->addr,
	                                         &n);
	for (size_t q = 0; q < n; q++)
		if (target_arc(g, (uint32_t)sb, insn_at(g, xs[q].to)) < 0)
			return 0;
	for (size_t q = 0; q < n; q++)
		sum[target_arc(g, (uint32_t)sb, insn_at(g, xs[q].to))] +=
			(int64_t)xs[q].n;
	return 1;
}

/* Pins gcno condition arcs to the machine's conditional branches: a
 * branch on line L whose taken and not-taken successors start on lines
 * Lt and Lf corresponds to the gcno block that lists L and has exactly
 * two real out-arcs, one to a block starting with Lt and the other to
 * one starting with Lf (match_branch). Only a unique match counts;
 * copies of one condition (loop rotation: header and latch) add up.
 * hard[a] becomes the sum, a lower bound of the arc's count (a copy
 * whose outcome the compiler knew, e.g. the first test of a rotated
 * loop, has no branch left), or -1 where the machine code says nothing.
 * A block some of whose executed branches on its lines found no match is
 * left free: a copy of its condition may hide there. A branch that only
 * one block matches, both ways round, adds its executions to that
 * block's lb[] (zeroed by the caller): a lower bound of its count, its
 * split unknown. Returns the number of arcs pinned. */
static uint32_t pin_branches(const struct gm *g, int64_t *hard,
                             int64_t *lb)
{
	uint32_t nb = g->f->n_blocks, pinned = 0;
	int sw = 0;
	int64_t *sum = calloc(g->f->n_arcs, sizeof(*sum));
	uint8_t *bad = calloc(g->f->n_arcs, 1);
	for (uint32_t a = 0; a < g->f->n_arcs; a++)
		hard[a] = -1;
	if (!sum || !bad)
		goto out;
	/* Lines of branches that matched nothing: blocks listing them are
	 * not pinned (a copy may be hidden there). */
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls == LT_INSN_IJUMP && in->link == LT_LINK_NONE &&
		    in->line && pin_switch(g, i, sum)) {
			sw = 1;
			continue;
		}
		if (in->cls != LT_INSN_BRANCH || !in->line)
			continue;
		uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
		uint64_t tk = gc_taken(g->x->c, g->x->im, in->addr);
		long ma = -1, mb = -1, both;
		int nmatch = match_branch(g, i, &ma, &mb, &both);
		if (both >= 0)
			lb[both] += (int64_t)cnt;
		if (nmatch == 1) {
			sum[ma] += (int64_t)tk;
			sum[mb] += (int64_t)(cnt - tk);
			continue;
		}
		if (!cnt)
			continue;
		/* Executed and unmatched: blocks of its line stay free. */
		for (uint32_t b = 2; b < nb; b++)
			if (block_has_line(g, b, in->file, in->line))
				for (uint32_t k = 0; k < g->nout[b]; k++)
					bad[g->outa[b][k]] = 1;
	}
	for (uint32_t b = 2; b < nb; b++) {
		if (n_real_out(g, b) != 2 || has_fake_out(g, b))
			continue;
		uint32_t x = g->outa[b][0], y = g->outa[b][1];
		if (bad[x] || bad[y] || (!sum[x] && !sum[y]))
			continue;
		hard[x] = sum[x];
		hard[y] = sum[y];
		pinned += 2;
	}
	/* Switch arcs: only those the jump reached (the default and the
	 * cases a range check or a branch tree handles stay free). */
	for (uint32_t b = 2; sw && b < nb; b++) {
		if (n_real_out(g, b) <= 2)
			continue;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t a = g->outa[b][k];
			if (sum[a] > 0) {
				hard[a] = sum[a];
				pinned++;
			}
		}
	}
out:
	free(sum);
	free(bad);
	return pinned;
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

/* One instruction of a copy, for copy_entries. */
struct cinsn {
	uint64_t addr;   /* its address */
	uint64_t end;    /* one past its last byte */
	uint64_t cnt;    /* executions */
	uint64_t fall;   /* of those, continuing to the next address */
	uint64_t inside; /* arrivals from the copy itself */
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

/* Entries of one copy (spans span[n], sorted by address, disjoint): the
 * arrivals at its instructions that did not come from the copy itself
 * (falling through, a call returning, a branch or jump of the copy). A
 * copy interleaved with its caller's code counts each return to it, so
 * this is an upper bound. Returns UINT64_MAX when out of memory. */
static uint64_t copy_entries(const struct gm *g, const struct gm_span *span,
                             size_t n)
{
	const struct gc_counts *c = g->x->c;
	size_t im = g->x->im, m = 0, cap = 0;
	struct cinsn *v = NULL;
	uint64_t *tg = NULL, *tk = NULL;
	for (size_t k = 0; k < n; k++)
		cap += (size_t)((span[k].hi - span[k].lo) / 2 + 1);
	v = calloc(cap, sizeof(*v));
	tg = calloc(cap, sizeof(*tg));
	tk = calloc(cap, sizeof(*tk));
	uint64_t total = UINT64_MAX;
	if (!v || !tg || !tk)
		goto out;
	for (size_t k = 0; k < n; k++) {
		const struct lt_region *r = lt_image_region(g->x->img,
		                                            span[k].lo);
		if (!r)
			continue;
		uint64_t hi = span[k].hi < r->end ? span[k].hi : r->end;
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
			long t = cinsn_at(v, m, tg[k]);
			if (t >= 0)
				v[t].inside += tk[k];
		}
		size_t nx;
		const struct gc_xfer *xs = gc_xfers_from(c, im, v[k].addr, &nx);
		for (size_t q = 0; q < nx; q++) {
			long t = cinsn_at(v, m, xs[q].to);
			if (t >= 0)
				v[t].inside += xs[q].n;
		}
	}
	total = 0;
	for (size_t k = 0; k < m; k++)
		if (v[k].cnt > v[k].inside)
			total += v[k].cnt - v[k].inside;
out:
	free(v);
	free(tg);
	free(tk);
	return total;
}

/* Adds the counts of the other copies span[n] to the block estimates
 * est[] and returns their entries: per copy, each block's largest count
 * of an instruction on a line unique to that block; a copy's entries are
 * its first block's estimate capped by its inflow (copy_entries), else
 * that inflow, else the count of its first instruction, else its
 * smallest non-zero count. */
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
		/* The first block runs once per entry; its anchor lines may
		 * hide a loop (an expanded memcpy). */
		uint64_t ce = copy_entries(g, span + i, j - i);
		if (ce != UINT64_MAX && loc[2] > (int64_t)ce)
			loc[2] = (int64_t)ce;
		for (uint32_t b = 2; b < nb; b++)
			if (loc[b] >= 0)
				est[b] = (est[b] > 0 ? est[b] : 0) + loc[b];
		entries += loc[2] > 0 ? (uint64_t)loc[2] :
			   ce != UINT64_MAX ? ce : first_n ? first_n : min_nz;
		i = j;
	}
	return entries;
}

/* Entries of the copies of the function inlined into itself (recursive
 * inlining): each such DWARF instance inside [g->lo, g->hi) is entered
 * as often as its lowest address runs. Those are calls in the
 * instrumented run, so they add to the entries. */
static uint64_t self_entries(const struct gm *g)
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
			if (!fq->depth || strcmp(fq->name, g->f->name) != 0)
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

/* gm_map_function for a chosen out-of-line copy [lo, hi). */
static int map_one(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
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
	/* No called out-of-line copy: the other copies' branches still
	 * pin arcs (their counts add up, as in the instrumented run). */
	int copies_only = 0;
	if (!g.m) {
		rc = load_copies(&g, span, nspan);
		if (rc) {
			free(g.in);
			return rc;
		}
		copies_only = g.m > 0;
	}
	g.bstart = calloc(nb, sizeof(uint32_t));
	g.bend = calloc(nb, sizeof(uint32_t));
	g.blk = calloc(g.m + 1, sizeof(uint32_t));
	g.outa = calloc(nb, sizeof(uint32_t *));
	g.nout = calloc(nb, sizeof(uint32_t));
	g.npred = calloc(nb, sizeof(uint32_t));
	g.arc = calloc(f->n_arcs, sizeof(int64_t));
	int64_t *est = malloc(2 * nb * sizeof(int64_t));
	int64_t *hard = NULL;
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
	/* trust: the alignment matched most lines (under one mismatch per
	 * four instructions on average), so routed transfers are good
	 * arc targets; else, where branches pinned arcs, the routed
	 * counts of a reordered function only fight the pins. */
	int clean = 0, exact = 0, trust = 0;
	if (g.m && !copies_only) {
		long cost = align(&g);
		if (cost < 0)
			goto out;
		clean = cost < SHAPE_COST;
		trust = clean && cost < (long)g.m;
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
	if (g.m && !copies_only && !exact)
		g.entries += self_entries(&g);
	if (copies_only)
		for (uint32_t b = 0; b < nb; b++)
			est[b] = -1; /* copy_estimates counts their lines */
	else
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
	uint32_t pinned = 0;
	if (!exact) {
		hard = malloc(f->n_arcs * sizeof(*hard));
		if (!hard) {
			rc = LT_ERR_NOMEM;
			goto out;
		}
		int64_t *lb = est + nb; /* copy_estimates' scratch, free now */
		memset(lb, 0, nb * sizeof(*lb));
		if (g.m)
			pinned = pin_branches(&g, hard, lb);
		for (uint32_t b = 2; b < nb; b++)
			if (lb[b] > 0 && lb[b] > est[b])
				est[b] = lb[b];
		rc = make_flow(&g, pinned ? trust : clean, est,
		               pinned ? hard : NULL);
		if (rc)
			goto out;
	}
	for (uint32_t a = 0; a < f->n_arcs; a++)
		arc[a] = g.arc[a] > 0 ? (uint64_t)g.arc[a] : 0;
	res->status = exact ? GM_EXACT : GM_INFERRED;
	res->n_exact = exact ? f->n_arcs : 0;
	/* Pinned arcs the flow kept: counters the machine code determined
	 * (tree arcs carry no counter). */
	for (uint32_t a = 0; !exact && pinned && a < f->n_arcs; a++)
		if (hard[a] >= 0 && g.arc[a] == hard[a] &&
		    !(f->arcs[a].flags & LT_GCOV_ARC_ON_TREE))
			res->n_exact++;
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
	free(hard);
	free(pool);
	return rc;
}

/* Is span k a whole clone (f.constprop.0, ...: a copy of its own,
 * gcda.c marks those with the top bit) and alone in its copy? */
static int whole_clone(const struct gm_span *span, size_t nspan, size_t k)
{
	return (span[k].copy & 0x80000000u) &&
	       (k == 0 || span[k - 1].copy != span[k].copy) &&
	       (k + 1 == nspan || span[k + 1].copy != span[k].copy);
}

int gm_map_function(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                    uint64_t lo, uint64_t hi, const struct gm_span *span,
                    size_t nspan, uint64_t *arc, struct gm_result *res)
{
	/* Without a called out-of-line copy, the most called whole clone
	 * takes its place: its branches and transfers then count in full,
	 * not only its lines. */
	if (hi <= lo || !gc_insn_count(ctx->c, ctx->im, lo)) {
		long best = -1;
		uint64_t bn = 0;
		for (size_t k = 0; k < nspan; k++) {
			uint64_t n = gc_insn_count(ctx->c, ctx->im, span[k].lo);
			if (whole_clone(span, nspan, k) && n > bn) {
				best = (long)k;
				bn = n;
			}
		}
		if (best >= 0) {
			struct gm_span *rest = malloc(nspan * sizeof(*rest));
			if (!rest)
				return LT_ERR_NOMEM;
			size_t nr = 0;
			for (size_t k = 0; k < nspan; k++)
				if ((long)k != best)
					rest[nr++] = span[k];
			int rc = map_one(ctx, f, span[best].lo, span[best].hi,
			                 rest, nr, arc, res);
			free(rest);
			return rc;
		}
	}
	return map_one(ctx, f, lo, hi, span, nspan, arc, res);
}
