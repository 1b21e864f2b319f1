/* Mapping a gcno function (gcda_mapper.h), step 2, transitions: every
 * machine transfer out of a block (taken and not-taken branches, jumps,
 * returns to the instruction after a call, indirect jumps, function
 * returns) is routed to the gcno arc path from its block to the target's
 * block through empty blocks only, preferring the path whose first arc's
 * fallthrough flag matches the transfer. A call followed by a setjmp
 * receiver (an ENTRY -> block fake arc) splits its landings: the first
 * return of each call is the normal one, the rest are longjmps arriving
 * through the fake arc. Fake arcs to EXIT (calls that did not return:
 * exit, longjmp) take each block's in-count minus its other out-counts. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define MAX_PATH 6

/* Best route search state. */
struct route {
	uint32_t path[MAX_PATH];  /* arcs of the current path */
	uint32_t best[MAX_PATH];  /* arcs of the best path */
	int nbest;                /* its length, -1 if none */
	long score;               /* its score */
	int tie;                  /* another path had the same score */
	uint32_t nfile, nline;    /* line of the nop the transfer landed
	                             on (the nop -O0 emits for a goto),
	                             0: none */
};

/* Can a transfer pass through gcno block d without running its code?
 * Yes when d is empty, or only a jump: gcc threads a jump to a jump
 * (e.g. a loop latch to the -O0 "goto" into the loop's condition) even
 * at -O0, so the machine code skips it while GIMPLE passes through. */
static int passable(const struct gm *g, uint32_t d)
{
	uint32_t s = g->bstart[d], e = g->bend[d];
	if (s == e || (e - s == 1 && g->in[s].cls == LT_INSN_JUMP &&
	               g->in[s].link == LT_LINK_NONE))
		return 1;
	/* -O0: only goto stubs (nops and plain jumps), which transfers
	 * pass (through_stubs). */
	if (g->x->optimized)
		return 0;
	for (uint32_t i = s; i < e; i++)
		if (!g->in[i].nop && (g->in[i].cls != LT_INSN_JUMP ||
		                      g->in[i].link != LT_LINK_NONE))
			return 0;
	return 1;
}

/* Is insn i a plain jump right after a nop that every execution of the
 * jump came through (nothing jumps to the jump itself): a goto's stub,
 * whose arrivals are routed on to where it goes (through_stubs), the
 * jump itself not at all (gm_transfers)? Counted, not assumed: the jump
 * may be another block's (an enclosing `break`'s) that other code jumps
 * to directly, and then both are routed as they are. */
static int stub_pair(const struct gm *g, uint32_t i)
{
	const struct minsn *j = &g->in[i], *n = i ? &g->in[i - 1] : NULL;
	if (!n || !n->nop || j->cls != LT_INSN_JUMP ||
	    j->link != LT_LINK_NONE)
		return 0;
	const struct gc_counts *c = g->x->c;
	return gc_insn_count(c, g->x->im, n->addr) ==
	       gc_insn_count(c, g->x->im, j->addr);
}

/* -O0: where a transfer landing at insn j goes on to when j is a goto's
 * stub (nops, then a plain jump: the nop -O0 emits for an edge's goto
 * location, laid out before the code the jump goes to): the jump's
 * target, through further stubs; else j. One stub may serve several gcno
 * blocks (the empty blocks of three `if`s' ways to one `return`, each
 * listing the return's line, share one nop), so the transfer is routed
 * to where the stub goes, the stub's own jump not at all (gm_transfers),
 * and the nop's line picks the route. */
static long through_stubs(const struct gm *g, long j)
{
	for (int k = 0; k < 4 && !g->x->optimized && j >= 0 &&
	                j < (long)g->m && g->in[j].nop; k++) {
		uint32_t s = gm_skip_nops(g, (uint32_t)j);
		if (s >= g->m || !stub_pair(g, s))
			break;
		long t = gm_insn_at(g, g->in[s].tgt);
		if (t < 0)
			break;
		j = t;
	}
	return j;
}

int gm_stub_jump(const struct gm *g, uint32_t i)
{
	return !g->x->optimized && i < g->m && stub_pair(g, i);
}

/* Extends the path r->path[0..depth) at block b towards block `to`
 * (arc to `to`: scored against r->best), passing only through blocks a
 * transfer can skip; `at` is the target instruction. */
