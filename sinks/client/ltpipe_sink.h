/* libltpipe-sink: stream L-trace bytes from a simulator (or any program)
 * to an `ltpipe serve` daemon, speaking the stream protocol
 * (ltpipe/proto.h, proto/PROTOCOL.md).
 *
 *     struct lt_sink_options o = {.session = "run1", .elf = "/abs/prog"};
 *     struct lt_sink *s;
 *     if (lt_sink_open(&s, "unix:/tmp/ltpipe.sock", &o, err, sizeof(err)))
 *             ... err says why (no daemon, unknown ELF, bad name ...)
 *     lt_sink_write(s, bytes, n);       (buffered; blocks when the daemon
 *                                        is behind: back-pressure)
 *     lt_sink_code(s, lines, n);        (with o.code_map: code outside
 *                                        the ELF, sent ahead of the trace)
 *     lt_sink_close(s, &summary, err, sizeof(err));   (waits for the ACK)
 *
 * Errors are final: there is no reconnect. Every call after a failure
 * returns the same error; lt_sink_error() has the message, which quotes the
 * daemon's ERROR frame when it sent one. Not thread-safe per sink. */
#ifndef LTPIPE_SINK_H
#define LTPIPE_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/proto.h"

/* Session settings sent in the hello. NULL / 0 fields are left out (the
 * daemon's defaults: format tacit, mode from the trace, receiver txt). */
struct lt_sink_options {
	const char *session;        /* session name (required) */
	const char *elf;            /* program path on the daemon's host,
	                               "PROG[:prv=U|S|M,ctx=N]" */
	const char *const *elf_more; /* more programs (kernel, boot ROM...),
	                               same syntax; the first match wins */
	size_t nelf_more;           /* their count (< LT_PROTO_MAX_ELF) */
	const uint8_t *build_id;    /* expected GNU build-id, or NULL */
	size_t build_id_len;        /* its length */
	const char *format;         /* format variant name, or NULL */
	const char *mode;           /* "bt", "bp", "auto" or NULL */
	uint32_t bp_entries;        /* predictor entries, 0 = from the trace */
	uint32_t addr_bits;         /* address width, 0 = 64 */
	uint32_t hart;              /* hart id */
	const char *const *receivers; /* "NAME[:key=val,...]" specs */
	size_t nreceivers;          /* their count (<= LT_PROTO_MAX_RECV) */
	int zstd_level;             /* > 0: compress DATA with zstd */
	size_t buffer_bytes;        /* write buffer (0: 64 KiB) */
	int timeout_ms;             /* wait for READY / ACK (0: 120 s) */
	int code_map;               /* 1: the hello announces CODE frames
	                               (codemap=1), for lt_sink_code; a
	                               daemon without them refuses it */
};

struct lt_sink;

/* Connects to addr ("unix:PATH", "tcp:HOST:PORT", or a bare socket path),
 * sends the hello and waits for the daemon's READY. Returns 0 and *out, or
 * -1 with a one-line message in err[errlen] (and no sink). */
int lt_sink_open(struct lt_sink **out, const char *addr,
                 const struct lt_sink_options *o, char *err, size_t errlen);

/* Appends len trace bytes. Returns 0 or -1 (message: lt_sink_error). */
int lt_sink_write(struct lt_sink *s, const void *buf, size_t len);

/* Sends code map lines (format: proto/PROTOCOL.md, CODE): `ADDR HEXBYTES`
 * runs of code the program ran outside its ELF, and where a position-
 * independent program was loaded (`load START END ENTRY`, before the
 * first trace byte). text[len] holds whole lines (ending in '\n'). They
 * are held until the sink next sends trace bytes (or flushes, or closes)
 * and go out just before them, in CODE frames of at most
 * LT_PROTO_MAX_CODE bytes split between lines (a longer line is an
 * error): so the daemon has the code before any trace byte written after
 * this call, which is what a decoder walking it needs, and a sink that
 * calls this often sends few frames. Needs o.code_map. Not thread-safe
 * (as every call here). Returns 0 or -1. */
int lt_sink_code(struct lt_sink *s, const char *text, size_t len);

/* Sends everything buffered. Returns 0 or -1. */
int lt_sink_flush(struct lt_sink *s);

/* Ends the stream: flushes, sends END, waits for the daemon's summary.
 * Returns 0 with *sum filled (sum may be NULL), or -1 with the message in
 * err. Frees the sink in both cases. */
int lt_sink_close(struct lt_sink *s, struct lt_proto_summary *sum,
                  char *err, size_t errlen);

/* Drops the connection without END (the daemon flushes the outputs marked
 * incomplete) and frees the sink. */
void lt_sink_abort(struct lt_sink *s);

/* The message of the sink's failure, or "" when it has not failed. */
const char *lt_sink_error(const struct lt_sink *s);

#endif
