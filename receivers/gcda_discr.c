/* DWARF discriminators of the gcno blocks (gcda_discr.h) and the arm
 * rule that uses them (gcda_arms.h: gm_discr_arms, gm_discr_block).
 *
 *     return (int)(v < 0 ? v - 0.5 : v + 0.5);
 *
 * The test and both arms are on one line, so lines cannot tell which
 * machine way runs which arm. gcc 12 (tree-cfg.c assign_discriminators,
 * run when the CFG is built, before the profiling pass) walks the blocks
 * in order and, for a block whose last statement is on line L, gives
 * each successor whose first or last statement is on L the next
 * discriminator of L (numbered per function from 1), in the order of the
 * block's successor edges, which is the order the gcno lists the block's
 * arcs; a successor that has one already while its source has none
 * gives the source the number instead, else it takes the new one (a
 * join of two arms shows the second arm's source's number). The number
 * lives in the basic block, and the line table writes it for all the
 * block's code, whatever the line (a return block merged into an arm
 * shows the arm's number on the closing brace's line). What gcc 12 does
 * not do (checked with riscv64-linux-gnu-gcc 12.2 -O2): calls take no
 * numbers (they neither show one nor shift the arms'); copies lose them
 * (code inlined into a caller and IPA clones such as f.constprop.0 show
 * none); a block merged into a predecessor shows the predecessor's, and
 * copies out of SSA placed on an edge show none. So only a function's
 * own body is read, and code without a number says nothing.
 *
 * The numbers are replayed on the gcno CFG, which is the CFG after the
 * early passes and the profiler's block splits after calls, not the one
 * the numbers were given on: the split parts are joined again, and the
 * rules need the numbers to match exactly (both arms' numbers, for the
 * branch's line), so a CFG that changed around a test makes them say
 * nothing there. */
#include <stdlib.h>

#include "gcda_arms.h"
#include "gcda_discr.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_waydest.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/insn.h"

/* Instructions of a way looked at for its first number. */
#define MAX_SKIP 8

/* Per-line counters of assign_discriminators. */
struct line_next {
	uint32_t file, line; /* the line (dw file index) */
	uint32_t next;       /* discriminators it gave out */
};

/* The next discriminator of (file, line) in lc[*n] (cap entries);
 * 0 when lc is full. */
static uint32_t next_for(struct line_next *lc, uint32_t *n, uint32_t cap,
                         uint32_t file, uint32_t line)
{
	for (uint32_t k = 0; k < *n; k++)
		if (lc[k].file == file && lc[k].line == line)
			return ++lc[k].next;
	if (*n == cap)
		return 0;
	lc[*n] = (struct line_next){file, line, 1};
	return lc[(*n)++].next;
}

/* Is insn in code of the function's own line (no copy inlined late),
 * with a discriminator? */
static int own_discr(const struct minsn *in)
{
	return in->disc && in->line && !in->nop && in->cline == in->line &&
	       in->cfile == in->file;
}

/* The block that continues gcno block b's GIMPLE block, or -1: the
 * profiler ends a block after a call that may not return (its fake arc
 * to EXIT), so where b's one real arc leads to a block entered from b
 * alone, the two were one block when the discriminators were given. */
static long split_next(const struct gm *g, uint32_t b)
{
	if (!gm_has_fake_out(g, b))
		return -1;
	long s = gm_only_succ(g, b);
	return s >= 2 && g->npred[s] == 1 ? s : -1;
}

/* The last block of the chain of split_next from b. */
static uint32_t split_end(const struct gm *g, uint32_t b)
{
	uint32_t e = b;
	for (uint32_t n = 0; n < g->f->n_blocks; n++) {
		long s = split_next(g, e);
		if (s < 0)
			break;
		e = (uint32_t)s;
	}
	return e;
}

/* Is (file, line) the first line gcno block d lists, or the last of the
 * chain d heads (its GIMPLE block's first or last statement's line)? */
static int ends_on(const struct gm *g, uint32_t d, uint32_t file,
                   uint32_t line)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	if (d < 2)
		return 0;
	if (bl->n_lines && bl->lines[0].line == line &&
	    g->x->filemap[bl->lines[0].file] == file)
		return 1;
	return gm_last_line_is(g, split_end(g, d), file, line);
}

