/* gcda receiver: from a trace of a program built with -ftest-coverage (no
 * instrumentation), writes the .gcda files an -fprofile-arcs run of the
 * same program would have written.
 *
 *   -r gcda[:gcno=DIR|FILE,FILE...][,out=DIR][,merge=1]
 *
 * gcno: a directory scanned (three levels deep) for *.gcno, or a list of
 * .gcno files separated by ',' is impossible in an option value, so by ':'
 * or ';'. Default: the directories of the session's ELFs, else their
 * units' compilation directories (gcda_find.c). Each gcno is
 * mapped onto the session image (--elf) holding its functions and source
 * files (gcda.c: match_score); gcno files none of whose functions or
 * source files appear in any image are skipped.
 * out: write each gcda under DIR with its name relative to the gcno
 * directory (the basename for listed files); default: next to its gcno,
 * where the instrumented run would put it. merge=1: add onto an existing
 * gcda like a second run (runs and counters added), under a lock per gcda
 * (outlock.h) so that writers merging into the same files at once (the
 * daemon sessions of one run's harts, several `ltpipe decode`) each add
 * theirs; a session holding another hart of a run (same_run: daemon
 * SESSION-hartN) adds its counters and counts no run.
 *
 * Counting is per executed block (gcda_count.c); mapping onto each gcno
 * function happens once, at close (gcda_map.c). A function's f.cold part
 * (hot/cold partitioning) is mapped as part of f; where several static
 * functions share a name and declaring file (a header's static inline
 * function, one copy per unit), each gcno takes the copy in its own
 * compilation unit. The report
 * OUTDIR/gcda-report.txt lists every function as exact, inferred, zero
 * (never executed) or absent (not in the binary), which counters the
 * machine code determined, and the exact-counter rate; one summary line
 * goes to stderr. sum_max is the largest counter
 * over every gcno of the program, as libgcov computes it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gcda_count.h"
#include "gcda_map.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/error.h"
#include "ltpipe/gcov.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"
#include "ltpipe/symbols.h"

#include "gcda_state.h"

static void state_free(struct gcda_state *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nfiles; i++) {
		struct gfile *f = &t->files[i];
		if (f->g)
			for (uint32_t k = 0; k < f->g->n_fns; k++) {
				if (f->arcs)
					free(f->arcs[k]);
				if (f->why)
					free(f->why[k]);
				if (f->det)
					free(f->det[k]);
			}
		free(f->arcs);
		free(f->why);
		free(f->status);
		free(f->nexact);
		free(f->det);
		lt_gcno_free(f->g);
		free(f->gcno_path);
		free(f->gcda_path);
	}
	free(t->files);
	free(t->outdir);
	gc_counts_free(&t->counts);
	free(t);
}

static int gcda_open(void **state, const struct lt_session_info *s,
                     const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"gcno", "out", "merge", NULL};
	if (lt_opts_check(opts, "gcda", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	if (!s->images || !s->images->n) {
		snprintf(err, errlen, "gcda: needs the program's ELF (--elf)");
		return LT_ERR_INVAL;
	}
	struct gcda_state *t = calloc(1, sizeof(*t));
	if (!t)
		return LT_ERR_NOMEM;
	t->s = s;
	t->files = calloc(MAX_GCNO, sizeof(*t->files));
	const char *v = lt_opts_get(opts, "merge");
	t->merge = v && strcmp(v, "0") != 0;
	v = lt_opts_get(opts, "out");
	if (v && !(t->outdir = strdup(v))) {
		state_free(t);
		return LT_ERR_NOMEM;
	}
	int rc = t->files ? gc_counts_init(&t->counts, s->images) :
			    LT_ERR_NOMEM;
	if (!rc)
		rc = gcda_find_gcno(t, lt_opts_get(opts, "gcno"), err, errlen);
	if (rc) {
		state_free(t);
		return rc;
	}
	*state = t;
	return 0;
}

static int gcda_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct gcda_state *t = state;
	gc_counts_add(&t->counts, ev, n);
	return 0;
}

/* Symbol table entries sorted by name, for lookups by assembler name. */
struct by_name {
	const struct lt_symtab *tab; /* the table */
	uint32_t *idx;               /* entry indices sorted by name */
};

static const struct lt_symtab *sort_tab;

static int cmp_name(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	return strcmp(sort_tab->sym[*x].name, sort_tab->sym[*y].name);
}

