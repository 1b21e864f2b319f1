/* Calls inlined early side by side (gcda_mapper.h): which gcno block a
 * branch of one of them is.
 *
 * `n->height = 1 + maxi(height(n->left), height(n->right));` inlines
 * height twice into the caller's gcno function before the gcno is
 * written: two condition blocks list height's line, and a branch on that
 * line matches both by lines alone. DWARF still tells the copies apart:
 * each is an inlined instance with its own call site (line, column), and
 * so is every instance on its way down from the function (balance
 * inlined early on three lines, each inlining height twice: six blocks).
 * gcc gimplifies a call's arguments and an expression's operands left to
 * right on RISC-V (no argument pushing, so not reversed), inlines early
 * in place, and numbers the gcno blocks in that order, so the copies
 * sorted by their call sites from the function down (the outermost first)
 * pair up with those condition blocks in block order.
 *
 * Only copies inlined early count: every call site on their way down
 * from the function is on a line the gcno lists. A copy inlined later
 * (fix_height called on line 85 of rebalance, inlined after the gcno
 * was written, with its own two heights) is another gcno function's
 * code, and line 52 that calls those heights is none of rebalance's. */
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Deepest inline stack the rule looks through. */
#define MAX_STACK 16
/* Most copies the rule considers. */
#define MAX_COPIES 64

/* Call sites from the function down to one copy, outermost first. */
struct path {
	uint32_t n;                  /* number of levels */
	uint32_t site[MAX_STACK][3]; /* per level: call line, column, and
	                                the rank among sibling instances
	                                with that same site */
};

/* Is gcno block b a condition (two real out-arcs to different blocks, no
 * fake one) whose condition line is (file, line)? */
static int cond_block(const struct gm *g, uint32_t b, uint32_t file,
                      uint32_t line)
{
	if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
	    !gm_last_line_is(g, b, file, line))
		return 0;
	return g->f->arcs[g->outa[b][0]].dst != g->f->arcs[g->outa[b][1]].dst;
}

/* Does some gcno block of the function list (file, line)? */
static int listed(const struct gm *g, uint32_t file, uint32_t line)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (gm_block_has_line(g, b, file, line))
			return 1;
	return 0;
}

/* The rank of instance q among the instances of the same callee called
 * from the same site of its parent (gcc gives `maxi(height(a),
 * height(b))`'s two heights the column of the maxi call) in DWARF order,
 * which is the order of the calls: instances come parents first, a
 * parent's subtree right after it. */
static uint32_t same_site_rank(const struct lt_dwarf *dw, long q)
{
	const struct lt_inline_func *f = &dw->func[q];
	uint32_t r = 0;
	for (long t = f->parent + 1; t < q; t++) {
		const struct lt_inline_func *s = &dw->func[t];
		r += s->parent == f->parent && s->call_line == f->call_line &&
		     s->call_column == f->call_column &&
		     s->call_file == f->call_file && !strcmp(s->name, f->name);
	}
	return r;
}

/* Fills *p with the call sites from instance `top` down to instance q
 * (q below top) when each is on a line the gcno lists and has a column;
 * returns 0 when q is not below top or a site fails. */
static int early_path(const struct gm *g, const struct lt_dwarf *dw,
                      long top, long q, struct path *p)
{
	uint32_t rev[MAX_STACK][3], n = 0;
	while (q >= 0 && q != top) {
		const struct lt_inline_func *f = &dw->func[q];
		if (n == MAX_STACK || !f->call_line || !f->call_column ||
		    f->call_file == LT_DWARF_NO_FILE ||
		    !listed(g, f->call_file, f->call_line))
			return 0;
		rev[n][0] = f->call_line;
		rev[n][1] = f->call_column;
		rev[n][2] = same_site_rank(dw, q);
		n++;
		q = f->parent;
	}
	if (q != top || !n)
		return 0;
	p->n = n;
	for (uint32_t k = 0; k < n; k++) {
		p->site[k][0] = rev[n - 1 - k][0];
		p->site[k][1] = rev[n - 1 - k][1];
		p->site[k][2] = rev[n - 1 - k][2];
	}
	return 1;
}

/* Orders paths by their call sites, level by level (0: equal). */
static int path_cmp(const struct path *a, const struct path *b)
{
	for (uint32_t k = 0; k < a->n && k < b->n; k++)
		for (int w = 0; w < 3; w++)
			if (a->site[k][w] != b->site[k][w])
				return a->site[k][w] < b->site[k][w] ? -1 : 1;
	return a->n == b->n ? 0 : a->n < b->n ? -1 : 1;
}

/* The copies of the callee whose inlined code holds branch i that were
 * inlined early below the same instance of the function, sorted by
 * their call sites (seen[*nseen]), and the rank of i's copy among them;
 * *ncand gets the condition blocks of i's line. 0 when the branch is
 * not in such a copy or there are too many. */