/* (contract in gcda_discr.h) */
uint32_t *gm_block_discriminators(const struct gm *g)
{
	uint32_t nb = g->f->n_blocks;
	uint32_t *disc = calloc((size_t)nb * 3, sizeof(*disc));
	struct line_next *lc = malloc(nb * sizeof(*lc));
	uint32_t nl = 0;
	if (!disc || !lc) {
		free(disc);
		free(lc);
		return NULL;
	}
	uint32_t *dfile = disc + nb, *dline = disc + 2 * nb;
	for (uint32_t b = 2; b < nb; b++) {
		const struct lt_gcno_block *bl = &g->f->blocks[b];
		/* A call's split ends no GIMPLE block. */
		if (!bl->n_lines || split_next(g, b) >= 0)
			continue;
		const struct lt_gcno_line *l = &bl->lines[bl->n_lines - 1];
		uint32_t file = g->x->filemap[l->file], line = l->line;
		for (uint32_t k = 0; k < g->nout[b]; k++) {
			const struct lt_gcno_arc *a = &g->f->arcs[g->outa[b][k]];
			/* Fake arcs are the profiler's, not the CFG's. */
			if ((a->flags & LT_GCOV_ARC_FAKE) ||
			    !ends_on(g, a->dst, file, line))
				continue;
			uint32_t n = next_for(lc, &nl, nb, file, line);
			uint32_t to = disc[a->dst] && !disc[b] ? b : a->dst;
			disc[to] = n;
			dfile[to] = file;
			dline[to] = line;
		}
	}
	/* The parts of a split block share its number. */
	for (uint32_t b = 2; b < nb; b++) {
		long s = split_next(g, b);
		if (s < 0)
			continue;
		uint32_t from = disc[b] ? b : (uint32_t)s;
		uint32_t to = disc[b] ? (uint32_t)s : b;
		disc[to] = disc[from];
		dfile[to] = dfile[from];
		dline[to] = dline[from];
	}
	free(lc);
	/* A line whose code shows a number no block holds was numbered on
	 * another CFG (early passes reshaped it: computed gotos unfactored,
	 * blocks merged): its numbers say nothing. */
	for (uint32_t i = 0; !g->span && i < g->m_body; i++) {
		const struct minsn *in = &g->in[i];
		if (!own_discr(in))
			continue;
		uint32_t b = 2;
		while (b < nb && (disc[b] != in->disc || dline[b] != in->line ||
		                  dfile[b] != in->file))
			b++;
		for (uint32_t j = 2; b == nb && j < nb; j++)
			if (dline[j] == in->line && dfile[j] == in->file)
				disc[j] = dline[j] = 0;
	}
	return disc;
}


/* (contract in gcda_discr.h) */
int gm_discr_elsewhere(const struct gm *g, const uint32_t *bd, uint32_t k,
                       const struct minsn *in)
{
	uint32_t nb = g->f->n_blocks;
	const uint32_t *dfile = bd + nb, *dline = bd + 2 * nb;
	if (g->span || !own_discr(in) || k < 2 || k >= nb || !bd[k] ||
	    bd[k] == in->disc || dline[k] != in->line ||
	    dfile[k] != in->file)
		return 0;
	for (uint32_t j = 2; j < nb; j++)
		if (bd[j] == in->disc && dline[j] == in->line &&
		    dfile[j] == in->file)
			return 1;
	return 0;
}

/* The first instruction of g's body on (file, line) with discriminator
 * d, or g->m. */
static uint32_t first_with(const struct gm *g, uint32_t file, uint32_t line,
                           uint32_t d)
{
	for (uint32_t i = 0; i < g->m_body; i++)
		if (own_discr(&g->in[i]) && g->in[i].disc == d &&
		    g->in[i].line == line && g->in[i].file == file)
			return i;
	return g->m;
}

/* (contract in gcda_discr.h) */
int gm_discr_order(const struct gm *g, const uint32_t *bd, uint32_t *ord)
{
	uint32_t nb = g->f->n_blocks, K = nb - 2;
	const uint32_t *dfile = bd + nb, *dline = bd + 2 * nb;
	int swaps = 0;
	for (uint32_t k = 0; k < K; k++)
		ord[k] = k + 2;
	if (g->span)
		return 0;
	for (uint32_t k = 0; k + 1 < K; k++) {
		uint32_t p = ord[k], q = ord[k + 1];
		if (!bd[p] || !bd[q] || bd[p] == bd[q] ||
		    dline[p] != dline[q] || dfile[p] != dfile[q])
			continue;
		uint32_t ip = first_with(g, dfile[p], dline[p], bd[p]);
		uint32_t iq = first_with(g, dfile[q], dline[q], bd[q]);
		if (ip == g->m || iq == g->m || iq > ip)
			continue;
		ord[k] = q;
		ord[k + 1] = p;
		swaps++;
		k++;
	}
	return swaps;
}

