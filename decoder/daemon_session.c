/* `ltpipe serve`: one connection's decode thread. It drains the
 * connection's queue through the frame parser, opens the session on
 * HELLO, decodes DATA (decompressing zstd), adds CODE to the session's
 * code map (daemon_code.h) in stream order between them, and on END,
 * disconnect, error or daemon stop closes the session and answers the
 * sink. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "daemon.h"
#include "daemon_code.h"
#include "ltpipe/error.h"
#include "ltpipe/proto.h"
#include "ltpipe/session.h"

#define ZOUT (1u << 17)      /* decompressed chunk fed to the session */
#define ZWINDOW_LOG_MAX 24   /* zstd window cap: 16 MiB per session */
#define SEND_TIMEOUT_MS 5000 /* a sink that reads nothing is given up */

/* One connection's decoding state (decode thread only). */
struct sess {
	struct lt_conn *c;           /* the connection */
	struct lt_daemon *d;         /* the daemon */
	struct lt_proto_parser *pp;  /* frame parser (large: on the heap) */
	struct lt_proto_hello *hello; /* the session's hello */
	char name[LT_PROTO_MAX_NAME + 1]; /* session name, "" before hello */
	int claimed;                 /* name claimed in the daemon */
	char *outdir;                /* outdir/<name> */
	struct lt_image_sel sel[LT_PROTO_MAX_ELF]; /* the programs */
	struct lt_image_set set;     /* {sel, images referenced} */
	struct lt_session *s;        /* open session, or NULL */
	struct lt_dcode *code;       /* streamed code map (hello codemap=1),
	                                or NULL */
	size_t code_sel;             /* sel[] entry decoded with its image */
	const struct lt_image *code_shared; /* that entry's shared image */
	int compression;             /* -1 no data yet, 0 raw, 1 zstd */
	ZSTD_DCtx *z;                /* zstd stream (compression == 1) */
	int zmid;                    /* zstd stream not at a frame end */
	uint8_t *zout;               /* ZOUT bytes */
	uint64_t wire;               /* DATA payload bytes received */
	int done;                    /* END handled or error sent */
};

/* Writes all of buf, waiting up to SEND_TIMEOUT_MS for room each time.
 * Returns 0 or -1 (peer gone or not reading). */
static int send_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd p = {fd, POLLOUT, 0};
			if (poll(&p, 1, SEND_TIMEOUT_MS) > 0)
				continue;
		}
		return -1;
	}
	return 0;
}

static void send_frame(struct sess *x, uint8_t type, const uint8_t *payload,
                       size_t len)
{
	uint8_t hdr[LT_PROTO_HDR];
	lt_proto_header(hdr, type, 0, (uint32_t)len);
	if (send_all(x->c->fd, hdr, sizeof(hdr)) == 0)
		send_all(x->c->fd, payload, len);
}

/* Log prefix naming the session and connection. */
static const char *who(struct sess *x, char *buf, size_t cap)
{
	if (x->name[0])
		snprintf(buf, cap, "session %s (#%u, %s)", x->name, x->c->id,
		         x->c->peer);
	else
		snprintf(buf, cap, "#%u (%s)", x->c->id, x->c->peer);
	return buf;
}

/* Closes the open session (if any) and fills the summary. Returns the
 * close status; err holds its message. */
static int close_session(struct sess *x, int incomplete,
                         struct lt_proto_summary *sum, char *err,
                         size_t errlen)
{
	memset(sum, 0, sizeof(*sum));
	if (!x->s)
		return 0;
	struct lt_decode_stats st;
	int rc = lt_session_close(x->s, incomplete, &st, err, errlen);
	x->s = NULL;
	if (x->code) {
		char w[256];
		lt_daemon_log(x->d, "%s: code map: %" PRIu64 " CODE frames, "
		              "%zu regions, %" PRIu64 " bytes of code outside "
		              "the program%s", who(x, w, sizeof(w)),
		              lt_dcode_frames(x->code), lt_dcode_regions(x->code),
		              lt_dcode_bytes(x->code),
		              x->sel[x->code_sel].img->bias ? ", relocated" : "");
	}
	sum->bytes = st.bytes;
	sum->packets = st.packets;
	sum->blocks = st.blocks;
	sum->insns = st.insns;
	sum->errors = st.errors;
	sum->losses = st.losses;
	sum->incomplete = (uint32_t)incomplete;
	return rc;
}

