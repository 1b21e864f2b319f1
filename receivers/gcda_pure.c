/* Functions gcc may have found const or pure (gcda_map.h). Its
 * pure-const analysis (-O1 and up) lets later passes merge calls to such a
 * function with equal arguments, hoist them out of loops, or delete those
 * whose result is unused. The instrumented twin cannot: its counter
 * updates are stores, so its copy of the function is neither const nor
 * pure. The traced build then calls it fewer times than the twin counts
 * (a call with loop-invariant arguments runs once instead of once per
 * iteration), and nothing in the trace shows the calls that are gone.
 * Without link-time optimization only the function's own unit knows it
 * is pure, so only calls written in that unit's sources are at risk, and
 * a call that survived shows as a call instruction of its line running
 * as often as the line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcda_map.h"
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"
#include "ltpipe/outfile.h"

/* Callees followed before giving up (the function then counts as
 * possibly pure: the claim is what is at stake, not the counts). */
#define PURE_MAX_FNS 32

/* The walk over a function and what it calls. */
struct pure_walk {
	const struct lt_image *img;   /* the traced image */
	const struct lt_symtab *tab;  /* its function symbols */
	uint64_t fn[PURE_MAX_FNS];    /* entries of the callees queued */
	size_t n;                     /* entries in fn */
};

/* Queues the function entered at `to` once; an address that is no
 * symbol's start is an unknown callee: returns 1 (an effect). Callees
 * beyond PURE_MAX_FNS are not scanned (they count as pure). */
static int queue(struct pure_walk *w, uint64_t to)
{
	const struct lt_sym *s = lt_symtab_lookup(w->tab, to);
	if (!s || s->start != to)
		return 1;
	for (size_t k = 0; k < w->n; k++)
		if (w->fn[k] == to)
			return 0;
	if (w->n < PURE_MAX_FNS)
		w->fn[w->n++] = to;
	return 0;
}

/* Is addr inside one of own[0..nown)? */
static int inside(uint64_t addr, const struct gm_span *own, size_t nown)
{
	for (size_t k = 0; k < nown; k++)
		if (addr >= own[k].lo && addr < own[k].hi)
			return 1;
	return 0;
}

/* Does the code of own[0..nown) (one function's parts) do what gcc's
 * pure-const analysis counts as a side effect: a store not based on sp
 * (the function's own frame), an atomic, a trap (system call), a CSR
 * access or fence (asm volatile), a call through a pointer? Direct
 * calls, and jumps out of the function (tail calls), queue their
 * targets. An instruction that does not decode is an effect. */
static int effects(struct pure_walk *w, const struct gm_span *own,
                   size_t nown)
{
	for (size_t k = 0; k < nown; k++)
		for (uint64_t a = own[k].lo; a < own[k].hi;) {
			struct lt_insn in;
			int len = lt_image_insn(w->img, a, &in);
			if (len <= 0)
				return 1;
			uint32_t op = in.raw & 0x7f;
			if (gm_is_store(w->img, a) ||
			    in.cls == LT_INSN_TRAP || in.cls == LT_INSN_TRET ||
			    (len == 4 && (op == 0x73 || op == 0x0f)))
				return 1;
			if (in.cls == LT_INSN_IJUMP &&
			    (in.link == LT_LINK_CALL || in.link == LT_LINK_CORO))
				return 1;
			if (in.cls == LT_INSN_JUMP &&
			    (in.link != LT_LINK_NONE ||
			     !inside(in.target, own, nown)) &&
			    queue(w, in.target))
				return 1;
			a += (uint64_t)len;
		}
	return 0;
}

int gm_may_be_pure(const struct lt_image *img, const struct lt_symtab *tab,
                   const struct gm_span *part, size_t npart)
{
	struct pure_walk w = {.img = img, .tab = tab};
	if (!tab || !npart || effects(&w, part, npart))
		return 0;
	/* Recursion queues the function itself: it is scanned once more,
	 * harmlessly. */
	for (size_t k = 0; k < w.n; k++) {
		const struct lt_sym *s = lt_symtab_lookup(tab, w.fn[k]);
		struct gm_span one = {s->start, s->end, 0, 0};
		if (effects(&w, &one, 1))
			return 0;
	}
	return 1;
}

/* How one source line of the unit shows in the machine code: *runs the
 * largest count of an instruction of the line, *calls the executions of
 * its direct calls and jumps to the start of `name` (or a clone),
 * *entries the calls of the machine functions holding them (one per
 * call instruction). Returns whether the line has code at all. */
static int line_shows(const struct gm_ctx *x, const struct lt_symtab *tab,
                      const char *name, uint32_t file, uint32_t line,
                      uint32_t unit, uint64_t *runs, uint64_t *calls,
                      uint64_t *entries)
{
	const struct lt_dwarf *dw = x->dw;
	int code = 0;
	*runs = *calls = *entries = 0;
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
			uint64_t n = gc_insn_count(x->c, x->im, a);
			code = 1;
			if (n > *runs)
				*runs = n;
			if (hw->cls == LT_INSN_JUMP) {
				uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
				const struct lt_sym *s =
					lt_symtab_lookup(tab, t);
				const struct lt_sym *h =
					lt_symtab_lookup(tab, a);
				if (gm_is_fn_code(s, name) && s->start == t) {
					*calls += n;
					if (h)
						*entries += gc_insn_count(
							x->c, x->im, h->start);
				}
			}
			a += hw->len ? hw->len : 2;
		}
	}
	return code;
}

