/* Early or late inlined copies (gcda_state.h: gcda_early_inlined,
 * gcda_late_calls). gcc inlines small functions twice: einline, before
 * the gcno is written (the copy's blocks are its caller's gcno function's,
 * listing the callee's lines, and the caller's counters count it), and
 * ipa-inline, after (the gcno kept the call, the callee's counters count
 * the copy). The DWARF inline records look alike; the caller's gcno tells
 * them apart, where it can. */
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "gcda_state.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/gcov.h"
#include "ltpipe/outfile.h"

/* Finds the gcno function named name (declared in DWARF file decl, or
 * anywhere when decl is LT_DWARF_NO_FILE) in any gcno of the session. */
static const struct lt_gcno_fn *gcno_fn(const struct gcda_state *t,
                                        const struct lt_dwarf *dw,
                                        const char *name, uint32_t decl)
{
	const struct lt_gcno_fn *any = NULL;
	for (size_t i = 0; i < t->nfiles; i++)
		for (uint32_t k = 0; k < t->files[i].g->n_fns; k++) {
			const struct lt_gcno_fn *fn = &t->files[i].g->fns[k];
			if (strcmp(fn->name, name) != 0)
				continue;
			if (decl == LT_DWARF_NO_FILE ||
			    gm_same_file(dw->file[decl], fn->source))
				return fn;
			any = fn;
		}
	return any;
}

/* Does block b of c (in g) list a line of fn's body? */
static int lists_body(const struct lt_gcno *g, const struct lt_gcno_fn *c,
                      uint32_t b, const struct lt_gcno_fn *fn)
{
	for (uint32_t k = 0; k < c->blocks[b].n_lines; k++)
		if (gm_in_body(fn, c->blocks[b].lines[k].line) &&
		    gm_same_file(g->files[c->blocks[b].lines[k].file],
		                 fn->source))
			return 1;
	return 0;
}

/* Did the call of fn on line q->call_line of c stay a call when the gcno
 * was written? A block of c lists the line, and no block listing the
 * line is, or borders on, one listing fn's body (where an early-inlined
 * copy would be: einline leaves the call's own statements, the
 * arguments and the result, in the blocks of the copy's first and last
 * statements). Then the DWARF copy there was inlined late, even when c
 * also holds another, early-inlined copy of fn (`f(a, 0)` inlined early,
 * `f(a, p)` late). A kept call need not end its block: gcc gives a call
 * of a const or pure function no fake arc to EXIT. */
static int call_kept(const struct lt_gcno *g, const struct lt_dwarf *dw,
                     const struct lt_gcno_fn *c, const struct lt_gcno_fn *fn,
                     const struct lt_inline_func *q)
{
	int called = 0, src = 0;
	if (q->call_file == LT_DWARF_NO_FILE)
		return 0;
	/* A callee whose source is none of g's files (a function of the
	 * same name in another program's gcno) could never show in c's
	 * lines: nothing would tell an early copy from a kept call. */
	for (uint32_t k = 0; k < g->n_files && !src; k++)
		src = gm_same_file(g->files[k], fn->source);
	if (!src)
		return 0;
	for (uint32_t b = 2; b < c->n_blocks; b++) {
		int site = 0;
		for (uint32_t k = 0; k < c->blocks[b].n_lines && !site; k++)
			site = c->blocks[b].lines[k].line == q->call_line &&
			       gm_same_file(g->files[c->blocks[b].lines[k].file],
			                    dw->file[q->call_file]);
		if (!site)
			continue;
		if (lists_body(g, c, b, fn))
			return 0;
		called = 1;
		for (uint32_t a = 0; a < c->n_arcs; a++) {
			const struct lt_gcno_arc *x = &c->arcs[a];
			if ((x->src == b && x->dst >= 2 &&
			     lists_body(g, c, x->dst, fn)) ||
			    (x->dst == b && x->src >= 2 &&
			     lists_body(g, c, x->src, fn)))
				return 0;
		}
	}
	return called;
}

/* Was the call of fn on line q->call_line, written in the body of a
 * function copied into c early that has no gcno function of its own
 * (inlined early everywhere and removed), kept when the gcno was
 * written? Some block of c ends in a call on that line (a fake arc to
 * EXIT, the line the last it lists), lists none of fn's lines, and the
 * line calls fn and nothing else. Then the copy of fn there was inlined
 * late, even when c lists fn's lines and the line together elsewhere:
 * an early copy of fn that holds an early copy of the same function
 * (`is_odd` with `is_even` inside, its recursion made a loop) lists
 * both. Every early copy of that function carries the call its body
 * had when einline copied it, so the kept call is this one. A call to a
 * const or pure function has no fake arc: not seen, left as it was. */
static int nested_call_kept(const struct lt_gcno *g, const struct lt_dwarf *dw,
                            const struct lt_gcno_fn *c,
                            const struct lt_gcno_fn *fn,
                            const struct lt_inline_func *q)
{
	if (q->call_file == LT_DWARF_NO_FILE || !g->cwd)
		return 0;
	for (uint32_t b = 2; b < c->n_blocks; b++) {
		uint32_t n = c->blocks[b].n_lines;
		if (!n)
			continue;
		const struct lt_gcno_line *l = &c->blocks[b].lines[n - 1];
		if (l->line != q->call_line ||
		    !gm_same_file(g->files[l->file], dw->file[q->call_file]) ||
		    lists_body(g, c, b, fn))
			continue;
		int call = 0;
		for (uint32_t a = 0; a < c->n_arcs && !call; a++)
			call = c->arcs[a].src == b &&
			       (c->arcs[a].flags & LT_GCOV_ARC_FAKE);
		if (!call)
			continue;
		const char *name = g->files[l->file];
		char *path = name[0] == '/' ? strdup(name) :
		             lt_path_join(g->cwd, name);
		int only = path && gm_line_calls_only(path, l->line, fn->name);
		free(path);
		if (only)
			return 1;
	}
	return 0;
}