/* Logs the closing line of a session. */
static void log_closed(struct sess *x, const char *how,
                       const struct lt_proto_summary *s)
{
	char w[256];
	lt_daemon_log(x->d, "%s: closed%s: %" PRIu64 " wire bytes, %" PRIu64
	              " trace bytes, %" PRIu64 " packets, %" PRIu64 " blocks, %"
	              PRIu64 " instructions, %" PRIu64 " errors",
	              who(x, w, sizeof(w)), how, x->wire, s->bytes, s->packets,
	              s->blocks, s->insns, s->errors);
}

/* Answers an error: flushes the session (incomplete), sends ERROR and
 * ends the connection. Returns -1. */
static int fail(struct sess *x, int code, const char *msg)
{
	char w[256], e[256];
	struct lt_proto_summary sum;
	lt_daemon_log(x->d, "%s: error: %s", who(x, w, sizeof(w)), msg);
	if (x->s) {
		close_session(x, 1, &sum, e, sizeof(e));
		log_closed(x, " incomplete (after the error)", &sum);
	}
	uint8_t buf[2 + LT_PROTO_MAX_MSG];
	size_t n = lt_proto_error_encode(buf, code, msg);
	send_frame(x, LT_FRAME_ERROR, buf, n);
	x->done = 1;
	return -1;
}

/* Receiver specs come from the network: refuse plugins (a path would let a
 * sink make the daemon load code) and anything that could name a file
 * outside the session's directory. */
static int check_receiver(const char *spec, char *err, size_t errlen)
{
	if (strchr(spec, '/') || strstr(spec, "..") || strstr(spec, ".so")) {
		snprintf(err, errlen, "receiver '%s': plugins, '/' and '..' are "
		         "not allowed over the socket", spec);
		return -1;
	}
	return 0;
}

/* Gives the session its own copy of the first user-mode program (the
 * first program when none is), which CODE frames add to, as
 * `ltpipe decode` gives a code map file to that program. Returns the map
 * or NULL when out of memory. */
static struct lt_dcode *use_code_map(struct sess *x)
{
	size_t u = 0;
	for (size_t i = x->set.n; i-- > 0;)
		if (x->sel[i].prv < 0 || x->sel[i].prv == LT_PRV_U)
			u = i;
	struct lt_dcode *c = lt_dcode_new(x->sel[u].img,
	                                  LT_PROTO_MAX_CODE_BYTES,
	                                  LT_DCODE_MAX_BUILT);
	if (!c)
		return NULL;
	x->code_sel = u;
	x->code_shared = x->sel[u].img;
	x->sel[u].img = lt_dcode_image(c);
	return c;
}

