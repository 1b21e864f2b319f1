/* Inlined copies the optimizer deleted (gcda_map.h: gm_lost_copies).
 * When gcc inlines a call whose result the caller does not use and
 * whose code has no effect there (no store, no call with effects), it
 * deletes the copy entirely: no instruction, and with it the copy's
 * DWARF inline record, are left. The instrumented twin's copy updates
 * its counters, so it stays and counts every arc it runs. The copies
 * the binary shows then count fewer executions than the twin, and
 * nothing in the trace tells how many are missing; a counter pinned
 * from the visible copies would be claimed wrongly. Such a copy is
 * missing from one instance of the function that makes the call (its
 * out-of-line body or one of its own inlined copies), and that
 * instance can be checked: it ran, yet neither holds an inlined copy of
 * fn with that call site nor calls fn's code. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"
#include "ltpipe/symbols.h"

/* What instance `inst` of a caller shows of its calls of `name`: the
 * inlined copies of `name` it holds directly (gcc gives a copy made by
 * a statement spanning lines the statement's first line as call site,
 * so sites are counted, not matched by line) plus the calls and jumps
 * to the start of its code (tab's symbols, clones too) from the
 * instance's own instructions, in *shown; whether some instruction of
 * the instance (its nested copies included) in compilation unit `unit`
 * ran, returned. */
static int instance_shows(const struct gm_ctx *x, const struct lt_symtab *tab,
                          const char *name, int32_t inst, uint32_t unit,
                          uint32_t *shown)
{
	const struct lt_dwarf *dw = x->dw;
	int ran = 0;
	*shown = 0;
	for (size_t q = 0; q < dw->nfuncs; q++)
		*shown += dw->func[q].depth && dw->func[q].parent == inst &&
			  strcmp(dw->func[q].name, name) == 0;
	for (size_t r = 0; r < dw->nirange; r++) {
		const struct lt_inline_range *ir = &dw->irange[r];
		int own = (int32_t)ir->func == inst;
		int32_t q = (int32_t)ir->func;
		while (q >= 0 && q != inst)
			q = dw->func[q].parent;
		if (q < 0 || !gm_in_unit(dw, ir->lo, unit))
			continue;
		const struct lt_region *rg = lt_image_region(x->img, ir->lo);
		for (uint64_t a = ir->lo; rg && a < ir->hi && a < rg->end;) {
			const struct lt_hwinfo *hw =
				&rg->info[lt_region_idx(rg, a)];
			ran |= gc_insn_count(x->c, x->im, a) != 0;
			if (own && hw->cls == LT_INSN_JUMP) {
				uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
				const struct lt_sym *s =
					lt_symtab_lookup(tab, t);
				*shown += gm_is_fn_code(s, name) &&
					  s->start == t;
			}
			a += hw->len ? hw->len : 2;
		}
	}
	return ran;
}

/* Did an instance of c (a gcno function of file i whose body makes
 * `sites` calls of fn gcc did not inline early) run in compilation unit
 * `unit` showing fewer copies and calls of fn than that
 * (instance_shows)? */
static int caller_lost(const struct lt_gcno *g, const struct gm_ctx *x,
                       const struct lt_symtab *tab,
                       const struct lt_gcno_fn *fn,
                       const struct lt_gcno_fn *c, uint32_t unit, uint32_t i,
                       uint32_t sites)
{
	const struct lt_dwarf *dw = x->dw;
	for (size_t q = 0; q < dw->nfuncs; q++) {
		const struct lt_inline_func *f = &dw->func[q];
		uint32_t shown;
		if (strcmp(f->name, c->name) != 0 ||
		    (f->decl_file != LT_DWARF_NO_FILE &&
		     !gm_same_file(dw->file[f->decl_file], g->files[i])))
			continue;
		if (instance_shows(x, tab, fn->name, (int32_t)q, unit,
		                   &shown) && shown < sites)
			return 1;
	}
	return 0;
}

int gm_lost_copies(const struct lt_gcno *g, const struct gm_ctx *x,
                   const struct lt_gcno_fn *fn, uint32_t unit,
                   const struct lt_symtab *tab)
{
	int lost = 0;
	for (uint32_t i = 0; x->dw && tab && i < g->n_files && !lost; i++) {
		uint32_t df, *lines = NULL;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		for (uint32_t j = 0; j < g->n_fns && n && !lost; j++) {
			const struct lt_gcno_fn *c = &g->fns[j];
			uint32_t sites = 0;
			if (c == fn || strcmp(c->source, g->files[i]) != 0)
				continue;
			for (size_t k = 0; k < n; k++)
				sites += lines[k] >= c->start_line &&
					 lines[k] <= c->end_line &&
					 !gm_early_call(g, fn, i, lines[k]);
			if (sites)
				lost = caller_lost(g, x, tab, fn, c, unit, i,
				                   sites);
		}
		free(lines);
	}
	return lost;
}
