/* A byte sink for the encoder: a plain file, or a zstd stream when the name
 * ends in ".zst". */
#ifndef LTPIPE_SINKS_QEMU_OUTFILE_H
#define LTPIPE_SINKS_QEMU_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An open output file. */
struct lt_outfile {
	FILE *f;            /* the file */
	void *zc;           /* ZSTD_CCtx, or NULL for a raw file */
	uint8_t *zbuf;      /* compressed-output staging buffer */
	size_t zbuf_size;   /* its size */
	int err;            /* first error (negative lt_error), sticky */
};

/* Creates/truncates `path`. Returns 0 or LT_ERR_IO / LT_ERR_NOMEM /
 * LT_ERR_ZSTD (errno is kept for LT_ERR_IO). */
int lt_outfile_open(struct lt_outfile *o, const char *path);

/* lt_encoder_write_fn: appends bytes (compressing if zstd). */
int lt_outfile_write(void *user, const uint8_t *buf, size_t len);

/* Writes out the bytes buffered for the file (not the compressor's
 * pending input), e.g. before fork(): 0 or LT_ERR_IO. */
int lt_outfile_flush(struct lt_outfile *o);

/* Makes the bytes written so far a complete file (a zstd stream's frame
 * ended; later writes start another frame) and writes them out, e.g.
 * before the process image goes (execve): 0 or the first error. */
int lt_outfile_sync(struct lt_outfile *o);

/* Closes the file without writing anything more (a forked child's copy,
 * flushed before the fork: the parent goes on writing the file). */
void lt_outfile_abandon(struct lt_outfile *o);

/* Ends the zstd frame, closes the file. Returns 0 or the first error. */
int lt_outfile_close(struct lt_outfile *o);

#endif
