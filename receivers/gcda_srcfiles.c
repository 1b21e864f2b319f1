/* The source files the `?:` arms read (gcda_srctext.h: struct
 * gm_srcfiles): each read once, with the start of every line, so that a
 * line query costs no pass over the file from its start. A file that
 * cannot be read is remembered as such (its sources moved or deleted
 * after the build: no line of it is read, no rule uses its text). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcda_srctext.h"

/* Largest source file read (bytes); past it, no line is read. */
#define MAX_FILE ((size_t)1 << 26)

/* One file read. */
struct gm_srcfile {
	char *path;      /* as asked for (owned) */
	char *text;      /* its bytes, or NULL: could not be read */
	size_t len;      /* bytes in text */
	size_t *start;   /* offset of each line's first byte */
	uint32_t nlines; /* entries in start: newlines + 1 */
	struct gm_callindex *calls; /* its calls, once asked for, or NULL */
};

void gm_srcfiles_init(struct gm_srcfiles *s)
{
	s->f = NULL;
	s->n = 0;
	s->cap = 0;
}

void gm_srcfiles_fini(struct gm_srcfiles *s)
{
	for (size_t k = 0; k < s->n; k++) {
		free(s->f[k].path);
		free(s->f[k].text);
		free(s->f[k].start);
		gm_callindex_free(s->f[k].calls);
	}
	free(s->f);
	gm_srcfiles_init(s);
}

/* Contract in gcda_srctext.h. */
char *gm_read_text(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 1 << 14, n = 0;
	char *buf = malloc(cap + 2);
	while (buf) {
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap)
			break;
		char *nb = cap < MAX_FILE ? realloc(buf, 2 * cap + 2) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (buf && ferror(fp)) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	if (buf)
		buf[n] = buf[n + 1] = 0;
	*len = n;
	return buf;
}

/* Reads f->path into f (text NULL when it cannot be read). 0, or -1
 * when out of memory. */
static int load(struct gm_srcfile *f)
{
	f->text = gm_read_text(f->path, &f->len);
	if (!f->text)
		return 0;
	uint32_t n = 1;
	for (size_t k = 0; k < f->len; k++)
		n += f->text[k] == '\n';
	f->start = malloc(n * sizeof(*f->start));
	if (!f->start) {
		free(f->text);
		f->text = NULL;
		return -1;
	}
	f->start[0] = 0;
	f->nlines = 1;
	for (size_t k = 0; k < f->len; k++)
		if (f->text[k] == '\n')
			f->start[f->nlines++] = k + 1;
	return 0;
}

/* The entry of path in s, read now if new; NULL when out of memory. */
static struct gm_srcfile *find(struct gm_srcfiles *s, const char *path)
{
	for (size_t k = 0; k < s->n; k++)
		if (!strcmp(s->f[k].path, path))
			return &s->f[k];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct gm_srcfile *nf = realloc(s->f, cap * sizeof(*nf));
		if (!nf)
			return NULL;
		s->f = nf;
		s->cap = cap;
	}
	struct gm_srcfile *f = &s->f[s->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path || load(f) < 0) {
		free(f->path);
		return NULL;
	}
	s->n++;
	return f;
}

/* Contract in gcda_srctext.h. */
char *gm_source_line(struct gm_srcfiles *s, const char *path, uint32_t line,
                     size_t max)
{
	struct gm_srcfiles one;
	if (!path)
		return NULL;
	if (!s) {
		gm_srcfiles_init(&one);
		char *r = gm_source_line(&one, path, line, max);
		gm_srcfiles_fini(&one);
		return r;
	}
	const struct gm_srcfile *f = find(s, path);
	if (!f || !f->text || !line || line > f->nlines)
		return NULL;
	size_t b = f->start[line - 1];
	size_t e = line < f->nlines ? f->start[line] - 1 : f->len;
	size_t n = e - b < max ? e - b : max;
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, f->text + b, n);
	r[n] = 0;
	return r;
}

/* Contract in gcda_srctext.h. */
size_t gm_source_call_lines(struct gm_srcfiles *s, const char *path,
                            const char *name, uint32_t **lines)
{
	*lines = NULL;
	if (!s) {
		struct gm_srcfiles one;
		gm_srcfiles_init(&one);
		size_t n = gm_source_call_lines(&one, path, name, lines);
		gm_srcfiles_fini(&one);
		return n;
	}
	struct gm_srcfile *f = find(s, path);
	if (!f || !f->text)
		return 0;
	if (!f->calls)
		f->calls = gm_callindex_build(f->text, f->len);
	return f->calls ? gm_callindex_lines(f->calls, name, lines) : 0;
}
