/* The source lines that call a function (gcda_map.h: gm_file_call_lines),
 * for a function the binary keeps no trace of (inlined everywhere with its
 * DWARF inline records dropped): the C source's `name (` outside
 * comments, literals and preprocessor lines (gcda_callindex.c); and what
 * the machine code of such a line shows of its calls (line_calls),
 * for a function some of whose calls were inlined without a trace. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcda_map.h"
#include "gcda_srctext.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"
#include "ltpipe/outfile.h"
#include "ltpipe/symbols.h"

int gm_is_fn_code(const struct lt_sym *s, const char *name)
{
	size_t n = strlen(name);
	return s && strncmp(s->name, name, n) == 0 &&
	       (s->name[n] == 0 || s->name[n] == '.');
}

/* What the machine code of DWARF (file, line) in compilation unit `unit`
 * shows of the calls to the function `name` the line makes: 1 when some
 * instruction of the line calls or jumps to the start of the function or
 * of a clone (tab's symbols), lies in an inlined copy of it, or a DWARF
 * inlined copy of it names the line as its call site (that copy's code
 * counts as the function's); 0 when the line has code but none of that
 * (gcc inlined the call and dropped the copy's inline record); -1 when
 * the line has no code. */
static int line_calls(const struct gm_ctx *x, const struct lt_symtab *tab,
                      const char *name, uint32_t file, uint32_t line,
                      uint32_t unit)
{
	const struct lt_dwarf *dw = x->dw;
	int code = -1;
	for (size_t q = 0; q < dw->nfuncs; q++)
		if (dw->func[q].depth && dw->func[q].call_line == line &&
		    dw->func[q].call_file == file &&
		    strcmp(dw->func[q].name, name) == 0)
			return 1;
	for (size_t r = 0; r + 1 < dw->nrows; r++) {
		const struct lt_line_row *w = &dw->row[r];
		if (w->end_seq || w->line != line || w->file != file ||
		    (unit != LT_DWARF_NO_FILE && w->unit != unit))
			continue;
		/* Rows of one sequence ascend; the next row ends this one. */
		uint64_t end = dw->row[r + 1].addr;
		const struct lt_region *rg = lt_image_region(x->img, w->addr);
		if (!rg || end <= w->addr || end - w->addr > 4096)
			continue;
		for (uint64_t a = w->addr; a < end && a < rg->end;) {
			const struct lt_hwinfo *hw =
				&rg->info[lt_region_idx(rg, a)];
			const struct lt_inline_func *st[16];
			int depth = lt_dwarf_inline_stack(dw, a, st, 16);
			code = 0;
			if (hw->cls == LT_INSN_JUMP) {
				uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
				const struct lt_sym *s =
					lt_symtab_lookup(tab, t);
				if (gm_is_fn_code(s, name) && s->start == t)
					return 1;
			}
			for (int k = 0; k + 1 < depth && k < 16; k++)
				if (strcmp(st[k]->name, name) == 0)
					return 1;
			a += hw->len ? hw->len : 2;
		}
	}
	return code;
}


/* The symbol (caller) holding the first code of DWARF (file, line) in
 * `unit`, or NULL. */
static const struct lt_sym *line_caller(const struct gm_ctx *x,
                                        const struct lt_symtab *tab,
                                        uint32_t file, uint32_t line,
                                        uint32_t unit)
{
	const struct lt_dwarf *dw = x->dw;
	for (size_t r = 0; r + 1 < dw->nrows; r++) {
		const struct lt_line_row *w = &dw->row[r];
		if (w->end_seq || w->line != line || w->file != file ||
		    (unit != LT_DWARF_NO_FILE && w->unit != unit))
			continue;
		return lt_symtab_lookup(tab, w->addr);
	}
	return NULL;
}

