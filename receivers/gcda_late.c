/* Copies inlined late whose callees were also inlined early elsewhere
 * (gcda_mapper.h): the lines an instruction is counted under. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"

/* What the function's own instructions show of one inline instance. */
struct inst_seen {
	long q;      /* index into lt_dwarf.func */
	int in_gcno; /* one of its own instructions has a line some gcno
	                block lists */
	int lined;   /* one of its own instructions has a line */
	int listed;  /* as in_gcno, whatever late_call says */
};

/* qsort / bsearch order of instances: by index. */
static int cmp_inst(const void *a, const void *b)
{
	const struct inst_seen *x = a, *y = b;
	return x->q < y->q ? -1 : x->q > y->q;
}

/* The entry for instance q in v[n] (sorted), or NULL. */
static struct inst_seen *inst_get(struct inst_seen *v, size_t n, long q)
{
	struct inst_seen key = {q, 0, 0, 0};
	return bsearch(&key, v, n, sizeof(*v), cmp_inst);
}

/* Does any gcno block of g list (file, line)? */
static int in_some_block(const struct gm *g, uint32_t file, uint32_t line)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (gm_block_has_line(g, b, file, line))
			return 1;
	return 0;
}

/* gcc's profiling pass runs between early inlining (whose copies the
 * gcno function holds, lines and all) and the IPA inliner: a copy
 * inlined later is, for the gcno function, the call it replaced, and so
 * is everything the copy holds, even a callee of it whose lines the gcno
 * lists because gcc inlined it early at another call site (a helper
 * inlined into main early and, inside a function main inlines late,
 * again). An instance none of whose own instructions has a line the
 * gcno function lists from outside its own body, while some have lines,
 * was inlined late; so is one at a call the caller's gcno function kept
 * (a block lists the call's line with none of the callee's lines on or
 * beside it: gcda_early.c, call_kept),
 * even where an early copy of the same callee elsewhere in the caller
 * made the gcno list the lines the late copy's code has (`f(a, 0)`
 * inlined early, `f(a, p)` late, after IPA constant propagation turned
 * p into a known function). Every instruction inside a late copy (at
 * any depth) is counted at the call site of the outermost such instance
 * (caller_line in gcda_insns.c walks one instruction's own line only
 * and stops at a line the gcno lists).
 * A copy of the function inlined into itself (mutual recursion inlined
 * back) inside a late copy runs the function's own lines, which the
 * steps for such copies count (gcda_recurse.c, self_copy_estimates):
 * the walk out stops there. Returns 0 or LT_ERR_NOMEM. */
int gm_late_copies(struct gm *g)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw || !dw->nirange || !g->m)
		return 0;
	long *own = malloc(g->m * sizeof(*own));
	struct inst_seen *v = malloc(g->m * sizeof(*v));
	if (!own || !v) {
		free(own);
		free(v);
		return LT_ERR_NOMEM;
	}
	size_t n = 0;
	for (uint32_t i = 0; i < g->m; i++) {
		own[i] = lt_dwarf_inline_find(dw, g->in[i].addr);
		if (own[i] >= 0 && dw->func[own[i]].depth > 0)
			v[n++] = (struct inst_seen){own[i], 0, 0, 0};
	}
	qsort(v, n, sizeof(*v), cmp_inst);
	size_t w = 0;
	for (size_t k = 0; k < n; k++)
		if (!w || v[w - 1].q != v[k].q)
			v[w++] = v[k];
	n = w;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		struct inst_seen *s = own[i] >= 0 && in->line ?
			inst_get(v, n, own[i]) : NULL;
		if (!s)
			continue;
		s->lined = 1;
		/* The caller's own lines on code inside the copy (call
		 * arguments scheduled into it) are no sign of early
		 * inlining; a line of the callee's that the gcno lists is. */
		s->listed |= in_some_block(g, in->file, in->line) &&
			     !gm_in_own_body(g, in->file, in->line);
		if (g->x->late_call && g->x->late_call[own[i]])
			continue; /* late whatever its lines */
		s->in_gcno = s->listed;
	}
	for (uint32_t i = 0; i < g->m; i++) {
		long late = -1;
		for (long q = own[i]; q >= 0 && dw->func[q].depth > 0;
		     q = dw->func[q].parent) {
			if (strcmp(dw->func[q].name, g->f->name) == 0)
				break; /* a copy of itself: its own code */
			const struct inst_seen *s = inst_get(v, n, q);
			if (s && s->lined && !s->in_gcno)
				late = q;
		}
		if (late >= 0 && dw->func[late].call_line) {
			g->in[i].cfile = dw->func[late].call_file;
			g->in[i].cline = dw->func[late].call_line;
			/* Nested inside a late copy none of whose own lines
			 * the gcno lists: gcc instrumented that code in the
			 * copy's function (the nested callee inlined into it
			 * early, or its call kept) before the copy came
			 * here; a line of it the gcno lists is from another,
			 * early copy of the same callee. */
			const struct inst_seen *s = inst_get(v, n, late);
			g->in[i].in_late = own[i] != late && !s->listed;
		}
	}
	free(own);
	free(v);
	return 0;
}