static void dfs(struct gm *g, struct route *r, uint32_t b, uint32_t to,
                uint32_t at, int depth, int fall, long score)
{
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		uint32_t a = g->outa[b][k];
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->flags & LT_GCOV_ARC_FAKE)
			continue;
		long s = score;
		if (depth == 0 && fall >= 0)
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
		/* An empty block sitting at the target scores higher;
		 * a block of the line of the nop the transfer landed on
		 * much higher: at -O0 `if (c) goto out;` right before
		 * `out:` leaves only the goto's nop, which the branch
		 * lands on and falls through, while the other way's
		 * `break;` jumps there past it (a jump-only block a route
		 * may also skip, with the flags of a taken branch). */
		s += g->bstart[d] == at ? 1 : -2;
		if (r->nline && gm_block_has_line(g, d, r->nfile, r->nline))
			s += 16;
		dfs(g, r, d, to, at, depth + 1, fall, s);
	}
}

/* Does another arc of block b than `first` (the best route's first arc,
 * whose fallthrough flag it matches as well or as badly) also start a
 * route to block `to`? Then only which empty block sits at the target
 * told the routes apart, and that says nothing when b's own arcs go both
 * ways: a case whose statement left no code (`case 0: x = x;` falling
 * into case 1) and the next case land on the same instruction, by a
 * taken compare for one and a fallthrough for the other. */
static int other_first_arc(struct gm *g, uint32_t b, uint32_t to,
                           uint32_t at, int fall, uint32_t first)
{
	int want = (g->f->arcs[first].flags & LT_GCOV_ARC_FALLTHROUGH) != 0;
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		uint32_t a = g->outa[b][k];
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (a == first || (arc->flags & LT_GCOV_ARC_FAKE) ||
		    (fall >= 0 &&
		     ((arc->flags & LT_GCOV_ARC_FALLTHROUGH) != 0) != want))
			continue;
		if (arc->dst == to)
			return 1;
		if (arc->dst < 2 || !passable(g, arc->dst))
			continue;
		struct route q = {.nbest = -1};
		dfs(g, &q, arc->dst, to, at, 1, fall, 0);
		if (q.nbest >= 0)
			return 1;
	}
	return 0;
}

/* All routes of one transfer (mark_alternatives). */
struct routes {
	uint32_t path[MAX_PATH]; /* arcs of the current route */
	uint32_t *use;           /* per arc: routes using it */
	uint32_t n;              /* routes found */
	int twice;               /* a route passed an arc twice */
	int cut;                 /* a way went on past MAX_PATH arcs */
};

/* Extends route r->path[0..depth) at block b towards block `to` as dfs()
 * does, counting every complete route instead of scoring it. */
static void all_routes(const struct gm *g, struct routes *r, uint32_t b,
                       uint32_t to, int depth)
{
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		uint32_t a = g->outa[b][k];
		const struct lt_gcno_arc *arc = &g->f->arcs[a];
		if (arc->flags & LT_GCOV_ARC_FAKE)
			continue;
		r->path[depth] = a;
		if (arc->dst == to) {
			r->n++;
			for (int q = 0; q <= depth; q++) {
				for (int p = 0; p < q; p++)
					r->twice |= r->path[p] == r->path[q];
				r->use[r->path[q]]++;
			}
			continue;
		}
		uint32_t d = arc->dst;
		if (d < 2 || !passable(g, d))
			continue;
		if (depth + 1 >= MAX_PATH) {
			r->cut = 1;
			continue;
		}
		all_routes(g, r, d, to, depth + 1);
	}
}

/* Marks in g->unsure the arcs that some but not all routes from block b
 * to block `to` pass (all of them when a route passes one arc twice):
 * the routed count of those may belong to another of the routes. Without
 * memory, or when a way through blocks without code goes on longer than
 * a route may be (a chain of deleted tests: its arcs would be left
 * unmarked), g->blind is set instead. */
static void mark_alternatives(struct gm *g, uint32_t b, uint32_t to)
{
	struct routes r = {.use = calloc(g->f->n_arcs + 1, sizeof(uint32_t))};
	if (!r.use) {
		g->blind = 1;
		return;
	}
	all_routes(g, &r, b, to, 0);
	if (r.cut)
		g->blind = 1;
	for (uint32_t a = 0; r.n > 1 && a < g->f->n_arcs; a++)
		if (r.use[a] && (r.use[a] != r.n || r.twice))
			g->unsure[a] = 1;
	free(r.use);
}

/* Records that no arc reaches block `to` starting at insn t, so that a
 * second alignment can try another partition (best effort: without
 * memory, nothing is recorded). */