/* Does the DWARF path p name the same file as gcno source s? */
int gm_same_file(const char *p, const char *s)
{
	if (strcmp(p, s) == 0)
		return 1;
	size_t n = strlen(p), k = strlen(s);
	if (n > k && p[n - k - 1] == '/' && strcmp(p + n - k, s) == 0)
		return 1;
	return k > n && s[k - n - 1] == '/' && strcmp(s + k - n, p) == 0;
}

/* The compilation unit of the code at addr (its line row's), or
 * LT_DWARF_NO_FILE when unknown. */
static uint32_t unit_at(const struct lt_dwarf *dw, uint64_t addr)
{
	const struct lt_line_row *row = dw ? lt_dwarf_line(dw, addr) : NULL;
	return row ? row->unit : LT_DWARF_NO_FILE;
}

/* Does the code at addr belong to compilation unit `unit` (or is either
 * unknown)? */
int gm_in_unit(const struct lt_dwarf *dw, uint64_t addr, uint32_t unit)
{
	uint32_t u = unit_at(dw, addr);
	return unit == LT_DWARF_NO_FILE || u == LT_DWARF_NO_FILE || u == unit;
}

/* Index in bn (sorted by name) of the first symbol named name or after
 * it by name (bn->tab->n when none). */
static size_t first_named(const struct by_name *bn, const char *name)
{
	size_t lo = 0, hi = bn->tab->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(bn->tab->sym[bn->idx[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Finds the machine function of gcno function fn: the symbol of that name
 * whose code's DWARF file is fn's source when several share the name,
 * and among those, the one in compilation unit `unit` (the gcno's; a
 * static inline function of a header has one copy per unit, all
 * declared in the header). */
static long find_machine(const struct by_name *bn, const struct lt_dwarf *dw,
                         const struct lt_gcno_fn *fn, uint32_t unit)
{
	size_t lo = first_named(bn, fn->name);
	long only = -1;
	size_t n = 0;
	for (size_t i = lo; i < bn->tab->n &&
	     strcmp(bn->tab->sym[bn->idx[i]].name, fn->name) == 0; i++) {
		n++;
		only = bn->idx[i];
	}
	if (n <= 1 || !dw)
		return only;
	long any = -1;
	for (size_t i = lo; i < lo + n; i++) {
		const struct lt_sym *s = &bn->tab->sym[bn->idx[i]];
		long fi = lt_dwarf_inline_find(dw, s->start);
		const struct lt_line_row *row = lt_dwarf_line(dw, s->start);
		if ((fi >= 0 && dw->func[fi].decl_file != LT_DWARF_NO_FILE &&
		     gm_same_file(dw->file[dw->func[fi].decl_file],
		                  fn->source)) ||
		    (row && gm_same_file(dw->file[row->file], fn->source))) {
			if (gm_in_unit(dw, s->start, unit))
				return bn->idx[i];
			if (any < 0)
				any = bn->idx[i];
		}
	}
	return unit == LT_DWARF_NO_FILE ? any : -1;
}

/* Number of symbols named name. */
static size_t n_named(const struct by_name *bn, const char *name)
{
	size_t lo = first_named(bn, name), n = 0;
	while (lo + n < bn->tab->n &&
	       strcmp(bn->tab->sym[bn->idx[lo + n]].name, name) == 0)
		n++;
	return n;
}

/* The compilation unit of gcno g in the program: that of the first of
 * its functions whose name only one symbol has, or LT_DWARF_NO_FILE. */
static uint32_t gcno_unit(const struct lt_gcno *g, const struct by_name *bn,
                          const struct lt_dwarf *dw)
{
	for (uint32_t k = 0; dw && k < g->n_fns; k++) {
		long si = find_machine(bn, NULL, &g->fns[k], LT_DWARF_NO_FILE);
		if (si < 0 || n_named(bn, g->fns[k].name) != 1)
			continue;
		uint32_t u = unit_at(dw, bn->tab->sym[si].start);
		if (u != LT_DWARF_NO_FILE)
			return u;
	}
	return LT_DWARF_NO_FILE;
}

static int cmp_span(const void *a, const void *b)
{
	const struct gm_span *x = a, *y = b;
	if (x->copy != y->copy)
		return x->copy < y->copy ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Appends a span (cold: a part of a clone placed elsewhere), growing the
 * array. */
static int push_span(struct gm_span **v, size_t *n, size_t *cap,
                     uint64_t lo, uint64_t hi, uint32_t copy, uint32_t cold)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct gm_span *nv = realloc(*v, nc * sizeof(*nv));
		if (!nv)
			return LT_ERR_NOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = (struct gm_span){lo, hi, copy, cold};
	return 0;
}

/* The symbol of the cold part of the function whose symbol is name
 * (name.cold, which gcc's hot/cold partitioning splits off) in
 * compilation unit `unit`, or -1. */
static long cold_part(const struct by_name *bn, const struct lt_dwarf *dw,
                      const char *name, uint32_t unit)
{
	char buf[512];
	int k = snprintf(buf, sizeof(buf), "%s.cold", name);
	if (k < 0 || (size_t)k >= sizeof(buf))
		return -1;
	size_t lo = first_named(bn, buf);
	for (; lo < bn->tab->n &&
	       strcmp(bn->tab->sym[bn->idx[lo]].name, buf) == 0; lo++)
		if (gm_in_unit(dw, bn->tab->sym[bn->idx[lo]].start, unit))
			return bn->idx[lo];
	return -1;
}

/* Collects fn's code outside its own symbol self (-1: none): clones
 * named fn.isra.N, fn.constprop.N, ... with their cold parts (a .cold
 * part is only ever collected with the copy it was split from) and
 * copies inlined late into other functions (DWARF
 * inlined instances of fn, with their own inlined callees, unless early
 * inlining put them into the caller's gcno function), all in compilation
 * unit `unit` (LT_DWARF_NO_FILE: any): a header's static inline function
 * has one gcno function per unit. *out is sorted by copy; the caller
 * frees it. *maybe (the caller frees it too) gets the spans of the copies
 * left out as maybe early (gcda_early_inlined's 2), *nmaybe their
 * number. *empty counts the late copies with no code at all (an inline
 * record whose range is empty: gcc resolved every test of the copy at
 * its call, `h(3)` folded to one load on the caller's line). */
static int other_copies(const struct gcda_state *t, const struct by_name *bn,
                        const struct lt_dwarf *dw, const struct lt_gcno_fn *fn,
                        long self, uint32_t unit, struct gm_span **out,
                        size_t *nout, struct gm_span **maybe, size_t *nmaybe,
                        size_t *empty)
{
	struct gm_span *v = NULL, *mv = NULL;
	size_t n = 0, cap = 0, nm = 0, mcap = 0, len = strlen(fn->name);
	int rc = 0;
	*out = NULL;
	*nout = 0;
	*maybe = NULL;
	*nmaybe = 0;
	*empty = 0;
	for (size_t i = 0; i < bn->tab->n && !rc; i++) {
		const struct lt_sym *s = &bn->tab->sym[bn->idx[i]];
		if ((long)bn->idx[i] == self || strncmp(s->name, fn->name, len) ||
		    s->name[len] != '.' || strstr(s->name + len, ".cold"))
			continue;
		if (dw) {
			long fi = lt_dwarf_inline_find(dw, s->start);
			if (fi >= 0 && dw->func[fi].decl_file != LT_DWARF_NO_FILE &&
			    !gm_same_file(dw->file[dw->func[fi].decl_file],
			               fn->source))
				continue;
			if (!gm_in_unit(dw, s->start, unit))
				continue;
		}
		rc = push_span(&v, &n, &cap, s->start, s->end,
		               0x80000000u | bn->idx[i], 0);
		long c = rc ? -1 : cold_part(bn, dw, s->name, unit);
		if (c >= 0)
			rc = push_span(&v, &n, &cap, bn->tab->sym[c].start,
			               bn->tab->sym[c].end,
			               0x80000000u | bn->idx[i], 1);
	}
	uint8_t *sel = dw && dw->nfuncs ? calloc(dw->nfuncs, 1) : NULL;
	size_t nsel = 0;
	for (size_t i = 0; sel && i < dw->nfuncs; i++) {
		const struct lt_inline_func *q = &dw->func[i];
		if (q->depth == 0 || strcmp(q->name, fn->name) != 0)
			continue;
		if (q->decl_file != LT_DWARF_NO_FILE &&
		    !gm_same_file(dw->file[q->decl_file], fn->source))
			continue;
		int early = gcda_early_inlined(t, dw, fn, (uint32_t)i);
		sel[i] = early == 0 ? 1 : early == 2 ? 2 : 0;
		nsel += sel[i] != 0;
	}
	for (size_t r = 0; nsel && !rc && r < dw->nirange; r++) {
		for (int32_t a = (int32_t)dw->irange[r].func; a >= 0;
		     a = dw->func[a].parent)
			if (sel[a] && gm_in_unit(dw, dw->irange[r].lo, unit)) {
				if (sel[a] != 2) {
					sel[a] = 3; /* late, with code */
					rc = push_span(&v, &n, &cap,
					               dw->irange[r].lo,
					               dw->irange[r].hi,
					               (uint32_t)a, 0);
				} else {
					rc = push_span(&mv, &nm, &mcap,
					               dw->irange[r].lo,
					               dw->irange[r].hi,
					               (uint32_t)a, 0);
				}
				break;
			}
	}
	for (size_t i = 0; sel && i < dw->nfuncs; i++)
		*empty += sel[i] == 1;
	free(sel);
	if (rc) {
		free(v);
		free(mv);
		return rc;
	}
	*maybe = mv;
	*nmaybe = nm;
	if (n)
		qsort(v, n, sizeof(*v), cmp_span);
	*out = v;
	*nout = n;
	return 0;
}

/* Maps gcno file indices to DWARF file indices. */
static uint32_t *file_map(const struct lt_gcno *g, const struct lt_dwarf *dw)
{
	uint32_t *m = malloc((g->n_files + 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (uint32_t i = 0; i < g->n_files; i++) {
		m[i] = LT_DWARF_NO_FILE;
		for (size_t k = 0; dw && k < dw->nfiles; k++)
			if (gm_same_file(dw->file[k], g->files[i])) {
				m[i] = (uint32_t)k;
				break;
			}
	}
	return m;
}

/* Is fn written on one line and its unit optimized (-O1 and up)? Then
 * lines cannot place its blocks (every one lists that line) and the
 * optimizer has rearranged them: an alignment that looks clean proves
 * nothing. At -O0 the machine code keeps the block order, which places
 * them. */
static int one_line_optimized(const struct lt_gcno_fn *fn,
                              const struct lt_dwarf *dw, uint32_t unit)
{
	return fn->start_line == fn->end_line && dw && dw->unit_opt &&
	       unit < dw->nunits && dw->unit_opt[unit];
}

/* Did any instruction of the spans sp[n] run (2-byte steps: RVC)? */
static int ran_any(const struct gm_ctx *x, const struct gm_span *sp, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (uint64_t a = sp[k].lo; a < sp[k].hi; a += 2)
			if (gc_insn_count(x->c, x->im, a))
				return 1;
	return 0;
}

/* Makes res inferred with no counter claimed (the counts stay), for the
 * reason why. */
static void unclaim(const struct lt_gcno_fn *fn, struct gm_result *res,
                    const char *why)
{
	if (res->status != GM_EXACT && !res->n_exact)
		return;
	res->status = GM_INFERRED;
	res->n_exact = 0;
	if (res->det)
		memset(res->det, 0, fn->n_arcs);
	snprintf(res->why, sizeof(res->why), "%s", why);
}

/* Maps every function of one gcno onto image im of the session. */
static int map_file(struct gcda_state *t, struct gfile *gf, size_t im,
                    const struct by_name *bn, const struct lt_dwarf *dw)
{
	const struct lt_gcno *g = gf->g;
	int einline = gm_unit_inlines_early(g);
	gf->arcs = calloc(g->n_fns + 1, sizeof(*gf->arcs));
	gf->status = calloc(g->n_fns + 1, sizeof(*gf->status));
	gf->why = calloc(g->n_fns + 1, sizeof(*gf->why));
	gf->nexact = calloc(g->n_fns + 1, sizeof(*gf->nexact));
	gf->det = calloc(g->n_fns + 1, sizeof(*gf->det));
	uint32_t *fm = file_map(g, dw);
	uint8_t *late = gcda_late_calls(t, g, dw);
	if (!gf->arcs || !gf->status || !gf->why || !gf->nexact ||
	    !gf->det || !fm || (!late && dw && dw->nfuncs)) {
		free(fm);
		free(late);
		return LT_ERR_NOMEM;
	}
	uint32_t unit = gcno_unit(g, bn, dw);
	struct gm_srcfiles src;
	gm_srcfiles_init(&src);
	struct gm_ctx ctx = {&t->counts, im, t->s->images->sel[im].img, dw,
	                     fm, dw && dw->unit_opt && unit < dw->nunits &&
	                     dw->unit_opt[unit], late, &src};
	int rc = 0;
	/* Optimized code whose sources cannot be read: the rules that find
	 * calls the machine code does not show (gm_source_calls,
	 * gm_lost_copies, gm_early_copy_lost, gcda_pure.c) cannot look, so
	 * no count that a missed call would change is known. */
	int unread = ctx.optimized && gm_unit_source_unread(g, &ctx);
	/* Each function's machine code (its symbol, if kept), first for
	 * all: gm_early_copy_lost looks at the code of the functions a call
	 * was copied into. */
	uint64_t (*rng)[2] = calloc(g->n_fns + 1, sizeof(*rng));
	uint64_t **bc = calloc(g->n_fns + 1, sizeof(*bc));
	if (!rng || !bc) {
		free(rng);
		free(bc);
		free(fm);
		free(late);
		return LT_ERR_NOMEM;
	}
	for (uint32_t k = 0; k < g->n_fns; k++) {
		long si = find_machine(bn, dw, &g->fns[k], unit);
		if (si >= 0) {
			rng[k][0] = bn->tab->sym[si].start;
			rng[k][1] = bn->tab->sym[si].end;
		}
	}
	for (uint32_t k = 0; k < g->n_fns && !rc; k++) {
		const struct lt_gcno_fn *fn = &g->fns[k];
		gf->arcs[k] = calloc(fn->n_counters + 1, sizeof(uint64_t));
		uint64_t *arc = calloc(fn->n_arcs + 1, sizeof(uint64_t));
		if (!gf->arcs[k] || !arc) {
			free(arc);
			rc = LT_ERR_NOMEM;
			break;
		}
		long si = find_machine(bn, dw, fn, unit);
		/* Code folded with another function's (identical code
		 * folding) counts both: fn is then counted as one whose code
		 * is gone, from the source lines calling it. */
		uint64_t fold = gm_folded(ctx.img, g, bn->tab, dw, unit, fn, si);
		if (fold)
			si = -1;
		struct gm_span *sp = NULL, *msp = NULL;
		size_t nsp = 0, nmsp = 0;
		size_t empty = 0;
		rc = other_copies(t, bn, dw, fn, si, unit, &sp, &nsp, &msp,
		                  &nmsp, &empty);
		/* A copy that ran and may be a late one left out: the
		 * counts may lack its executions. */
		int maybe_lost = !rc && ran_any(&ctx, msp, nmsp);
		free(msp);
		if (rc) {
			free(arc);
			break;
		}
		struct gm_result res = {.det = malloc(fn->n_arcs + 1)};
		if (!res.det) {
			free(arc);
			free(sp);
			rc = LT_ERR_NOMEM;
			break;
		}
		uint64_t calls = si < 0 && !nsp && fold ?
				 gm_folded_calls(g, &ctx, fn, unit, fold) : 0;
		if (si < 0 && !nsp && !calls)
			calls = gm_source_calls(g, &ctx, fn, unit, NULL);
		uint64_t hidden = si >= 0 || nsp ?
				  gm_source_calls(g, &ctx, fn, unit, bn->tab) : 0;
		if (si < 0 && !nsp && !calls) {
			gf->status[k] = -1;
			free(arc);
			free(res.det);
			continue;
		}
		long ci = si < 0 ? -1 : cold_part(bn, dw, fn->name, unit);
		struct gm_span cold = {0, 0, 0, 1};
		if (ci >= 0) {
			cold.lo = bn->tab->sym[ci].start;
			cold.hi = bn->tab->sym[ci].end;
		}
		if (calls)
			rc = gm_map_entries(&ctx, fn, calls, arc, &res);
		else
			rc = gm_map_function(&ctx, fn,
			                     si < 0 ? 0 : bn->tab->sym[si].start,
			                     si < 0 ? 0 : bn->tab->sym[si].end,
			                     &cold, ci >= 0, sp, nsp, arc, &res);
		/* Folded code: fn's share of its executions (gcda_fold.c). */
		if (!rc && calls && fold && !nsp)
			gm_folded_share(g, &ctx, bn->tab, fn, unit, fold,
			                calls, arc);
		/* Calls of a const or pure function the optimizer merged,
		 * hoisted or deleted are gone from the trace. Its code: the
		 * body and cold part, else its whole clones (listed first
		 * in sp; inlined copies are not called). */
		struct gm_span part[2] = {
			{si < 0 ? 0 : bn->tab->sym[si].start,
			 si < 0 ? 0 : bn->tab->sym[si].end, 0, 0}, cold};
		size_t nclone = 0;
		while (nclone < nsp && (sp[nclone].copy & 0x80000000u))
			nclone++;
		int pure = !rc && ctx.optimized && (si >= 0 || nclone) &&
			   (res.status == GM_EXACT || res.n_exact) &&
			   gm_may_be_pure(ctx.img, bn->tab,
			                  si >= 0 ? part : sp,
			                  si >= 0 ? 1 + (ci >= 0) : nclone) &&
			   !gm_calls_all_shown(g, &ctx, fn, unit, bn->tab);
		/* A copy inlined into a caller may be deleted whole
		 * (gcda_lostcopy.c); calls of the out-of-line body only
		 * when it is pure (above). */
		int lost = !rc && nsp > nclone &&
			   (res.status == GM_EXACT || res.n_exact) &&
			   gm_lost_copies(g, &ctx, fn, unit, bn->tab);
		free(sp);
		if (!rc && hidden)
			rc = gm_add_hidden(&ctx, fn, hidden, !einline, arc,
			                   &res);
		if (!rc && fold) {
			/* Copies inlined elsewhere (sp) do not count the
			 * folded code's executions: claim nothing. */
			res.status = GM_INFERRED;
			res.n_exact = 0;
			if (res.det)
				memset(res.det, 0, fn->n_arcs);
			snprintf(res.why, sizeof(res.why), "%s",
			         "its code is folded with another function's: "
			         "calls counted from the lines that make them");
		}
		if (!rc && one_line_optimized(fn, dw, unit))
			unclaim(fn, &res, "the function is on one line: lines "
			        "cannot place its optimized blocks");
		if (pure)
			unclaim(fn, &res, "gcc may have found it const or pure "
			        "and merged or hoisted calls to it");
		if (maybe_lost)
			unclaim(fn, &res, "an inlined copy that ran may be one "
			        "inlined late: its executions may be missing");
		if (!rc && einline && gm_early_copy_lost(g, &ctx, fn,
		                              (const uint64_t (*)[2])rng))
			unclaim(fn, &res, "a call copied by early inlining left "
			        "no code: gcc folded it after counting");
		if (lost)
			unclaim(fn, &res, "a caller that ran shows fewer "
			        "copies and calls of it than it makes");
		if (empty)
			unclaim(fn, &res, "an inlined copy left no code (its "
			        "tests resolved at the call): its way unknown");
		if (unread)
			unclaim(fn, &res, "a source of its unit cannot be "
			        "read: calls its text shows are unknown");
		gf->status[k] = res.status;
		gf->nexact[k] = res.status == GM_EXACT ? fn->n_counters :
				res.n_exact;
		if (res.status == GM_INFERRED && res.why[0])
			gf->why[k] = strdup(res.why);
		for (uint32_t c = 0; c < fn->n_counters; c++)
			gf->arcs[k][c] = arc[fn->counter_arcs[c]];
		/* Block flows, for the calls of absent functions. */
		if (!rc && (bc[k] = malloc(fn->n_blocks * sizeof(**bc))))
			gm_block_flow(fn, arc, bc[k]);
		/* Which counters, for the report (inferred functions);
		 * in place: counter c's arc is never before arc c. */
		if (!rc && res.status == GM_INFERRED && res.n_exact) {
			for (uint32_t c = 0; c < fn->n_counters; c++)
				res.det[c] = res.det[fn->counter_arcs[c]];
			gf->det[k] = res.det;
			res.det = NULL;
		}
		free(res.det);
		free(arc);
	}
	if (!rc)
		rc = gm_count_absent(g, &ctx, gf->status, gf->arcs, gf->why,
		                     bc);
	for (uint32_t k = 0; k < g->n_fns; k++)
		free(bc[k]);
	free(bc);
	free(rng);
	free(fm);
	free(late);
	gm_srcfiles_fini(&src);
	return rc;
}

/* Does DWARF path p name gcno g's file f, relative names taken from the
 * gcno's working directory? */
static int same_abs(const struct lt_gcno *g, const char *p, const char *f)
{
	if (f[0] == '/' || !g->cwd || !g->cwd[0])
		return strcmp(p, f) == 0;
	size_t n = strlen(g->cwd);
	while (n > 1 && g->cwd[n - 1] == '/')
		n--;
	return strncmp(p, g->cwd, n) == 0 && p[n] == '/' &&
	       strcmp(p + n + 1, f) == 0;
}

/* How well gcno g matches one image: 0 when nothing of it is there (g is
 * not part of that program). Each function whose symbol the image has
 * counts 1, 2 more when the symbol's code or declaration is in the
 * function's source file (by name) and 4 more when by full path; each
 * source file of g among the image's DWARF files counts 1, 4 more by
 * full path. Several programs of a session (a kernel and its processes,
 * two builds of one program) may share function names and relative file
 * names, not usually full paths. With DWARF lines, a gcno none of whose
 * source files the image's lines name is not the image's (an unrelated
 * program's `main` in the same directory): 0. */
static unsigned match_score(const struct lt_gcno *g, const struct by_name *bn,
                            const struct lt_dwarf *dw)
{
	unsigned sc = 0, by_file = 0;
	for (uint32_t k = 0; bn->tab && k < g->n_fns; k++) {
		const struct lt_gcno_fn *fn = &g->fns[k];
		long si = find_machine(bn, NULL, fn, LT_DWARF_NO_FILE);
		if (si < 0)
			continue;
		sc++;
		uint64_t a = bn->tab->sym[si].start;
		long fi = dw ? lt_dwarf_inline_find(dw, a) : -1;
		const struct lt_line_row *row = dw ? lt_dwarf_line(dw, a) : NULL;
		const char *p = row ? dw->file[row->file] : NULL;
		if (fi >= 0 && dw->func[fi].decl_file != LT_DWARF_NO_FILE)
			p = dw->file[dw->func[fi].decl_file];
		if (p && gm_same_file(p, fn->source)) {
			sc += same_abs(g, p, fn->source) ? 6 : 2;
			by_file = 1;
		}
	}
	for (uint32_t i = 0; dw && i < g->n_files; i++) {
		unsigned best = 0;
		for (size_t k = 0; k < dw->nfiles && best < 5; k++)
			if (gm_same_file(dw->file[k], g->files[i]))
				best = same_abs(g, dw->file[k], g->files[i]) ?
				       5 : 1;
		sc += best;
		by_file |= best > 0;
	}
	return dw && dw->nfiles && !by_file ? 0 : sc;
}

/* One image of the session with its lookup tables. */
struct pimage {
	const struct lt_symtab *tab; /* its symbols, or NULL */
	const struct lt_dwarf *dw;   /* its DWARF tables, or NULL */
	struct by_name bn;           /* symbols by name */
};

/* Loads the symbols (sorted by name) and DWARF of img. Returns 0,
 * LT_ERR_BAD_ELF (no symbols; message in err, *p stays empty) or
 * LT_ERR_NOMEM. */
static int pimage_load(struct pimage *p, const struct lt_image *img,
                       char *err, size_t errlen)
{
	char derr[256];
	p->tab = lt_symtab_get(img, err, errlen);
	if (!p->tab)
		return LT_ERR_BAD_ELF;
	p->dw = lt_dwarf_get(img, derr, sizeof(derr));
	p->bn.tab = p->tab;
	p->bn.idx = malloc((p->tab->n + 1) * sizeof(uint32_t));
	if (!p->bn.idx)
		return LT_ERR_NOMEM;
	for (uint32_t i = 0; i < p->tab->n; i++)
		p->bn.idx[i] = i;
	sort_tab = p->tab;
	qsort(p->bn.idx, p->tab->n, sizeof(uint32_t), cmp_name);
	return 0;
}

/* Creates the directories above path that are missing (out=DIR and the
 * gcno's directories below the one scanned). Returns 0 or LT_ERR_IO
 * with a message naming the directory. */
static int make_parents(const char *path, char *err, size_t errlen)
{
	char *d = strdup(path);
	if (!d)
		return LT_ERR_NOMEM;
	int rc = 0;
	for (char *p = strchr(d + 1, '/'); p && !rc; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(d, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "gcda: cannot create directory "
			         "%s: %s", d, strerror(errno));
			rc = LT_ERR_IO;
		}
		*p = '/';
	}
	free(d);
	return rc;
}

/* Maps every function and writes the gcda files and the report; on
 * LT_CLOSE_DISCARD (the session failed to start) writes nothing. Each
 * gcno is mapped onto the session image that matches it best
 * (match_score; the first on a tie) and skipped when none does. Frees
 * the state. */
static int gcda_close(void *state, int incomplete, char *err, size_t errlen)
{
	struct gcda_state *t = state;
	if (incomplete == LT_CLOSE_DISCARD) {
		state_free(t);
		return 0;
	}
	int rc = gc_counts_finish(&t->counts);
	size_t nim = t->s->images->n;
	struct pimage *pi = calloc(nim, sizeof(*pi));
	uint8_t *used = calloc(t->nfiles + 1, 1);
	size_t *where = calloc(t->nfiles + 1, sizeof(*where));
	if (!rc && (!pi || !used || !where))
		rc = LT_ERR_NOMEM;
	/* An image without symbols (a stripped kernel) holds no gcno
	 * function; only when none has any is that an error. */
	size_t nsym = 0;
	for (size_t m = 0; !rc && m < nim; m++) {
		rc = pimage_load(&pi[m], t->s->images->sel[m].img, err, errlen);
		if (!rc)
			nsym++;
		if (rc == LT_ERR_BAD_ELF && (m + 1 < nim || nsym))
			rc = 0;
	}
	for (size_t i = 0; !rc && i < t->nfiles; i++) {
		unsigned best = 0;
		for (size_t m = 0; m < nim; m++) {
			unsigned sc = match_score(t->files[i].g, &pi[m].bn,
			                          pi[m].dw);
			if (sc > best) {
				best = sc;
				where[i] = m;
			}
		}
		used[i] = best > 0;
		if (!used[i])
			fprintf(stderr, "ltpipe: gcda: %s: not part of the "
			        "traced program (none of its functions or "
			        "source files is in the ELF): skipped\n",
			        t->files[i].gcno_path);
	}
	uint64_t run_max = 0;
	for (size_t i = 0; !rc && i < t->nfiles; i++) {
		if (!used[i])
			continue;
		const struct pimage *p = &pi[where[i]];
		rc = map_file(t, &t->files[i], where[i], &p->bn, p->dw);
		uint64_t mx = rc ? 0 : lt_gcda_arcs_max(t->files[i].g,
		                     (const uint64_t *const *)t->files[i].arcs);
		if (mx > run_max)
			run_max = mx;
	}
	if (rc && rc != LT_ERR_BAD_ELF)
		snprintf(err, errlen, "gcda: %s", lt_errstr(rc));
	for (size_t i = 0; !rc && i < t->nfiles; i++) {
		if (!used[i])
			continue;
		struct lt_gcda *d = NULL;
		rc = lt_gcda_from_gcno(t->files[i].g,
		                       (const uint64_t *const *)t->files[i].arcs,
		                       run_max, &d, err, errlen);
		/* Another hart of a run merged in: its counts, not a run
		 * (an instrumented multi-threaded run writes runs 1). Its
		 * largest counter still adds to sum_max, as a process of
		 * a multi-process run adds its own. */
		if (!rc && t->merge && t->s->same_run)
			d->runs = 0;
		if (!rc && t->outdir)
			rc = make_parents(t->files[i].gcda_path, err, errlen);
		if (!rc)
			rc = lt_gcda_write_file(t->files[i].gcda_path, d,
			                        t->merge, err, errlen);
		lt_gcda_free(d);
	}
	if (!rc)
		gcda_report(t, used, incomplete, err, errlen);
	free(used);
	free(where);
	for (size_t m = 0; pi && m < nim; m++) {
		free(pi[m].bn.idx);
		lt_dwarf_put(pi[m].dw);
		lt_symtab_put(pi[m].tab);
	}
	free(pi);
	state_free(t);
	return rc;
}

const struct lt_receiver_ops lt_receiver_gcda = {
	.abi = LT_RECEIVER_ABI,
	.name = "gcda",
	.help = "writes the .gcda files an -fprofile-arcs run would have "
	        "written, from a trace of the same program built with -g "
	        "-ftest-coverage (and -fno-partial-inlining). Options: "
	        "gcno=DIR or FILE:FILE... (default: the ELF's directory, else "
	        "its units' DW_AT_comp_dir), "
	        "out=DIR (default: next to each .gcno), merge=1 (add onto an "
	        "existing .gcda like a second run). Report: "
	        "OUTDIR/gcda-report.txt (exact / inferred per function and "
	        "the exact-counter rate).",
	.open = gcda_open,
	.consume = gcda_consume,
	.close = gcda_close,
};
