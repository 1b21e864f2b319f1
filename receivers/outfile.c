/* Atomic buffered output files (see outfile.h). */
#include "ltpipe/outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ltpipe/error.h"

struct lt_out *lt_out_open(const char *path, char *err, size_t errlen)
{
	struct lt_out *o = calloc(1, sizeof(*o));
	if (!o || !(o->buf = malloc(LT_OUT_BUF)) || !(o->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		if (o)
			free(o->buf);
		free(o);
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		o->fd = 1;
		o->is_stdout = 1;
		return o;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or fifo (/dev/null, a pipe): write through; renaming a
		 * temp file over it would replace the device. */
		o->fd = open(path, O_WRONLY | O_APPEND);
		if (o->fd < 0) {
			snprintf(err, errlen, "%s: cannot open: %s", path,
			         strerror(errno));
			free(o->buf);
			free(o->path);
			free(o);
			return NULL;
		}
		o->is_stdout = 2;
		return o;
	}
	size_t n = strlen(path) + 32;
	o->tmp = malloc(n);
	if (!o->tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		lt_out_abort(o);
		return NULL;
	}
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path,
		         strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		lt_out_abort(o);
		return NULL;
	}
	fchmod(o->fd, 0644);
	return o;
}

static void write_all(struct lt_out *o, const uint8_t *p, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

void lt_out_drain(struct lt_out *o)
{
	write_all(o, o->buf, o->len);
	o->len = 0;
}

void lt_out_write_direct(struct lt_out *o, const void *p, size_t n)
{
	write_all(o, p, n);
}

void lt_out_printf(struct lt_out *o, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		lt_out_write(o, buf, (size_t)n < sizeof(buf) ? (size_t)n
		                                               : sizeof(buf) - 1);
}

static void out_free(struct lt_out *o)
{
	free(o->buf);
	free(o->tmp);
	free(o->path);
	free(o);
}

int lt_out_commit(struct lt_out *o, char *err, size_t errlen)
{
	lt_out_drain(o);
	int rc = 0;
	if (o->is_stdout) {
		if (o->err) {
			snprintf(err, errlen, "%s: write error: %s",
			         o->is_stdout == 1 ? "standard output" : o->path,
			         strerror(o->err));
			rc = LT_ERR_IO;
		}
		if (o->is_stdout == 2)
			close(o->fd);
		out_free(o);
		return rc;
	}
	if (!o->err && close(o->fd) != 0)
		o->err = errno;
	else if (o->err)
		close(o->fd);
	if (!o->err && rename(o->tmp, o->path) != 0)
		o->err = errno;
	if (o->err) {
		snprintf(err, errlen, "%s: write error: %s", o->path,
		         strerror(o->err));
		unlink(o->tmp);
		rc = LT_ERR_IO;
	}
	out_free(o);
	return rc;
}

void lt_out_abort(struct lt_out *o)
{
	if (!o)
		return;
	if (!o->is_stdout && o->tmp) {
		close(o->fd);
		unlink(o->tmp);
	} else if (o->is_stdout == 2) {
		close(o->fd);
	}
	out_free(o);
}

char *lt_path_join(const char *dir, const char *name)
{
	if (strcmp(name, "-") == 0 || name[0] == '/' || !dir || !*dir)
		return strdup(name);
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}