/* Is line of gcno file i inside the body of one of g's functions (a
 * call), not a declaration outside them or fn's own first line (its
 * definition)? */
static int in_some_body(const struct lt_gcno *g, const struct lt_gcno_fn *fn,
                        uint32_t i, uint32_t line)
{
	if (line == fn->start_line && strcmp(g->files[i], fn->source) == 0)
		return 0;
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		if (line >= c->start_line && line <= c->end_line &&
		    strcmp(c->source, g->files[i]) == 0)
			return 1;
	}
	return 0;
}

/* Does a gcno block listing line `line` of gcno file i lie on a cycle of
 * its function's CFG (a loop)? */
static int in_loop(const struct lt_gcno *g, uint32_t i, uint32_t line)
{
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		uint8_t *seen = calloc(c->n_blocks + 1, 1);
		uint32_t *stack = malloc((c->n_blocks + 1) * sizeof(*stack));
		int loop = !seen || !stack;
		for (uint32_t b = 2; b < c->n_blocks && !loop; b++) {
			const struct lt_gcno_block *bl = &c->blocks[b];
			int has = 0;
			for (uint32_t q = 0; q < bl->n_lines && !has; q++)
				has = bl->lines[q].file == i &&
				      bl->lines[q].line == line;
			if (!has)
				continue;
			/* Is b reachable from its own successors? */
			uint32_t n = 0;
			memset(seen, 0, c->n_blocks);
			stack[n++] = b;
			while (n && !loop) {
				uint32_t d = stack[--n];
				for (uint32_t a = 0; a < c->n_arcs && !loop;
				     a++) {
					const struct lt_gcno_arc *arc =
						&c->arcs[a];
					if (arc->src != d ||
					    (arc->flags & LT_GCOV_ARC_FAKE))
						continue;
					loop = arc->dst == b;
					if (!seen[arc->dst]) {
						seen[arc->dst] = 1;
						stack[n++] = arc->dst;
					}
				}
			}
		}
		free(seen);
		free(stack);
		if (loop)
			return 1;
	}
	return 0;
}

/* The executions of the basic block of the call on line `line` of gcno
 * file i: the largest machine count (gm_line_count) of a line listed by
 * a gcno block that lists this one. A call hoisted out of a loop leaves
 * the statements of its block behind, running more often than it. */
static uint64_t block_runs(const struct lt_gcno *g, const struct gm_ctx *x,
                           uint32_t i, uint32_t line, uint32_t unit)
{
	uint64_t best = 0;
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		for (uint32_t b = 2; b < c->n_blocks; b++) {
			const struct lt_gcno_block *bl = &c->blocks[b];
			int has = 0;
			for (uint32_t q = 0; q < bl->n_lines && !has; q++)
				has = bl->lines[q].file == i &&
				      bl->lines[q].line == line;
			for (uint32_t q = 0; q < bl->n_lines && has; q++) {
				uint32_t df = x->filemap[bl->lines[q].file];
				if (df == LT_DWARF_NO_FILE)
					continue;
				uint64_t n = gm_line_count(x, df,
				                           bl->lines[q].line,
				                           unit);
				if (n > best)
					best = n;
			}
		}
	}
	return best;
}

int gm_calls_all_shown(const struct lt_gcno *g, const struct gm_ctx *x,
                       const struct lt_gcno_fn *fn, uint32_t unit,
                       const struct lt_symtab *tab)
{
	if (!x->dw || !tab)
		return 0;
	for (uint32_t i = 0; i < g->n_files; i++) {
		uint32_t df, *lines;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		int ok = 1;
		for (size_t k = 0; k < n && ok; k++) {
			uint64_t m = 0, runs, calls;
			if (!in_some_body(g, fn, i, lines[k]))
				continue;
			for (size_t q = 0; q < n; q++)
				m += lines[q] == lines[k];
			uint64_t entries;
			ok = line_shows(x, tab, fn->name, df, lines[k], unit,
			                &runs, &calls, &entries);
			uint64_t br = block_runs(g, x, i, lines[k], unit);
			if (br > runs)
				runs = br;
			/* A call written in a loop that ran no more often
			 * than the code around it was called: the loop may
			 * be gone (the call hoisted, the rest folded). */
			ok = ok && calls >= m * runs &&
			     !(calls <= entries && in_loop(g, i, lines[k]));
		}
		free(lines);
		if (!ok)
			return 0;
		if (n || df == LT_DWARF_NO_FILE)
			continue;
		/* A source that cannot be read may call it. */
		const char *name = g->files[i];
		char *path = name[0] != '/' && g->cwd && g->cwd[0] ?
			     lt_path_join(g->cwd, name) : strdup(name);
		int unread = !path || access(path, R_OK) != 0;
		free(path);
		if (unread)
			return 0;
	}
	return 1;
}
