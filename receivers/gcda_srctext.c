/* Reading the one `?:` of a source line (gcda_srctext.h). The front end
 * folds `c ? a : b` before gimplification (c_fully_fold, fold_ternary):
 * tree_swap_operands_p puts a constant second, then a DECL second, and
 * when it swaps the arms it inverts the test, which changes which gcno
 * arc is the written test's true way. So the arms are classified as far
 * as that rule cares: a literal (its value known), a variable's name, an
 * expression of variables (no constant, no DECL), or unknown (a name in
 * capitals may be a macro constant, an address may be a constant, a
 * variable written twice may fold away). */
#include <stdlib.h>
#include <string.h>

#include "gcda_srctext.h"

/* Longest source line read. */
#define MAX_LINE 4096
/* Most lines gm_case_label_line reads. */
#define MAX_SCAN 2000

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Index past the string or character literal starting at s[k]. */
static size_t skip_quoted(const char *s, size_t k)
{
	char q = s[k++];
	while (s[k] && s[k] != q)
		k += s[k] == '\\' && s[k + 1] ? 2 : 1;
	return s[k] ? k + 1 : k;
}

/* The value of a C character literal 'c' or '\n'-style escape in s[0..n),
 * 1 and *v set; else 0. */
static int char_literal(const char *s, size_t n, uint64_t *v)
{
	if (n == 3 && s[0] == '\'' && s[2] == '\'' && s[1] != '\\') {
		*v = (unsigned char)s[1];
		return 1;
	}
	if (n != 4 || s[0] != '\'' || s[1] != '\\' || s[3] != '\'')
		return 0;
	const char *esc = "n\nt\tr\r0\0\\\\''\"\"a\ab\bf\fv\v";
	for (size_t k = 0; k < 22; k += 2)
		if (esc[k] == s[2]) {
			*v = (unsigned char)esc[k + 1];
			return 1;
		}
	return 0;
}

/* An integer literal (decimal, hex or octal, suffixes u/l), possibly
 * negated, in s[0..n): 1 and *v set; else 0. */
static int int_literal(const char *s, size_t n, uint64_t *v)
{
	int neg = 0;
	while (n && (*s == '-' || *s == '+' || *s == ' ')) {
		neg ^= *s == '-';
		s++;
		n--;
	}
	if (!n || s[0] < '0' || s[0] > '9')
		return char_literal(s, n, v) ? (*v = neg ? -*v : *v, 1) : 0;
	char tmp[40];
	if (n >= sizeof tmp)
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	char *end;
	unsigned long long x = strtoull(tmp, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (*end)
		return 0;
	*v = neg ? -(uint64_t)x : (uint64_t)x;
	return 1;
}

/* Does s[0..n) read as a type name of a cast: words that are C type
 * keywords or end in _t, and stars? */
static int type_name(const char *s, size_t n)
{
	static const char *const kw[] = {"unsigned", "signed", "int", "long",
	                                 "short", "char", "const", "_Bool"};
	int words = 0;
	for (size_t k = 0; k < n;) {
		if (s[k] == ' ' || s[k] == '*') {
			k++;
			continue;
		}
		size_t w = k;
		while (k < n && is_ident(s[k]))
			k++;
		if (k == w)
			return 0;
		int ok = k - w > 2 && s[k - 2] == '_' && s[k - 1] == 't';
		for (size_t j = 0; !ok && j < sizeof kw / sizeof *kw; j++)
			ok = strlen(kw[j]) == k - w &&
			     !strncmp(kw[j], s + w, k - w);
		if (!ok)
			return 0;
		words++;
	}
	return words > 0;
}

/* The closing parenthesis matching s[0] == '(' within s[0..n), or n. */
static size_t close_paren(const char *s, size_t n)
{
	int depth = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			k = skip_quoted(s, k) - 1;
			continue;
		}
		depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
		if (!depth)
			return k;
	}
	return n;
}

