/* The DPI-C side of BytePrinter.sv: one byte per call from the simulator,
 * buffered into libltpipe-sink (streaming) or a file (raw, or zstd when the
 * name ends in .zst). Plain C with the standard DPI-C type mapping
 * (string -> const char *, byte -> char, int -> int), so any simulator
 * implementing IEEE 1800 DPI-C can call it. Errors are printed once with
 * the instance's name and the instance then drops its bytes: a trace
 * problem must not kill a long simulation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "ltpipe_sink.h"

#define MAX_INST 64
#define FILE_BUF (1u << 16)

/* One BytePrinter instance. */
struct inst {
	struct lt_sink *sink;  /* streaming, or NULL */
	FILE *f;               /* file output, or NULL */
	ZSTD_CCtx *z;          /* compressing the file, or NULL */
	uint8_t *buf;          /* pending bytes (file mode) */
	size_t len;            /* their count */
	uint8_t *zbuf;         /* compressed chunk */
	size_t zcap;           /* its size */
	char what[128];        /* socket or file name, for messages */
	int failed;            /* an error was reported: drop bytes */
};

static struct inst insts[MAX_INST];
static int ninst;

static void inst_fail(struct inst *in, const char *msg)
{
	if (!in->failed)
		fprintf(stderr, "ltpipe BytePrinter (%s): %s; trace bytes are "
		        "dropped from here\n", in->what, msg);
	in->failed = 1;
}

/* Writes buf through the compressor (or raw). op: ZSTD_e_continue or
 * ZSTD_e_end. */
static void file_out(struct inst *in, ZSTD_EndDirective op)
{
	if (in->failed)
		return;
	if (!in->z) {
		if (fwrite(in->buf, 1, in->len, in->f) != in->len)
			inst_fail(in, "write failed");
		in->len = 0;
		return;
	}
	ZSTD_inBuffer zi = {in->buf, in->len, 0};
	size_t left;
	do {
		ZSTD_outBuffer zo = {in->zbuf, in->zcap, 0};
		left = ZSTD_compressStream2(in->z, &zo, &zi, op);
		if (ZSTD_isError(left)) {
			inst_fail(in, ZSTD_getErrorName(left));
			return;
		}
		if (fwrite(in->zbuf, 1, zo.pos, in->f) != zo.pos) {
			inst_fail(in, "write failed");
			return;
		}
	} while (op == ZSTD_e_continue ? zi.pos < zi.size : left != 0);
	in->len = 0;
}

/* Parses "k=v;k=v" options into o (strings point into the copy s). */
static int parse_opts(char *s, struct lt_sink_options *o, const char **recv,
                      char *err, size_t errlen)
{
	for (char *tok = strtok(s, ";"); tok; tok = strtok(NULL, ";")) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			snprintf(err, errlen, "+ltpipe_opts: '%s' is not key=value",
			         tok);
			return -1;
		}
		*eq = '\0';
		const char *v = eq + 1;
		if (!strcmp(tok, "mode"))
			o->mode = v;
		else if (!strcmp(tok, "format"))
			o->format = v;
		else if (!strcmp(tok, "bp_entries"))
			o->bp_entries = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(tok, "addr_bits"))
			o->addr_bits = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(tok, "hart"))
			o->hart = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(tok, "zstd"))
			o->zstd_level = atoi(v);
		else if (!strcmp(tok, "recv") && o->nreceivers < LT_PROTO_MAX_RECV)
			recv[o->nreceivers++] = v;
		else {
			snprintf(err, errlen, "+ltpipe_opts: unknown or repeated "
			         "key '%s'", tok);
			return -1;
		}
	}
	return 0;
}

/* Opens an instance. Returns its handle, or -1 when it has no output (no
 * plusarg) or could not open one (message printed). */
