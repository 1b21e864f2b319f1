/* Greedy line wrapping: several statements per line, for (;;) with several
 * breaks on one line, nested ?: inside loop conditions. */
#include <stdio.h>
#include <string.h>
#include "wrap.h"

static char line[256];
static size_t line_len, lines_out;

static void flush(void) { if (line_len) { line[line_len] = 0; printf("|%s|\n", line); lines_out++; } line_len = 0; }

/* Two helpers with one body, called directly: gcc -O2 folds them (ipa-icf). */
static __attribute__((noinline)) size_t skip_blank(const char *p)
{
	size_t n = 0;
	while (p[n] == ' ' || p[n] == '\n') n++;
	return n;
}

static __attribute__((noinline)) size_t skip_gap(const char *p)
{
	size_t n = 0;
	while (p[n] == ' ' || p[n] == '\n') n++;
	return n;
}

/* Splits text into words and packs them into lines of at most width columns. */
size_t wrap_greedy(const char *text, size_t width, emit_fn emit)
{
	const char *p = text; size_t words = 0; lines_out = 0; line_len = 0;
	for (;;) {
		p += words & 1 ? skip_gap(p) : skip_blank(p);
		const char *w = p; size_t n = 0;
		for (;;) { if (!*p) break; if (*p == ' ') break; if (*p == '\n') break; p++; n++; }
		if (n == 0) break;
		words++; if (emit) emit(w, n);
		if (n > width) n = width;
		if (line_len && line_len + 1 + n > width) flush();
		if (line_len) line[line_len++] = ' ';
		memcpy(line + line_len, w, n); line_len += n;
	}
	flush();
	return lines_out;
}

/* Same body as util_count_words in util.c. */
size_t wrap_count_words(const char *text)
{
	size_t n = 0; int in = 0;
	for (; *text; text++) { if (*text == ' ' || *text == '\n') in = 0; else if (!in) { in = 1; n++; } }
	return n;
}

/* Same body as util_checksum in util.c. */
unsigned wrap_checksum(const char *s, size_t n)
{
	unsigned h = 5381;
	for (size_t i = 0; i < n; i++) h = h * 33 + (unsigned char)s[i];
	return h;
}
