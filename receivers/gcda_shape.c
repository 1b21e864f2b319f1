/* Branches matched by the shape of the code around them (gcda_mapper.h:
 * gm_shape_match), where their lines cannot tell the gcno conditions
 * apart: loops nested on one line (a skip list's search, `for (i = lvl
 * - 1; i >= 0; i--) while (x->fwd[i] && x->fwd[i]->key < key) x =
 * x->fwd[i];`) list that line in every block, so each of their branches
 * matches every condition of the line both ways; so do a single loop's
 * (lru's `for (e = b[h]; e; e = e->hnext) if (e->key == key) return e;`,
 * solved where its test is the first every call reaches) and a line's
 * one condition whose ways both start on that line (`while
 * (*pp != x) pp = &(*pp)->hnext;`), and a line's chain of tests on no
 * loop (`if ((p && p->k == k) || n == MAX) return 0;`, each way of its
 * first test landing on the line). Its machine code still has the
 * shape of the gcno CFG: a way of a branch runs straight (plain jumps,
 * calls) into the next branch, as a gcno arc leads through blocks of
 * one successor into the next condition. Mapping each branch of a copy
 * to a condition block (and which way round) so that every way lands
 * where its arc leads pins the conditions as an out-of-line body's
 * transfers would.
 *
 * The model, per copy (an inlined copy of the function, or its own body
 * with its cold parts): each branch on a line that is the last line of
 * some two-way gcno blocks (their condition) maps to one of them, either
 * way round; branches of other lines (code inlined into the copy) and
 * ways that leave the copy or run into an indirect jump say nothing. A
 * condition no branch of the copy maps to (a test gcc made branchless,
 * or resolved) is passed through both ways; a mapped one is not. A
 * branch is matched when every assignment meeting the model gives it the
 * same block and way round, and at least one does; the assignments
 * where each branch entered from outside the copy's branches is a
 * condition the function's entry reaches without passing another come
 * first (the two tests of a loop, a way of each running into the other,
 * map either way round otherwise). Jump threading (a
 * way that skips a test gcc knew on that path) breaks the model, so
 * these matches are bounds only (gm_pin_branches marks them soft). */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define MAX_WALK 64        /* instructions a way is followed */
#define MAX_CHECKS 20000   /* partial assignments checked per copy */
#define MAX_NODES 48       /* branches of one copy looked at */
#define WILD (-1L)         /* a way that constrains nothing */

/* One branch of a copy. */
struct node {
	uint32_t insn;     /* its instruction */
	uint32_t ncand;    /* candidate (block, way round) pairs */
	uint32_t cand[16]; /* block << 1 | flip (flip: taken is outa[1]) */
	long succ[2];      /* node index its taken / fallthrough way runs
	                      into, or WILD */
	uint32_t pick;     /* the candidate of the current assignment */
	uint32_t agreed;   /* the candidate every consistent one gave */
	int nseen;         /* a consistent assignment was seen */
	int differs;       /* consistent assignments disagreed on it */
	int outside;       /* it ran more often than the ways of the copy's
	                      branches bring control to it */
};

/* The instruction a way starting at addr runs into first that is a
 * conditional branch of copy `copy`, following plain jumps and stepping
 * over calls and over other code that does not transfer (a caller's
 * instructions scheduled between the copy's); -1 when the way reaches an
 * indirect jump, a return, a transfer of other code, or runs too long. */
static long run_to_branch(const struct gm *g, uint64_t addr, size_t copy)
{
	for (int steps = 0; steps < MAX_WALK; steps++) {
		long k = gm_insn_at(g, addr);
		uint8_t cls, link;
		uint64_t tgt;
		int len;
		if (k >= 0 && gm_copy_of(g, (uint32_t)k) == copy) {
			const struct minsn *in = &g->in[k];
			if (in->cls == LT_INSN_BRANCH)
				return k;
			cls = in->cls;
			link = in->link;
			tgt = in->tgt;
			len = in->len;
		} else {
			const struct lt_region *r =
				lt_image_region(g->x->img, addr);
			if (!r || addr >= r->end)
				return -1;
			const struct lt_hwinfo *hw =
				&r->info[lt_region_idx(r, addr)];
			cls = hw->cls;
			link = hw->link;
			len = hw->len ? hw->len : 2;
			tgt = addr + (uint64_t)(int64_t)hw->tgt;
			if (cls == LT_INSN_BRANCH ||
			    (cls == LT_INSN_JUMP && link == LT_LINK_NONE))
				return -1;
		}
		if (cls == LT_INSN_JUMP && link == LT_LINK_NONE) {
			addr = tgt;
			continue;
		}
		if ((cls == LT_INSN_IJUMP && link == LT_LINK_NONE) ||
		    cls == LT_INSN_TRET)
			return -1;
		addr += (uint64_t)len;
	}
	return -1;
}

