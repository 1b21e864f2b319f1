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