/* (contract in gcda_discr.h) */
int gm_discr_agree(const struct gm *g)
{
	uint32_t *bd = gm_block_discriminators(g);
	int ok = 1;
	for (uint32_t i = 0; bd && ok && i < g->m; i++)
		ok = !gm_discr_elsewhere(g, bd, g->blk[i], &g->in[i]);
	free(bd);
	return ok;
}

/* The discriminator the way from insn t shows for its code on (file,
 * line): the first one its straight run (plain jumps and nops followed)
 * gives before code of another line or a transfer; 0 if none. Code
 * without one may come first: copies out of SSA put on the edge, in a
 * block of their own that joined the arm without its number. */
static uint32_t way_discr(const struct gm *g, long t, uint32_t file,
                          uint32_t line)
{
	for (int k = 0; k < MAX_SKIP; k++) {
		if (t < 0 || t >= (long)g->m)
			return 0;
		const struct minsn *in = &g->in[t];
		if (in->nop) {
			t++;
			continue;
		}
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE) {
			t = gm_insn_at(g, in->tgt);
			continue;
		}
		if (in->line != line || in->file != file ||
		    in->cline != in->line || in->cfile != in->file)
			return 0;
		if (in->disc)
			return in->disc;
		if ((gm_ends_block(in) && !gm_is_call(in)) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return 0;
		t++;
	}
	return 0;
}

/* gm_discr_arms (one = 0: both ways show their arm's number) and
 * gm_discr_one_arm (one = 1: exactly one way shows a number, the number
 * of exactly one of b's destinations, and the other destination has no
 * number for the line). */
static int discr_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                      long *fa, int one)
{
	const struct minsn *in = &g->in[i];
	if (gm_n_real_out(g, b) != 2 || g->nout[b] != 2 ||
	    !gm_last_line_is(g, b, in->file, in->line))
		return 0;
	long t = gm_insn_at(g, in->tgt);
	long nx = i + 1 < g->m && gm_falls_to_next(g, i) ? (long)i + 1 : -1;
	uint32_t dt = way_discr(g, t, in->file, in->line);
	uint32_t df = way_discr(g, nx, in->file, in->line);
	if (one ? (!dt == !df) : (!dt || !df || dt == df))
		return 0;
	if (g->span || in->cline != in->line || in->cfile != in->file)
		return 0;
	uint32_t *disc = gm_block_discriminators(g);
	if (!disc)
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t nb = g->f->n_blocks, dx = g->f->arcs[x].dst;
	uint32_t dy = g->f->arcs[y].dst;
	/* Numbers given for the branch's line only. */
	uint32_t px = disc[2 * nb + dx] == in->line &&
		      disc[nb + dx] == in->file ? disc[dx] : 0;
	uint32_t py = disc[2 * nb + dy] == in->line &&
		      disc[nb + dy] == in->file ? disc[dy] : 0;
	free(disc);
	/* One arm numbered, the other not: the way showing the number
	 * runs the numbered arm's code (the unnumbered arm's way, e.g. a
	 * `?:` constant put on the edge, shows code of no number). */
	if (one && (!px == !py || (dt | df) != (px | py)))
		return 0;
	if (one) {
		int tx = dt ? px != 0 : py != 0;
		*ta = tx ? x : y;
		*fa = tx ? y : x;
		return 1;
	}
	/* Both arms' numbers as replayed, or nothing. */
	if (dt == px && df == py) {
		*ta = x;
		*fa = y;
		return 1;
	}
	if (dt == py && df == px) {
		*ta = y;
		*fa = x;
		return 1;
	}
	return 0;
}

/* (contract in gcda_arms.h) */
int gm_discr_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa)
{
	return discr_arms(g, i, b, ta, fa, 0);
}

/* (contract in gcda_arms.h) */
int gm_discr_one_arm(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                     long *fa)
{
	return discr_arms(g, i, b, ta, fa, 1);
}