/* Direct calls of `name` (or a clone) in caller c that no line of
 * lines[0..n) of file accounts for: those whose DWARF line is none of
 * them (gcc attributed the call to another line of the statement: an
 * argument on a continuation line of a call spanning several lines is
 * given the statement's first line, even at -O0), and those beyond the
 * number of times the source calls it on a listed line (`f(a),\n f(b)`
 * as two calls both on the first line, the second's argument code on
 * the next). */
static uint32_t orphan_calls(const struct gm_ctx *x,
                             const struct lt_symtab *tab,
                             const struct lt_sym *c, const char *name,
                             uint32_t file, const uint32_t *lines,
                             size_t n)
{
	const struct lt_region *rg = lt_image_region(x->img, c->start);
	uint32_t k = 0;
	uint32_t *seen = n ? calloc(n, sizeof(*seen)) : NULL;
	if (!rg || (n && !seen)) {
		free(seen);
		return 0;
	}
	for (uint64_t a = c->start; a < c->end && a < rg->end;) {
		const struct lt_hwinfo *hw = &rg->info[lt_region_idx(rg, a)];
		if (hw->cls == LT_INSN_JUMP) {
			uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
			const struct lt_sym *s = lt_symtab_lookup(tab, t);
			const struct lt_line_row *w = lt_dwarf_line(x->dw, a);
			if (gm_is_fn_code(s, name) && s->start == t && w) {
				/* The first occurrence of the line not yet
				 * matched with a call takes this one. */
				size_t q = 0;
				while (q < n && (w->file != file ||
				                 w->line != lines[q] || seen[q]))
					q++;
				if (q < n)
					seen[q] = 1;
				k += q == n;
			}
		}
		a += hw->len ? hw->len : 2;
	}
	free(seen);
	return k;
}

/* Does gcno function c's CFG list a line of its own source file outside
 * its body? Code of a function inlined early and then removed (a static
 * function with no other use has no gcno record of its own) keeps its
 * lines. */
static int lists_foreign_line(const struct lt_gcno *g,
                              const struct lt_gcno_fn *c)
{
	for (uint32_t b = 2; b < c->n_blocks; b++)
		for (uint32_t q = 0; q < c->blocks[b].n_lines; q++) {
			const struct lt_gcno_line *l = &c->blocks[b].lines[q];
			if ((l->line < c->start_line || l->line > c->end_line) &&
			    strcmp(g->files[l->file], c->source) == 0)
				return 1;
		}
	return 0;
}

/* Did gcc inline calls early (before writing the gcno) in the unit of
 * g: does some function's CFG list a line of another function's body,
 * or of its own file outside its own body (the inlined function was
 * removed before the gcno was written)? gcc -O2 does (small functions,
 * einline); -O1 only for always_inline functions. */
int gm_unit_inlines_early(const struct lt_gcno *g)
{
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		if (lists_foreign_line(g, c))
			return 1;
		for (uint32_t j = 0; j < g->n_fns; j++) {
			const struct lt_gcno_fn *f = &g->fns[j];
			if (j == k)
				continue;
			for (uint32_t b = 2; b < c->n_blocks; b++)
				for (uint32_t q = 0; q < c->blocks[b].n_lines;
				     q++) {
					const struct lt_gcno_line *l =
						&c->blocks[b].lines[q];
					if (gm_in_body(f, l->line) &&
					    strcmp(g->files[l->file],
					           f->source) == 0)
						return 1;
				}
		}
	}
	return 0;
}

/* Was the call of fn on line `line` of g's source file `file` inlined
 * before the gcno was written (early inlining)? Then the gcno function
 * holding the line lists fn's lines and counts that copy as its own. */
int gm_early_call(const struct lt_gcno *g, const struct lt_gcno_fn *fn,
                      uint32_t file, uint32_t line)
{
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		if (c == fn || line < c->start_line || line > c->end_line ||
		    strcmp(c->source, g->files[file]) != 0)
			continue;
		for (uint32_t b = 2; b < c->n_blocks; b++)
			for (uint32_t q = 0; q < c->blocks[b].n_lines; q++) {
				const struct lt_gcno_line *l =
					&c->blocks[b].lines[q];
				if (gm_in_body(fn, l->line) &&
				    strcmp(g->files[l->file], fn->source) == 0)
					return 1;
			}
	}
	return 0;
}

