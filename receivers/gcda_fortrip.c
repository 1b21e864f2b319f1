/* Loops of a constant trip count whose body is one gcno block
 * (gcda_mapper.h: gm_fortrip_counts). `for (unsigned i = 0; i < 3u; i++)
 * x += k;` inside an outer loop: gcc -O2 unrolls it completely or folds
 * it into the outer loop's arithmetic (`g[7]++` three times becomes
 * `+= 3`, or `+= 3 * n` computed after the outer loop), so no machine
 * code runs once per round and the body's line counts the outer rounds
 * or less. The instrumented twin still counts the body once per round:
 * trip times the loop's entries. The flow leaves that cycle (test ->
 * body -> test) free, so the trip count read from the source line sets
 * it; the entries (the arc into the test from outside the loop) and the
 * exit stay as the flow solved them, and the added circulation keeps
 * every block balanced. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "gcda_srctext.h"
#include "ltpipe/dwarf_lines.h"

/* Longest source line read. */
#define LINE_READ 512
/* Largest trip count believed (a bound beyond is no small loop). */
#define MAX_TRIP 4096

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Reads an identifier at *s into id (at most n-1 bytes); 0 if none. */
static int ident(const char **s, char *id, size_t n)
{
	const char *p = skip_ws(*s);
	size_t k = 0;
	if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while (*p == '_' || (*p >= 'a' && *p <= 'z') ||
	       (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) {
		if (k + 1 < n)
			id[k++] = *p;
		p++;
	}
	id[k] = 0;
	*s = p;
	return k + 1 < n;
}

/* Reads a decimal literal (suffixes u, l) at *s; -1 if none. */
static long number(const char **s)
{
	const char *p = skip_ws(*s);
	long v = 0;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v > 1L << 30)
			return -1;
	}
	while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
		p++;
	*s = p;
	return v;
}

static int eat(const char **s, const char *tok)
{
	const char *p = skip_ws(*s);
	size_t n = strlen(tok);
	if (strncmp(p, tok, n) != 0)
		return 0;
	*s = p + n;
	return 1;
}

/* The trip count of the one `for (T v = C0; v < C1; v++)` on the line
 * (also `<=`, `!=` and `++v`), with no other `for` on it; 0 if none. */
long gm_for_trip(const char *t)
{
	const char *p = strstr(t, "for");
	if (!p || (p > t && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) ||
	    strstr(p + 3, "for"))
		return 0;
	p += 3;
	if (!eat(&p, "("))
		return 0;
	char v[64], w[64], id[64];
	/* Type words, then the variable before `=`. */
	if (!ident(&p, v, sizeof(v)))
		return 0;
	while (ident(&p, id, sizeof(id)))
		memcpy(v, id, sizeof(v));
	if (!eat(&p, "="))
		return 0;
	long c0 = number(&p);
	if (c0 < 0 || !eat(&p, ";") || !ident(&p, w, sizeof(w)) ||
	    strcmp(v, w) != 0)
		return 0;
	int op = eat(&p, "<=") ? 1 : eat(&p, "<") ? 0 : eat(&p, "!=") ? 2 : -1;
	if (op < 0)
		return 0;
	long c1 = number(&p);
	if (c1 < 0 || !eat(&p, ";"))
		return 0;
	if (eat(&p, "++")) {
		if (!ident(&p, w, sizeof(w)) || strcmp(v, w) != 0)
			return 0;
	} else if (!ident(&p, w, sizeof(w)) || strcmp(v, w) != 0 ||
	           !eat(&p, "++")) {
		return 0;
	}
	if (!eat(&p, ")"))
		return 0;
	long trip = op == 1 ? c1 - c0 + 1 : c1 - c0;
	return trip > 0 && trip <= MAX_TRIP ? trip : 0;
}

/* The one arc src -> dst, or -1. */
static long arc_of(const struct gm *g, uint32_t src, uint32_t dst)
{
	long r = -1;
	for (uint32_t a = 0; a < g->f->n_arcs; a++)
		if (g->f->arcs[a].src == src && g->f->arcs[a].dst == dst) {
			if (r >= 0)
				return -1;
			r = a;
		}
	return r;
}

static int firm(const int64_t *hard, const uint8_t *soft, long a)
{
	return hard && hard[a] >= 0 && !(soft && soft[a]);
}

void gm_fortrip_counts(struct gm *g, const int64_t *hard, const uint8_t *soft)
{
	const struct lt_gcno_fn *f = g->f;
	for (uint32_t h = 2; h < f->n_blocks; h++) {
		const struct lt_gcno_block *hb = &f->blocks[h];
		if (!hb->n_lines || g->nout[h] != 2 || g->npred[h] != 2)
			continue;
		/* In: one arc from before the loop, one from the body B,
		 * whose only arc returns to h and whose only entry is h. */
		long body = -1, pre = -1;
		for (uint32_t a = 0; a < f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &f->arcs[a];
			if (arc->dst != h)
				continue;
			uint32_t s = arc->src;
			if (s >= 2 && s != h && g->nout[s] == 1 &&
			    g->npred[s] == 1 && arc_of(g, h, s) >= 0)
				body = s;
			else
				pre = a;
		}
		if (body < 0 || pre < 0 || (f->arcs[pre].flags & LT_GCOV_ARC_FAKE))
			continue;
		const struct lt_gcno_line *l = &hb->lines[hb->n_lines - 1];
		if (!g->x->filemap || g->x->filemap[l->file] == LT_DWARF_NO_FILE)
			continue;
		char *t = gm_source_line(g->x->src,
		                         g->x->dw->file[g->x->filemap[l->file]],
		                         l->line, LINE_READ);
		long trip = t ? gm_for_trip(t) : 0;
		free(t);
		long in = arc_of(g, h, (uint32_t)body);
		long back = arc_of(g, (uint32_t)body, h);
		if (!trip || in < 0 || back < 0 || firm(hard, soft, in) ||
		    firm(hard, soft, back) || g->arc[pre] <= 0)
			continue;
		int64_t want = trip * g->arc[pre];
		if (g->arc[in] != g->arc[back])
			continue;
		g->arc[in] = want;
		g->arc[back] = want;
	}
}
