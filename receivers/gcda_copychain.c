/* The tests of one early-inlined copy among several, each holding the
 * same chain of conditions on one line (gcda_arms.h: gm_group_arms).
 *
 * `before(a, b)`, `a->t < b->t || (a->t == b->t && a->seq < b->seq)`,
 * inlined early on lines 37 and 38 of pop gives six condition blocks on
 * line 13, three per copy (gm_sibling_group names the copy's three). The
 * lines of the ways cannot tell the three apart (they all list line 13
 * only, the first one also the call's line, and the arms' own code is
 * sunk or shared), but the way the tests run into each other does: the
 * copy's first condition is the one test no other test of the copy runs
 * into, an arc into another condition of the copy is the way that runs
 * straight into that condition's test, and an arc out of the copy is the
 * way that lands where another test's way into the same block lands.
 * Jump threading may copy the whole chain for each way control reaches
 * it (chaincopy: the second copy's three tests once after the first
 * copy's true way, once after its false way): each chain pairs alone,
 * from its own first test, and the counts of a block's tests add up. */
#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/insn.h"

/* Most tests of a copy (its conditions, times the copies of its chain
 * jump threading made). */
#define MAX_TESTS 16
/* Instructions a way may run before the test it runs into. */
#define MAX_RUN 8

/* The test of tests[n] that the way from insn t runs straight into
 * (through code that does not transfer, and plain jumps), or -1. */
static int runs_into(const struct gm *g, long t, const uint32_t *tests,
                     int n)
{
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < MAX_RUN;
	     steps++) {
		const struct minsn *in = &g->in[t];
		for (int k = 0; k < n; k++)
			if (tests[k] == (uint32_t)t)
				return k;
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (gm_ends_block(in) || gm_is_call(in) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return -1;
		t++;
	}
	return -1;
}

/* Where the way from insn t lands, past plain jumps (its address; 0
 * when t is not decoded). */
static uint64_t landing(const struct gm *g, long t)
{
	for (int steps = 0; t >= 0 && steps < 4; steps++) {
		const struct minsn *in = &g->in[t];
		if (in->cls != LT_INSN_JUMP || in->link != LT_LINK_NONE)
			return in->addr;
		t = gm_insn_at(g, in->tgt);
	}
	return 0;
}

/* Index in blk[nb] of arc a's destination, or -1. */
static int blk_index(const struct gm *g, const uint32_t *blk, int nb,
                     long a)
{
	uint32_t d = g->f->arcs[a].dst;
	for (int j = 0; j < nb; j++)
		if (blk[j] == d)
			return j;
	return -1;
}

/* The way (0 taken, 1 fallthrough) of test k (paired with block
 * blk[tb[k]]) that is the block's first out-arc: an arc into another
 * block of the copy is the one way that runs into a test that is (or may
 * be) that block's, the other way running into a test exactly when the
 * other arc stays in the copy; with both arcs out of the copy, the one
 * way landing where a way of a paired test of its chain lands whose arc
 * enters the same block. -1 when the code does not tell, -2 when it contradicts. */
static int pair_ways(const struct gm *g, const uint32_t *blk, int nb, int k,
                     const int *tb, int into[][2], uint64_t land[][2],
                     long arcs[][2], const int *fixed, const int *chain,
                     int nt)
{
	uint32_t b = blk[tb[k]];
	int inb[2], found = -1;
	for (int q = 0; q < 2; q++)
		inb[q] = blk_index(g, blk, nb, g->outa[b][q]);
	if (inb[0] >= 0 || inb[1] >= 0) {
		for (int q = 0; q < 2; q++)
			for (int w = 0; w < 2; w++) {
				int t = into[k][w], o = into[k][1 - w];
				if (inb[q] < 0 || t < 0 ||
				    (tb[t] >= 0 && tb[t] != inb[q]) ||
				    (inb[1 - q] >= 0) != (o >= 0))
					continue;
				int w0 = q == 0 ? w : 1 - w;
				if (found >= 0 && found != w0)
					return -2;
				found = w0;
			}
		return found;
	}
	for (int j = 0; j < nt; j++) {
		if (j == k || !fixed[j] || chain[j] != chain[k])
			continue;
		for (int v = 0; v < 2; v++)
			for (int w = 0; w < 2; w++)
				for (int q = 0; q < 2; q++) {
					if (!land[k][w] ||
					    land[k][w] != land[j][v] ||
					    land[k][1 - w] == land[j][v] ||
					    g->f->arcs[arcs[j][v]].dst !=
					    g->f->arcs[g->outa[b][q]].dst)
						continue;
					int w0 = q == 0 ? w : 1 - w;
					if (found >= 0 && found != w0)
						return -2;
					found = w0;
				}
	}
	return found;
}