/* Classifies the arm text s[0..n). */
static struct gm_arm classify(const char *s, size_t n)
{
	struct gm_arm a = {GM_ARM_UNKNOWN, 0};
	for (;;) {
		while (n && s[0] == ' ') {
			s++;
			n--;
		}
		while (n && s[n - 1] == ' ')
			n--;
		if (!n || s[0] != '(')
			break;
		size_t c = close_paren(s, n);
		if (c == n - 1) { /* (arm) */
			s++;
			n -= 2;
		} else if (c < n && type_name(s + 1, c - 1)) { /* (type) arm */
			s += c + 1;
			n -= c + 1;
		} else {
			break;
		}
	}
	if (int_literal(s, n, &a.val)) {
		a.kind = GM_ARM_LIT;
		return a;
	}
	/* A name that is no macro (those are written in capitals) and no
	 * keyword makes the arm no constant: a variable's value, a call. */
	int names = 0, var = 0, other = 0, other_names = 0;
	size_t first = 0, flen = 0; /* the first name */
	char prev = 0; /* the last character before k but spaces */
	for (size_t k = 0; k < n; prev = s[k - 1] != ' ' ? s[k - 1] : prev) {
		/* A string's or a variable's address may be a constant. */
		if (s[k] == '"' || s[k] == '\'' ||
		    (s[k] == '&' && (!prev || strchr("([,=+-*/%&|^!~<>?:", prev))))
			return a;
		if (s[k] >= '0' && s[k] <= '9') { /* a number and its suffix */
			while (k < n && is_ident(s[k]))
				k++;
			other = 1;
			continue;
		}
		if (!is_ident(s[k])) {
			other |= s[k] != ' ';
			k++;
			continue;
		}
		size_t w = k;
		int lower = 0;
		for (; k < n && is_ident(s[k]); k++)
			lower |= s[k] >= 'a' && s[k] <= 'z';
		if (k - w == 6 && !strncmp(s + w, "sizeof", 6))
			return a;
		if (!names++) {
			first = w;
			flen = k - w;
		} else if (k - w != flen || strncmp(s + w, s + first, flen)) {
			other_names = 1;
		}
		var |= lower && !type_name(s + w, k - w);
	}
	/* One variable written twice may fold to a constant (`y ^ y`,
	 * `y - y`) or to itself (`y & y`); `y + y` and `y * y` do not. */
	int cancels = 0;
	for (size_t k = 0; k < n; k++)
		cancels |= strchr("^-&|/%~", s[k]) != NULL;
	if (var && (names == 1 || other_names || !cancels))
		a.kind = names == 1 && !other ? GM_ARM_NAME : GM_ARM_EXPR;
	return a;
}

/* Strips spaces and parentheses enclosing all of s[*b..*e). */
static void strip(const char *s, size_t *b, size_t *e)
{
	for (;;) {
		while (*b < *e && s[*b] == ' ')
			(*b)++;
		while (*e > *b && s[*e - 1] == ' ')
			(*e)--;
		if (*b >= *e || s[*b] != '(' ||
		    close_paren(s + *b, *e - *b) != *e - *b - 1)
			return;
		(*b)++;
		(*e)--;
	}
}

