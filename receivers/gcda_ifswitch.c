/* A switch gcc made of an if-chain (gcda_mapper.h: gm_if_switch_pins).
 * At -O2 the early pass if-to-switch turns a chain of tests of one
 * variable against constants and ranges into a switch before the
 * profiling pass writes the gcno:
 *
 *     if (c >= 'a' && c <= 'z') return c - 'a' + 26;
 *     if (c >= '0' && c <= '9') return c - '0' + 52;
 *     if (c == '+') return 62; ...
 *
 * gives one block with an arc per test, in the chain's order (each
 * condition's block, or a forwarder to it, then the default's arc), all
 * on the lines of the source's conditions; the switch is then expanded as
 * a comparison tree the tests of which match no `case` label and, on one
 * line, no line either. The values do: each leaf of the tree is reached
 * for an interval of the variable (the compares on its path, of the
 * variable plus a constant with a constant: `addw a2,a0,-65; bgeu
 * a3,a2` for 'A'..'Z'), and each condition's text names the values it
 * holds. A leaf's executions belong to the first condition, in source
 * order, whose values hold its interval: those of the chain's conditions
 * go to their arcs, those of none to the default's (the conditions before
 * the chain, kept as tests, read too; the text by gcda_srcconds.c).
 * Bounds only (unsure): the text is read, not compiled. */
#include <stdlib.h>
#include <string.h>

#include "gcda_count.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_srcconds.h"
#include "gcda_srctext.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Most conditions read. */
#define MAX_CONDS 24
/* Most leaves of one tree. */
#define MAX_LEAVES 64
/* Most instructions one path of the tree runs. */
#define MAX_PATH 64
/* Longest source line read. */
#define LINE_READ 4096

/* What a register holds on a path of the tree. */
struct reg {
	int kind;     /* 0 unknown, 1 the variable plus off, 2 the constant */
	int64_t v;    /* off (kind 1) or the constant (kind 2) */
};

/* A leaf: the values reaching it and its executions. */
struct leaf {
	struct gm_ivset s;
	uint64_t n;
};

/* The walk of one tree. */
struct walk {
	const struct gm *g;
	uint32_t file, line; /* the switch's line */
	struct leaf lv[MAX_LEAVES];
	int nlv;
	uint32_t node[MAX_LEAVES]; /* the tree's branches (insns) */
	int nnode;
	int bad;             /* the tree cannot be read */
};

/* rd = rs + imm forms (addi, addiw, li, mv, sext.w, their compressed
 * forms) at addr: 1 with *rd, *rs (0: a constant) and *imm; else 0. */
static int add_imm(const struct gm *g, uint64_t addr, uint32_t *rd,
                   uint32_t *rs, int64_t *imm)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 4) {
		uint32_t op = r & 0x7f, f3 = r >> 12 & 7;
		if ((op != 0x13 && op != 0x1b) || f3)
			return 0;
		*rd = r >> 7 & 31;
		*rs = r >> 15 & 31;
		*imm = (int32_t)r >> 20;
		return 1;
	}
	uint32_t q = r & 3, f3 = r >> 13 & 7;
	int64_t ci = (int64_t)((r >> 2 & 31) | (r >> 12 & 1) << 5);
	ci = ci >= 32 ? ci - 64 : ci;
	if (q == 1 && (f3 == 0 || f3 == 1 || f3 == 2)) {
		*rd = r >> 7 & 31;
		*rs = f3 == 2 ? 0 : *rd; /* c.li, c.addi, c.addiw */
		*imm = ci;
		return *rd != 0;
	}
	if (q == 2 && f3 == 4 && !(r >> 12 & 1) && (r >> 2 & 31)) {
		*rd = r >> 7 & 31; /* c.mv */
		*rs = r >> 2 & 31;
		*imm = 0;
		return 1;
	}
	return 0;
}

/* The compare of the branch at addr: 1 with its kind (funct3: 0 beq,
 * 1 bne, 4 blt, 5 bge, 6 bltu, 7 bgeu) and registers; else 0. */