/* The path of gcno file i, a relative name taken from g's cwd
 * (malloc'd; NULL when out of memory). */
static char *source_path(const struct lt_gcno *g, uint32_t i)
{
	const char *name = g->files[i];
	return name[0] != '/' && g->cwd && g->cwd[0] ?
	       lt_path_join(g->cwd, name) : strdup(name);
}

int gm_gcno_source_unread(const struct lt_gcno *g, uint32_t i)
{
	char *path = source_path(g, i);
	int unread = !path || access(path, R_OK) != 0;
	free(path);
	return unread;
}

size_t gm_file_call_lines(const struct lt_gcno *g, const struct gm_ctx *x,
                          const struct lt_gcno_fn *fn, uint32_t i,
                          uint32_t *df, uint32_t **lines)
{
	*df = x->filemap[i];
	*lines = NULL;
	if (*df == LT_DWARF_NO_FILE)
		return 0;
	char *path = source_path(g, i);
	size_t n = path ? gm_source_call_lines(x->src, path, fn->name, lines)
	                : 0;
	free(path);
	return n;
}

int gm_unit_source_unread(const struct lt_gcno *g, const struct gm_ctx *x)
{
	for (uint32_t i = 0; i < g->n_files; i++) {
		if (x->filemap[i] == LT_DWARF_NO_FILE)
			continue;
		if (gm_gcno_source_unread(g, i))
			return 1;
	}
	return 0;
}

int gm_own_body_line(const struct lt_gcno *g, const struct lt_gcno_fn *fn,
                     uint32_t i, uint32_t line)
{
	return strcmp(g->files[i], fn->source) == 0 &&
	       line >= fn->start_line && line <= fn->end_line;
}

/* Calls of fn in the running program that its machine code does not
 * show: the sum, over the lines of g's source files that call fn
 * (outside fn's own body: recursion), of each line's count in
 * compilation unit `unit`. With tab NULL (fn has no code and no inline
 * record in the binary) every such line counts; else only lines with
 * code that neither calls fn nor holds an inlined copy of it
 * (line_calls), whose call was not inlined early (early_call): there gcc
 * inlined the call late and dropped the copy's inline record (a
 * constant function folded into its caller), while the instrumented
 * build, whose copy of fn counts, may well have kept the call. Sources
 * that cannot be read count nothing. */
uint64_t gm_source_calls(const struct lt_gcno *g, const struct gm_ctx *x,
                             const struct lt_gcno_fn *fn, uint32_t unit,
                             const struct lt_symtab *tab)
{
	uint64_t total = 0;
	for (uint32_t i = 0; x->dw && i < g->n_files; i++) {
		uint32_t df, *lines = NULL;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		for (size_t k = 0; k < n; k++) {
			if (gm_own_body_line(g, fn, i, lines[k]))
				continue;
			if (tab && (line_calls(x, tab, fn->name, df,
			                          lines[k], unit) != 0 ||
			            gm_early_call(g, fn, i, lines[k])))
				continue;
			if (tab) {
				/* A call the caller makes on another line of
				 * the statement accounts for this line (one
				 * per such line of the caller). */
				const struct lt_sym *c = line_caller(
					x, tab, df, lines[k], unit);
				uint32_t orphans = c ? orphan_calls(
					x, tab, c, fn->name, df, lines,
					n) : 0;
				uint32_t before = 0;
				for (size_t q = 0; q < k && orphans; q++)
					if (line_caller(x, tab, df, lines[q],
					                unit) == c &&
					    line_calls(x, tab, fn->name, df,
					               lines[q], unit) == 0)
						before++;
				if (before < orphans)
					continue;
			}
			total += gm_line_count(x, df, lines[k], unit);
		}
		free(lines);
	}
	return total;
}

