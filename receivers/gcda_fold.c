/* gcc -O2's identical code folding (-fipa-icf) merges functions with the
 * same body into one, the others becoming aliases of its code; the
 * symbol table keeps one name per address. An instrumented build keeps
 * them apart (their counters differ), so the shared code counts the
 * executions of all of them together: such a function is counted from the
 * calls its callers make (gcda_map.h). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Is `name` the name of one of g's functions? */
static int gcno_has(const struct lt_gcno *g, const char *name)
{
	for (uint32_t k = 0; k < g->n_fns; k++)
		if (strcmp(g->fns[k].name, name) == 0)
			return 1;
	return 0;
}

/* What gm_folded looks for, handed to fold_sym. */
struct fold_q {
	const struct lt_gcno *g;        /* fn's notes */
	const struct lt_symtab *tab;    /* the kept symbols */
	const struct lt_dwarf *dw;      /* for the unit test */
	uint32_t unit;                  /* fn's compilation unit */
	const struct lt_gcno_fn *fn;    /* the function */
	long si;                        /* fn's kept symbol, or < 0 */
	uint64_t addr;                  /* its address (si >= 0) */
};

/* gm_elf_syms callback: the shared address when this function symbol
 * shows fn's code folded with another of g's functions, else 0. */
static uint64_t fold_sym(void *user, const char *sn, uint64_t value,
                         uint64_t size, int type)
{
	const struct fold_q *q = user;
	(void)size;
	if (type != STT_FUNC || !value)
		return 0;
	if (q->si >= 0)
		/* fn kept the symbol: another of g's functions names the
		 * same code */
		return value == q->addr && strcmp(sn, q->fn->name) != 0 &&
		       gcno_has(q->g, sn) ? q->addr : 0;
	/* fn lost its name: an alias of fn's name in its unit whose kept
	 * name is another of g's functions */
	if (strcmp(sn, q->fn->name) != 0 || !gm_in_unit(q->dw, value, q->unit))
		return 0;
	const struct lt_sym *k = lt_symtab_lookup(q->tab, value);
	return k && k->start == value && strcmp(k->name, q->fn->name) != 0 &&
	       gcno_has(q->g, k->name) ? value : 0;
}

uint64_t gm_folded(const struct lt_image *img, const struct lt_gcno *g,
                   const struct lt_symtab *tab, const struct lt_dwarf *dw,
                   uint32_t unit, const struct lt_gcno_fn *fn, long si)
{
	struct fold_q q = { g, tab, dw, unit, fn, si,
	                    si >= 0 ? tab->sym[si].start : 0 };
	return gm_elf_syms(img, fold_sym, &q);
}

/* Calls of fn, whose code at addr is folded with other functions': the
 * executions of the direct calls and jumps to addr on the source lines
 * that call fn (gm_file_call_lines, outside fn) in compilation unit `unit`. */
uint64_t gm_folded_calls(const struct lt_gcno *g, const struct gm_ctx *x,
                             const struct lt_gcno_fn *fn, uint32_t unit,
                             uint64_t addr)
{
	const struct lt_dwarf *dw = x->dw;
	uint64_t total = 0;
	for (uint32_t i = 0; dw && i < g->n_files; i++) {
		uint32_t df, *lines = NULL;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		for (size_t k = 0; k < n; k++) {
			if (gm_own_body_line(g, fn, i, lines[k]) ||
			    (k && lines[k] == lines[k - 1]))
				continue;
			for (size_t r = 0; r + 1 < dw->nrows; r++) {
				const struct lt_line_row *w = &dw->row[r];
				if (w->end_seq || w->line != lines[k] ||
				    w->file != df ||
				    (unit != LT_DWARF_NO_FILE &&
				     w->unit != unit))
					continue;
				uint64_t end = dw->row[r + 1].addr;
				const struct lt_region *rg =
					lt_image_region(x->img, w->addr);
				if (!rg || end <= w->addr ||
				    end - w->addr > 4096)
					continue;
				for (uint64_t a = w->addr; a < end &&
				     a < rg->end;) {
					const struct lt_hwinfo *hw =
						&rg->info[lt_region_idx(rg, a)];
					if (hw->cls == LT_INSN_JUMP &&
					    a + (uint64_t)(int64_t)hw->tgt ==
					    addr)
						total += gc_insn_count(x->c,
						                       x->im, a);
					a += hw->len ? hw->len : 2;
				}
			}
		}
		free(lines);
	}
	return total;
}


/* Do a and b have one CFG (identical bodies)? */
static int same_cfg(const struct lt_gcno_fn *a, const struct lt_gcno_fn *b)
{
	if (a->cfg_checksum != b->cfg_checksum || a->n_arcs != b->n_arcs ||
	    a->n_blocks != b->n_blocks)
		return 0;
	for (uint32_t k = 0; k < a->n_arcs; k++)
		if (a->arcs[k].src != b->arcs[k].src ||
		    a->arcs[k].dst != b->arcs[k].dst)
			return 0;
	return 1;
}