static int branch_cmp(const struct gm *g, uint64_t addr, uint32_t *f3,
                      uint32_t *r1, uint32_t *r2)
{
	struct lt_insn d;
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	uint32_t r = d.raw;
	if (d.len == 4) {
		*f3 = r >> 12 & 7;
		*r1 = r >> 15 & 31;
		*r2 = r >> 20 & 31;
		return (r & 0x7f) == 0x63 && *f3 != 2 && *f3 != 3;
	}
	if ((r & 3) == 1 && (r >> 13 & 7) >= 6) {
		*f3 = (r >> 13 & 7) == 6 ? 0 : 1; /* c.beqz, c.bnez */
		*r1 = 8 + (r >> 7 & 7);
		*r2 = 0;
		return 1;
	}
	return 0;
}

/* The values of the variable for which `a f3 b` holds, a and b the
 * registers' contents (one the variable plus an offset, the other a
 * constant); *ok = 0 when that cannot be read. */
static struct gm_ivset taken_set(uint32_t f3, struct reg a, struct reg b,
                              int *ok)
{
	struct gm_ivset s = {-1, {0}, {0}};
	int var_first = a.kind == 1;
	struct reg x = var_first ? a : b, k = var_first ? b : a;
	*ok = x.kind == 1 && k.kind == 2;
	if (!*ok)
		return s;
	int64_t off = x.v, c = k.v;
	if (f3 == 0 || f3 == 1) {
		gm_iv_one(&s, c - off, c - off);
		return f3 == 0 ? s : gm_iv_not(&s);
	}
	if (f3 == 6 || f3 == 7) {
		/* unsigned: x + off below (or at least) c, for 0 <= c
		 * (values of an int, sign-extended) */
		if (c < 0 || c > GM_VMAX) {
			*ok = 0;
			return s;
		}
		/* a < b (bltu) with the variable first: x in [-off, c-off-1];
		 * a >= b: the rest; the constant first mirrors it. */
		int below = f3 == 6;
		if (var_first) {
			gm_iv_one(&s, -off, c - off - 1);
			return below ? s : gm_iv_not(&s);
		}
		gm_iv_one(&s, -off, c - off); /* c < x+off fails: x+off <= c */
		return below ? gm_iv_not(&s) : s;
	}
	/* signed blt / bge */
	int below = f3 == 4;
	if (var_first)
		gm_iv_one(&s, GM_VMIN, c - off - 1); /* x + off < c */
	else
		gm_iv_one(&s, c - off + 1, GM_VMAX); /* c < x + off */
	return below ? s : gm_iv_not(&s);
}

static void add_leaf(struct walk *w, const struct gm_ivset *s, uint64_t n)
{
	if (!n)
		return;
	if (w->nlv == MAX_LEAVES) {
		w->bad = 1;
		return;
	}
	w->lv[w->nlv++] = (struct leaf){*s, n};
}

/* Walks the tree from insn k with the registers rg, the variable's
 * values s, n executions; the variable is register base's value at the
 * tree's start. */
