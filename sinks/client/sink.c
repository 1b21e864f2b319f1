/* libltpipe-sink: the sink side of the stream protocol (ltpipe_sink.h). */
#include "ltpipe_sink.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

struct lt_sink {
	int fd;                       /* connected socket */
	uint8_t *buf;                 /* pending trace bytes */
	size_t cap;                   /* buffer size */
	size_t len;                   /* bytes pending */
	ZSTD_CCtx *z;                 /* compressor, NULL for raw DATA */
	uint8_t *zbuf;                /* compressed output chunk */
	size_t zcap;                  /* its size */
	int timeout_ms;               /* wait for READY / ACK */
	int code_map;                 /* the hello announced CODE frames */
	char *code;                   /* code map lines not sent yet */
	size_t clen;                  /* their bytes */
	size_t ccap;                  /* allocated */
	int failed;                   /* an error happened: all calls fail */
	char msg[LT_PROTO_MAX_MSG + 128]; /* its message */
	struct lt_proto_parser pp;    /* daemon frames */
};

static int sfail(struct lt_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int sfail(struct lt_sink *s, const char *fmt, ...)
{
	if (s->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->failed = 1;
	return -1;
}

const char *lt_sink_error(const struct lt_sink *s)
{
	return s->failed ? s->msg : "";
}

/* Connects to unix:PATH, tcp:HOST:PORT or a bare path. */
static int dial(const char *addr, char *err, size_t errlen)
{
	if (!strncmp(addr, "tcp:", 4)) {
		char host[256];
		const char *port;
		if (lt_proto_hostport(addr + 4, host, sizeof(host), &port) != 0) {
			snprintf(err, errlen, "%s: expected tcp:HOST:PORT", addr);
			return -1;
		}
		struct addrinfo hints, *ai, *a;
		memset(&hints, 0, sizeof(hints));
		hints.ai_socktype = SOCK_STREAM;
		int g = getaddrinfo(host, port, &hints, &ai);
		if (g) {
			snprintf(err, errlen, "%s: %s", addr, gai_strerror(g));
			return -1;
		}
		int fd = -1, e = 0;
		for (a = ai; a && fd < 0; a = a->ai_next) {
			fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, 0);
			if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
				e = errno;
				close(fd);
				fd = -1;
			}
		}
		freeaddrinfo(ai);
		if (fd < 0)
			snprintf(err, errlen, "%s: cannot connect: %s", addr,
			         strerror(e));
		return fd;
	}
	const char *path = strncmp(addr, "unix:", 5) ? addr : addr + 5;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: socket path too long", addr);
		return -1;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		snprintf(err, errlen, "%s: cannot connect (is `ltpipe serve` "
		         "running?): %s", addr, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Writes all bytes. Returns 0 or -1 (errno kept). */
static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads the daemon's next whole frame into *f (data in s->pp.buf) within
 * timeout_ms. Returns 1, 0 on timeout or end of stream, -1 on a protocol
 * or socket error (message set). */
static int read_frame(struct lt_sink *s, struct lt_proto_frame *f,
                      int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	uint8_t b;
	size_t used;
	/* One byte at a time: daemon frames are few and small, and nothing
	 * after the frame may be consumed from the socket. */
	for (;;) {
		long long left = end - now_ms();
		struct pollfd p = {s->fd, POLLIN, 0};
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return 0;
		ssize_t r = read(s->fd, &b, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		int rc = lt_proto_parse(&s->pp, &b, 1, &used, f);
		if (rc < 0)
			return sfail(s, "daemon sent a bad frame: %s", s->pp.msg);
		if (rc == 1)
			return 1;
	}
}

/* Turns an ERROR frame into the sink's message. */
static int daemon_error(struct lt_sink *s, const struct lt_proto_frame *f)
{
	unsigned code = f->len >= 2 ? (unsigned)(f->data[0] | f->data[1] << 8)
	                            : 0;
	int n = f->len >= 2 ? (int)(f->len - 2) : 0;
	/* A daemon older than CODE frames names the hello key it does not
	 * know: say what to do about it. */
	int old = s->code_map && memmem(f->data + 2, (size_t)n,
	                                "unknown key codemap", 19);
	return sfail(s, "daemon: %.*s (code %u)%s", n,
	             (const char *)f->data + 2, code, old ? ": this `ltpipe "
	             "serve` cannot take code maps; update it" : "");
}

/* After a failed send: the daemon usually said why before closing. */
static int send_failed(struct lt_sink *s, int e)
{
	struct lt_proto_frame f;
	if (read_frame(s, &f, 1000) == 1 && f.type == LT_FRAME_ERROR)
		return daemon_error(s, &f);
	return sfail(s, "connection to the daemon lost: %s", strerror(e));
}

static int send_frame(struct lt_sink *s, uint8_t type, uint8_t flags,
                      const void *p, size_t n)
{
	uint8_t hdr[LT_PROTO_HDR];
	lt_proto_header(hdr, type, flags, (uint32_t)n);
	if (write_all(s->fd, hdr, sizeof(hdr)) < 0 ||
	    (n && write_all(s->fd, p, n) < 0))
		return send_failed(s, errno);
	return 0;
}

/* Sends the pending code map lines as CODE frames of at most
 * LT_PROTO_MAX_CODE bytes, split between lines. Returns 0 or -1. */
static int send_code(struct lt_sink *s)
{
	size_t off = 0;
	while (off < s->clen) {
		size_t n = s->clen - off;
		if (n > LT_PROTO_MAX_CODE) {
			n = LT_PROTO_MAX_CODE;
			while (n && s->code[off + n - 1] != '\n')
				n--;
			if (!n)
				return sfail(s, "a code map line of over %u bytes "
				             "(split the run)", LT_PROTO_MAX_CODE);
		}
		if (send_frame(s, LT_FRAME_CODE, 0, s->code + off, n) < 0)
			return -1;
		off += n;
	}
	s->clen = 0;
	return 0;
}

/* Sends the buffered bytes; with zstd, `op` says whether to end the frame
 * (ZSTD_e_end at close) or just flush it. */
static int send_buffer(struct lt_sink *s, ZSTD_EndDirective op)
{
	if (s->failed)
		return -1;
	/* Code first: the trace bytes below may walk it. */
	if (s->clen && send_code(s) < 0)
		return -1;
	if (!s->z) {
		if (s->len && send_frame(s, LT_FRAME_DATA, 0, s->buf, s->len))
			return -1;
		s->len = 0;
		return 0;
	}
	ZSTD_inBuffer in = {s->buf, s->len, 0};
	size_t left;
	do {
		ZSTD_outBuffer out = {s->zbuf, s->zcap, 0};
		left = ZSTD_compressStream2(s->z, &out, &in, op);
		if (ZSTD_isError(left))
			return sfail(s, "zstd: %s", ZSTD_getErrorName(left));
		if (out.pos && send_frame(s, LT_FRAME_DATA, LT_DATA_ZSTD, s->zbuf,
		                          out.pos))
			return -1;
		/* continue: until the input is taken; flush/end: until the
		 * compressor has nothing left to emit. */
	} while (op == ZSTD_e_continue ? in.pos < in.size : left != 0);
	s->len = 0;
	return 0;
}

int lt_sink_open(struct lt_sink **out, const char *addr,
                 const struct lt_sink_options *o, char *err, size_t errlen)
{
	struct lt_proto_hello *h = calloc(1, sizeof(*h));
	struct lt_sink *s = calloc(1, sizeof(*s));
	uint8_t *hp = malloc(LT_PROTO_MAX_CTRL);
	*out = NULL;
	if (!h || !s || !hp) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	s->fd = -1;
	h->version = LT_PROTO_VERSION;
#define COPY(dst, src, what)                                              \
	if ((src) && snprintf(dst, sizeof(dst), "%s", src) >=              \
	             (int)sizeof(dst)) {                                   \
		snprintf(err, errlen, "%s too long (limit %zu bytes)", what, \
		         sizeof(dst) - 1);                                 \
		goto fail;                                                 \
	}
	COPY(h->session, o->session, "session name")
	COPY(h->elf, o->elf, "ELF path")
	if (o->nelf_more >= LT_PROTO_MAX_ELF) {
		snprintf(err, errlen, "at most %u ELFs", LT_PROTO_MAX_ELF);
		goto fail;
	}
	for (size_t i = 0; i < o->nelf_more; i++) {
		COPY(h->elf_more[i], o->elf_more[i], "ELF path")
	}
	h->nelf_more = o->nelf_more;
	COPY(h->format, o->format, "format")
	COPY(h->mode, o->mode, "mode")
	if (o->nreceivers > LT_PROTO_MAX_RECV) {
		snprintf(err, errlen, "at most %u receivers", LT_PROTO_MAX_RECV);
		goto fail;
	}
	for (size_t i = 0; i < o->nreceivers; i++) {
		COPY(h->recv[i], o->receivers[i], "receiver spec")
	}
#undef COPY
	h->nrecv = o->nreceivers;
	if (o->build_id_len > LT_PROTO_MAX_BUILD_ID) {
		snprintf(err, errlen, "build-id over %u bytes",
		         LT_PROTO_MAX_BUILD_ID);
		goto fail;
	}
	if (o->build_id_len)
		memcpy(h->build_id, o->build_id, o->build_id_len);
	h->build_id_len = o->build_id_len;
	h->bp_entries = o->bp_entries;
	h->addr_bits = o->addr_bits;
	h->hart = o->hart;
	h->codemap = o->code_map ? 1 : 0;
	s->code_map = h->codemap;
	char why[96];
	if (!o->session ||
	    lt_proto_check_name(o->session, strlen(o->session), why,
	                        sizeof(why)) < 0) {
		snprintf(err, errlen, "%s", o->session ? why : "no session name");
		goto fail;
	}
	int hlen = lt_proto_hello_encode(h, hp, LT_PROTO_MAX_CTRL);
	if (hlen < 0) {
		snprintf(err, errlen, "hello over %u bytes", LT_PROTO_MAX_CTRL);
		goto fail;
	}
	s->cap = o->buffer_bytes ? o->buffer_bytes : 65536;
	if (s->cap > LT_PROTO_MAX_DATA)
		s->cap = LT_PROTO_MAX_DATA;
	s->buf = malloc(s->cap);
	if (!s->buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (o->zstd_level > 0) {
		s->z = ZSTD_createCCtx();
		s->zcap = ZSTD_CStreamOutSize();
		s->zbuf = malloc(s->zcap);
		if (!s->z || !s->zbuf) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		ZSTD_CCtx_setParameter(s->z, ZSTD_c_compressionLevel,
		                       o->zstd_level);
		/* The daemon accepts windows up to 16 MiB. */
		ZSTD_CCtx_setParameter(s->z, ZSTD_c_windowLog, 22);
	}
	s->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 120000;
	lt_proto_parser_init(&s->pp, LT_PROTO_CLIENT);
	s->fd = dial(addr, err, errlen);
	if (s->fd < 0)
		goto fail;
	struct lt_proto_frame f;
	int rc = send_frame(s, LT_FRAME_HELLO, 0, hp, (size_t)hlen);
	if (rc == 0) {
		rc = read_frame(s, &f, s->timeout_ms);
		if (rc == 1 && f.type == LT_FRAME_ERROR)
			rc = daemon_error(s, &f);
		else if (rc == 0)
			rc = sfail(s, "%s: no answer to the hello", addr);
		else if (rc == 1)
			rc = 0;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", s->msg);
		goto fail;
	}
	free(h);
	free(hp);
	*out = s;
	return 0;
fail:
	if (s) {
		if (s->fd >= 0)
			close(s->fd);
		ZSTD_freeCCtx(s->z);
		free(s->zbuf);
		free(s->buf);
		free(s);
	}
	free(h);
	free(hp);
	return -1;
}

int lt_sink_write(struct lt_sink *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	if (s->failed)
		return -1;
	while (len) {
		size_t n = s->cap - s->len;
		if (n > len)
			n = len;
		memcpy(s->buf + s->len, p, n);
		s->len += n;
		p += n;
		len -= n;
		if (s->len == s->cap && send_buffer(s, ZSTD_e_continue) < 0)
			return -1;
	}
	return 0;
}

int lt_sink_code(struct lt_sink *s, const char *text, size_t len)
{
	if (s->failed)
		return -1;
	if (!s->code_map)
		return sfail(s, "code map lines on a sink opened without "
		             "code_map");
	if (len && text[len - 1] != '\n')
		return sfail(s, "code map text must end with a newline");
	if (s->clen + len > s->ccap) {
		size_t nc = s->ccap ? s->ccap : 65536;
		while (nc < s->clen + len)
			nc *= 2;
		char *no = realloc(s->code, nc);
		if (!no)
			return sfail(s, "out of memory");
		s->code = no;
		s->ccap = nc;
	}
	memcpy(s->code + s->clen, text, len);
	s->clen += len;
	/* A full frame's worth need not wait for the trace. */
	return s->clen >= LT_PROTO_MAX_CODE ? send_code(s) : 0;
}

int lt_sink_flush(struct lt_sink *s)
{
	return send_buffer(s, ZSTD_e_flush);
}

static void sink_free(struct lt_sink *s)
{
	close(s->fd);
	free(s->code);
	ZSTD_freeCCtx(s->z);
	free(s->zbuf);
	free(s->buf);
	free(s);
}

int lt_sink_close(struct lt_sink *s, struct lt_proto_summary *sum,
                  char *err, size_t errlen)
{
	struct lt_proto_frame f;
	int rc = send_buffer(s, ZSTD_e_end);
	if (rc == 0)
		rc = send_frame(s, LT_FRAME_END, 0, NULL, 0);
	if (rc == 0) {
		int r = read_frame(s, &f, s->timeout_ms);
		if (r == 1 && f.type == LT_FRAME_ACK) {
			struct lt_proto_summary tmp;
			if (lt_proto_summary_decode(sum ? sum : &tmp, f.data,
			                            f.len) < 0)
				rc = sfail(s, "daemon sent a bad summary");
		} else if (r == 1) {
			rc = daemon_error(s, &f);
		} else if (r == 0) {
			rc = sfail(s, "no summary from the daemon (connection "
			           "closed or timed out)");
		} else {
			rc = -1;
		}
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", s->msg);
	sink_free(s);
	return rc;
}

void lt_sink_abort(struct lt_sink *s)
{
	sink_free(s);
}
