/* The source lines that call a function (gcda_map.h: gm_call_lines), for
 * a function the binary keeps no trace of (inlined everywhere with its
 * DWARF inline records dropped): a plain scan of the C source for
 * `name (` outside comments, literals and preprocessor lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "ltpipe/error.h"

/* Grows *v (capacity *cap) to hold one more line and appends it. Returns
 * 0 or LT_ERR_NOMEM. */
static int push_line(uint32_t **v, size_t *n, size_t *cap, uint32_t line)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		uint32_t *nv = realloc(*v, nc * sizeof(*nv));
		if (!nv)
			return LT_ERR_NOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = line;
	return 0;
}

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

size_t gm_call_lines(const char *path, const char *name, uint32_t **lines)
{
	*lines = NULL;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return 0;
	size_t cap = 1 << 16, n = 0, nl = 0, lcap = 0, len = strlen(name);
	char *buf = malloc(cap + 2);
	while (buf) {
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap || cap >= ((size_t)1 << 26))
			break;
		char *nb = realloc(buf, 2 * cap + 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	fclose(fp);
	if (!buf)
		return 0;
	buf[n] = buf[n + 1] = 0;
	uint32_t line = 1;
	int bol = 1, bad = 0;
	for (size_t i = 0; i < n && !bad;) {
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
		if (i - s != len || memcmp(buf + s, name, len) ||
		    (c >= '0' && c <= '9'))
			continue;
		for (k = i; buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' ||
		            buf[k] == '\r'; k++)
			;
		if (buf[k] == '(')
			bad = push_line(lines, &nl, &lcap, line);
	}
	free(buf);
	if (bad) {
		free(*lines);
		*lines = NULL;
		return 0;
	}
	return nl;
}