static void note_avoid(struct gm *g, uint32_t to, uint32_t t)
{
	uint64_t key = (uint64_t)to << 32 | t;
	for (uint32_t k = 0; k < g->navoid; k++)
		if (g->avoid[k] == key)
			return;
	if (g->navoid == g->avoid_cap) {
		uint32_t nc = g->avoid_cap ? 2 * g->avoid_cap : 8;
		uint64_t *nv = realloc(g->avoid, nc * sizeof(*nv));
		if (!nv)
			return;
		g->avoid = nv;
		g->avoid_cap = nc;
	}
	g->avoid[g->navoid++] = key;
}

/* Routes n transfers from gcno block b to instruction index t (to EXIT
 * when t < 0) along the best path through empty blocks; fall: 1 for a
 * fallthrough, 0 for a taken transfer, -1 for one that is neither (a
 * return: no arc's flag is preferred). land: the instruction the transfer
 * reached before nops were skipped (a goto's nop prefers a route through
 * its block, see dfs). */
static void route_from(struct gm *g, uint32_t b, long t, long land, int fall,
                       uint64_t n)
{
	if (!n)
		return;
	struct route r = {.nbest = -1};
	if (land >= 0 && land < (long)g->m && g->in[land].nop &&
	    g->in[land].line) {
		r.nfile = g->in[land].cfile;
		r.nline = g->in[land].cline;
	}
	if (t >= 0) {
		t = gm_skip_nops(g, (uint32_t)t);
		if (t >= (long)g->m)
			t = -1;
	}
	uint32_t to = t < 0 ? 1 : g->blk[t];
	if (t >= 0 && g->bstart[to] != (uint32_t)t) {
		g->unrouted = 1;
		if (!g->why)
			g->why = "transfer into the middle of a block";
	}
	dfs(g, &r, b, to, t < 0 ? g->m : (uint32_t)t, 0, fall, 0);
	if (r.nbest < 0) {
		if (t >= 0)
			note_avoid(g, to, (uint32_t)t);
		g->unrouted = 1;
		if (!g->why)
			g->why = "a machine transfer has no gcno arc";
		return;
	}
	if (g->unsure)
		mark_alternatives(g, b, to);
	if (r.tie || other_first_arc(g, b, to, t < 0 ? g->m : (uint32_t)t,
	                             fall, r.best[0])) {
		g->ambiguous = 1;
		if (!g->why)
			g->why = "a machine transfer has two gcno routes";
	}
	for (int k = 0; k < r.nbest; k++)
		g->arc[r.best[k]] += (int64_t)n;
}

static void route(struct gm *g, uint32_t b, long t, int fall, uint64_t n)
{
	route_from(g, b, t, t, fall, n);
}

/* Direct branches/jumps and indirect jumps inside the function landing at
 * instruction t (not calls: those are recursion, i.e. entries). */
