/* Text transforms through a static table of function pointers; two functions
 * identical to ones in wrap.c. */
#include <ctype.h>
#include <string.h>
#include "wrap.h"

/* Same body as wrap_count_words in wrap.c. */
size_t util_count_words(const char *text)
{
	size_t n = 0; int in = 0;
	for (; *text; text++) { if (*text == ' ' || *text == '\n') in = 0; else if (!in) { in = 1; n++; } }
	return n;
}

/* Same body as wrap_checksum in wrap.c. */
unsigned util_checksum(const char *s, size_t n)
{
	unsigned h = 5381;
	for (size_t i = 0; i < n; i++) h = h * 33 + (unsigned char)s[i];
	return h;
}

static size_t t_upper(const char *s, char *o, size_t cap)
{
	size_t i = 0;
	for (; s[i] && i + 1 < cap; i++) o[i] = (char)toupper((unsigned char)s[i]);
	o[i] = 0; return i;
}

static size_t t_lower(const char *s, char *o, size_t cap)
{
	size_t i = 0;
	for (; s[i] && i + 1 < cap; i++) o[i] = (char)tolower((unsigned char)s[i]);
	o[i] = 0; return i;
}

/* Collapses runs of spaces; the loop condition is a nested ?:. */
static size_t t_squeeze(const char *s, char *o, size_t cap)
{
	size_t j = 0; char prev = 0;
	while ((*s ? (j + 1 < cap ? 1 : 0) : 0)) { if (!(*s == ' ' && prev == ' ')) o[j++] = *s; prev = *s++; }
	o[j] = 0; return j;
}

/* Reverses each word in place in the output. */
static size_t t_revwords(const char *s, char *o, size_t cap)
{
	size_t n = strlen(s); if (n + 1 > cap) n = cap - 1;
	memcpy(o, s, n); o[n] = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i; while (j < n && o[j] != ' ') j++;
		for (size_t a = i, b = j; a + 1 < b + 0 && a < b - 1; a++, b--) { char t = o[a]; o[a] = o[b - 1]; o[b - 1] = t; }
		i = j + 1;
	}
	return n;
}

/* Keeps letters only, capitalising the first of each word. */
static size_t t_title(const char *s, char *o, size_t cap)
{
	size_t j = 0; int start = 1;
	for (; *s && j + 1 < cap; s++) { if (*s == ' ') { o[j++] = ' '; start = 1; continue; } if (!isalpha((unsigned char)*s)) continue; o[j++] = (char)(start ? toupper((unsigned char)*s) : tolower((unsigned char)*s)); start = 0; }
	o[j] = 0; return j;
}

/* t_copy and t_dup have one body: gcc -O2 folds them into one. */
static size_t t_copy(const char *s, char *o, size_t cap)
{
	size_t i = 0;
	while (s[i] && i + 1 < cap) { o[i] = s[i]; i++; }
	o[i] = 0; return i;
}

static size_t t_dup(const char *s, char *o, size_t cap)
{
	size_t i = 0;
	while (s[i] && i + 1 < cap) { o[i] = s[i]; i++; }
	o[i] = 0; return i;
}

static size_t (*const transforms[])(const char *, char *, size_t) = { t_upper, t_lower, t_squeeze, t_copy, t_revwords, t_title, t_dup };

/* Runs transform `which` (modulo the table size); returns the output length or -1. */
int util_apply(int which, const char *text, char *out, size_t cap)
{
	if (which < 0) return -1;
	return (int)transforms[which % (int)(sizeof transforms / sizeof transforms[0])](text, out, cap);
}
