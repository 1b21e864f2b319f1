/* A hart of the QEMU plugin (plugin.h): its encoder segments, the code
 * map lines streamed ahead of its trace bytes, and its outputs (trace
 * file or daemon session, truth file). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codemap.h"
#include "ltpipe/error.h"
#include "plugin.h"
#include "qemu_plugin_api.h"

/* Hands the instructions translated since hart h's last call to its sink
 * as code map lines (outside the program's code segment; the first time
 * also where a position-independent program was loaded). Called before
 * every trace write of h, on the thread that writes it (h->lock held): an
 * instruction runs, on any vCPU, only after its translation logged it, so
 * every trace byte that walks it is written after it was handed over, and
 * the sink sends code before the trace bytes written after it. Every
 * hart's session gets the whole map: a block translated on one thread is
 * run by the others. Returns 0 or a negative lt_error. */
static int send_code(struct hart *h)
{
	pthread_mutex_lock(&g.lock);
	/* (after exit the log is gone, and so is every live hart) */
	size_t n = g.ncodelog > h->code_sent ? g.ncodelog - h->code_sent : 0;
	struct lt_qinsn **v = n ? malloc(n * sizeof(*v)) : NULL;
	if (v) {
		memcpy(v, g.codelog + h->code_sent, n * sizeof(*v));
		h->code_sent = g.ncodelog;
	}
	pthread_mutex_unlock(&g.lock);
	if (n && !v)
		return LT_ERR_NOMEM;
	if (!n && h->load_sent)
		return 0;
	const char *bin = h->load_sent ? NULL : qemu_plugin_path_to_binary();
	struct lt_codemap_load ld = {
		.start_code = qemu_plugin_start_code(),
		.end_code = qemu_plugin_end_code(),
		.entry = qemu_plugin_entry_code(),
		.binary = bin,
	};
	char *text;
	size_t len;
	/* Where the program ran matters to a position-independent one
	 * only: as in the code map file (codemap.c). */
	int rc = lt_codemap_text(v, n, &ld, !h->load_sent &&
	                         lt_codemap_is_pie(bin), &text, &len);
	h->load_sent = 1;
	if (rc == 0 && len && lt_sink_code(h->sink, text, len) < 0)
		rc = LT_ERR_IO;
	free(text);
	free((void *)bin);
	free(v);
	return rc;
}

void qp_truth_flush(struct hart *h)
{
	if (h->truth_len && fwrite(h->truth_buf, 1, h->truth_len, h->truth) !=
	                    h->truth_len)
		qp_fail("writing the truth file", LT_ERR_IO);
	h->truth_len = 0;
}

void qp_truth_add(struct hart *h, uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[17];
	int n = 0;

	if (h->truth_len + 18 > TRUTH_BUF)
		qp_truth_flush(h);
	do {
		tmp[n++] = hex[addr & 15];
		addr >>= 4;
	} while (addr);
	while (n)
		h->truth_buf[h->truth_len++] = tmp[--n];
	h->truth_buf[h->truth_len++] = '\n';
}

/* lt_infer_push_fn feeding the encoder. */
static int push_record(void *user, const struct lt_ingress *rec, int periodic)
{
	struct lt_encoder *enc = user;

	if (periodic)
		lt_encoder_periodic(enc);
	return lt_encoder_push(enc, rec);
}

int qp_null_write(void *user, const uint8_t *buf, size_t len)
{
	(void)user;
	(void)buf;
	(void)len;
	return 0;
}

/* lt_encoder_write_fn streaming hart `user` into its daemon session
 * (back-pressure blocks here, slowing the guest rather than growing
 * memory). */
static int sink_write(void *user, const uint8_t *buf, size_t len)
{
	struct hart *h = user;

	if (g.stream_code) {
		int rc = send_code(h);
		if (rc < 0)
			return rc;
	}
	return lt_sink_write(h->sink, buf, len) < 0 ? LT_ERR_IO : 0;
}

/* lt_encoder_write_fn into hart `user`'s trace file. */
static int file_write(void *user, const uint8_t *buf, size_t len)
{
	struct hart *h = user;

	return lt_outfile_write(&h->out, buf, len);
}

int qp_segment_begin(struct hart *h)
{
	struct lt_infer_config icfg = g.icfg;
	int rc = lt_encoder_init(&h->enc, &g.ecfg,
	                         h->sink ? sink_write : h->have_out ? file_write :
	                         qp_null_write, h);
	if (rc < 0)
		return rc;
	icfg.time0 = h->time0;
	lt_infer_init(&h->inf, &icfg, push_record, &h->enc);
	h->live = 1;
	return 0;
}

void qp_segment_end(struct hart *h)
{
	if (!h->live)
		return;
	int rc = lt_infer_finish(&h->inf);
	if (rc >= 0)
		rc = lt_encoder_finish(&h->enc);
	if (rc < 0)
		qp_fail("encoding", rc);
	if (h->inf.n_exec)
		h->time0 = h->inf.prev_time + 1;
	lt_infer_fini(&h->inf);
	lt_encoder_fini(&h->enc);
	h->live = 0;
}