/* Is gcno block b a plain two-way condition (two real out-arcs, no
 * fake one)? */
static int two_way(const struct gm *g, uint32_t b)
{
	return gm_n_real_out(g, b) == 2 && !gm_has_fake_out(g, b);
}

/* Does arc a lead to condition block `to` through blocks with one real
 * successor and conditions not in `mapped` (passed either way)? */
static int leads_to(const struct gm *g, uint32_t a, uint32_t to,
                    const uint8_t *mapped, uint32_t *stack, uint8_t *seen)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	memset(seen, 0, nb);
	stack[n++] = g->f->arcs[a].dst;
	seen[g->f->arcs[a].dst] = 1;
	while (n) {
		uint32_t d = stack[--n];
		if (d == to)
			return 1;
		if (d < 2 || mapped[d])
			continue;
		for (uint32_t k = 0; k < g->nout[d]; k++) {
			const struct lt_gcno_arc *x = &g->f->arcs[g->outa[d][k]];
			if ((x->flags & LT_GCOV_ARC_FAKE) || seen[x->dst])
				continue;
			seen[x->dst] = 1;
			stack[n++] = x->dst;
		}
	}
	return 0;
}

/* The arc of candidate c's taken (way 0) or fallthrough (way 1) way. */
static uint32_t way_arc(const struct gm *g, uint32_t c, int way)
{
	uint32_t b = c >> 1;
	return g->outa[b][(c & 1) ^ (uint32_t)way];
}

/* Can control come to condition block `to` from outside the copy's
 * branches (v[n], as assigned): from the function's entry, or from a
 * way of a branch that runs into code saying nothing (WILD, a branch of
 * other code) and may come back? Any condition may be passed on the
 * way: gcc resolves the first test of a loop whose start it knows
 * (`i = 0; while (i < len && ...)` with len constant enters at the
 * second test), so only a block those cannot reach at all is out.
 * strict: from the entry, no condition is passed (no test resolved on
 * entry), which tells apart the two tests of a loop that a way of each
 * runs into the other's (`for (e = h; e; e = e->next) if (e->k == k)
 * return e;`: either could be the loop's test as far as the ways go). */
static int entered(const struct gm *g, const struct node *v, uint32_t n,
                   uint32_t to, uint32_t *stack, uint8_t *seen, int strict)
{
	uint8_t *none = seen + g->f->n_blocks; /* nothing mapped */
	for (uint32_t b = 0; b < g->f->n_blocks; b++)
		none[b] = strict && b >= 2 && two_way(g, b);
	for (uint32_t k = 0; k < g->nout[0]; k++)
		if (!(g->f->arcs[g->outa[0][k]].flags & LT_GCOV_ARC_FAKE) &&
		    leads_to(g, g->outa[0][k], to, none, stack, seen))
			return 1;
	memset(none, 0, g->f->n_blocks);
	for (uint32_t k = 0; k < n; k++) {
		if (!v[k].ncand)
			continue;
		for (int w = 0; w < 2; w++) {
			long s = v[k].succ[w];
			if ((s == WILD || !v[s].ncand) &&
			    leads_to(g, way_arc(g, v[k].cand[v[k].pick], w), to,
			             none, stack, seen))
				return 1;
		}
	}
	return 0;
}

/* Does the current assignment of nodes v[n] meet the model (strict:
 * entered's)? */