/* HELLO: check it, find the program, claim the name, open the session. */
static int on_hello(struct sess *x, const uint8_t *p, size_t len)
{
	char err[512], w[160];
	int code;
	struct lt_proto_hello *h = x->hello;
	if (lt_proto_hello_decode(h, p, len, &code, err, sizeof(err)) < 0)
		return fail(x, code, err);
	struct lt_session_config sc;
	memset(&sc, 0, sizeof(sc));
	sc.fe.format = LT_FMT_TACIT;
	if (h->format[0] && (sc.fe.format = lt_format_parse(h->format)) < 0) {
		snprintf(err, sizeof(err), "hello: unknown format '%s'",
		         h->format);
		return fail(x, LT_PC_PROTO, err);
	}
	sc.fe.mode = !strcmp(h->mode, "bt") ? LT_MODE_BT :
	             !strcmp(h->mode, "bp") ? LT_MODE_BP : LT_MODE_AUTO;
	sc.fe.bp_entries = h->bp_entries;
	sc.fe.addr_bits = h->addr_bits ? h->addr_bits : 64;
	sc.fe.hart = (uint16_t)h->hart;
	/* The QEMU plugin's SESSION-hartN sessions (a thread or hart of the
	 * run SESSION holds vCPU 0 of) say hart=N: one run, counted once. */
	sc.same_run = h->hart > 0;
	for (size_t i = 0; i < h->nrecv; i++) {
		if (check_receiver(h->recv[i], err, sizeof(err)) < 0)
			return fail(x, LT_PC_RECEIVER, err);
		sc.recv[i] = h->recv[i];
	}
	sc.nrecv = h->nrecv;
	if (sc.nrecv == 0)
		sc.recv[sc.nrecv++] = "txt";
	x->set.sel = x->sel;
	for (size_t i = 0; i <= h->nelf_more; i++) {
		const char *spec = i ? h->elf_more[i - 1] : h->elf;
		char path[LT_PROTO_MAX_PATH + 1];
		struct lt_image_sel *s = &x->sel[i];
		s->prv = -1;
		s->ctx = -1;
		path[0] = '\0';
		if (spec[0] && lt_image_spec_parse(spec, path, sizeof(path),
		                                   &s->prv, &s->ctx) < 0) {
			snprintf(err, sizeof(err), "hello: bad elf selector "
			         "'%.200s' (expected PROG[:prv=U|S|M,ctx=N])",
			         spec);
			return fail(x, LT_PC_PROTO, err);
		}
		/* The build-id names the first program. */
		if (lt_image_cache_get(x->d->images, path, i ? NULL :
		                       h->build_id, i ? 0 : h->build_id_len,
		                       &s->img, err, sizeof(err)) < 0)
			return fail(x, LT_PC_ELF, err);
		x->set.n++;
	}
	if (h->codemap && (x->code = use_code_map(x)) == NULL)
		return fail(x, LT_PC_IO, "daemon out of memory");
	if (!lt_daemon_claim_name(x->d, h->session)) {
		snprintf(err, sizeof(err), "session '%s' is already active",
		         h->session);
		return fail(x, LT_PC_NAME, err);
	}
	x->claimed = 1;
	snprintf(x->name, sizeof(x->name), "%s", h->session);
	size_t olen = strlen(x->d->cfg->outdir) + strlen(x->name) + 2;
	x->outdir = malloc(olen);
	if (!x->outdir)
		return fail(x, LT_PC_IO, "daemon out of memory");
	snprintf(x->outdir, olen, "%s/%s", x->d->cfg->outdir, x->name);
	if (mkdir(x->outdir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, sizeof(err), "%s: cannot create: %s", x->outdir,
		         strerror(errno));
		return fail(x, LT_PC_IO, err);
	}
	sc.images = &x->set;
	sc.outdir = x->outdir;
	sc.name = x->name;
	x->s = lt_session_open(&sc, &code, err, sizeof(err));
	if (!x->s) {
		rmdir(x->outdir); /* only if empty: earlier outputs stay */
		return fail(x, code == LT_ERR_IO ? LT_PC_IO : LT_PC_RECEIVER, err);
	}
	char elfs[1024] = "";
	for (size_t i = 0; i < x->set.n; i++)
		snprintf(elfs + strlen(elfs), sizeof(elfs) - strlen(elfs),
		         "%s%s", i ? "," : "", x->sel[i].img->path);
	char recv[LT_PROTO_MAX_RECV * 40] = "";
	for (size_t i = 0; i < sc.nrecv; i++)
		snprintf(recv + strlen(recv), sizeof(recv) - strlen(recv),
		         "%s%s", i ? "," : "", sc.recv[i]);
	lt_daemon_log(x->d, "%s: opened: elf %s, format %s, mode %s, hart %u, "
	              "receivers %s, outputs in %s/", who(x, w, sizeof(w)),
	              elfs, lt_format_name(sc.fe.format),
	              h->mode[0] ? h->mode : "auto", h->hart, recv, x->outdir);
	for (size_t i = 0; !h->codemap && i < x->set.n; i++)
		if (x->sel[i].img->pie)
			lt_daemon_log(x->d, "%s: warning: %s is position-"
			              "independent and the hello announces no "
			              "code map (codemap=1): its trace decodes "
			              "only if it ran at its link addresses",
			              who(x, w, sizeof(w)), x->sel[i].img->path);
	uint8_t ready[LT_PROTO_MAX_CTRL];
	size_t pos = 0;
	lt_proto_kv_put(ready, sizeof(ready), &pos, "session", x->name);
	lt_proto_kv_put(ready, sizeof(ready), &pos, "outdir", x->outdir);
	send_frame(x, LT_FRAME_READY, ready, pos);
	return 0;
}