static void walk_from(struct walk *w, long k, struct reg *rg,
                      struct gm_ivset s, uint64_t n, int steps)
{
	const struct gm *g = w->g;
	for (; !w->bad; steps++) {
		if (k < 0 || (uint32_t)k >= g->m || steps > MAX_PATH ||
		    g->in[k].line != w->line || g->in[k].file != w->file) {
			add_leaf(w, &s, n);
			return;
		}
		const struct minsn *in = &g->in[k];
		if (in->cls == LT_INSN_BRANCH) {
			uint32_t f3, r1, r2;
			int ok = 0;
			struct gm_ivset ts = {-1, {0}, {0}};
			if (branch_cmp(g, in->addr, &f3, &r1, &r2))
				ts = taken_set(f3, rg[r1], rg[r2], &ok);
			if (!ok) { /* not the tree's: its code */
				add_leaf(w, &s, n);
				return;
			}
			const struct gc_counts *gc = g->x->c;
			uint64_t cnt = gc_insn_count(gc, g->x->im, in->addr);
			uint64_t tk = gc_taken(gc, g->x->im, in->addr);
			if (w->nnode == MAX_LEAVES) {
				w->bad = 1;
				return;
			}
			w->node[w->nnode++] = (uint32_t)k;
			struct gm_ivset fs = gm_iv_not(&ts);
			struct gm_ivset st = gm_iv_and(&s, &ts);
			struct gm_ivset sf = gm_iv_and(&s, &fs);
			if (cnt != n || st.n < 0 || sf.n < 0 ||
			    (tk && !st.n) || (cnt - tk && !sf.n)) {
				w->bad = 1; /* counts or values disagree */
				return;
			}
			if (tk) {
				struct reg copy[32];
				memcpy(copy, rg, sizeof(copy));
				walk_from(w, gm_insn_at(g, in->tgt), copy, st,
				          tk, steps + 1);
			}
			if (!gm_falls_to_next(g, (uint32_t)k)) {
				w->bad |= cnt - tk != 0;
				return;
			}
			s = sf;
			n = cnt - tk;
			if (!n)
				return;
			k++;
			continue;
		}
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE &&
		    !gm_is_call(in)) {
			k = gm_insn_at(g, in->tgt);
			continue;
		}
		if (in->cls != LT_INSN_OTHER) {
			add_leaf(w, &s, n); /* a return, a call: the case's */
			return;
		}
		uint32_t rd, rs;
		int64_t imm;
		if (add_imm(g, in->addr, &rd, &rs, &imm) && rd) {
			struct reg v = rs ? rg[rs] : (struct reg){2, 0};
			if (v.kind)
				v.v += imm;
			rg[rd] = v;
		} else if ((rd = gm_int_rd(g, in->addr)) != 0) {
			rg[rd] = (struct reg){0, 0};
		}
		k++;
	}
}

/* The chain's conditions of switch block sb: its first condition is the
 * first of those on its line after the ones the two-way blocks before
 * it test on the same line (the chain's head kept as tests). Fills c[]
 * (the conditions from the line's first on: *first preceding the
 * chain's, whose blocks go to pre[], the first first) and returns their
 * number, 0 when they cannot be read. */
static int chain_conds(const struct gm *g, uint32_t sb, uint32_t file,
                       uint32_t line, int ncase, struct gm_cond *c, int *first,
                       uint32_t *pre)
{
	int before = 0;
	uint32_t back[MAX_CONDS];
	for (uint32_t b = sb, steps = 0; steps < MAX_CONDS; steps++) {
		long p = -1;
		int np = 0;
		for (uint32_t a = 0; a < g->f->n_arcs; a++)
			if (g->f->arcs[a].dst == b &&
			    !(g->f->arcs[a].flags & LT_GCOV_ARC_FAKE))
				p = g->f->arcs[a].src, np++;
		if (np != 1 || p < 2 || gm_n_real_out(g, (uint32_t)p) != 2 ||
		    !gm_last_line_is(g, (uint32_t)p, file, line))
			break;
		back[before++] = (uint32_t)p;
		b = (uint32_t)p;
	}
	for (int k = 0; k < before; k++)
		pre[k] = back[before - 1 - k];
	int n = 0, want = before + ncase;
	if (want > MAX_CONDS)
		return 0;
	for (uint32_t l = line; l <= g->f->end_line && n < want; l++) {
		char *t = gm_source_line(g->x->src, g->x->dw->file[file], l,
		                         LINE_READ);
		int ok = t && gm_line_conds(t, c, &n, want);
		free(t);
		if (!ok)
			return 0;
		if (l == line && n < before)
			return 0;
	}
	*first = before;
	return n;
}

