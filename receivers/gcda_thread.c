/* Copies of a way that no branch saw (gcda_mapper.h: gm_threaded_copy).
 * When gcc knows a condition's outcome on one path into it (the first
 * iteration of a loop whose variable starts at a constant, an inlined
 * callee's test of an argument the caller fixed), jump threading or
 * peeling gives that path its own copy of the test's way, resolved:
 *
 *     li    a2,1            v = 1: count_digits(1) is 1, no test left
 *     add   a1,a1,a2        dsum += ... (the way's code, line 196)
 *     add   a7,a7,7         v = v * 3 + 7 (the loop's latch, line 195)
 *     beqz  t1,.Lexit       the loop's test
 *     ...
 *   .Lway:                  where the matched branch's way lands
 *     addw  a2,a2,2         dsum += ... (line 196)
 *     add   a1,a1,a2
 *     add   a7,a7,7         (line 195)
 *     bnez  t1,.Lloop       the same test: the same two targets
 *
 * The copy need not start where the way lands (its landing code is the
 * latch's, scheduled first), so gcda_pin.c's search for another copy of
 * the landing run does not see it. What it keeps is where it leads: the
 * next test the way runs into, whose copy there goes to the same two
 * places, and the way's own code on the way there. A copy may also
 * keep nothing but a value: the way's update of a variable folded into
 * the value the variable starts with before the loop (value_copied).
 * Or the resolved copy is a lone jump carrying the test's line, from
 * the code of the path on which gcc knew the outcome to where the way
 * goes (gm_threaded_jumps). */
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Instructions followed from a landing to the next test, and back
 * from another copy of that test. */
#define MAX_RUN 64
/* Ways of one arc looked at together (more: each alone, for a copy of
 * the next test only). */
#define MAX_WAYS 8
/* Distinct lines remembered on one run. */
#define MAX_LINES 16

/* A set of (file, line) pairs met on one run. */
struct lineset {
	uint32_t n;                  /* pairs held */
	uint32_t fl[MAX_LINES][2];   /* the pairs: file, line */
	int full;                    /* a pair did not fit */
};

/* Adds insn i's line as the gcno function sees it (none: nothing). */
static void add_line(struct lineset *s, const struct minsn *i)
{
	if (!i->cline)
		return;
	for (uint32_t k = 0; k < s->n; k++)
		if (s->fl[k][0] == i->cfile && s->fl[k][1] == i->cline)
			return;
	if (s->n == MAX_LINES) {
		s->full = 1;
		return;
	}
	s->fl[s->n][0] = i->cfile;
	s->fl[s->n][1] = i->cline;
	s->n++;
}

/* Does s hold (file, line)? */
static int has_line(const struct lineset *s, uint32_t file, uint32_t line)
{
	for (uint32_t k = 0; k < s->n; k++)
		if (s->fl[k][0] == file && s->fl[k][1] == line)
			return 1;
	return 0;
}

/* Follows straight-line code from insn t (plain jumps and calls
 * followed) to the first conditional branch, gathering the lines on the
 * way into *s and the instructions into run[MAX_RUN] (*nrun of them).
 * Returns the branch's index, or -1 when the code returns, jumps
 * indirectly or runs longer than MAX_RUN. */
static long next_test(const struct gm *g, long t, struct lineset *s,
                      long *run, int *nrun)
{
	*nrun = 0;
	for (int steps = 0; t >= 0 && steps < MAX_RUN; steps++) {
		const struct minsn *i = &g->in[t];
		add_line(s, i);
		run[(*nrun)++] = t;
		if (i->cls == LT_INSN_BRANCH)
			return t;
		if (i->cls == LT_INSN_JUMP && i->link == LT_LINK_NONE) {
			t = gm_insn_at(g, i->tgt);
			continue;
		}
		if (gm_ends_block(i) || !gm_falls_to_next(g, (uint32_t)t))
			return -1;
		t++; /* a call comes back to the next instruction */
	}
	return -1;
}

/* Gathers into *s the lines of the straight-line code that runs into
 * the branch at insn t: back from it while the instruction before falls
 * into the next and ran as often (no label between that other paths
 * join at). Returns 0 when that code holds the instruction at `at` (it
 * is the way's own code, not a copy), else 1. */
