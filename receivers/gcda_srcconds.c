/* Conditions read from source text as the values of one variable they
 * hold (gcda_srcconds.h), for gcda_ifswitch.c: `if (...)` and `?:`
 * tests made of comparisons of one name with integer or character
 * literals, joined by && and ||. Read, not compiled: no preprocessor, no
 * types (the values are those of a C int). */
#include <stdlib.h>
#include <string.h>

#include "gcda_srcconds.h"

/* Contract in gcda_srcconds.h. */
void gm_iv_one(struct gm_ivset *s, int64_t lo, int64_t hi)
{
	s->n = lo <= hi ? 1 : 0;
	s->lo[0] = lo;
	s->hi[0] = hi;
}

/* s = s with [lo, hi] added (kept sorted and merged). */
static void iv_add(struct gm_ivset *s, int64_t lo, int64_t hi)
{
	if (s->n < 0 || lo > hi)
		return;
	int64_t l[GM_MAX_IV + 1], h[GM_MAX_IV + 1];
	int n = 0, done = 0;
	for (int k = 0; k <= s->n; k++) {
		int64_t a = k < s->n ? s->lo[k] : 0;
		int64_t b = k < s->n ? s->hi[k] : 0;
		if (!done && (k == s->n || lo < a)) {
			l[n] = lo, h[n] = hi, n++;
			done = 1;
		}
		if (k < s->n)
			l[n] = a, h[n] = b, n++;
	}
	s->n = 0;
	for (int k = 0; k < n; k++) {
		if (s->n && l[k] <= s->hi[s->n - 1] + 1) {
			if (h[k] > s->hi[s->n - 1])
				s->hi[s->n - 1] = h[k];
			continue;
		}
		if (s->n == GM_MAX_IV) {
			s->n = -1;
			return;
		}
		s->lo[s->n] = l[k];
		s->hi[s->n] = h[k];
		s->n++;
	}
}

/* Contract in gcda_srcconds.h. */
struct gm_ivset gm_iv_and(const struct gm_ivset *a,
                          const struct gm_ivset *b)
{
	struct gm_ivset r = {0, {0}, {0}};
	if (a->n < 0 || b->n < 0) {
		r.n = -1;
		return r;
	}
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			int64_t lo = a->lo[i] > b->lo[j] ? a->lo[i] : b->lo[j];
			int64_t hi = a->hi[i] < b->hi[j] ? a->hi[i] : b->hi[j];
			iv_add(&r, lo, hi);
		}
	return r;
}

static struct gm_ivset iv_or(const struct gm_ivset *a,
                             const struct gm_ivset *b)
{
	struct gm_ivset r = *a;
	if (b->n < 0)
		r.n = -1;
	for (int j = 0; j < b->n && r.n >= 0; j++)
		iv_add(&r, b->lo[j], b->hi[j]);
	return r;
}

/* Contract in gcda_srcconds.h. */
struct gm_ivset gm_iv_not(const struct gm_ivset *a)
{
	struct gm_ivset r = {0, {0}, {0}};
	if (a->n < 0) {
		r.n = -1;
		return r;
	}
	int64_t from = GM_VMIN;
	for (int k = 0; k < a->n; k++) {
		iv_add(&r, from, a->lo[k] - 1);
		from = a->hi[k] + 1;
	}
	iv_add(&r, from, GM_VMAX);
	return r;
}

/* Contract in gcda_srcconds.h. */
int gm_iv_within(const struct gm_ivset *a, const struct gm_ivset *b)
{
	struct gm_ivset x = gm_iv_and(a, b);
	if (x.n < 0 || a->n < 0 || x.n != a->n)
		return 0;
	for (int k = 0; k < a->n; k++)
		if (x.lo[k] != a->lo[k] || x.hi[k] != a->hi[k])
			return 0;
	return 1;
}

/* A reader of one condition's text. */
struct rd {
	const char *t;  /* the text */
	size_t p, e;    /* position, end */
	char name[64];  /* the one variable compared ("" until seen) */
	int bad;        /* unreadable */
};

