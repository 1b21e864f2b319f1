/* Raw or zstd-compressed output file for the encoder. */
#include "outfile.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "ltpipe/error.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int lt_outfile_open(struct lt_outfile *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->f = fopen(path, "wb");
	if (!o->f)
		return LT_ERR_IO;
	if (!ends_with(path, ".zst"))
		return 0;
	o->zc = ZSTD_createCCtx();
	o->zbuf_size = ZSTD_CStreamOutSize();
	o->zbuf = malloc(o->zbuf_size);
	if (!o->zc || !o->zbuf) {
		lt_outfile_close(o);
		return LT_ERR_NOMEM;
	}
	/* Level 3 (the default) keeps up with the emulator. */
	ZSTD_CCtx_setParameter(o->zc, ZSTD_c_compressionLevel, 3);
	return 0;
}

/* Runs the compressor over `in` with `op` and writes what it produces. */
static int zstd_pump(struct lt_outfile *o, ZSTD_inBuffer *in,
                     ZSTD_EndDirective op)
{
	for (;;) {
		ZSTD_outBuffer out = { o->zbuf, o->zbuf_size, 0 };
		size_t left = ZSTD_compressStream2(o->zc, &out, in, op);

		if (ZSTD_isError(left))
			return LT_ERR_ZSTD;
		if (out.pos && fwrite(o->zbuf, 1, out.pos, o->f) != out.pos)
			return LT_ERR_IO;
		if (op == ZSTD_e_end ? left == 0 : in->pos == in->size)
			return 0;
	}
}

int lt_outfile_write(void *user, const uint8_t *buf, size_t len)
{
	struct lt_outfile *o = user;

	if (o->err)
		return o->err;
	if (o->zc) {
		ZSTD_inBuffer in = { buf, len, 0 };
		o->err = zstd_pump(o, &in, ZSTD_e_continue);
	} else if (fwrite(buf, 1, len, o->f) != len) {
		o->err = LT_ERR_IO;
	}
	return o->err;
}

int lt_outfile_close(struct lt_outfile *o)
{
	if (o->zc && o->f && !o->err) {
		ZSTD_inBuffer in = { NULL, 0, 0 };
		o->err = zstd_pump(o, &in, ZSTD_e_end);
	}
	if (o->f && fclose(o->f) != 0 && !o->err)
		o->err = LT_ERR_IO;
	ZSTD_freeCCtx(o->zc);
	free(o->zbuf);
	o->f = NULL;
	o->zc = NULL;
	o->zbuf = NULL;
	return o->err;
}

int lt_outfile_flush(struct lt_outfile *o)
{
	if (o->f && fflush(o->f) != 0 && !o->err)
		o->err = LT_ERR_IO;
	return o->err;
}

void lt_outfile_abandon(struct lt_outfile *o)
{
	if (o->f)
		fclose(o->f); /* its buffer is empty: lt_outfile_flush ran */
	ZSTD_freeCCtx(o->zc);
	free(o->zbuf);
	o->f = NULL;
	o->zc = NULL;
	o->zbuf = NULL;
}

int lt_outfile_sync(struct lt_outfile *o)
{
	if (o->zc && o->f && !o->err) {
		ZSTD_inBuffer in = { NULL, 0, 0 };
		o->err = zstd_pump(o, &in, ZSTD_e_end);
	}
	return lt_outfile_flush(o);
}