/* Contract in gcda_arms.h. */
int gm_group_arms(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	const struct minsn *in = &g->in[i];
	const struct lt_dwarf *dw = g->x->dw;
	uint32_t lo, hi;
	if (!dw || !gm_sibling_group(g, i, &lo, &hi))
		return 0;
	/* The copy's condition blocks, in block order. */
	uint32_t blk[MAX_TESTS];
	int nb = 0;
	for (uint32_t b = lo; b <= hi; b++) {
		if (gm_n_real_out(g, b) != 2 || gm_has_fake_out(g, b) ||
		    g->nout[b] != 2 || !gm_last_line_is(g, b, in->file,
		                                        in->line))
			continue;
		if (nb == MAX_TESTS)
			return 0;
		blk[nb++] = b;
	}
	/* The copy's tests: branches of the line in the same inlined
	 * instance, one per condition. */
	long leaf = lt_dwarf_inline_find(dw, in->addr);
	uint32_t tests[MAX_TESTS];
	int nt = 0;
	for (uint32_t k = 0; k < g->m; k++) {
		const struct minsn *x = &g->in[k];
		if (x->cls != LT_INSN_BRANCH || x->line != in->line ||
		    x->file != in->file ||
		    lt_dwarf_inline_find(dw, x->addr) != leaf)
			continue;
		if (nt == MAX_TESTS)
			return 0;
		tests[nt++] = k;
	}
	if (leaf < 0 || nb < 2 || !nt || nt % nb)
		return 0;
	/* Per test: its ways (taken, fallthrough) and what they run into
	 * or land at. */
	long way[MAX_TESTS][2];
	int into[MAX_TESTS][2];
	uint64_t land[MAX_TESTS][2];
	int entered[MAX_TESTS] = {0};
	for (int k = 0; k < nt; k++) {
		const struct minsn *x = &g->in[tests[k]];
		way[k][0] = gm_insn_at(g, x->tgt);
		way[k][1] = gm_falls_to_next(g, tests[k]) ?
			    (long)tests[k] + 1 : -1;
		for (int w = 0; w < 2; w++) {
			into[k][w] = runs_into(g, way[k][w], tests, nt);
			land[k][w] = landing(g, way[k][w]);
			if (into[k][w] >= 0)
				entered[into[k][w]]++;
		}
	}
	/* The copy's first condition's tests: those no other test runs
	 * into, one per copy of the chain (jump threading copies the chain
	 * for each way control reaches it: nt / nb chains). Pair tests with
	 * blocks from there (the first block in block order), following the
	 * arcs into the copy's blocks; arcs out of the copy by shared
	 * landings within one chain. */
	int tb[MAX_TESTS], chain[MAX_TESTS], per[MAX_TESTS] = {0};
	int fixed[MAX_TESTS] = {0}, nchain = 0;
	long arcs[MAX_TESTS][2];
	for (int k = 0; k < nt; k++) {
		tb[k] = chain[k] = -1;
		arcs[k][0] = arcs[k][1] = -1;
		if (!entered[k]) {
			tb[k] = 0;
			chain[k] = nchain++;
			per[0]++;
		}
	}
	if (nchain != nt / nb)
		return 0;
	for (int progress = 1; progress;) {
		progress = 0;
		for (int k = 0; k < nt; k++) {
			if (tb[k] < 0 || fixed[k])
				continue;
			int w0 = pair_ways(g, blk, nb, k, tb, into, land, arcs,
			                   fixed, chain, nt);
			if (w0 == -2)
				return 0;
			if (w0 < 0)
				continue;
			uint32_t b = blk[tb[k]];
			arcs[k][w0] = g->outa[b][0];
			arcs[k][1 - w0] = g->outa[b][1];
			fixed[k] = 1;
			progress = 1;
			/* The tests it runs into are those blocks', of its
			 * chain. */
			for (int w = 0; w < 2; w++) {
				int j = blk_index(g, blk, nb, arcs[k][w]);
				int t2 = into[k][w];
				if (j < 0)
					continue;
				if (t2 < 0 || (tb[t2] >= 0 && tb[t2] != j) ||
				    (chain[t2] >= 0 && chain[t2] != chain[k]))
					return 0;
				if (tb[t2] < 0)
					per[j]++;
				tb[t2] = j;
				chain[t2] = chain[k];
			}
		}
	}
	/* Every test paired, each block with one test per chain. */
	for (int k = 0; k < nt; k++)
		if (!fixed[k])
			return 0;
	for (int j = 0; j < nb; j++)
		if (per[j] != nchain)
			return 0;
	for (int k = 0; k < nt; k++)
		if (tests[k] == i) {
			*ta = arcs[k][0];
			*fa = arcs[k][1];
			return 1;
		}
	return 0;
}
