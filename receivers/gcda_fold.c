/* gcc -O2's identical code folding (-fipa-icf) merges functions with the
 * same body into one, the others becoming aliases of its code; the
 * symbol table keeps one name per address. An instrumented build keeps
 * them apart (their counters differ), so the shared code counts the
 * executions of all of them together: such a function is counted from the
 * calls its callers make (gcda_map.h). */
#include <gelf.h>
#include <libelf.h>
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

uint64_t gm_folded(const struct lt_image *img, const struct lt_gcno *g,
                   const struct lt_symtab *tab, const struct lt_dwarf *dw,
                   uint32_t unit, const struct lt_gcno_fn *fn, long si)
{
	if (!img->elf_data || img->elf_size < 4 ||
	    memcmp(img->elf_data, "\177ELF", 4) != 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)img->elf_data, img->elf_size);
	if (!elf)
		return 0;
	uint64_t addr = si >= 0 ? tab->sym[si].start : 0, found = 0;
	Elf_Scn *scn = NULL;
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t q = 0; q < n && !found; q++) {
			GElf_Sym sy;
			if (!gelf_getsym(d, (int)q, &sy) ||
			    GELF_ST_TYPE(sy.st_info) != STT_FUNC || !sy.st_value)
				continue;
			const char *sn = elf_strptr(elf, sh.sh_link, sy.st_name);
			if (!sn)
				continue;
			if (si >= 0) {
				/* fn kept the symbol: another of g's
				 * functions names the same code */
				if (sy.st_value == addr &&
				    strcmp(sn, fn->name) != 0 && gcno_has(g, sn))
					found = addr;
				continue;
			}
			/* fn lost its name: an alias of fn's name in its unit
			 * whose kept name is another of g's functions */
			if (strcmp(sn, fn->name) != 0 ||
			    !gm_in_unit(dw, sy.st_value, unit))
				continue;
			const struct lt_sym *k = lt_symtab_lookup(tab, sy.st_value);
			if (k && k->start == sy.st_value &&
			    strcmp(k->name, fn->name) != 0 && gcno_has(g, k->name))
				found = sy.st_value;
		}
	}
	elf_end(elf);
	return found;
}

/* Calls of fn, whose code at addr is folded with other functions': the
 * executions of the direct calls and jumps to addr on the source lines
 * that call fn (gm_call_lines, outside fn) in compilation unit `unit`. */
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