static int consistent(const struct gm *g, const struct node *v, uint32_t n,
                      uint8_t *mapped, uint32_t *stack, uint8_t *seen,
                      int strict)
{
	memset(mapped, 0, g->f->n_blocks);
	for (uint32_t k = 0; k < n; k++)
		if (v[k].ncand)
			mapped[v[k].cand[v[k].pick] >> 1] = 1;
	for (uint32_t k = 0; k < n; k++)
		if (v[k].outside && v[k].ncand &&
		    !entered(g, v, n, v[k].cand[v[k].pick] >> 1, stack,
		             seen, strict))
			return 0;
	for (uint32_t k = 0; k < n; k++) {
		if (!v[k].ncand)
			continue;
		uint32_t c = v[k].cand[v[k].pick];
		for (int w = 0; w < 2; w++) {
			long s = v[k].succ[w];
			if (s == WILD || !v[s].ncand)
				continue;
			uint32_t to = v[s].cand[v[s].pick] >> 1;
			if (!leads_to(g, way_arc(g, c, w), to, mapped, stack,
			              seen))
				return 0;
		}
	}
	return 1;
}

/* The search over the assignments of one copy's nodes. */
struct search {
	const struct gm *g;
	struct node *v;
	uint32_t n;
	uint8_t *mapped;  /* per block: a node is assigned to it */
	uint8_t *seen;    /* leads_to's scratch (and entered's: 2 blocks'
	                     worth) */
	uint32_t *stack;  /* leads_to's scratch */
	uint32_t best;    /* most blocks mapped by a consistent assignment */
	long budget;      /* partial checks left; < 0: gave up */
	int strict;       /* entered's strict model */
};

/* Do the ways between the assigned nodes v[0..upto] meet the model? A
 * way that fails with these blocks mapped fails with more mapped too
 * (fewer conditions passed through), so a failure prunes. */
static int partial_ok(struct search *s, uint32_t upto)
{
	const struct gm *g = s->g;
	const struct node *v = s->v;
	memset(s->mapped, 0, g->f->n_blocks);
	for (uint32_t k = 0; k <= upto; k++)
		if (v[k].ncand)
			s->mapped[v[k].cand[v[k].pick] >> 1] = 1;
	for (uint32_t k = 0; k <= upto; k++) {
		if (!v[k].ncand)
			continue;
		for (int w = 0; w < 2; w++) {
			long t = v[k].succ[w];
			if (t == WILD || t > (long)upto || !v[t].ncand)
				continue;
			if (!leads_to(g, way_arc(g, v[k].cand[v[k].pick], w),
			              v[t].cand[v[t].pick] >> 1, s->mapped,
			              s->stack, s->seen))
				return 0;
		}
	}
	return 1;
}

/* A complete assignment: when it meets the model, notes per node what
 * the consistent ones with the most blocks mapped (fewest tests gone)
 * agree on. */
static void leaf(struct search *s)
{
	const struct gm *g = s->g;
	struct node *v = s->v;
	uint32_t nm = 0;
	if (!consistent(g, v, s->n, s->mapped, s->stack, s->seen,
	                s->strict))
		return;
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		nm += s->mapped[b];
	if (nm < s->best)
		return;
	if (nm > s->best) {
		s->best = nm;
		for (uint32_t k = 0; k < s->n; k++)
			v[k].nseen = v[k].differs = 0;
	}
	for (uint32_t k = 0; k < s->n; k++) {
		if (!v[k].nseen)
			v[k].agreed = v[k].pick;
		else if (v[k].agreed != v[k].pick)
			v[k].differs = 1;
		v[k].nseen = 1;
	}
}

/* Assigns nodes k.. in turn, pruning with partial_ok. */
static void search_from(struct search *s, uint32_t k)
{
	if (s->budget < 0)
		return;
	if (k == s->n) {
		leaf(s);
		return;
	}
	struct node *d = &s->v[k];
	if (!d->ncand) {
		search_from(s, k + 1);
		return;
	}
	for (d->pick = 0; d->pick < d->ncand && s->budget >= 0; d->pick++)
		if (s->budget-- > 0 && partial_ok(s, k))
			search_from(s, k + 1);
	d->pick = 0;
}

/* Tries the assignments of nodes v[n], noting per node what the
 * consistent ones agree on: first those with no test resolved on entry
 * (entered's strict model), else any; when the search runs out of
 * budget, every node differs. Returns 0 or LT_ERR_NOMEM. */
