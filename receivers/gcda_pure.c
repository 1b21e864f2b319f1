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

#include "gcda_map.h"
#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

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

/* Marks in body[] the blocks of the innermost natural loop of c holding
 * block b (dom: c->n_blocks squared scratch, stack: c->n_blocks). Returns
 * 0 when b is in no loop (or on no memory). */
static int inner_loop(const struct lt_gcno_fn *c, uint32_t b, uint8_t *dom,
                      uint8_t *body, uint32_t *stack)
{
	uint32_t nb = c->n_blocks, best = 0;
	uint8_t *cur = malloc(nb);
	if (!cur)
		return 0;
	/* dom[y * nb + x]: x dominates y (iterative, from ENTRY). */
	memset(dom, 1, (size_t)nb * nb);
	memset(dom, 0, nb);
	dom[0] = 1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t a = 0; a < c->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &c->arcs[a];
			if (arc->flags & LT_GCOV_ARC_FAKE || arc->dst == 0)
				continue;
			uint8_t *d = dom + (size_t)arc->dst * nb;
			const uint8_t *sd = dom + (size_t)arc->src * nb;
			for (uint32_t x = 0; x < nb; x++) {
				uint8_t v = d[x] & (sd[x] | (x == arc->dst));
				changed |= v != d[x];
				d[x] = v;
			}
		}
	}
	for (uint32_t h = 0; h < nb; h++) {
		if (!dom[(size_t)b * nb + h])
			continue;
		uint32_t n = 0, size = 1;
		memset(cur, 0, nb);
		cur[h] = 1;
		for (uint32_t a = 0; a < c->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &c->arcs[a];
			if (arc->dst == h && !(arc->flags & LT_GCOV_ARC_FAKE) &&
			    dom[(size_t)arc->src * nb + h] && !cur[arc->src]) {
				cur[arc->src] = 1;
				stack[n++] = arc->src;
				size++;
			}
		}
		if (size == 1)
			continue;
		while (n) {
			uint32_t x = stack[--n];
			for (uint32_t a = 0; a < c->n_arcs; a++) {
				const struct lt_gcno_arc *arc = &c->arcs[a];
				if (arc->dst != x || cur[arc->src] ||
				    (arc->flags & LT_GCOV_ARC_FAKE))
					continue;
				cur[arc->src] = 1;
				stack[n++] = arc->src;
				size++;
			}
		}
		if (cur[b] && (!best || size < best)) {
			best = size;
			memcpy(body, cur, nb);
		}
	}
	free(cur);
	return best != 0;
}

/* Is the code at addr part of instance `in` (its own code or that of a
 * callee inlined into it)? */
static int in_instance(const struct lt_dwarf *dw, uint64_t addr,
                       const struct lt_inline_func *in)
{
	const struct lt_inline_func *st[32];
	int depth = lt_dwarf_inline_stack(dw, addr, st, 32);
	for (int q = 0; q < depth && q < 32; q++)
		if (st[q] == in)
			return 1;
	return 0;
}

/* Does control from the call at addr (in symbol h) come back to it
 * without leaving instance `in` (the copy of the function whose loop
 * holds the call)? An indirect jump other than a return: maybe (1). */
static int comes_back(const struct gm_ctx *x, const struct lt_sym *h,
                      uint64_t addr, const struct lt_inline_func *in)
{
	size_t span = (size_t)((h->end - h->start) / 2) + 1;
	uint8_t *seen = calloc(span, 1);
	uint64_t *stack = malloc(span * sizeof(*stack));
	int back = !seen || !stack; /* no memory: maybe */
	size_t top = 0;
	const struct lt_region *rg = lt_image_region(x->img, addr);
	if (!back && rg)
		stack[top++] = addr;
	while (top && !back) {
		uint64_t a = stack[--top];
		const struct lt_hwinfo *hw = &rg->info[lt_region_idx(rg, a)];
		uint64_t nx[2];
		int k = 0;
		uint64_t next = a + (hw->len ? hw->len : 2);
		if (hw->cls == LT_INSN_IJUMP) {
			if (hw->link == LT_LINK_NONE)
				back = 1;
			else if (hw->link != LT_LINK_RET)
				nx[k++] = next; /* an indirect call returns */
		} else if (hw->cls == LT_INSN_JUMP) {
			nx[k++] = hw->link == LT_LINK_NONE ?
				  a + (uint64_t)(int64_t)hw->tgt : next;
		} else if (hw->cls == LT_INSN_BRANCH) {
			nx[k++] = next;
			nx[k++] = a + (uint64_t)(int64_t)hw->tgt;
		} else if (hw->cls != LT_INSN_TRET) {
			nx[k++] = next;
		}
		for (int q = 0; q < k && !back; q++) {
			uint64_t t = nx[q];
			if (t < h->start || t >= h->end || t < rg->base ||
			    t >= rg->end)
				continue;
			back = t == addr;
			size_t i = (size_t)((t - h->start) / 2);
			if (back || seen[i] || !in_instance(x->dw, t, in))
				continue;
			seen[i] = 1;
			stack[top++] = t;
		}
	}
	free(seen);
	free(stack);
	return back;
}

