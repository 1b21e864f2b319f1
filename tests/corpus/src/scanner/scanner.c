/* scanner: a hand-written tokenizer of `else if` tests on characters with
 * `continue` (whitespace and comments skipped at the top of the loop body),
 * binary and interpolation searches leaving by early returns, an arg-max
 * loop `if (a[i] > max) { max = a[i]; idx = i; }` (gcc -O2 if-converts
 * parts of it), a `for` loop whose first statement is `if (..) continue;`,
 * and string compares in loops. */
#include <stdio.h>
#include <string.h>

static long sink;
static int counts[8];

static unsigned seed = 12345u;

static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* Token kinds counted into counts[]. */
enum { T_NUM, T_IDENT, T_OP, T_STR, T_PUNCT, T_BAD, T_KEY, T_CMT };

static const char *const keywords[] = { "if", "else", "while", "for", "return", "int" };

__attribute__((noinline)) static int is_keyword(const char *s, int n)
{
	for (unsigned k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
		if ((int)strlen(keywords[k]) != n)
			continue;
		if (memcmp(keywords[k], s, n) == 0)
			return 1;
	}
	return 0;
}

__attribute__((noinline)) static int scan(const char *p)
{
	int ntok = 0;
	while (*p) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n') {
			p++;
			continue;
		}
		if (c == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			counts[T_CMT]++;
			continue;
		}
		ntok++;
		if (c >= '0' && c <= '9') {
			long v = 0;
			while (*p >= '0' && *p <= '9')
				v = v * 10 + (*p++ - '0');
			sink += v;
			counts[T_NUM]++;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
			const char *s = p;
			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			       (*p >= '0' && *p <= '9') || *p == '_')
				p++;
			if (is_keyword(s, (int)(p - s)))
				counts[T_KEY]++;
			else
				counts[T_IDENT]++;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p)
				p++;
			counts[T_STR]++;
		} else if (c == '+' || c == '-' || c == '*' || c == '/') {
			if (p[1] == '=')
				p++;
			p++;
			counts[T_OP]++;
		} else if (c == '=' || c == '<' || c == '>' || c == '!') {
			p++;
			if (*p == '=')
				p++;
			counts[T_OP]++;
		} else if (c == '(' || c == ')' || c == '{' || c == '}' || c == ';' || c == ',') {
			p++;
			counts[T_PUNCT]++;
		} else {
			p++;
			counts[T_BAD]++;
		}
	}
	return ntok;
}

/* Binary search: index of key in a[0..n) or -1, early returns. */
__attribute__((noinline)) static int bsearch_int(const int *a, int n, int key)
{
	int lo = 0, hi = n - 1;
	if (n == 0)
		return -1;
	if (key < a[0] || key > a[n - 1])
		return -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (a[mid] == key)
			return mid;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	sink++;
	return -1;
}

/* Interpolation search over a sorted array. */
__attribute__((noinline)) static int isearch(const int *a, int n, int key)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi && key >= a[lo] && key <= a[hi]) {
		if (a[hi] == a[lo]) {
			if (a[lo] == key)
				return lo;
			break;
		}
		int pos = lo + (int)((long)(key - a[lo]) * (hi - lo) / (a[hi] - a[lo]));
		if (a[pos] == key)
			return pos;
		if (a[pos] < key)
			lo = pos + 1;
		else
			hi = pos - 1;
		sink += 3;
	}
	return -1;
}

/* Arg-max with the index: gcc if-converts the max, not always the index. */
__attribute__((noinline)) static int argmax(const int *a, int n)
{
	int max = a[0], idx = 0;
	for (int i = 1; i < n; i++) {
		if (a[i] > max) {
			max = a[i];
			idx = i;
		}
	}
	sink += max;
	return idx;
}

/* Arg-min and count of ties with the minimum. */
__attribute__((noinline)) static int argmin_ties(const int *a, int n, int *ties)
{
	int min = a[0], idx = 0, t = 1;
	for (int i = 1; i < n; i++) {
		if (a[i] < min) {
			min = a[i];
			idx = i;
			t = 1;
		} else if (a[i] == min) {
			t++;
		}
	}
	*ties = t;
	return idx;
}

/* Sum of the odd entries above a floor: continue first in the body. */
__attribute__((noinline)) static long sum_odd(const int *a, int n, int floor)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		if ((a[i] & 1) == 0)
			continue;
		if (a[i] < floor)
			continue;
		s += a[i];
		sink++;
	}
	return s;
}

/* Counts the words of list equal to w, and those with w as prefix. */
__attribute__((noinline)) static int count_words(const char *const *list, int n, const char *w, int *pref)
{
	int eq = 0;
	size_t wl = strlen(w);
	*pref = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(list[i], w) == 0) {
			eq++;
			continue;
		}
		if (strncmp(list[i], w, wl) == 0)
			(*pref)++;
	}
	sink += eq;
	return eq;
}

static const char *const src_text[] = {
	"int main() { return 0; }",
	"// a comment line\nx = y + 42; // more\n",
	"while (i <= 10) { i += 2; s = s * 3 - 1; }",
	"if (a != b) print(\"x\\\"y\", 7); else q = 1 / 0;",
	"for (int k = 0; k < 100; k++) total -= k;",
	"@ # $ weird 12ab _under __x9",
	"",
	"   \t\n  ",
	"\"unterminated string",
	"a==b<=c>=d!e",
};

static const char *const words[] = {
	"alpha", "alphabet", "beta", "alp", "alpha", "gamma", "al", "alphanumeric", "beta", "delta",
};

int main(void)
{
	int total = 0;
	for (int r = 0; r < 30; r++)
		for (unsigned i = 0; i < sizeof src_text / sizeof src_text[0]; i++)
			total += scan(src_text[i]);
	printf("tokens %d:", total);
	for (int k = 0; k < 8; k++)
		printf(" %d", counts[k]);
	printf("\n");

	int a[200];
	int v = 0;
	for (int i = 0; i < 200; i++) {
		v += (int)(rnd() % 7);
		a[i] = v;
	}
	int found = 0, ifound = 0, pos = 0;
	for (int k = -5; k < v + 10; k += 3) {
		int r = bsearch_int(a, 200, k);
		if (r >= 0) {
			found++;
			pos += r;
		}
		if (isearch(a, 200, k) >= 0)
			ifound++;
	}
	printf("bsearch %d %d isearch %d\n", found, pos, ifound);
	printf("empty %d\n", bsearch_int(a, 0, 3));

	int b[64];
	int sumidx = 0, sumties = 0;
	for (int r = 0; r < 40; r++) {
		int n = 5 + (int)(rnd() % 60);
		for (int i = 0; i < n; i++)
			b[i] = (int)(rnd() % 50);
		int t;
		sumidx += argmax(b, n);
		sumidx += argmin_ties(b, n, &t);
		sumties += t;
		sink += sum_odd(b, n, 20);
	}
	printf("argmax %d ties %d\n", sumidx, sumties);

	int pf, eqs = 0, pfs = 0;
	const char *probes[] = { "alpha", "beta", "al", "zeta", "alp" };
	for (int r = 0; r < 10; r++)
		for (int k = 0; k < 5; k++) {
			eqs += count_words(words, 10, probes[k], &pf);
			pfs += pf;
		}
	printf("words %d %d sink %ld\n", eqs, pfs, sink);
	return 0;
}
