/* Trace input (contract in trace_input.h). Raw input is handed out straight
 * from one reused read() buffer; zstd input is decompressed with the
 * streaming API into a second reused buffer. */
#include "trace_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "ltpipe/error.h"

/* The four bytes that open every zstd frame (little-endian 0xFD2FB528). */
static const uint8_t zstd_magic[4] = { 0x28, 0xB5, 0x2F, 0xFD };

/* 1 if b[0..4) opens a zstd frame or a skippable frame (little-endian
 * 0x184D2A50..0x184D2A5F; pzstd starts every file with one), which the
 * streaming decoder steps over. */
static int is_zstd_start(const uint8_t *b)
{
	return memcmp(b, zstd_magic, sizeof(zstd_magic)) == 0 ||
	       ((b[0] & 0xF0) == 0x50 && b[1] == 0x2A && b[2] == 0x4D &&
		b[3] == 0x18);
}

struct lt_input {
	int fd;              /* file descriptor read from */
	int own_fd;          /* 1 if we opened fd (and must close it) */
	char *name;          /* file name for messages ("stdin" for "-") */
	uint64_t size;       /* regular-file size, else 0 */
	uint8_t *raw;        /* read() buffer, LT_INPUT_CHUNK bytes */
	size_t raw_len;      /* valid bytes in raw[] */
	size_t raw_pos;      /* bytes of raw[] already handed on */
	uint64_t consumed;   /* bytes read from fd so far */
	uint64_t produced;   /* trace bytes handed out so far */
	int eof;             /* read() returned 0 */
	int status;          /* 0, or the sticky negative lt_error */
	ZSTD_DStream *zds;   /* zstd stream, NULL for raw input */
	uint8_t *out;        /* decompressed chunk, LT_INPUT_CHUNK bytes */
	size_t zret;         /* last ZSTD_decompressStream() hint: 0 = frame
				done, else more input is needed */
	int zfull;           /* last call filled out[]: zstd may hold more
				output without new input */
	char msg[512];       /* message of the last error */
};

/* Formats an error message into in->msg, records `code` as sticky and
 * returns it. */