static int sibling_copies(const struct gm *g, uint32_t i,
                          struct path *seen, uint32_t *nseen,
                          uint32_t *rank, uint32_t *ncand)
{
	const struct lt_dwarf *dw = g->x->dw;
	const struct minsn *in = &g->in[i];
	if (!dw || !in->line || in->file == LT_DWARF_NO_FILE)
		return 0;
	*ncand = 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		*ncand += cond_block(g, b, in->file, in->line);
	if (*ncand < 2 || *ncand > MAX_COPIES * 4)
		return 0;
	long leaf = lt_dwarf_inline_find(dw, in->addr);
	if (leaf < 0)
		return 0;
	/* top: the instance of the function holding the branch (its
	 * out-of-line body or one of its inlined copies). */
	long top = dw->func[leaf].parent;
	while (top >= 0 && strcmp(dw->func[top].name, g->f->name))
		top = dw->func[top].parent;
	const char *callee = dw->func[leaf].name;
	struct path mine;
	if (top < 0 || !strcmp(callee, g->f->name) ||
	    !early_path(g, dw, top, leaf, &mine))
		return 0;
	/* The distinct copies of the callee inlined early below top, in
	 * call-site order. */
	*nseen = 0;
	*rank = 0;
	for (size_t s = 0; s < dw->nfuncs; s++) {
		struct path p;
		if (strcmp(dw->func[s].name, callee) ||
		    !early_path(g, dw, top, (long)s, &p))
			continue;
		uint32_t t = 0;
		while (t < *nseen && path_cmp(&seen[t], &p) < 0)
			t++;
		if (t < *nseen && !path_cmp(&seen[t], &p))
			continue;
		if (*nseen == MAX_COPIES)
			return 0;
		memmove(&seen[t + 1], &seen[t], (*nseen - t) * sizeof(*seen));
		seen[t] = p;
		(*nseen)++;
	}
	while (*rank < *nseen && path_cmp(&seen[*rank], &mine))
		(*rank)++;
	return *rank < *nseen;
}

/* The k-th condition block of (file, line) in block order, or -1. */
static long nth_cond(const struct gm *g, uint32_t file, uint32_t line,
                     uint32_t k)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (cond_block(g, b, file, line) && k-- == 0)
			return b;
	return -1;
}

long gm_sibling_block(const struct gm *g, uint32_t i)
{
	struct path seen[MAX_COPIES];
	uint32_t nseen, rank, ncand;
	/* Each copy must hold exactly one of the condition blocks. */
	if (!sibling_copies(g, i, seen, &nseen, &rank, &ncand) ||
	    nseen != ncand)
		return -1;
	return nth_cond(g, g->in[i].file, g->in[i].line, rank);
}

int gm_sibling_group(const struct gm *g, uint32_t i, uint32_t *lo,
                     uint32_t *hi)
{
	struct path seen[MAX_COPIES];
	uint32_t nseen, rank, ncand;
	const struct minsn *in = &g->in[i];
	if (!sibling_copies(g, i, seen, &nseen, &rank, &ncand) ||
	    nseen < 2 || ncand <= nseen || ncand % nseen)
		return 0;
	uint32_t per = ncand / nseen;
	/* Each group's first block lists its copy's outermost call line,
	 * no earlier group's first block does (a later one may: the join
	 * after a copy's `if` lists that line too): the blocks are the
	 * copies' in call-site order. */
	for (uint32_t r = 0; r < nseen; r++)
		for (uint32_t q = 0; q <= r; q++) {
			long h = nth_cond(g, in->file, in->line, q * per);
			int has = h >= 0 &&
				  gm_block_has_line(g, (uint32_t)h, in->file,
				                    seen[r].site[0][0]);
			if (has != (q == r))
				return 0;
		}
	*lo = (uint32_t)nth_cond(g, in->file, in->line, rank * per);
	*hi = (uint32_t)nth_cond(g, in->file, in->line, rank * per + per - 1);
	return 1;
}

/* Does the way from insn k run only edge copies (gm_edge_copy: moves
 * and constants out-of-SSA puts on an edge into a join) and then go on
 * where the other way lands, at address land? */
static int copies_then(const struct gm *g, long k, uint64_t land)
{
	int n = 0;
	while (k >= 0 && k < (long)g->m && g->in[k].addr != land &&
	       n < 4 && gm_edge_copy(g, (uint32_t)k) &&
	       gm_falls_to_next(g, (uint32_t)k)) {
		k++;
		n++;
	}
	if (!n || k < 0 || k >= (long)g->m)
		return 0;
	const struct minsn *in = &g->in[k];
	return in->addr == land ||
	       (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE &&
	        in->tgt == land);
}

int gm_sibling_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                    long *fa)
{
	const struct minsn *in = &g->in[i];
	if (gm_sibling_block(g, i) != (long)b || gm_n_real_out(g, b) != 2)
		return 0;
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && g->in[i + 1].addr == in->addr + in->len ?
		  (long)i + 1 : -1;
	if (t < 0 || nx < 0)
		return 0;
	/* A way of only edge copies into the other way's landing: both
	 * ways go on to the next copy, the copies (`li a4,100` for `t[x]
	 * > x ? 100u : t[x]`) may be either arc's, the arm block with no
	 * line the other's (progen.py seed 801: h0(h0(10u))). */
	if (copies_then(g, nx, in->tgt) ||
	    copies_then(g, t, in->addr + in->len))
		return 0;
	long st = gm_sibling_block(g, (uint32_t)t);
	long sf = gm_sibling_block(g, (uint32_t)nx);
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	long dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	/* One way stays in the copy, the other starts the next copy's
	 * test: that way is the arc to the next copy's block. */
	if (sf == (long)b && st >= 0 && st != (long)b && (st == dx || st == dy)) {
		*ta = st == dx ? x : y;
		*fa = st == dx ? y : x;
		return 1;
	}
	if (st == (long)b && sf >= 0 && sf != (long)b && (sf == dx || sf == dy)) {
		*fa = sf == dx ? x : y;
		*ta = sf == dx ? y : x;
		return 1;
	}
	return 0;
}