uint64_t gm_inner_ins(const struct gm *g, uint32_t t)
{
	uint64_t n = 0, a = g->in[t].addr;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (gm_is_call(in))
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

/* The landing of a computed goto at insn j, block to = g->blk[j]: the
 * ENTRY fake arc to the label's block and the real arcs from there to
 * `to` through blocks without code (the label's block is empty when gcc
 * split the label from its code: `l_dec: x--; f();` keeps the call in a
 * block of its own after the label's). Stores the path's arcs in r->best
 * (r->nbest of them) and returns the fake arc, or -1 without one. */
static long fake_landing(struct gm *g, struct route *r, uint32_t to,
                         uint32_t j)
{
	long fe = entry_fake(g, to);
	r->nbest = -1;
	r->score = 0;
	if (fe >= 0) {
		r->nbest = 0;
		return fe;
	}
	for (uint32_t k = 0; k < g->nout[0]; k++) {
		uint32_t a = g->outa[0][k];
		uint32_t l = g->f->arcs[a].dst;
		if (!(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE) || l < 2 ||
		    g->bstart[l] != g->bend[l])
			continue;
		struct route q = {.nbest = -1};
		dfs(g, &q, l, to, j, 0, 1, 0);
		if (q.nbest < 0)
			continue;
		if (fe >= 0 || q.tie) {
			g->ambiguous = 1;
			g->blind = 1;
			if (!g->why)
				g->why = "a machine transfer has two gcno "
					 "routes";
		}
		if (fe < 0 || q.score > r->score) {
			*r = q;
			fe = a;
		}
	}
	return fe;
}

/* A computed goto (goto *p) reaches its labels by abnormal edges, which
 * gcov replaces, as for a setjmp receiver, by a fake arc from the jump's
 * block to EXIT and one from ENTRY to each label's block. Routes n
 * transfers of the indirect jump insn i to insn j that way: along the
 * lone non-fake arcs of skippable blocks to the block with the EXIT fake
 * arc (which the balance at the end of gm_transfers fills), then in
 * through ENTRY's fake arc (fake_landing). Returns 0, or -1 when the
 * gcno has no such arcs (a jump table: its arcs are real). */
static int via_fake(struct gm *g, uint32_t i, long j, uint64_t n)
{
	if (j < 0)
		return -1;
	j = gm_skip_nops(g, (uint32_t)j);
	if (j >= (long)g->m)
		return -1;
	uint32_t to = g->blk[j];
	if (g->bstart[to] != (uint32_t)j)
		return -1;
	uint32_t b = g->blk[i], path[MAX_PATH];
	int np = 0;
	for (;;) {
		long fx = -1, only = -1;
		int nn = 0;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			uint32_t a = g->outa[b][k];
			const struct lt_gcno_arc *arc = &g->f->arcs[a];
			if (arc->flags & LT_GCOV_ARC_FAKE) {
				if (arc->dst == 1)
					fx = a;
			} else {
				only = a;
				nn++;
			}
		}
		if (fx >= 0)
			break;
		if (nn != 1 || np == MAX_PATH)
			return -1;
		uint32_t d = g->f->arcs[only].dst;
		if (d < 2 || !passable(g, d))
			return -1;
		path[np++] = (uint32_t)only;
		b = d;
	}
	struct route r;
	long fe = fake_landing(g, &r, to, (uint32_t)j);
	if (fe < 0)
		return -1;
	for (int k = 0; k < np; k++)
		g->arc[path[k]] += (int64_t)n;
	for (int k = 0; k < r.nbest; k++)
		g->arc[r.best[k]] += (int64_t)n;
	g->arc[fe] += (int64_t)n;
	return 0;
}

/* Routes the transfer from insn i to insn j (-1: EXIT) unless it stays
 * inside i's gcno block going forward (e.g. the branch of a ?: that
 * GIMPLE computes without one, or a call in the middle of a block). */
static void xfer(struct gm *g, uint32_t i, long j, int fall, uint64_t n)
{
	uint32_t b = g->blk[i];
	long land = j;
	j = through_stubs(g, j);
	if (j >= 0) {
		j = gm_skip_nops(g, (uint32_t)j);
		if (j >= (long)g->m)
			j = -1;
	}
	if (j >= 0 && g->blk[j] == b && (uint32_t)j > i)
		return;
	/* Back into the middle of its own block: a loop, which no gcno
	 * block holds (a ?: inside a block only jumps forward); routed,
	 * it tells the alignment to try another partition. */
	if (j >= 0 && g->blk[j] == b && (uint32_t)j != g->bstart[b] &&
	    !(n && (uint32_t)j < i))
		return;
	route_from(g, b, j, land, fall, n);
}

/* Sets g->mid_exit when branch i of optimized code leaves its block
 * before the block's end for a place the end does not go to (another
 * block, or back to the block's own start), taken or not. GIMPLE ends a
 * block at its condition, which RTL may expand into several branches
 * that all go where the block's end goes (`c <= 32 && (mask >> c & 1)`,
 * a MIN over a move); a branch going elsewhere is a test gcc copied
 * after profiling (loop header copying puts a loop's exit tests before
 * the rotated loop, whose entry then jumps into the body): the
 * partition routes the transfers that ran, but its blocks count the
 * copy's code, not the gcno block's (the body misses the entries
 * through the copied test). -O0 copies no test; a switch block's
 * comparison tree branches out of its middle by design. */
static void note_mid_exit(struct gm *g, uint32_t i)
{
	uint32_t b = g->blk[i], e = g->bend[b];
	if (!g->x->optimized || b < 2 || i + 1 >= e ||
	    gm_n_real_out(g, b) >= 3 ||
	    (i + 2 == e && gm_branch_then_jump(g, i)))
		return;
	uint64_t to = g->in[i].tgt;
	const struct minsn *l = &g->in[e - 1];
	int falls = gm_is_call(l) || (l->cls != LT_INSN_JUMP &&
	                              l->cls != LT_INSN_IJUMP);
	if (to == l->tgt || (falls && to == l->addr + l->len))
		return;
	long t = gm_insn_at(g, to);
	if (t >= 0)
		t = gm_skip_nops(g, (uint32_t)t);
	if (t >= 0 && t < (long)g->m && g->blk[t] == b &&
	    (uint32_t)t != g->bstart[b])
		return;
	g->mid_exit = 1;
	if (!g->why)
		g->why = "a branch leaves a block before its end (a test the "
			 "compiler copied)";
}