static int lines_before(const struct gm *g, long t, uint64_t at,
                        struct lineset *s)
{
	uint64_t n = gc_insn_count(g->x->c, g->x->im, g->in[t].addr);
	for (int steps = 0; steps < MAX_RUN; steps++) {
		if (g->in[t].addr == at)
			return 0;
		add_line(s, &g->in[t]);
		if (t == 0 || !gm_falls_to_next(g, (uint32_t)t - 1) ||
		    gm_ends_block(&g->in[t - 1]) ||
		    gc_insn_count(g->x->c, g->x->im, g->in[t - 1].addr) != n)
			break;
		t--;
	}
	return 1;
}

/* Registers a call may change (ra, t0-t6, a0-a7). */
#define CALL_CLOBBERS 0xf003fce2u

/* Marks inflow[q] for each instruction run[q] (of one way, n of them,
 * in the order they run) that updates a register (`x = x op y`) whose
 * value comes from before the way: no earlier instruction of the way
 * (nor a call) wrote it. */
static void mark_inflow(const struct gm *g, const long *run, int n,
                        uint8_t *inflow)
{
	uint32_t written = 0;
	for (int q = 0; q < n; q++) {
		const struct minsn *o = &g->in[run[q]];
		uint32_t u = gm_updated_rd(g, o->addr);
		inflow[q] = u && !(written >> u & 1);
		written |= 1u << gm_int_rd(g, o->addr);
		if (gm_is_call(o))
			written |= CALL_CLOBBERS;
	}
}

/* Did an instruction of a line only gcno block dst lists run outside
 * the ways' straight-line code run[nrun], setting a register that the
 * ways' code of that line updates from the value it had before them
 * (inflow[])? A copy of the way for a path on which gcc knew the
 * test's outcome may keep nothing but that: the first round of
 * `for (i = 0; ...) { d = f(i); if (d > 2) s += d; else s -= d; }`,
 * f(0) known, starts s at -1 before the loop. (Code gcc hoisted out of
 * the way sets a value the way only reads, or overwrites first, or runs
 * right before the test: a load both arms use.) */
static int value_copied(const struct gm *g, uint32_t dst, const long *run,
                        const uint8_t *inflow, int nrun)
{
	for (long k = 0; k < (long)g->m; k++) {
		const struct minsn *i = &g->in[k];
		uint32_t only, rd;
		if (!i->cline || i->nop ||
		    gm_line_blocks(g, i->cfile, i->cline, &only) != 1 ||
		    only != dst || !gc_insn_count(g->x->c, g->x->im, i->addr) ||
		    !(rd = gm_int_rd(g, i->addr)) ||
		    gm_hoisted_above_guard(g, (uint32_t)k, dst))
			continue;
		int in_run = 0, same = 0;
		for (int q = 0; q < nrun && !in_run; q++) {
			const struct minsn *o = &g->in[run[q]];
			in_run = run[q] == k;
			same |= inflow[q] && o->cline == i->cline &&
			        o->cfile == i->cfile &&
			        gm_updated_rd(g, o->addr) == rd;
		}
		if (!in_run && same)
			return 1;
	}
	return 0;
}