static int solve(const struct gm *g, struct node *v, uint32_t n)
{
	uint32_t nb = g->f->n_blocks;
	struct search s = {g, v, n, malloc(3 * (size_t)nb), NULL,
	                   malloc(nb * sizeof(uint32_t)), 0, MAX_CHECKS, 1};
	if (!s.mapped || !s.stack) {
		free(s.mapped);
		free(s.stack);
		return LT_ERR_NOMEM;
	}
	s.seen = s.mapped + nb;
	search_from(&s, 0);
	if (n && (s.budget < 0 || !v[0].nseen)) {
		s.strict = 0;
		s.best = 0;
		s.budget = MAX_CHECKS;
		for (uint32_t k = 0; k < n; k++)
			v[k].nseen = v[k].differs = 0;
		search_from(&s, 0);
	}
	for (uint32_t k = 0; s.budget < 0 && k < n; k++)
		v[k].differs = 1;
	free(s.mapped);
	free(s.stack);
	return 0;
}

/* Sets up the nodes of one copy (its branches). fixed[i] (a line match)
 * gives a branch its one candidate. Returns the number of nodes, 0 when
 * the copy has too many branches or a branch too many candidates. */
static uint32_t copy_nodes(const struct gm *g, size_t copy,
                           const long (*fixed)[2], struct node *v)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls != LT_INSN_BRANCH || gm_copy_of(g, i) != copy)
			continue;
		if (n == MAX_NODES)
			return 0;
		struct node *d = &v[n++];
		memset(d, 0, sizeof(*d));
		d->insn = i;
		if (fixed[i][0] >= 0) {
			uint32_t b = g->f->arcs[fixed[i][0]].src;
			d->cand[d->ncand++] =
				b << 1 | (g->outa[b][0] != (uint32_t)fixed[i][0]);
			continue;
		}
		for (uint32_t b = 2; in->line && b < g->f->n_blocks; b++) {
			if (!two_way(g, b) ||
			    !gm_last_line_is(g, b, in->file, in->line))
				continue;
			if (d->ncand + 2 > sizeof(d->cand) / sizeof(d->cand[0]))
				return 0;
			d->cand[d->ncand++] = b << 1;
			d->cand[d->ncand++] = b << 1 | 1;
		}
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct minsn *in = &g->in[v[k].insn];
		for (int w = 0; w < 2; w++) {
			long t = run_to_branch(g, w ? in->addr + in->len :
			                       in->tgt, copy);
			v[k].succ[w] = WILD;
			for (uint32_t q = 0; t >= 0 && q < n; q++)
				if (v[q].insn == (uint32_t)t)
					v[k].succ[w] = (long)q;
		}
	}
	/* Executions no way of the copy's branches brings: entered from
	 * outside the copy's branches. */
	for (uint32_t k = 0; k < n; k++) {
		uint64_t a = g->in[v[k].insn].addr, from = 0;
		for (uint32_t q = 0; q < n; q++) {
			uint64_t b = g->in[v[q].insn].addr;
			uint64_t cnt = gc_insn_count(g->x->c, g->x->im, b);
			uint64_t tk = gc_taken(g->x->c, g->x->im, b);
			if (v[q].succ[0] == (long)k)
				from += tk;
			if (v[q].succ[1] == (long)k)
				from += cnt - tk;
		}
		v[k].outside = gc_insn_count(g->x->c, g->x->im, a) > from;
	}
	return n;
}

/* Back edges of a depth-first walk from block b over real arcs between
 * blocks that list (file, line) or no line at all (a loop's latch
 * often lists none), continuing the count *n (state[]: 0 unseen, 1 on
 * the walk's stack, 2 done). */
static void line_back_edges(const struct gm *g, uint32_t b, uint32_t file,
                            uint32_t line, uint8_t *state, uint32_t *n)
{
	state[b] = 1;
	for (uint32_t k = 0; k < g->nout[b]; k++) {
		const struct lt_gcno_arc *x = &g->f->arcs[g->outa[b][k]];
		if ((x->flags & LT_GCOV_ARC_FAKE) || x->dst < 2 ||
		    (g->f->blocks[x->dst].n_lines &&
		     !gm_block_has_line(g, x->dst, file, line)))
			continue;
		if (state[x->dst] == 1)
			(*n)++;
		else if (!state[x->dst])
			line_back_edges(g, x->dst, file, line, state, n);
	}
	state[b] = 2;
}

/* The loops written on one line: back edges among the blocks listing
 * it. A single loop's conditions (`while (i < n && t[i] == ' ') i++;`)
 * are matched by shape only where its test is the first every call
 * reaches (first_test_on), and first with no test resolved on entry
 * (solve): gcc resolves the first test of some such loops on entry and
 * threads jumps into it, which the model cannot follow; the matches are
 * bounds only (gm_pin_branches: GM_SOFT_SHAPE). */
