/* Buffered output files written atomically: bytes go to a temporary file in
 * the destination directory, renamed over the final name only on commit,
 * so a failed or aborted run never leaves a half-written output. "-" means
 * standard output, and an existing non-regular file (/dev/null, a fifo) is
 * written through: neither is renamed over. */
#ifndef LTPIPE_OUTFILE_H
#define LTPIPE_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LT_OUT_BUF (1u << 18)

/* One output being written. */
struct lt_out {
	int fd;           /* temp file (or 1 for stdout) */
	int is_stdout;    /* 1: standard output; 2: an existing device or fifo
	                     written through (no temp file, no rename) */
	int err;          /* first errno seen, 0 if none */
	size_t len;       /* bytes held in buf */
	char *path;       /* final path */
	char *tmp;        /* temp path (NULL for stdout) */
	uint8_t *buf;     /* LT_OUT_BUF bytes */
};

/* Opens path for writing ("-" = stdout). Returns NULL with a message naming
 * the file on failure. */
struct lt_out *lt_out_open(const char *path, char *err, size_t errlen);

/* Writes the held bytes out (called when the buffer fills). */
void lt_out_drain(struct lt_out *o);

/* Appends n bytes. Errors are remembered and reported at commit. */
static inline void lt_out_write(struct lt_out *o, const void *p, size_t n)
{
	if (o->len + n > LT_OUT_BUF) {
		lt_out_drain(o);
		if (n > LT_OUT_BUF) {
			extern void lt_out_write_direct(struct lt_out *, const void *,
			                                size_t);
			lt_out_write_direct(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

/* Appends printf-formatted text (at most 4095 bytes per call; longer output
 * is cut). For reports written at close, not for per-event paths. */
void lt_out_printf(struct lt_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Returns a pointer where up to `n` (<= 4096) bytes may be written directly;
 * follow with lt_out_advance(o, used). */
static inline uint8_t *lt_out_reserve(struct lt_out *o, size_t n)
{
	if (o->len + n > LT_OUT_BUF)
		lt_out_drain(o);
	return o->buf + o->len;
}

static inline void lt_out_advance(struct lt_out *o, size_t used)
{
	o->len += used;
}

/* Flushes, closes and renames into place. Returns 0, or LT_ERR_IO with a
 * message naming the file (the temp file is removed). Frees o. */
int lt_out_commit(struct lt_out *o, char *err, size_t errlen);

/* Discards everything written (removes the temp file). Frees o. */
void lt_out_abort(struct lt_out *o);

/* Joins dir and name into a newly allocated path ("-" stays "-"). */
char *lt_path_join(const char *dir, const char *name);

#endif