int gm_threaded_copy(const struct gm *g, uint32_t a, uint64_t at,
                     const uint64_t *lands, size_t nlands)
{
	struct lineset way = {0};
	long run[MAX_WAYS * MAX_RUN], bn = -1;
	uint8_t inflow[MAX_WAYS * MAX_RUN];
	int nrun = 0;
	uint32_t dst = g->f->arcs[a].dst;
	int many = nlands > MAX_WAYS; /* too many to look through */
	if (many) {
		lands = &at;
		nlands = 1;
	}
	for (size_t k = 0; k < nlands; k++) {
		struct lineset s = {0};
		int n = 0;
		long t = gm_insn_at(g, lands[k]), b;
		if (t < 0)
			continue;
		b = next_test(g, t, &s, run + nrun, &n);
		mark_inflow(g, run + nrun, n, inflow + nrun);
		nrun += n;
		if (lands[k] == at) {
			way = s;
			bn = b;
		}
	}
	if (!many && value_copied(g, dst, run, inflow, nrun))
		return 1;
	if (bn < 0 || way.full)
		return 0;
	/* The way must run code of its destination's own (not only the
	 * next test's line, which a loop's top test shares with it). */
	const struct minsn *nt = &g->in[bn];
	int own = 0;
	for (uint32_t k = 0; k < way.n; k++)
		own |= gm_block_has_line(g, dst, way.fl[k][0], way.fl[k][1]) &&
		       (way.fl[k][0] != nt->cfile || way.fl[k][1] != nt->cline);
	if (!own)
		return 0;
	uint64_t t1 = nt->tgt, t2 = nt->addr + nt->len;
	for (long k = 0; k < (long)g->m; k++) {
		const struct minsn *i = &g->in[k];
		if (k == bn || i->cls != LT_INSN_BRANCH ||
		    !gc_insn_count(g->x->c, g->x->im, i->addr))
			continue;
		uint64_t u1 = i->tgt, u2 = i->addr + i->len;
		if (!((u1 == t1 && u2 == t2) || (u1 == t2 && u2 == t1)))
			continue;
		struct lineset copy = {0};
		if (!lines_before(g, k, at, &copy) || copy.full)
			continue;
		uint32_t q = 0;
		while (q < way.n && has_line(&copy, way.fl[q][0], way.fl[q][1]))
			q++;
		if (q == way.n)
			return 1;
	}
	return 0;
}

/* Addresses straight-line code runs from insn t (plain jumps followed,
 * stopping after any other transfer): up to 6 in run[], returned. */
static int way_run(const struct gm *g, long t, uint64_t run[6])
{
	int n = 0;
	for (int steps = 0; t >= 0 && t < (long)g->m && n < 6; steps++) {
		const struct minsn *in = &g->in[t];
		run[n++] = in->addr;
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			break;
		t++;
	}
	return n;
}

void gm_threaded_jumps(const struct gm *g, const struct gm_copy *cp,
                       uint32_t n, uint8_t *shared)
{
	for (uint32_t q = 0; q < n; q++) {
		uint32_t b = g->f->arcs[cp[q].ta].src;
		const struct minsn *br = &g->in[cp[q].insn];
		uint64_t run[2][6];
		long way[2] = {gm_insn_at(g, br->tgt),
		               gm_falls_to_next(g, cp[q].insn) ?
		               (long)cp[q].insn + 1 : -1};
		int nr[2] = {way_run(g, way[0], run[0]),
		             way_run(g, way[1], run[1])};
		for (uint32_t k = 0; k < g->m; k++) {
			const struct minsn *in = &g->in[k];
			if (in->cls != LT_INSN_JUMP ||
			    in->link != LT_LINK_NONE || !in->cline || k == 0 ||
			    !gm_last_line_is(g, b, in->cfile, in->cline) ||
			    !gc_taken(g->x->c, g->x->im, in->addr))
				continue;
			/* Alone on its line after other code it falls
			 * from: no statement of that line runs there (a
			 * latch's `i++; j` is its line's code). */
			const struct minsn *pv = &g->in[k - 1];
			if (!gm_falls_to_next(g, k - 1) || gm_ends_block(pv) ||
			    (pv->cline == in->cline && pv->cfile == in->cfile))
				continue;
			int on = 0, to = 0, tw = 0;
			for (int w = 0; w < 2; w++)
				for (int r = 0; r < nr[w]; r++) {
					on |= run[w][r] == in->addr;
					if (run[w][r] == in->tgt) {
						to = 1;
						tw = w;
					}
				}
			/* A jump into the test itself (a loop entered at
			 * its condition) runs the test. */
			uint64_t tr[6];
			int nt = way_run(g, gm_insn_at(g, in->tgt), tr);
			for (int r = 0; r < nt && to; r++)
				for (uint32_t c = 0; c < n && to; c++)
					to = tr[r] != g->in[cp[c].insn].addr ||
					     g->f->arcs[cp[c].ta].src != b;
			uint32_t a = tw ? cp[q].fa : cp[q].ta;
			if (to && !on && !shared[a])
				shared[a] = 1;
		}
	}
}