/* One CODE piece: into the session's code map, applied whole when the
 * frame ends, before any DATA behind it is decoded. */
static int on_code(struct sess *x, const struct lt_proto_frame *f)
{
	char err[512];
	int code;
	if (!x->code) {
		snprintf(err, sizeof(err), "CODE frame at byte %" PRIu64 ", but "
		         "the hello did not announce codemap=1",
		         (uint64_t)f->offset);
		return fail(x, LT_PC_PROTO, err);
	}
	int rc = lt_dcode_piece(x->code, f->offset, f->data, f->len, f->last,
	                        x->wire > 0, &code, err, sizeof(err));
	if (rc < 0)
		return fail(x, code, err);
	if (rc > 0)
		lt_session_images_changed(x->s);
	return 0;
}

/* One DATA piece: raw bytes go to the session, zstd through the stream. */
static int on_data(struct sess *x, const struct lt_proto_frame *f)
{
	int z = f->flags & LT_DATA_ZSTD ? 1 : 0;
	if (f->len == 0)
		return 0;
	if (x->wire == 0 && x->code && x->code_shared->pie &&
	    !lt_dcode_loaded(x->code)) {
		char w[256];
		lt_daemon_log(x->d, "%s: warning: %s is position-independent "
		              "and no load line came before the trace data: its "
		              "trace decodes only if it ran at its link "
		              "addresses", who(x, w, sizeof(w)),
		              x->code_shared->path);
	}
	if (x->compression < 0)
		x->compression = z;
	if (x->compression != z)
		return fail(x, LT_PC_PROTO, "DATA frames of one session must be "
		            "all raw or all zstd");
	x->wire += f->len;
	if (!z) {
		lt_session_feed(x->s, f->data, f->len);
		return 0;
	}
	if (!x->z) {
		x->z = ZSTD_createDCtx();
		x->zout = malloc(ZOUT);
		if (!x->z || !x->zout)
			return fail(x, LT_PC_IO, "daemon out of memory");
		ZSTD_DCtx_setParameter(x->z, ZSTD_d_windowLogMax,
		                       ZWINDOW_LOG_MAX);
	}
	ZSTD_inBuffer in = {f->data, f->len, 0};
	ZSTD_outBuffer out;
	do {
		out.dst = x->zout;
		out.size = ZOUT;
		out.pos = 0;
		size_t r = ZSTD_decompressStream(x->z, &out, &in);
		if (ZSTD_isError(r)) {
			char e[200];
			snprintf(e, sizeof(e), "zstd data at wire byte %" PRIu64
			         ": %s", x->wire, ZSTD_getErrorName(r));
			return fail(x, LT_PC_ZSTD, e);
		}
		x->zmid = r != 0;
		if (out.pos)
			lt_session_feed(x->s, x->zout, out.pos);
	} while (in.pos < in.size || out.pos == out.size);
	return 0;
}

/* END: flush everything, write the outputs, send the summary. */
static int on_end(struct sess *x)
{
	char err[512];
	struct lt_proto_summary sum;
	if (x->compression == 1 && x->zmid)
		return fail(x, LT_PC_ZSTD, "END inside a zstd frame: the "
		            "compressed stream is truncated");
	int rc = close_session(x, 0, &sum, err, sizeof(err));
	if (rc < 0)
		return fail(x, LT_PC_IO, err);
	log_closed(x, "", &sum);
	uint8_t buf[512];
	int n = lt_proto_summary_encode(&sum, buf, sizeof(buf));
	send_frame(x, LT_FRAME_ACK, buf, n > 0 ? (size_t)n : 0);
	x->done = 1;
	return 0;
}