/* The gcno function (and its gcno, in *gp) of the nearest caller of
 * DWARF instance p (p itself first) that has one; *up is 1 when p
 * itself has none. NULL when none has. */
static const struct lt_gcno_fn *nearest_gcno_caller(
	const struct gcda_state *t, const struct lt_dwarf *dw, int32_t p,
	int *up)
{
	const struct lt_gcno_fn *c = gcno_fn(t, dw, dw->func[p].name,
	                                     dw->func[p].decl_file);
	for (*up = 0; !c && dw->func[p].parent >= 0; *up = 1) {
		p = dw->func[p].parent;
		c = gcno_fn(t, dw, dw->func[p].name, dw->func[p].decl_file);
	}
	return c;
}

/* The gcno of t holding function c, or NULL. */
static const struct lt_gcno *gcno_of(const struct gcda_state *t,
                                     const struct lt_gcno_fn *c)
{
	for (size_t i = 0; c && i < t->nfiles; i++)
		if (c >= t->files[i].g->fns &&
		    c < t->files[i].g->fns + t->files[i].g->n_fns)
			return t->files[i].g;
	return NULL;
}

/* Was the copy of fn at DWARF instance inst put into its caller before
 * the gcno was written (early inlining)? Then the caller's gcno function
 * lists fn's lines and its counters count that copy, not fn's. Returns
 * 1 when so, 0 when not, 2 when maybe: the caller lists fn's lines, but
 * no block lists them with the call's line, which may be the call's own
 * statements beside an early copy's (`switch (f(y))` after the copy's
 * return) or a call kept next to another call's early copy. */
int gcda_early_inlined(const struct gcda_state *t, const struct lt_dwarf *dw,
                       const struct lt_gcno_fn *fn, uint32_t inst)
{
	int32_t p = dw->func[inst].parent;
	if (p < 0)
		return 0;
	/* In a copy of a function with no gcno function (glibc's inline
	 * bsearch): early when a block of the nearest caller with one lists
	 * fn's lines and the line calling fn, unless that caller kept the
	 * call (nested_call_kept); fn itself: a call of fn. */
	int up = 0;
	const struct lt_gcno_fn *c = nearest_gcno_caller(t, dw, p, &up);
	/* A copy of fn inlined into a copy of fn inlined elsewhere is
	 * recursion the late inliner unrolled: a call of its own (those
	 * in fn's own body are gm_self_entries'). */
	if (c == fn && !up && dw->func[p].depth) {
		int32_t top = p;
		while (dw->func[top].parent >= 0)
			top = dw->func[top].parent;
		return strcmp(dw->func[top].name, fn->name) == 0;
	}
	if (!c || c == fn)
		return c == fn && !up;
	const struct lt_gcno *g = gcno_of(t, c);
	const struct lt_inline_func *q = &dw->func[inst];
	if (g && !up && call_kept(g, dw, c, fn, q))
		return 0;
	if (g && up && nested_call_kept(g, dw, c, fn, q))
		return 0;
	int maybe = 0;
	for (uint32_t b = 2; g && b < c->n_blocks; b++) {
		int own = 0, site = 0;
		for (uint32_t k = 0; k < c->blocks[b].n_lines; k++) {
			const struct lt_gcno_line *l = &c->blocks[b].lines[k];
			const char *path = g->files[l->file];
			own |= gm_in_body(fn, l->line) &&
			       gm_same_file(path, fn->source);
			site |= l->line == q->call_line &&
			        q->call_file != LT_DWARF_NO_FILE &&
			        gm_same_file(path, dw->file[q->call_file]);
		}
		if (own && site)
			return 1;
		maybe |= own && !up;
	}
	return maybe ? 2 : 0;
}

/* Per DWARF instance (dw->nfuncs flags; NULL without memory or
 * instances): a copy inlined late into a function of gcno g at a call
 * that function's gcno kept (call_kept), even where the caller also
 * holds an early copy of the callee, whose lines it then lists
 * (gcda_late.c). */
uint8_t *gcda_late_calls(const struct gcda_state *t, const struct lt_gcno *g,
                         const struct lt_dwarf *dw)
{
	uint8_t *v = dw && dw->nfuncs ? calloc(dw->nfuncs, 1) : NULL;
	for (size_t i = 0; v && i < dw->nfuncs; i++) {
		const struct lt_inline_func *q = &dw->func[i];
		if (q->depth == 0 || q->parent < 0)
			continue;
		const struct lt_inline_func *p = &dw->func[q->parent];
		int up = 0;
		const struct lt_gcno_fn *n = nearest_gcno_caller(
			t, dw, q->parent, &up);
		if (up) {
			/* Inside copies of functions with no gcno function
			 * of their own (nested_call_kept). */
			const struct lt_gcno_fn *fn =
				gcno_fn(t, dw, q->name, q->decl_file);
			v[i] = n && gcno_of(t, n) == g && fn && fn != n &&
			       nested_call_kept(g, dw, n, fn, q) ? 2 : 0;
			continue;
		}
		for (uint32_t k = 0; k < g->n_fns; k++) {
			const struct lt_gcno_fn *c = &g->fns[k], *fn;
			if (strcmp(c->name, p->name) != 0 ||
			    (p->decl_file != LT_DWARF_NO_FILE &&
			     !gm_same_file(dw->file[p->decl_file], c->source)))
				continue;
			fn = gcno_fn(t, dw, q->name, q->decl_file);
			v[i] = fn && fn != c && call_kept(g, dw, c, fn, q);
			break;
		}
	}
	return v;
}