/* (contract in gcda_arms.h) */
long gm_discr_block(const struct gm *g, uint32_t i, long *ta, long *fa)
{
	long hit = -1, a = -1, b = -1;
	for (uint32_t k = 2; k < g->f->n_blocks; k++) {
		long x, y;
		if (!gm_discr_arms(g, i, k, &x, &y))
			continue;
		if (hit >= 0)
			return -1;
		hit = k;
		a = x;
		b = y;
	}
	if (hit >= 0) {
		*ta = a;
		*fa = b;
	}
	return hit;
}

/* (contract in gcda_discr.h) */
long gm_discr_owner(const struct gm *g, const uint32_t *bd, long t)
{
	uint32_t nb = g->f->n_blocks;
	const uint32_t *dfile = bd + nb, *dline = bd + 2 * nb;
	const struct minsn *in = NULL;
	for (int k = 0; k < MAX_SKIP && t >= 0 && t < (long)g->m; k++) {
		in = &g->in[t];
		if (!in->nop && (in->cls != LT_INSN_JUMP ||
		                 in->link != LT_LINK_NONE))
			break;
		t = in->nop ? t + 1 : gm_insn_at(g, in->tgt);
		in = NULL;
	}
	if (g->span || !in || !own_discr(in))
		return -1;
	long own = -1;
	for (uint32_t b = 2; b < nb; b++) {
		if (bd[b] != in->disc)
			continue;
		/* A number of the code's own line: the per-line rules'. */
		if (dline[b] == in->line && dfile[b] == in->file)
			return -1;
		/* Parts of a block the profiler split share its number. */
		if (own >= 0 && split_end(g, (uint32_t)own) == split_end(g, b))
			continue;
		if (own >= 0)
			return -1;
		own = b;
	}
	/* The block's own code shows the number too, later in the run. */
	for (int k = 0; own >= 0 && k < GM_MAX_RUN && t + 1 < (long)g->m &&
	                gm_falls_to_next(g, (uint32_t)t) &&
	                !gm_ends_block(&g->in[t]); k++) {
		const struct minsn *n = &g->in[++t];
		if (own_discr(n) && n->disc == in->disc &&
		    gm_block_has_line(g, (uint32_t)own, n->file, n->line))
			return own;
	}
	return -1;
}

/* Contract in gcda_arms.h. */
long gm_discr_own_block(const struct gm *g, uint32_t i, long from)
{
	const struct minsn *in = &g->in[i];
	if (g->span || !in->disc || !in->line || in->cline != in->line ||
	    in->cfile != in->file || from < 2)
		return -1;
	/* The branch's own row: a row begun earlier may hold code that
	 * the test shares with the block whose number the row shows (a
	 * constant both tests of `a < 5 || c < 5` compare with). */
	const struct lt_line_row *row = lt_dwarf_line(g->x->dw, in->addr);
	if (!row || row->addr != in->addr || row->discriminator != in->disc)
		return -1;
	/* Another test of the line comparing the same registers is a copy
	 * of the same condition: one showing another number says the
	 * numbers do not follow the tests here (duplicated paths). */
	uint32_t regs = gm_branch_regs(g, in->addr);
	for (uint32_t k = 0; k < g->m; k++)
		if (k != i && g->in[k].cls == LT_INSN_BRANCH &&
		    g->in[k].line == in->line && g->in[k].file == in->file &&
		    g->in[k].disc != in->disc &&
		    gm_branch_regs(g, g->in[k].addr) == regs)
			return -1;
	uint32_t *disc = gm_block_discriminators(g);
	if (!disc)
		return -1;
	uint32_t nb = g->f->n_blocks;
	long hit = -1;
	for (uint32_t k = 2; k < nb && hit != -2; k++)
		if (disc[k] == in->disc && disc[2 * nb + k] == in->line &&
		    disc[nb + k] == in->file)
			hit = hit < 0 ? (long)k : -2;
	/* The block the lines named has no number of the line: its
	 * code would show none. */
	if (disc[from] && disc[2 * nb + from] == in->line &&
	    disc[nb + from] == in->file)
		hit = -1;
	free(disc);
	if (hit < 0 || hit == from || gm_n_real_out(g, (uint32_t)hit) != 2 ||
	    gm_has_fake_out(g, (uint32_t)hit) || g->nout[hit] != 2 ||
	    !gm_last_line_is(g, (uint32_t)hit, in->file, in->line))
		return -1;
	return hit;
}