static uint32_t line_loops(const struct gm *g, uint32_t file, uint32_t line)
{
	uint32_t nb = g->f->n_blocks, n = 0;
	uint8_t *state = calloc(nb, 1);
	if (!state)
		return 0;
	for (uint32_t b = 2; b < nb; b++)
		if (!state[b] && gm_block_has_line(g, b, file, line))
			line_back_edges(g, b, file, line, state, &n);
	free(state);
	return n;
}

int gm_nested_on_line(const struct gm *g, uint32_t file, uint32_t line)
{
	return line_loops(g, file, line) >= 2;
}

/* Is a condition of (file, line) the first one every call reaches
 * (ENTRY's way through blocks of one real successor ends at it)? Only
 * there does the strict model (entered) place a single loop's tests: a
 * loop further in is entered past other tests, and gcc often resolves
 * its first test there (`while (i < len) { while (i < len && t[i] ==
 * ' ') i++; ...`), which a mapping the other way round then fits. */
static int first_test_on(const struct gm *g, uint32_t file, uint32_t line)
{
	long d = gm_only_succ(g, 0);
	for (uint32_t steps = 0; d >= 2 && gm_n_real_out(g, (uint32_t)d) == 1 &&
	                         steps < g->f->n_blocks; steps++)
		d = gm_only_succ(g, (uint32_t)d);
	return d >= 2 && two_way(g, (uint32_t)d) &&
	       gm_last_line_is(g, (uint32_t)d, file, line);
}

/* Is a condition block of (file, line) on a cycle of the function's
 * CFG? A loop's test whose body lies on other lines (`while ((r & 3) ==
 * 0 && h < n) { h++; r >>= 2; }`) is: gcc resolves its first test on
 * entry (h < n with h = 1), which a mapping the other way round fits. A
 * line's chain of tests run once per call (`if ((p && p->k == k) || n
 * == MAX) return 0;` outside any loop) is not. */
static int line_in_cycle(const struct gm *g, uint32_t file, uint32_t line)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (two_way(g, b) && gm_last_line_is(g, b, file, line) &&
		    gm_on_cycle(g, b))
			return 1;
	return 0;
}

/* Is node d open to the model: lines alike on the conditions of loops
 * written on one line, on a chain of conditions on one line with no
 * loop (`if ((a && b) || c)`), on a single loop's tests where they are
 * the first every call reaches, or one condition on the line whose way
 * round alone is open? */
static int node_open(const struct gm *g, const struct node *d)
{
	const struct minsn *in = &g->in[d->insn];
	if (d->ncand == 2)
		return 1;
	if (d->ncand < 2)
		return 0;
	uint32_t nl = line_loops(g, in->file, in->line);
	return nl >= 2 || (nl == 1 && first_test_on(g, in->file, in->line)) ||
	       (nl == 0 && !line_in_cycle(g, in->file, in->line));
}

/* Is node q a neighbour of node k: a way of either runs into the
 * other? */
static int adjacent(const struct node *v, uint32_t k, uint32_t q)
{
	return v[k].succ[0] == (long)q || v[k].succ[1] == (long)q ||
	       v[q].succ[0] == (long)k || v[q].succ[1] == (long)k;
}

/* When no assignment of a whole copy meets the model (jump threading
 * somewhere in the copy: a way skipping a test gcc knew on that path,
 * `for (i = depth; i < l; i++) ...; if (l > depth)` leaving the loop
 * past the second test), each open line is solved alone: its branches
 * and the line-matched branches (one candidate) next to them, every
 * other branch saying nothing (as code of other lines does), so that
 * threading elsewhere in the copy does not undo the line's own shape.
 * v[n] gets the line's answers (nseen, differs, agreed); w is scratch
 * of MAX_NODES. Returns 0 or LT_ERR_NOMEM. */