int ltpipe_dpi_open(const char *sock, const char *file, const char *elf,
                    const char *session, const char *opts)
{
	char err[LT_PROTO_MAX_MSG + 256];
	if ((!sock || !*sock) && (!file || !*file))
		return -1;
	if (ninst == MAX_INST) {
		fprintf(stderr, "ltpipe BytePrinter: more than %d instances\n",
		        MAX_INST);
		return -1;
	}
	struct inst *in = &insts[ninst];
	memset(in, 0, sizeof(*in));
	if (sock && *sock) {
		struct lt_sink_options o;
		const char *recv[LT_PROTO_MAX_RECV];
		char name[LT_PROTO_MAX_NAME + 1];
		char *copy = strdup(opts ? opts : "");
		memset(&o, 0, sizeof(o));
		o.receivers = recv;
		o.elf = elf && *elf ? elf : NULL;
		if (session && *session) {
			o.session = session;
		} else {
			snprintf(name, sizeof(name), ninst ? "sim-%d-%d" : "sim-%d",
			         (int)getpid(), ninst);
			o.session = name;
		}
		snprintf(in->what, sizeof(in->what), "%s", sock);
		int rc = copy ? parse_opts(copy, &o, recv, err, sizeof(err)) : -1;
		if (rc == 0 && !o.elf) {
			snprintf(err, sizeof(err), "+ltpipe needs +ltpipe_elf=PROG");
			rc = -1;
		}
		if (rc == 0)
			rc = lt_sink_open(&in->sink, sock, &o, err, sizeof(err));
		free(copy);
		if (rc < 0) {
			fprintf(stderr, "ltpipe BytePrinter (%s): %s\n", sock, err);
			return -1;
		}
		return ninst++;
	}
	snprintf(in->what, sizeof(in->what), "%s", file);
	in->f = fopen(file, "wb");
	in->buf = malloc(FILE_BUF);
	size_t n = strlen(file);
	if (in->f && n > 4 && !strcmp(file + n - 4, ".zst")) {
		in->z = ZSTD_createCCtx();
		in->zcap = ZSTD_CStreamOutSize();
		in->zbuf = malloc(in->zcap);
		if (in->z)
			ZSTD_CCtx_setParameter(in->z, ZSTD_c_compressionLevel, 3);
	}
	if (!in->f || !in->buf || (in->z == NULL) != (in->zbuf == NULL)) {
		fprintf(stderr, "ltpipe BytePrinter: cannot create %s\n", file);
		if (in->f)
			fclose(in->f);
		free(in->buf);
		free(in->zbuf);
		ZSTD_freeCCtx(in->z);
		return -1;
	}
	return ninst++;
}

/* One byte from the encoder (called on each valid clock edge). */
void ltpipe_dpi_put(int h, char b)
{
	if (h < 0 || h >= ninst)
		return;
	struct inst *in = &insts[h];
	uint8_t byte = (uint8_t)b;
	if (in->failed)
		return;
	if (in->sink) {
		if (lt_sink_write(in->sink, &byte, 1) < 0)
			inst_fail(in, lt_sink_error(in->sink));
		return;
	}
	in->buf[in->len++] = byte;
	if (in->len == FILE_BUF)
		file_out(in, ZSTD_e_continue);
}

/* Ends the stream (daemon: END, then waits for the summary) or the file. */
void ltpipe_dpi_close(int h)
{
	if (h < 0 || h >= ninst)
		return;
	struct inst *in = &insts[h];
	if (in->sink) {
		struct lt_proto_summary sum;
		char err[LT_PROTO_MAX_MSG + 256];
		if (in->failed)
			lt_sink_abort(in->sink);
		else if (lt_sink_close(in->sink, &sum, err, sizeof(err)) < 0)
			fprintf(stderr, "ltpipe BytePrinter (%s): %s\n", in->what,
			        err);
		else
			fprintf(stderr, "ltpipe BytePrinter (%s): %llu trace bytes, "
			        "%llu instructions, %llu decode errors\n", in->what,
			        (unsigned long long)sum.bytes,
			        (unsigned long long)sum.insns,
			        (unsigned long long)sum.errors);
		in->sink = NULL;
		return;
	}
	if (in->f) {
		file_out(in, ZSTD_e_end);
		if (fclose(in->f) != 0)
			inst_fail(in, "close failed");
		in->f = NULL;
		free(in->buf);
		free(in->zbuf);
		ZSTD_freeCCtx(in->z);
		in->z = NULL;
	}
}