char *qp_suffixed(const char *path, const char *what, unsigned n)
{
	size_t len = strlen(path);
	int zst = len > 4 && !strcmp(path + len - 4, ".zst");
	char *p = malloc(len + strlen(what) + 16);

	if (!p)
		return NULL;
	if (zst)
		sprintf(p, "%.*s.%s%u.zst", (int)(len - 4), path, what, n);
	else
		sprintf(p, "%s.%s%u", path, what, n);
	return p;
}

/* Output path of hart `index` for vCPU 0's `path`: path itself for hart 0,
 * else PATH.hartN. Returns a malloc'd string or NULL. */
static char *hart_path(const char *path, unsigned index)
{
	return index ? qp_suffixed(path, "hart", index) : strdup(path);
}

int qp_hart_open(struct hart *h)
{
	char *path = NULL;
	int rc;

	if (g.out) {
		if (!(path = hart_path(g.out, h->index)))
			goto nomem;
		rc = lt_outfile_open(&h->out, path);
		if (rc < 0) {
			fprintf(stderr, "ltpipe-qemu: cannot create %s: %s\n", path,
			        rc == LT_ERR_IO ? strerror(errno) : lt_errstr(rc));
			goto undo;
		}
		h->have_out = 1;
		free(path);
		path = NULL;
	}
	if (g.sock) {
		struct lt_sink_options so = g.so;
		char name[LT_PROTO_MAX_NAME + 1], err[LT_PROTO_MAX_MSG + 160];
		if (h->index) {
			snprintf(name, sizeof(name), "%s-hart%u", g.so.session,
			         h->index);
			so.session = name;
		}
		so.hart = h->index;
		if (lt_sink_open(&h->sink, g.sock, &so, err, sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe-qemu: sock: hart %u: %s\n",
			        h->index, err);
			h->sink = NULL;
			goto undo;
		}
	}
	if (g.truth_path) {
		if (!(path = hart_path(g.truth_path, h->index)))
			goto nomem;
		h->truth = fopen(path, "w");
		h->truth_buf = malloc(TRUTH_BUF);
		if (!h->truth || !h->truth_buf) {
			fprintf(stderr, "ltpipe-qemu: cannot create %s: %s\n",
			        path, strerror(errno));
			goto undo;
		}
		free(path);
		path = NULL;
	}
	return 0;
nomem:
	fprintf(stderr, "ltpipe-qemu: out of memory\n");
undo:	/* leave no half-made output files behind */
	if (h->sink) {
		lt_sink_abort(h->sink);
		h->sink = NULL;
	}
	if (h->have_out) {
		char *p = hart_path(g.out, h->index);
		lt_outfile_close(&h->out);
		if (p)
			unlink(p);
		free(p);
		h->have_out = 0;
	}
	if (h->truth) {
		fclose(h->truth);
		if (path)
			unlink(path);
		h->truth = NULL;
	}
	free(h->truth_buf);
	h->truth_buf = NULL;
	free(path);
	return -1;
}

void qp_hart_close(struct hart *h)
{
	int rc;

	qp_segment_end(h);
	h->closed = 1;
	if (h->have_out) {
		rc = lt_outfile_close(&h->out);
		if (rc < 0)
			qp_fail("writing the trace file", rc);
		h->have_out = 0;
	}
	if (h->sink) {
		struct lt_proto_summary sum;
		char err[LT_PROTO_MAX_MSG + 160], who[32] = "";
		if (h->index)
			snprintf(who, sizeof(who), "hart %u: ", h->index);
		if (lt_sink_close(h->sink, &sum, err, sizeof(err)) < 0)
			fprintf(stderr, "ltpipe-qemu: sock: %s%s\n", who, err);
		else
			fprintf(stderr, "ltpipe-qemu: %sstreamed %" PRIu64 " bytes, "
			        "%" PRIu64 " instructions decoded, %" PRIu64
			        " errors\n", who, sum.bytes, sum.insns, sum.errors);
		h->sink = NULL;
	}
	if (h->truth) {
		qp_truth_flush(h);
		if (fclose(h->truth) != 0)
			qp_fail("closing the truth file", LT_ERR_IO);
		h->truth = NULL;
	}
	free(h->truth_buf);
	h->truth_buf = NULL;
}

struct hart *qp_hart_new(unsigned index, int open_out)
{
	struct hart *h;

	pthread_mutex_lock(&g.lock);
	h = atomic_load(&g.harts[index]);
	if (h || atomic_load(&g.done))
		goto out;
	h = calloc(1, sizeof(*h));
	if (!h) {
		qp_fail("hart state", LT_ERR_NOMEM);
		goto out;
	}
	pthread_mutex_init(&h->lock, NULL);
	h->index = index;
	h->time0 = g.icfg.time0;
	if (open_out && qp_hart_open(h) < 0)
		h->closed = 1; /* reported; its instructions are ignored */
	atomic_store_explicit(&g.harts[index], h, memory_order_release);
out:
	pthread_mutex_unlock(&g.lock);
	return h;
}