/* Contract in gcda_mapper.h. */
int gm_if_switch_pins(const struct gm *g, int64_t *sum, uint8_t *bad,
                      uint8_t unsure, uint8_t *tree)
{
	int pinned = 0;
	if (!g->x->optimized || !g->x->src || g->span)
		return 0;
	for (uint32_t k = 0; k < g->m; k++)
		if (g->in[k].cls == LT_INSN_IJUMP &&
		    g->in[k].link == LT_LINK_NONE)
			return 0;
	for (uint32_t sb = 2; sb < g->f->n_blocks; sb++) {
		uint32_t nreal = gm_n_real_out(g, sb);
		const struct lt_gcno_block *bl = &g->f->blocks[sb];
		if (nreal <= 2 || nreal != g->nout[sb] || !bl->n_lines)
			continue;
		uint32_t file = g->x->filemap[bl->lines[bl->n_lines - 1].file];
		uint32_t line = bl->lines[bl->n_lines - 1].line;
		if (file == LT_DWARF_NO_FILE || file >= g->x->dw->nfiles)
			continue;
		struct gm_cond c[MAX_CONDS];
		uint32_t pre[MAX_CONDS];
		int ncase = (int)nreal - 1; /* the default's arc last */
		int first = 0, nc = chain_conds(g, sb, file, line, ncase, c,
		                                &first, pre);
		if (nc < first + ncase)
			continue;
		/* The chain: one variable, values apart. */
		int ok = 1;
		for (int a = first; a < first + ncase && ok; a++)
			for (int b = 0; b < a && ok; b++) {
				struct gm_ivset x = gm_iv_and(&c[a].s, &c[b].s);
				ok = !strcmp(c[a].name, c[first].name) &&
				     x.n == 0;
			}
		for (int a = 0; a < first && ok; a++)
			ok = !strcmp(c[a].name, c[first].name);
		if (!ok)
			continue;
		/* The tree: from the line's first instruction. */
		long root = -1;
		for (uint32_t k = 0; k < g->m && root < 0; k++)
			if (g->in[k].file == file && g->in[k].line == line)
				root = k;
		if (root < 0)
			continue;
		struct walk *w = calloc(1, sizeof(*w));
		if (!w)
			return pinned;
		w->g = g;
		w->file = file;
		w->line = line;
		uint64_t n0 = gc_insn_count(g->x->c, g->x->im,
		                            g->in[root].addr);
		/* Each register holds the variable (plus 0) until written:
		 * the tree's own compares tell which one it is. */
		struct reg rg[32];
		int64_t tally[MAX_CONDS] = {0};
		int done = 0;
		for (uint32_t base = 1; base < 32 && !done; base++) {
			for (uint32_t r = 0; r < 32; r++)
				rg[r] = (struct reg){r == base ? 1 : 0, 0};
			rg[0] = (struct reg){2, 0}; /* x0 */
			struct gm_ivset all;
			gm_iv_one(&all, GM_VMIN, GM_VMAX);
			w->nlv = w->nnode = 0;
			w->bad = 0;
			walk_from(w, root, rg, all, n0, 0);
			if (w->bad || w->nlv < 2)
				continue;
			uint64_t tot = 0;
			int fit = 1;
			memset(tally, 0, sizeof(tally));
			int64_t deflt = 0; /* in no condition: the default's */
			for (int q = 0; q < w->nlv && fit; q++) {
				tot += w->lv[q].n;
				int hit = -1;
				int nall = first + ncase;
				for (int a = 0; a < nall && hit < 0; a++)
					if (gm_iv_within(&w->lv[q].s, &c[a].s))
						hit = a;
				/* else the default's, or across conditions */
				for (int a = 0; hit < 0 && a < nall && fit;
				     a++) {
					struct gm_ivset x =
						gm_iv_and(&w->lv[q].s, &c[a].s);
					fit = x.n == 0;
				}
				if (hit >= 0)
					tally[hit] += (int64_t)w->lv[q].n;
				else
					deflt += (int64_t)w->lv[q].n;
			}
			if (!fit || tot != n0)
				continue;
			for (int a = 0; a <= ncase; a++) {
				uint32_t arc = g->outa[sb][a];
				sum[arc] += a < ncase ? tally[first + a] :
				            deflt;
				bad[arc] |= unsure;
			}
			/* The tests kept before the switch: each one's arc to
			 * the next block of the chain runs what its condition
			 * does not hold. */
			int64_t left = (int64_t)n0;
			for (int a = 0; a < first; a++) {
				uint32_t next = a + 1 < first ? pre[a + 1] : sb;
				for (uint32_t q = 0; q < g->nout[pre[a]]; q++) {
					uint32_t arc = g->outa[pre[a]][q];
					int on = g->f->arcs[arc].dst == next;
					sum[arc] += on ? left - tally[a] :
					            tally[a];
					bad[arc] |= unsure;
				}
				left -= tally[a];
			}
			for (int q = 0; q < w->nnode; q++)
				tree[w->node[q]] = 1;
			done = pinned = 1;
		}
		free(w);
	}
	return pinned;
}
