/* Bounds-checked reading of gcov words, strings and records, shared by the
 * gcno and gcda readers. Every failure writes one message naming the file,
 * the byte offset and what was expected there, and returns
 * LT_ERR_BAD_FORMAT. The reading half lives in gcno.c, the output buffer
 * in gcda_write.c. */
#ifndef LTPIPE_GCOV_IO_H
#define LTPIPE_GCOV_IO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ltpipe/gcov.h"

/* A read position inside a gcov image. */
struct lt_gcovio_cur {
	const uint8_t *buf;   /* the whole file image */
	size_t pos;           /* next byte to read */
	size_t end;           /* reads stop here (file or record end) */
	const char *name;     /* file name for messages */
	int big_endian;       /* word byte order */
	int byte_lengths;     /* gcc >= 12 string and record lengths */
	char *err;            /* message buffer */
	size_t errlen;        /* its size */
};

/* A record header: tag, length and where its body lies. */
struct lt_gcovio_rec {
	size_t offset;        /* file offset of the tag word */
	uint32_t tag;         /* record tag */
	uint32_t length;      /* length word as stored */
	size_t body;          /* file offset of the body */
	size_t body_len;      /* body size in bytes */
};

/* Formats a message "name: offset N: ..." into c->err and returns
 * LT_ERR_BAD_FORMAT. */
int lt_gcovio_fail(const struct lt_gcovio_cur *c, size_t offset,
                   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reads one word; what names it in the message on failure. */
int lt_gcovio_u32(struct lt_gcovio_cur *c, uint32_t *v, const char *what);

/* Reads a 64-bit counter (low word first). */
int lt_gcovio_i64(struct lt_gcovio_cur *c, int64_t *v, const char *what);

/* Reads a string in the file's encoding into a malloc'ed copy (*s = NULL
 * for the NULL string, length 0). */
int lt_gcovio_str(struct lt_gcovio_cur *c, char **s, const char *what);

/* Reads a record header at the cursor and checks that its body fits before
 * c->end; leaves the cursor at the body. */
int lt_gcovio_record(struct lt_gcovio_cur *c, struct lt_gcovio_rec *r);

/* Reads the 12- or 16-byte header words common to gcno and gcda: magic
 * (deciding the byte order), version (deciding the format family), stamp
 * and, for gcc >= 12, the checksum word. */
int lt_gcovio_header(struct lt_gcovio_cur *c, uint32_t magic,
                     struct lt_gcov_format *fmt, uint32_t *stamp,
                     uint32_t *checksum);

/* Reads a whole file into a malloc'ed buffer. Returns 0 or LT_ERR_IO /
 * LT_ERR_NOMEM with a message. */
int lt_gcovio_slurp(const char *path, uint8_t **buf, size_t *len,
                    char *err, size_t errlen);

/* Appends a word in the given byte order to a growing buffer. */
struct lt_gcovio_buf {
	uint8_t *p;           /* bytes */
	size_t len;           /* used */
	size_t cap;           /* allocated */
	int big_endian;       /* word byte order */
	int oom;              /* an allocation failed */
};

void lt_gcovio_put_u32(struct lt_gcovio_buf *b, uint32_t v);
void lt_gcovio_put_i64(struct lt_gcovio_buf *b, int64_t v);

#endif