/* Adds to arc[] (fn's counts from its machine code, res its result)
 * `hidden` calls the machine code does not show (source_calls): a
 * flow-consistent fill-in of those calls (gm_map_entries), the sum of
 * two flows being one. Which way those copies went inside fn is
 * unknown, so fn is inferred and no counter is determined. Returns 0 or
 * LT_ERR_NOMEM. */
int gm_add_hidden(const struct gm_ctx *x, const struct lt_gcno_fn *fn,
                  uint64_t hidden, int add, uint64_t *arc,
                  struct gm_result *res)
{
	if (add) {
		uint64_t *more = calloc(fn->n_arcs + 1, sizeof(*more));
		struct gm_result r2 = {0};
		if (!more)
			return LT_ERR_NOMEM;
		int rc = gm_map_entries(x, fn, hidden, more, &r2);
		for (uint32_t a = 0; !rc && a < fn->n_arcs; a++)
			arc[a] += more[a];
		free(more);
		if (rc)
			return rc;
	}
	res->status = GM_INFERRED;
	res->n_exact = 0;
	if (res->det)
		memset(res->det, 0, fn->n_arcs);
	snprintf(res->why, sizeof(res->why), "%s", add ?
	         "calls inlined with no inline record: counted from their "
	         "lines" : "calls folded with no inline record, taken as "
	         "inlined early");
	return 0;
}

/* Does gcno function c's CFG list line `line` of gcno file i? */
static int lists_line(const struct lt_gcno_fn *c, uint32_t i, uint32_t line)
{
	for (uint32_t b = 2; b < c->n_blocks; b++)
		for (uint32_t q = 0; q < c->blocks[b].n_lines; q++)
			if (c->blocks[b].lines[q].file == i &&
			    c->blocks[b].lines[q].line == line)
				return 1;
	return 0;
}

/* Does the machine code in [lo, hi) show anything of DWARF (file, line):
 * an instruction of the line, or one inside a copy inlined from it?
 * Code the image does not hold counts as shown. */
static int range_shows_line(const struct gm_ctx *x, uint64_t lo, uint64_t hi,
                            uint32_t file, uint32_t line)
{
	const struct lt_region *rg = lt_image_region(x->img, lo);
	if (!rg)
		return 1;
	for (uint64_t a = lo; a < hi && a < rg->end;) {
		const struct lt_hwinfo *hw = &rg->info[lt_region_idx(rg, a)];
		const struct lt_line_row *w = lt_dwarf_line(x->dw, a);
		if (w && w->file == file && w->line == line)
			return 1;
		const struct lt_inline_func *st[16];
		int depth = lt_dwarf_inline_stack(x->dw, a, st, 16);
		for (int k = 0; k < depth && k < 16; k++)
			if (st[k]->call_line == line && st[k]->call_file == file)
				return 1;
		a += hw->len ? hw->len : 2;
	}
	return 0;
}

int gm_early_copy_lost(const struct lt_gcno *g, const struct gm_ctx *x,
                       const struct lt_gcno_fn *fn, const uint64_t (*rng)[2])
{
	int hit = 0;
	for (uint32_t i = 0; x->dw && i < g->n_files && !hit; i++) {
		uint32_t df, *lines = NULL;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		for (size_t k = 0; k < n && !hit; k++) {
			if (gm_own_body_line(g, fn, i, lines[k]))
				continue;
			for (uint32_t j = 0; j < g->n_fns && !hit; j++) {
				const struct lt_gcno_fn *c = &g->fns[j];
				if (c == fn || rng[j][1] <= rng[j][0] ||
				    gm_own_body_line(g, c, i, lines[k]) ||
				    !lists_line(c, i, lines[k]) ||
				    !gc_insn_count(x->c, x->im, rng[j][0]))
					continue;
				hit = !range_shows_line(x, rng[j][0], rng[j][1],
				                        df, lines[k]);
			}
		}
		free(lines);
	}
	return hit;
}