/* Handles every frame in one queue chunk. */
static void on_bytes(struct sess *x, const uint8_t *p, size_t n)
{
	size_t off = 0, used;
	struct lt_proto_frame f;
	while (!x->done) {
		int rc = lt_proto_parse(x->pp, p + off, n - off, &used, &f);
		off += used;
		if (rc == 0)
			return;
		if (rc < 0) {
			fail(x, x->pp->code, x->pp->msg);
			return;
		}
		if (f.type == LT_FRAME_HELLO)
			on_hello(x, f.data, f.len);
		else if (f.type == LT_FRAME_DATA)
			on_data(x, &f);
		else if (f.type == LT_FRAME_CODE)
			on_code(x, &f);
		else if (f.type == LT_FRAME_END)
			on_end(x);
	}
}

/* The stream ended without END: the sink vanished or the daemon stops. */
static void on_cut(struct sess *x, int why)
{
	char w[256], e[256];
	struct lt_proto_summary sum;
	if (why == LT_BQ_EOF && x->pp && !lt_proto_at_boundary(x->pp)) {
		/* The sink may only have shut its sending side: tell it. */
		snprintf(e, sizeof(e), "connection closed inside the frame at "
		         "byte %" PRIu64 " (truncated frame)", x->pp->frame_off);
		fail(x, LT_PC_PROTO, e);
		return;
	}
	if (!x->s && why == LT_BQ_EOF && x->pp && x->pp->offset == 0)
		return; /* a probe (e.g. a second daemon checking the socket) */
	if (!x->s) {
		lt_daemon_log(x->d, "%s: %s before a complete hello",
		              who(x, w, sizeof(w)), why == LT_BQ_SHUTDOWN ?
		              "daemon stopping" : "disconnected");
		if (why == LT_BQ_SHUTDOWN)
			fail(x, LT_PC_SHUTDOWN, "daemon stopping");
		return;
	}
	int rc = close_session(x, 1, &sum, e, sizeof(e));
	if (rc < 0)
		lt_daemon_log(x->d, "%s: error: %s", who(x, w, sizeof(w)), e);
	if (why == LT_BQ_SHUTDOWN) {
		log_closed(x, " incomplete (daemon stopping)", &sum);
		uint8_t buf[2 + LT_PROTO_MAX_MSG];
		size_t n = lt_proto_error_encode(buf, LT_PC_SHUTDOWN,
		                                 "daemon stopping: outputs "
		                                 "flushed, marked incomplete");
		send_frame(x, LT_FRAME_ERROR, buf, n);
	} else {
		log_closed(x, " incomplete (disconnected without an END frame)",
		           &sum);
	}
}

void *lt_conn_thread(void *arg)
{
	struct lt_conn *c = arg;
	struct sess x;
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.d = c->d;
	x.compression = -1;
	x.pp = malloc(sizeof(*x.pp));
	x.hello = malloc(sizeof(*x.hello));
	if (!x.pp || !x.hello) {
		fail(&x, LT_PC_IO, "daemon out of memory");
	} else {
		lt_proto_parser_init(x.pp, LT_PROTO_DAEMON);
	}
	while (!x.done) {
		const uint8_t *p;
		int why;
		size_t n = lt_bq_peek(&c->q, &p, &why);
		if (n == 0) {
			on_cut(&x, why);
			break;
		}
		on_bytes(&x, p, n);
		if (lt_bq_consume(&c->q, n)) {
			atomic_store(&c->want_read, 1);
			ev_async_send(x.d->loop, &x.d->wake);
		}
	}
	if (x.claimed)
		lt_daemon_release_name(x.d, x.name);
	if (!x.s) { /* every path out of the loop has closed the session */
		for (size_t i = 0; i < x.set.n; i++)
			lt_image_cache_put(x.d->images, x.code &&
			                   i == x.code_sel ? x.code_shared :
			                   x.sel[i].img);
		lt_dcode_free(x.code);
	}
	ZSTD_freeDCtx(x.z);
	free(x.zout);
	free(x.outdir);
	free(x.pp);
	free(x.hello);
	/* Tell the sink we are done even if it keeps sending. */
	shutdown(c->fd, SHUT_WR);
	atomic_store(&c->finished, 1);
	ev_async_send(x.d->loop, &x.d->wake);
	return NULL;
}