/* Reads the test s[b..e) of a `?:` into *t. */
static void read_test(const char *s, size_t b, size_t e, struct gm_test *t)
{
	strip(s, &b, &e);
	if (e - b > 6 && !strncmp(s + b, "return", 6) && !is_ident(s[b + 6]))
		b += 6;
	strip(s, &b, &e);
	t->kind = GM_TEST_UNKNOWN;
	t->explicit = 0;
	t->negated = 0;
	t->strict = 0;
	if (b >= e)
		return;
	/* `!(a > b)`: the front end folds it to `a <= b` (invert_truthvalue
	 * on an integer comparison), a relational test whose sides swap
	 * their roles. */
	size_t p = b + 1;
	while (p < e && s[p] == ' ')
		p++;
	if (s[b] == '!' && p < e && s[p] == '(' &&
	    close_paren(s + p, e - p) == e - p - 1) {
		read_test(s, p, e, t);
		if (t->kind != GM_TEST_LT) {
			t->kind = GM_TEST_UNKNOWN;
		} else {
			for (int k = 0; k < 2; k++) {
				size_t x = t->side[0][k];
				t->side[0][k] = t->side[1][k];
				t->side[1][k] = x;
			}
			t->negated = 1;
			t->strict = !t->strict;
			return;
		}
	}
	int depth = 0, eq = 0, ne = 0, binary = 0, nrel = 0;
	size_t rel = 0, rlen = 0;
	for (size_t k = b; k < e; k++) {
		char c = s[k], d = k + 1 < e ? s[k + 1] : 0;
		char p = k > b ? s[k - 1] : 0;
		if (c == '"' || c == '\'')
			return;
		if (c == '(' || c == '[')
			depth++;
		else if (c == ')' || c == ']')
			depth--;
		if (depth)
			continue;
		if ((c == '&' && d == '&') || (c == '|' && d == '|'))
			return;
		if (c == '=' && d == '=') {
			eq++;
			k++;
		} else if (c == '!' && d == '=') {
			ne++;
			k++;
		} else if ((c == '<' || c == '>') && d != c && p != c &&
		           !(c == '>' && p == '-')) {
			nrel++;
			rel = k;
			rlen = d == '=' ? 2 : 1;
			k += rlen - 1;
		} else if (k > b && strchr("+-*/%&|^<>", c)) {
			binary = 1;
		}
	}
	if (eq + ne + nrel > 1)
		return;
	if (nrel) {
		int lo = s[rel] == '<' ? 0 : 1; /* the left operand's side */
		t->side[lo][0] = b;
		t->side[lo][1] = rel;
		t->side[1 - lo][0] = rel + rlen;
		t->side[1 - lo][1] = e;
		t->kind = GM_TEST_LT;
		t->strict = rlen == 1;
		return;
	}
	t->explicit = eq + ne;
	if (eq || ne)
		t->kind = eq ? GM_TEST_EQ : GM_TEST_NE;
	else if (s[b] != '!')
		t->kind = GM_TEST_NE;
	else if (!binary)
		t->kind = GM_TEST_EQ;
}

/* The `?:` of line s: its arms' kinds in *then / *els, its test in
 * *test (read_test). 1 when the line has exactly one `?`
 * outside literals and comments, not nested, whose arms end within the
 * line; else 0. The test is GM_TEST_UNKNOWN when it may begin on an earlier
 * line. */
static int one_select(const char *s, struct gm_arm *then, struct gm_arm *els,
                      struct gm_test *test)
{
	size_t q = 0, nq = 0;
	for (size_t k = 0; s[k]; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			k = skip_quoted(s, k) - 1;
			continue;
		}
		if (s[k] == '/' && (s[k + 1] == '/' || s[k + 1] == '*'))
			break;
		if (s[k] == '?') {
			q = k;
			nq++;
		}
	}
	if (nq != 1)
		return 0;
	size_t colon = 0, end = 0;
	int depth = 0;
	for (size_t k = q + 1; s[k] && !end; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			k = skip_quoted(s, k) - 1;
			continue;
		}
		if (s[k] == '(' || s[k] == '[' || s[k] == '{')
			depth++;
		else if (s[k] == ')' || s[k] == ']' || s[k] == '}')
			depth--;
		if (depth < 0 || (!depth && colon &&
		                  (s[k] == ',' || s[k] == ';')) ||
		    (s[k] == '/' && (s[k + 1] == '/' || s[k + 1] == '*')))
			end = k;
		else if (!depth && !colon && s[k] == ':')
			colon = k;
		if (depth < 0 && !colon)
			return 0;
	}
	if (!colon)
		return 0;
	if (!end)
		end = strlen(s);
	*then = classify(s + q + 1, colon - q - 1);
	*els = classify(s + colon + 1, end - colon - 1);
	/* The test starts after what opens it: a parenthesis, a comma,
	 * an assignment, a statement's start. */
	test->kind = GM_TEST_UNKNOWN;
	depth = 0;
	for (size_t k = q; k-- > 0;) {
		char c = s[k], p = k ? s[k - 1] : 0;
		if (c == '"' || c == '\'')
			return 1;
		if (c == ')' || c == ']')
			depth++;
		else if ((c == '(' || c == '[') && depth)
			depth--;
		else if (c == '(' || c == '[' || c == ',' || c == ';' ||
		         c == '{' || c == '}' || c == ':' ||
		         (c == '=' && s[k + 1] != '=' &&
		          (!strchr("=!<>", p) || (k > 1 && s[k - 2] == p)))) {
			read_test(s, k + 1, q, test);
			return 1;
		}
		if (!depth && k >= 6 && !strncmp(s + k - 6, "return", 6) &&
		    (k == 6 || !is_ident(s[k - 7])) && !is_ident(c)) {
			read_test(s, k, q, test);
			return 1;
		}
	}
	return 1;
}