/* Step 2: routes every machine transfer. */
void gm_transfers(struct gm *g)
{
	const struct gc_counts *c = g->x->c;
	size_t im = g->x->im;
	uint64_t e = gc_insn_count(c, im, g->lo);
	uint64_t inner = gm_inner_ins(g, 0);
	g->entries = e > inner ? e - inner : 0;
	route(g, 0, 0, 1, g->entries);
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *l = &g->in[i];
		if (l->nop)
			continue;
		uint64_t cnt = gc_insn_count(c, im, l->addr);
		long nx = gm_falls_to_next(g, i) ? (long)i + 1 : -2;
		if (gm_is_call(l)) {
			if (nx < 0)
				continue;
			size_t k;
			uint64_t land = 0;
			const struct gc_xfer *xs =
				gc_xfers_to(c, im, l->addr + l->len, &k);
			for (size_t q = 0; q < k; q++) {
				long s = gm_insn_at(g, xs[q].from);
				if (s >= 0 && g->in[s].cls == LT_INSN_IJUMP &&
				    g->in[s].link == LT_LINK_NONE)
					continue;
				land += xs[q].n;
			}
			uint32_t sn = gm_skip_nops(g, (uint32_t)nx);
			uint32_t nb = g->blk[sn < g->m ? sn : i];
			long fk = nb != g->blk[i] ? entry_fake(g, nb) : -1;
			if (fk >= 0) {
				uint64_t normal = land < cnt ? land : cnt;
				g->arc[fk] += (int64_t)(land - normal);
				land = normal;
			}
			xfer(g, i, nx, 1, land);
		} else if (l->cls == LT_INSN_BRANCH) {
			uint64_t tk = gc_taken(c, im, l->addr);
			note_mid_exit(g, i);
			xfer(g, i, gm_insn_at(g, l->tgt), 0, tk);
			if (nx >= 0)
				xfer(g, i, nx, 1, cnt - tk);
		} else if (l->cls == LT_INSN_JUMP) {
			if (gm_stub_jump(g, i))
				continue;
			/* After a branch, the jump carries its fallthrough. */
			int f = i > 0 && gm_branch_then_jump(g, i - 1) &&
				g->blk[i - 1] == g->blk[i];
			xfer(g, i, gm_insn_at(g, l->tgt), f,
			     gc_taken(c, im, l->addr));
		} else if (l->cls == LT_INSN_IJUMP) {
			/* A return is neither way of a test: which arc
			 * of its block it left by, only the routes tell. */
			if (l->link == LT_LINK_RET) {
				route(g, g->blk[i], -1, -1, cnt);
				continue;
			}
			size_t k;
			const struct gc_xfer *xs =
				gc_xfers_from(c, im, l->addr, &k);
			for (size_t q = 0; q < k; q++) {
				long t = gm_insn_at(g, xs[q].to);
				if (via_fake(g, i, t, xs[q].n) != 0)
					xfer(g, i, t, 0, xs[q].n);
			}
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

/* Executions that left block b by a trap inside it (a load that faulted
 * into a signal handler that did not come back): an instruction that
 * neither transfers nor calls, falling through to one of the same block
 * that runs less often than it, arrivals from elsewhere aside. gcov's CFG
 * has no arc for them; the instrumented run counts only the arcs that ran
 * (gcov derives the others as if the block had been left normally), so
 * such a block is balanced when its in-flow exceeds its out-flow by
 * them. */
static int64_t trap_exits(const struct gm *g, uint32_t b)
{
	int64_t n = 0;
	for (uint32_t i = g->bstart[b]; i + 1 < g->bend[b]; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls != LT_INSN_OTHER || !gm_falls_to_next(g, i))
			continue;
		uint64_t c = gc_insn_count(g->x->c, g->x->im, in->addr);
		uint64_t nx = gc_insn_count(g->x->c, g->x->im,
		                            g->in[i + 1].addr);
		uint64_t inner = gm_inner_ins(g, i + 1);
		nx = nx > inner ? nx - inner : 0;
		if (c > nx)
			n += (int64_t)(c - nx);
	}
	return n;
}

/* Does every block but ENTRY and EXIT balance (traps inside it aside)? */
int gm_balanced(const struct gm *g)
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
		if (bal[b] && bal[b] != trap_exits(g, b))
			ok = 0;
	free(bal);
	return ok;
}