static int ident_ch(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static void blanks(struct rd *r)
{
	while (r->p < r->e && (r->t[r->p] == ' ' || r->t[r->p] == '\t'))
		r->p++;
}

/* An integer or character literal at r->p: 1 and *v; else 0. */
static int literal(struct rd *r, int64_t *v)
{
	const char *t = r->t;
	size_t p = r->p;
	if (p < r->e && t[p] == '\'') {
		if (p + 2 < r->e && t[p + 1] != '\\' && t[p + 2] == '\'') {
			*v = (unsigned char)t[p + 1];
			r->p = p + 3;
			return 1;
		}
		if (p + 3 < r->e && t[p + 1] == '\\' && t[p + 3] == '\'') {
			const char *esc = "n\nt\t0\0\\\\''r\r";
			for (int k = 0; k < 12; k += 2)
				if (t[p + 2] == esc[k]) {
					*v = (unsigned char)esc[k + 1];
					r->p = p + 4;
					return 1;
				}
		}
		return 0;
	}
	if (p >= r->e || t[p] < '0' || t[p] > '9')
		return 0;
	char *end;
	long long x = strtoll(t + p, &end, 0);
	size_t q = (size_t)(end - t);
	while (q < r->e && (t[q] == 'u' || t[q] == 'U' || t[q] == 'l' ||
	                    t[q] == 'L'))
		q++;
	if (q > r->e || (q < r->e && ident_ch(t[q])))
		return 0;
	*v = x;
	r->p = q;
	return 1;
}

/* A variable's name at r->p (the first fixes it; later ones must
 * match): 1, else 0. */
static int name(struct rd *r)
{
	size_t p = r->p, q = p;
	if (p >= r->e || !ident_ch(r->t[p]) || (r->t[p] >= '0' &&
	                                        r->t[p] <= '9'))
		return 0;
	while (q < r->e && ident_ch(r->t[q]))
		q++;
	if (q - p >= sizeof(r->name))
		return 0;
	if (!r->name[0]) {
		memcpy(r->name, r->t + p, q - p);
		r->name[q - p] = 0;
	} else if (strlen(r->name) != q - p || strncmp(r->name, r->t + p,
	                                              q - p)) {
		return 0;
	}
	r->p = q;
	return 1;
}

/* A comparison operator at r->p: 1 ==, 2 !=, 3 <, 4 <=, 5 >, 6 >=. */
static int cmp_op(struct rd *r)
{
	const char *t = r->t + r->p;
	if (r->p + 1 < r->e && t[1] == '=') {
		int k = t[0] == '=' ? 1 : t[0] == '!' ? 2 : t[0] == '<' ? 4 :
			t[0] == '>' ? 6 : 0;
		r->p += k ? 2 : 0;
		return k;
	}
	if (r->p < r->e && (t[0] == '<' || t[0] == '>') &&
	    (r->p + 1 >= r->e || (t[1] != '<' && t[1] != '>'))) {
		r->p++;
		return t[0] == '<' ? 3 : 5;
	}
	return 0;
}

/* The values `x op v` holds (swapped: `v op x`). */
static struct gm_ivset atom_set(int op, int64_t v, int swapped)
{
	static const int mirror[7] = {0, 1, 2, 5, 6, 3, 4};
	struct gm_ivset s;
	if (swapped)
		op = mirror[op];
	switch (op) {
	case 1: gm_iv_one(&s, v, v); break;
	case 2: gm_iv_one(&s, v, v); s = gm_iv_not(&s); break;
	case 3: gm_iv_one(&s, GM_VMIN, v - 1); break;
	case 4: gm_iv_one(&s, GM_VMIN, v); break;
	case 5: gm_iv_one(&s, v + 1, GM_VMAX); break;
	default: gm_iv_one(&s, v, GM_VMAX); break;
	}
	return s;
}

static struct gm_ivset any_of(struct rd *r);

static struct gm_ivset atom(struct rd *r)
{
	struct gm_ivset s = {-1, {0}, {0}};
	int64_t v;
	blanks(r);
	if (r->p < r->e && r->t[r->p] == '(') {
		r->p++;
		s = any_of(r);
		blanks(r);
		if (r->p >= r->e || r->t[r->p] != ')')
			r->bad = 1;
		r->p++;
		return s;
	}
	int swapped = literal(r, &v);
	if (!swapped && !name(r)) {
		r->bad = 1;
		return s;
	}
	blanks(r);
	int op = cmp_op(r);
	blanks(r);
	if (!op || (swapped ? !name(r) : !literal(r, &v))) {
		r->bad = 1;
		return s;
	}
	return atom_set(op, v, swapped);
}

static struct gm_ivset all_of(struct rd *r)
{
	struct gm_ivset s = atom(r);
	for (;;) {
		blanks(r);
		if (r->bad || r->p + 1 >= r->e || r->t[r->p] != '&' ||
		    r->t[r->p + 1] != '&')
			return s;
		r->p += 2;
		struct gm_ivset b = atom(r);
		s = gm_iv_and(&s, &b);
	}
}

static struct gm_ivset any_of(struct rd *r)
{
	struct gm_ivset s = all_of(r);
	for (;;) {
		blanks(r);
		if (r->bad || r->p + 1 >= r->e || r->t[r->p] != '|' ||
		    r->t[r->p + 1] != '|')
			return s;
		r->p += 2;
		struct gm_ivset b = all_of(r);
		s = iv_or(&s, &b);
	}
}

/* Reads text[b, e) as a condition into c: 1, else 0. */
static int read_cond(const char *t, size_t b, size_t e,
                     struct gm_cond *c)
{
	struct rd r = {t, b, e, "", 0};
	c->s = any_of(&r);
	blanks(&r);
	if (r.bad || r.p != e || c->s.n < 0)
		return 0;
	memcpy(c->name, r.name, sizeof(c->name));
	return 1;
}

static int word_at(const char *t, size_t p, size_t e, const char *w)
{
	size_t n = strlen(w);
	return p + n <= e && !strncmp(t + p, w, n) &&
	       (p == 0 || !ident_ch(t[p - 1])) &&
	       (p + n == e || !ident_ch(t[p + n]));
}

/* Contract in gcda_srcconds.h. */
int gm_line_conds(const char *t, struct gm_cond *c, int *n, int max)
{
	size_t e = strlen(t);
	size_t stmt = 0; /* where the current statement's value starts */
	for (size_t p = 0; p < e && *n < max; p++) {
		char ch = t[p];
		if (ch == '\'') {
			p += p + 2 < e && t[p + 1] == '\\' ? 3 : 2;
			continue;
		}
		if (ch == '"' || (ch == '/' && p + 1 < e &&
		                  (t[p + 1] == '/' || t[p + 1] == '*')))
			return 0; /* strings and comments unread */
		if (word_at(t, p, e, "switch"))
			return 0;
		if (word_at(t, p, e, "return")) {
			stmt = p + 6;
			continue;
		}
		if (ch == ';' || ch == '{' || ch == '}') {
			stmt = p + 1;
			continue;
		}
		if (ch == '=' && p + 1 < e && t[p + 1] != '=' && p > 0 &&
		    !strchr("=!<>", t[p - 1])) {
			stmt = p + 1;
			continue;
		}
		if (word_at(t, p, e, "if")) {
			size_t q = p + 2;
			while (q < e && (t[q] == ' ' || t[q] == '\t'))
				q++;
			if (q >= e || t[q] != '(')
				return 0;
			int depth = 0;
			size_t r = q;
			for (; r < e; r++) {
				depth += t[r] == '(' ? 1 : t[r] == ')' ? -1 : 0;
				if (!depth)
					break;
			}
			if (r >= e || !read_cond(t, q + 1, r, &c[*n]))
				return 0;
			(*n)++;
			p = r;
			stmt = r + 1;
			continue;
		}
		if (ch == '?') {
			if (!read_cond(t, stmt, p, &c[*n]))
				return 0;
			(*n)++;
			stmt = p + 1;
		}
	}
	return 1;
}