/* Contract in gcda_srctext.h. */
int gm_select_swapped(const struct gm_select *s)
{
	const struct gm_arm *then = &s->arm[0], *els = &s->arm[1];
	if (els->kind == GM_ARM_LIT)
		return 0;
	if (els->kind == GM_ARM_UNKNOWN || then->kind == GM_ARM_UNKNOWN)
		return -1;
	if (then->kind == GM_ARM_LIT)
		return 1;
	if (els->kind == GM_ARM_NAME)
		return 0;
	return then->kind == GM_ARM_NAME; /* els is an expression */
}

/* Contract in gcda_srctext.h. */
int gm_select_delivers(const struct gm_select *s, int arm, uint64_t v)
{
	const struct gm_arm *a = &s->arm[arm];
	return a->kind == GM_ARM_LIT &&
	       (v == a->val || (uint32_t)v == (uint32_t)a->val);
}

/* Does the text s[b..e) hold the integer literal v (or -v)? */
static int has_literal(const char *s, size_t b, size_t e, int64_t v)
{
	for (size_t k = b; k < e; k++) {
		if (s[k] < '0' || s[k] > '9' || (k > b && is_ident(s[k - 1])))
			continue;
		size_t w = k;
		while (k < e && is_ident(s[k]))
			k++;
		uint64_t x;
		if (int_literal(s + w, k - w, &x) &&
		    (x == (uint64_t)v || x == -(uint64_t)v))
			return 1;
	}
	return 0;
}

/* Contract in gcda_srctext.h. */
int gm_select_side_zero(const struct gm_select *s, int d)
{
	size_t b = s->test.side[d][0], e = s->test.side[d][1];
	strip(s->text, &b, &e);
	uint64_t v;
	return int_literal(s->text + b, e - b, &v) && !v;
}

/* Contract in gcda_srctext.h. */
int gm_select_side_holds(const struct gm_select *s, int d, int64_t v)
{
	size_t b = s->test.side[d][0], e = s->test.side[d][1];
	return has_literal(s->text, b, e, v) &&
	       classify(s->text + b, e - b).kind != GM_ARM_LIT;
}

/* Contract in gcda_srctext.h. */
int gm_select_side_element(const struct gm_select *s, int d)
{
	size_t b = s->test.side[d][0], e = s->test.side[d][1];
	strip(s->text, &b, &e);
	int sub = 0;
	for (size_t k = b; k < e; k++) {
		char c = s->text[k];
		if (c == '(' || c == '*' || c == '.' ||
		    (c == '-' && k + 1 < e && s->text[k + 1] == '>'))
			return 0;
		if (c == '[') {
			size_t q = k + 1;
			while (q < e && s->text[q] != ']' &&
			       !(is_ident(s->text[q]) &&
			         (s->text[q] < '0' || s->text[q] > '9')))
				q++;
			if (q >= e || s->text[q] == ']')
				return 0; /* a constant subscript */
			sub = 1;
			break;
		}
	}
	return sub;
}

/* Contract in gcda_srctext.h. */
int gm_select_side_plain(const struct gm_select *s, int d)
{
	size_t b = s->test.side[d][0], e = s->test.side[d][1];
	strip(s->text, &b, &e);
	for (size_t k = b; k < e; k++)
		if (!is_ident(s->text[k]) && s->text[k] != ' ')
			return 0;
	return b < e;
}

/* Contract in gcda_srctext.h. */
int gm_select_side_unmoved(const struct gm_select *s, int d)
{
	size_t b = s->test.side[d][0], e = s->test.side[d][1];
	strip(s->text, &b, &e);
	if (gm_select_side_zero(s, d))
		return 1;
	for (size_t k = b; k < e; k++)
		if (s->text[k] >= '0' && s->text[k] <= '9' &&
		    (k == b || !is_ident(s->text[k - 1])))
			return 0;
	return b < e;
}