/* Solves the arcs v[] holds -1 for (gcc's spanning tree) from the others
 * by flow conservation, as gcov does: a block whose arcs in (or out) are
 * all known has that count; its one unknown arc out (or in) is the rest.
 * 1 when every arc is solved and none is negative. */
static int solve_tree(const struct lt_gcno_fn *fn, int64_t *v)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t b = 0; b < fn->n_blocks; b++) {
			int64_t in = 0, out = 0;
			uint32_t nin = 0, nout = 0, uin = 0, uout = 0, ui = 0,
				 uo = 0;
			for (uint32_t a = 0; a < fn->n_arcs; a++) {
				if (fn->arcs[a].dst == b) {
					nin++;
					if (v[a] < 0)
						uin++, ui = a;
					else
						in += v[a];
				}
				if (fn->arcs[a].src == b) {
					nout++;
					if (v[a] < 0)
						uout++, uo = a;
					else
						out += v[a];
				}
			}
			int64_t rest = -1;
			uint32_t at = 0;
			if (nin && !uin && uout == 1)
				rest = in - out, at = uo;
			else if (nout && !uout && uin == 1)
				rest = out - in, at = ui;
			else
				continue;
			if (rest < 0)
				return 0;
			v[at] = rest;
			changed = 1;
		}
	}
	for (uint32_t a = 0; a < fn->n_arcs; a++)
		if (v[a] < 0)
			return 0;
	return 1;
}

/* fn's share of the folded code's executions: the code at addr mapped
 * onto fn's CFG (the same body as every function folded into it), each
 * arc scaled by calls / the code's entries. The instrumented run counts
 * each function's own executions; scaling assumes every caller runs the
 * body alike, better than no loop trips at all. Only when the scaled arcs
 * still conserve flow (rounding may break it): returns 1 and arc[] set,
 * else 0 and arc[] untouched. */
int gm_folded_share(const struct lt_gcno *g, const struct gm_ctx *x,
                    const struct lt_symtab *tab, const struct lt_gcno_fn *fn,
                    uint32_t unit, uint64_t addr, uint64_t calls,
                    uint64_t *arc)
{
	const struct lt_sym *s = lt_symtab_lookup(tab, addr);
	uint64_t total = gc_insn_count(x->c, x->im, addr);
	if (!s || s->start != addr || s->end <= addr || !calls ||
	    calls > total)
		return 0;
	/* The code's lines are those of one of the functions folded into it
	 * (not always the one whose name the symbol table kept): map the
	 * one whose lines hold the code's first row, with the CFG of fn
	 * (identical bodies: same checksum, same arcs). */
	const struct lt_line_row *row = x->dw ? lt_dwarf_line(x->dw, addr) : NULL;
	const struct lt_gcno_fn *kept = NULL;
	for (uint32_t k = 0; row && k < g->n_fns && !kept; k++) {
		const struct lt_gcno_fn *o = &g->fns[k];
		if (o->start_line <= row->line && row->line <= o->end_line &&
		    gm_same_file(x->dw->file[row->file], o->source) &&
		    same_cfg(o, fn))
			kept = o;
	}
	/* Calls of every function folded here: callers that share one call
	 * (`c ? f(p) : g(p)` with f and g folded) are each counted by both,
	 * so the shares are of their sum. */
	uint64_t sum = 0;
	for (uint32_t k = 0; kept && k < g->n_fns; k++)
		if (same_cfg(&g->fns[k], fn))
			sum += &g->fns[k] == fn ? calls :
			       gm_folded_calls(g, x, &g->fns[k], unit, addr);
	if (!kept || sum < calls)
		return 0;
	uint64_t *all = calloc(fn->n_arcs + 1, sizeof(*all));
	int64_t *v = malloc((fn->n_arcs + 1) * sizeof(*v));
	struct gm_result r = {.det = malloc(fn->n_arcs + 1)};
	struct gm_span cold = {0, 0, 0, 1};
	int ok = all && v && r.det &&
		 !gm_map_function(x, kept, s->start, s->end, &cold, 0, NULL, 0,
		                  all, &r);
	/* The counters scaled (rounded down), the spanning tree's arcs
	 * solved from them as gcov does: the counts conserve flow. */
	for (uint32_t a = 0; ok && a < fn->n_arcs; a++)
		v[a] = fn->arcs[a].flags & LT_GCOV_ARC_ON_TREE ? -1 :
		       (int64_t)((long double)all[a] * calls / sum);
	ok = ok && solve_tree(fn, v);
	for (uint32_t a = 0; ok && a < fn->n_arcs; a++)
		arc[a] = (uint64_t)v[a];
	free(v);
	free(all);
	free(r.det);
	return ok;
}