static int by_line(const struct gm *g, struct node *v, uint32_t n,
                   struct node *w)
{
	for (uint32_t k = 0; k < n; k++) {
		const struct minsn *in = &g->in[v[k].insn];
		if (!node_open(g, &v[k]))
			continue;
		int first = 1;
		for (uint32_t q = 0; q < k && first; q++)
			first = !node_open(g, &v[q]) ||
				g->in[v[q].insn].file != in->file ||
				g->in[v[q].insn].line != in->line;
		if (!first)
			continue;
		memcpy(w, v, n * sizeof(*w));
		for (uint32_t q = 0; q < n; q++) {
			const struct minsn *iq = &g->in[v[q].insn];
			int on = iq->file == in->file && iq->line == in->line;
			int anchor = 0;
			for (uint32_t p = 0; p < n && !on && !anchor &&
			                     v[q].ncand == 1; p++)
				anchor = g->in[v[p].insn].file == in->file &&
					 g->in[v[p].insn].line == in->line &&
					 adjacent(v, p, q);
			if (!on && !anchor)
				w[q].ncand = 0;
		}
		int rc = solve(g, w, n);
		if (rc)
			return rc;
		for (uint32_t q = 0; q < n; q++)
			if (g->in[v[q].insn].file == in->file &&
			    g->in[v[q].insn].line == in->line) {
				v[q].nseen = w[q].nseen;
				v[q].differs = w[q].differs;
				v[q].agreed = w[q].agreed;
			}
	}
	return 0;
}

/* For every branch i that fixed[i] leaves open (-1), out[i] = its arcs
 * when the model tells them, else {-1, -1}. Returns 0 or
 * LT_ERR_NOMEM. */
static int shape_arms(const struct gm *g, const long (*fixed)[2],
                      long (*out)[2])
{
	for (uint32_t i = 0; i < g->m; i++)
		out[i][0] = out[i][1] = -1;
	struct node *v = malloc(MAX_NODES * sizeof(*v));
	struct node *w = malloc(MAX_NODES * sizeof(*w));
	uint8_t *done = calloc(g->m + 1, 1);
	if (!v || !w || !done) {
		free(v);
		free(w);
		free(done);
		return LT_ERR_NOMEM;
	}
	int rc = 0;
	for (uint32_t i = 0; i < g->m && !rc; i++) {
		if (g->in[i].cls != LT_INSN_BRANCH || done[i])
			continue;
		size_t copy = gm_copy_of(g, i);
		uint32_t n = copy_nodes(g, copy, fixed, v);
		for (uint32_t q = i; q < g->m; q++)
			if (g->in[q].cls == LT_INSN_BRANCH &&
			    gm_copy_of(g, q) == copy)
				done[q] = 1;
		/* Some branch of the copy on a line the model takes
		 * (node_open). */
		int open = 0;
		for (uint32_t k = 0; k < n && !open; k++)
			open = node_open(g, &v[k]);
		if (!open)
			continue;
		rc = solve(g, v, n);
		int any = 0;
		for (uint32_t k = 0; k < n; k++)
			any |= v[k].ncand && v[k].nseen;
		if (!rc && !any)
			rc = by_line(g, v, n, w);
		for (uint32_t k = 0; !rc && k < n; k++) {
			if (v[k].ncand <= 1 || !v[k].nseen || v[k].differs)
				continue;
			uint32_t c = v[k].cand[v[k].agreed];
			out[v[k].insn][0] = way_arc(g, c, 0);
			out[v[k].insn][1] = way_arc(g, c, 1);
		}
	}
	free(v);
	free(w);
	free(done);
	return rc;
}

int gm_shape_match(const struct gm *g, struct gm_shape *sc,
                   gm_line_match_fn lines, uint32_t i, long *ta, long *fa)
{
	if (!sc->tried) {
		sc->tried = 1;
		/* One block: the answers, then the line matches. */
		long (*out)[2] = malloc(2 * ((size_t)g->m + 1) * sizeof(*out));
		long (*fx)[2] = out ? out + g->m + 1 : NULL;
		for (uint32_t k = 0; fx && k < g->m; k++) {
			long a = -1, b = -1;
			fx[k][0] = fx[k][1] = -1;
			if (g->in[k].cls == LT_INSN_BRANCH && g->in[k].line &&
			    lines(g, k, &a, &b)) {
				fx[k][0] = a;
				fx[k][1] = b;
			}
		}
		if (out && shape_arms(g, (const long (*)[2])fx, out)) {
			free(out);
			out = NULL;
		}
		sc->arcs = out;
	}
	if (!sc->arcs || sc->arcs[i][0] < 0)
		return 0;
	*ta = sc->arcs[i][0];
	*fa = sc->arcs[i][1];
	return 1;
}

void gm_shape_free(struct gm_shape *sc)
{
	free(sc->arcs);
	sc->arcs = NULL;
}