static int fail(struct lt_input *in, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct lt_input *in, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(in->msg, sizeof(in->msg), "%s: ", in->name);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(in->msg))
		vsnprintf(in->msg + n, sizeof(in->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	in->status = code;
	return code;
}

/* Appends up to `room` bytes from fd at raw[raw_len]. Returns the count
 * read (0 at end of file) or LT_ERR_IO. */
static ssize_t fill(struct lt_input *in, size_t room)
{
	ssize_t n;

	do
		n = read(in->fd, in->raw + in->raw_len, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(in, LT_ERR_IO, "read error at offset %llu: %s",
			    (unsigned long long)in->consumed, strerror(errno));
	if (n == 0)
		in->eof = 1;
	in->raw_len += (size_t)n;
	in->consumed += (uint64_t)n;
	return n;
}

int lt_input_open(struct lt_input **out, const char *path, char *err,
		  size_t errlen)
{
	struct lt_input *in;
	struct stat st;
	int rc = LT_ERR_NOMEM;

	*out = NULL;
	in = calloc(1, sizeof(*in));
	if (!in)
		goto nomem;
	in->fd = -1;
	in->name = strdup(strcmp(path, "-") == 0 ? "stdin" : path);
	in->raw = malloc(LT_INPUT_CHUNK);
	if (!in->name || !in->raw)
		goto nomem;
	if (strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			rc = fail(in, LT_ERR_IO, "cannot open: %s",
				  strerror(errno));
			goto fail;
		}
		in->own_fd = 1;
	}
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	/* a pipe may deliver the magic in pieces: read until 4 bytes or EOF */
	while (in->raw_len < sizeof(zstd_magic) && !in->eof) {
		if (fill(in, LT_INPUT_CHUNK - in->raw_len) < 0) {
			rc = in->status;
			goto fail;
		}
	}
	if (in->raw_len >= sizeof(zstd_magic) && is_zstd_start(in->raw)) {
		in->zds = ZSTD_createDStream();
		in->out = malloc(LT_INPUT_CHUNK);
		if (!in->zds || !in->out)
			goto nomem;
		ZSTD_initDStream(in->zds);
		in->zret = 1;
	}
	*out = in;
	return 0;
nomem:
	if (in)
		snprintf(in->msg, sizeof(in->msg), "%s: out of memory", path);
fail:
	if (err && errlen)
		snprintf(err, errlen, "%s",
			 in ? in->msg : "out of memory opening the trace");
	lt_input_close(in);
	return rc;
}

/* lt_input_read() for raw input: hands out the read buffer's unread part,
 * refilling it when empty. */
static ssize_t read_raw(struct lt_input *in, const uint8_t **chunk)
{
	ssize_t n;

	if (in->raw_pos == in->raw_len) {
		in->raw_len = in->raw_pos = 0;
		if (in->eof)
			return 0;
		n = fill(in, LT_INPUT_CHUNK);
		if (n <= 0)
			return n;
	}
	*chunk = in->raw + in->raw_pos;
	n = (ssize_t)(in->raw_len - in->raw_pos);
	in->raw_pos = in->raw_len;
	return n;
}

/* lt_input_read() for zstd input: decompresses until out[] is full or the
 * input would block with some output ready. */
static ssize_t read_zstd(struct lt_input *in, const uint8_t **chunk)
{
	ZSTD_outBuffer ob = { in->out, LT_INPUT_CHUNK, 0 };

	for (;;) {
		ZSTD_inBuffer ib;
		size_t r;

		if (in->raw_pos == in->raw_len && !in->zfull) {
			if (ob.pos > 0)
				break;
			in->raw_len = in->raw_pos = 0;
			if (!in->eof && fill(in, LT_INPUT_CHUNK) < 0)
				return in->status;
			if (in->raw_len == 0) {
				if (in->zret != 0)
					return fail(in, LT_ERR_ZSTD,
						"truncated zstd frame at end of "
						"input (compressed offset %llu, "
						"decompressed offset %llu)",
						(unsigned long long)in->consumed,
						(unsigned long long)in->produced);
				return 0;
			}
		}
		ib.src = in->raw;
		ib.size = in->raw_len;
		ib.pos = in->raw_pos;
		r = ZSTD_decompressStream(in->zds, &ob, &ib);
		in->raw_pos = ib.pos;
		/* zstd may report an error without advancing ib.pos (a whole
		 * block or frame decoded in one go), so give the range */
		if (ZSTD_isError(r))
			return fail(in, LT_ERR_ZSTD,
				    "corrupt zstd data between compressed "
				    "offsets %llu and %llu (decompressed offset "
				    "%llu): %s",
				    (unsigned long long)(in->consumed -
							 (in->raw_len - ib.pos)),
				    (unsigned long long)in->consumed,
				    (unsigned long long)(in->produced + ob.pos),
				    ZSTD_getErrorName(r));
		in->zret = r;
		in->zfull = ob.pos == ob.size;
		if (in->zfull)
			break;
	}
	*chunk = in->out;
	return (ssize_t)ob.pos;
}

ssize_t lt_input_read(struct lt_input *in, const uint8_t **chunk)
{
	ssize_t n;

	if (in->status)
		return in->status;
	n = in->zds ? read_zstd(in, chunk) : read_raw(in, chunk);
	if (n > 0)
		in->produced += (uint64_t)n;
	return n;
}

const char *lt_input_error(const struct lt_input *in)
{
	return in->msg;
}

uint64_t lt_input_size(const struct lt_input *in)
{
	return in->size;
}

uint64_t lt_input_consumed(const struct lt_input *in)
{
	return in->consumed;
}

uint64_t lt_input_produced(const struct lt_input *in)
{
	return in->produced;
}

int lt_input_is_zstd(const struct lt_input *in)
{
	return in->zds != NULL;
}

void lt_input_close(struct lt_input *in)
{
	if (!in)
		return;
	if (in->own_fd && in->fd >= 0)
		close(in->fd);
	ZSTD_freeDStream(in->zds);
	free(in->out);
	free(in->raw);
	free(in->name);
	free(in);
}