/* Contract in gcda_srctext.h. */
int gm_select_read(struct gm_srcfiles *files, const char *path,
                   uint32_t line, struct gm_select *s)
{
	s->text = gm_source_line(files, path, line, MAX_LINE);
	return s->text && one_select(s->text, &s->arm[0], &s->arm[1], &s->test);
}

void gm_select_fini(struct gm_select *s)
{
	free(s->text);
	s->text = NULL;
}

/* Contract in gcda_srctext.h. */
int gm_case_labels(struct gm_srcfiles *files, const char *path,
                   uint32_t line, uint64_t *vals, int max)
{
	char *s = gm_source_line(files, path, line, MAX_LINE);
	if (!s)
		return -1;
	int n = 0;
	for (size_t k = 0; s[k] && n >= 0; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			k = skip_quoted(s, k) - 1;
			continue;
		}
		if (s[k] == '/' && s[k + 1] == '/')
			break;
		if (s[k] == '/' && s[k + 1] == '*') {
			char *e = strstr(s + k + 2, "*/");
			if (!e)
				break;
			k = (size_t)(e - s) + 1;
			continue;
		}
		if (strncmp(s + k, "case", 4) || (k && is_ident(s[k - 1])) ||
		    is_ident(s[k + 4]))
			continue;
		/* The label's expression runs to the ':' outside quotes. */
		size_t b = k + 4, e = b;
		while (s[e] && s[e] != ':')
			e = s[e] == '\'' ? skip_quoted(s, e) : e + 1;
		size_t colon = e;
		strip(s, &b, &e);
		uint64_t v;
		if (!s[colon] || n == max || !int_literal(s + b, e - b, &v))
			n = -1; /* a range, a name, a macro: not read */
		else
			vals[n++] = v;
		k = colon;
	}
	free(s);
	return n;
}

/* The last character of line s outside literals and comments, or 0 when
 * it has none (a blank or comment-only line); *open set when the line
 * ends inside a block comment. */
static char last_code_char(const char *s, int *open)
{
	char last = 0;
	*open = 0;
	for (size_t k = 0; s[k]; k++) {
		if (s[k] == '"' || s[k] == '\'') {
			last = s[k];
			k = skip_quoted(s, k) - 1;
			continue;
		}
		if (s[k] == '/' && s[k + 1] == '/')
			break;
		if (s[k] == '/' && s[k + 1] == '*') {
			const char *e = strstr(s + k + 2, "*/");
			if (!e) {
				*open = 1;
				break;
			}
			k = (size_t)(e - s) + 1;
			continue;
		}
		if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r' && s[k] != '\n')
			last = s[k];
	}
	return last;
}

int gm_label_stacked(struct gm_srcfiles *files, const char *path,
                     uint32_t line)
{
	for (uint32_t l = line - 1, n = 0; l >= 1 && n < 8; l--, n++) {
		char *s = gm_source_line(files, path, l, MAX_LINE);
		if (!s)
			return -1;
		int open;
		char c = last_code_char(s, &open);
		/* A line closing a block comment begun above: its start
		 * is not read as code. */
		const char *ce = strstr(s, "*/"), *cs = strstr(s, "/*");
		int closes = ce && (!cs || cs > ce);
		free(s);
		if (open || closes)
			return -1;
		if (c)
			return c == ':';
	}
	return -1; /* only blank lines within reach */
}

long gm_case_label_line(struct gm_srcfiles *files, const char *path,
                        uint32_t from, uint32_t to, uint64_t v)
{
	long hit = -1;
	for (uint32_t l = from; l <= to && l - from < MAX_SCAN; l++) {
		uint64_t vals[16];
		int nv = gm_case_labels(files, path, l, vals, 16);
		if (nv < 0)
			return -1;
		for (int j = 0; j < nv; j++) {
			if (vals[j] != v && (uint32_t)vals[j] != (uint32_t)v)
				continue;
			if (hit >= 0)
				return -1;
			hit = l;
		}
	}
	return hit;
}
