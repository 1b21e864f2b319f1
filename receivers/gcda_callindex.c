/* The calls a C source file's text shows (gcda_srctext.h: struct
 * gm_callindex): every identifier followed by `(` outside comments,
 * literals and preprocessor lines, with its line, sorted by name so that
 * the lines calling one function are found without a pass over the file.
 * They are asked for once per function and rule: a scan of the file per
 * query made mapping a unit of thousands of functions quadratic. Also
 * whether one line calls a function and nothing else (gm_line_calls_only,
 * gcda_map.h), read with the same lexing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "gcda_srctext.h"

/* One identifier followed by `(`. */
struct call {
	const char *name; /* its first byte in the file's text */
	uint32_t len;     /* its length */
	uint32_t line;    /* 1-based line */
};

struct gm_callindex {
	struct call *v; /* sorted by name, then by place in the text (the
	                   text is not owned: the gm_srcfile's) */
	size_t n;
};

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Skips a comment, literal or preprocessor line starting at buf[i] (a
 * NUL-terminated buffer), counting its newlines into *line; returns the
 * index after it, or i when nothing of that kind starts there. */
static size_t skip_noncode(const char *buf, size_t i, int bol,
                           uint32_t *line)
{
	size_t k = i;
	if (buf[k] == '/' && buf[k + 1] == '*') {
		for (k += 2; buf[k] && !(buf[k] == '*' && buf[k + 1] == '/');
		     k++)
			*line += buf[k] == '\n';
		return buf[k] ? k + 2 : k;
	}
	if ((buf[k] == '/' && buf[k + 1] == '/') || (bol && buf[k] == '#')) {
		/* Up to the newline, joining lines ended by a backslash. */
		for (; buf[k] && buf[k] != '\n'; k++)
			if (buf[k] == '\\' && buf[k + 1] == '\n') {
				k++;
				(*line)++;
			}
		return k;
	}
	if (buf[k] == '"' || buf[k] == '\'') {
		char q = buf[k];
		for (k++; buf[k] && buf[k] != q && buf[k] != '\n'; k++)
			if (buf[k] == '\\' && buf[k + 1]) {
				k++;
				*line += buf[k] == '\n';
			}
		return buf[k] == q ? k + 1 : k;
	}
	return i;
}

/* Words a `(` follows in C without a call. */
static int paren_keyword(const char *w, size_t n)
{
	static const char *const kw[] = {"if", "while", "for", "switch",
	                                 "return", "sizeof", "_Alignof",
	                                 "_Generic", "case", "else", "do"};
	for (size_t k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (strlen(kw[k]) == n && memcmp(kw[k], w, n) == 0)
			return 1;
	return 0;
}

int gm_line_calls_only(const char *path, uint32_t line, const char *name)
{
	char *text = gm_source_line(NULL, path, line, 4096);
	if (!text)
		return 0;
	size_t len = strlen(name);
	int seen = 0, other = 0;
	uint32_t nl = 0;
	for (size_t i = 0; text[i] && !other;) {
		size_t k = skip_noncode(text, i, i == 0, &nl);
		if (k != i) {
			i = k;
			continue;
		}
		if (text[i] >= '0' && text[i] <= '9') {
			/* A number, suffix and all (1u, 0x1f): no name. */
			while (ident_char(text[i]))
				i++;
			continue;
		}
		if (!ident_char(text[i])) {
			i++;
			continue;
		}
		size_t s = i;
		while (ident_char(text[i]))
			i++;
		for (k = i; text[k] == ' ' || text[k] == '\t'; k++)
			;
		if (text[k] != '(' || paren_keyword(text + s, i - s))
			continue;
		if (i - s == len && memcmp(text + s, name, len) == 0)
			seen = 1;
		else
			other = 1;
	}
	free(text);
	return seen && !other;
}

/* Appends a call to x; 0, or -1 when out of memory. */
static int push(struct gm_callindex *x, size_t *cap, const char *name,
                size_t len, uint32_t line)
{
	if (x->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct call *nv = realloc(x->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		x->v = nv;
		*cap = nc;
	}
	x->v[x->n++] = (struct call){name, (uint32_t)len, line};
	return 0;
}

/* Orders names as memcmp on the shorter length, then shorter first. */
static int name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);
	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

static int call_cmp(const void *pa, const void *pb)
{
	const struct call *a = pa, *b = pb;
	int c = name_cmp(a->name, a->len, b->name, b->len);
	if (c)
		return c;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Contract in gcda_srctext.h. */
struct gm_callindex *gm_callindex_build(const char *buf, size_t n)
{
	struct gm_callindex *x = calloc(1, sizeof(*x));
	if (!x || n > UINT32_MAX) {
		free(x);
		return NULL;
	}
	size_t cap = 0;
	uint32_t line = 1;
	int bol = 1;
	for (size_t i = 0; i < n;) {
		char c = buf[i];
		size_t k = skip_noncode(buf, i, bol, &line);
		if (k != i) {
			i = k;
			continue;
		}
		if (c == '\n' || c == ' ' || c == '\t' || c == '\r' ||
		    c == '\f' || c == '\v') {
			if (c == '\n') {
				line++;
				bol = 1;
			}
			i++;
			continue;
		}
		bol = 0;
		if (!ident_char(c)) {
			i++;
			continue;
		}
		size_t s = i;
		while (ident_char(buf[i]))
			i++;
		if (c >= '0' && c <= '9')
			continue;
		for (k = i; buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' ||
		            buf[k] == '\r'; k++)
			;
		if (buf[k] == '(' && push(x, &cap, buf + s, i - s, line) < 0) {
			gm_callindex_free(x);
			return NULL;
		}
	}
	qsort(x->v, x->n, sizeof(*x->v), call_cmp);
	return x;
}

void gm_callindex_free(struct gm_callindex *x)
{
	if (x)
		free(x->v);
	free(x);
}

/* Contract in gcda_srctext.h. */
size_t gm_callindex_lines(const struct gm_callindex *x, const char *name,
                          uint32_t **lines)
{
	*lines = NULL;
	size_t len = strlen(name), lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct call *c = &x->v[mid];
		if (name_cmp(c->name, c->len, name, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t e = lo;
	while (e < x->n && !name_cmp(x->v[e].name, x->v[e].len, name,
	                             len))
		e++;
	if (e == lo)
		return 0;
	*lines = malloc((e - lo) * sizeof(**lines));
	if (!*lines)
		return 0;
	for (size_t k = lo; k < e; k++)
		(*lines)[k - lo] = x->v[k].line;
	return e - lo;
}