/* Is a call of `name` on line `line` of gcno file i (DWARF file df) in a
 * loop of the gcno function c holding it (a block listing the line lies on
 * a natural loop) that the machine code no longer has around it: an
 * executed direct call there that control never reaches again without
 * leaving c's copy holding the call? gcc moved a pure call with invariant
 * arguments out of its loop, or computed the loop's outcome without
 * running it (`while (i < n && c) { i++; x = h(k); }` as one test and one
 * call): the call runs once where the twin counts every iteration. A
 * loop around the call inside c still running (an outer one) hides this:
 * lines cannot tell the inner loop's code (gcc gives moved code the lines
 * it likes). */
static int loop_gone(const struct lt_gcno *g, const struct gm_ctx *x,
                     const struct lt_symtab *tab, const char *name,
                     uint32_t i, uint32_t df, uint32_t line, uint32_t unit)
{
	const struct lt_dwarf *dw = x->dw;
	int gone = 0;
	for (uint32_t k = 0; k < g->n_fns && !gone; k++) {
		const struct lt_gcno_fn *c = &g->fns[k];
		uint32_t nb = c->n_blocks;
		int looped = 0;
		uint8_t *dom = malloc((size_t)nb * nb + 1);
		uint8_t *body = malloc(nb + 1);
		uint32_t *stack = malloc((nb + 1) * sizeof(*stack));
		for (uint32_t b = 2; b < nb && dom && body && stack &&
		                     !looped; b++) {
			const struct lt_gcno_block *bl = &c->blocks[b];
			int has = 0;
			for (uint32_t q = 0; q < bl->n_lines && !has; q++)
				has = bl->lines[q].file == i &&
				      bl->lines[q].line == line;
			looped = has && inner_loop(c, b, dom, body, stack);
		}
		free(dom);
		free(body);
		free(stack);
		for (size_t r = 0; looped && !gone && r + 1 < dw->nrows; r++) {
			const struct lt_line_row *w = &dw->row[r];
			if (w->end_seq || w->line != line || w->file != df ||
			    (unit != LT_DWARF_NO_FILE && w->unit != unit))
				continue;
			uint64_t end = dw->row[r + 1].addr;
			const struct lt_region *rg =
				lt_image_region(x->img, w->addr);
			if (!rg || end <= w->addr || end - w->addr > 4096)
				continue;
			for (uint64_t a = w->addr; a < end && a < rg->end &&
			                           !gone;) {
				const struct lt_hwinfo *hw =
					&rg->info[lt_region_idx(rg, a)];
				uint64_t t = a + (uint64_t)(int64_t)hw->tgt;
				const struct lt_sym *s =
					lt_symtab_lookup(tab, t);
				const struct lt_sym *h =
					lt_symtab_lookup(tab, a);
				const struct lt_inline_func *st[32];
				int depth = lt_dwarf_inline_stack(dw, a, st,
				                                  32);
				int q = 0;
				while (q < depth && q < 32 &&
				       strcmp(st[q]->name, c->name) != 0)
					q++;
				gone = hw->cls == LT_INSN_JUMP &&
				       hw->link != LT_LINK_NONE &&
				       gc_insn_count(x->c, x->im, a) && s &&
				       h && gm_is_fn_code(s, name) &&
				       s->start == t && q < depth && q < 32 &&
				       !comes_back(x, h, a, st[q]);
				a += hw->len ? hw->len : 2;
			}
		}
	}
	return gone;
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
			     !(calls <= entries && in_loop(g, i, lines[k])) &&
			     !loop_gone(g, x, tab, fn->name, i, df, lines[k],
			                unit);
		}
		free(lines);
		if (!ok)
			return 0;
		if (n || df == LT_DWARF_NO_FILE)
			continue;
		/* A source that cannot be read may call it. */
		if (gm_gcno_source_unread(g, i))
			return 0;
	}
	return 1;
}
