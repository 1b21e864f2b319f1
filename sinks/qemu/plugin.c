/* ltpipe-qemu: a QEMU TCG plugin that encodes an L-trace (TACIT) of the
 * guest's execution and optionally writes the executed-pc "truth" list.
 *
 *   qemu-riscv64 -plugin libltpipe-qemu.so,out=t.lt,truth=t.pcs ./prog
 *
 * Arguments (key=value):
 *   out=FILE         trace output (zstd-compressed if FILE ends in .zst)
 *   truth=FILE       every executed pc, lowercase hex without 0x, one a line
 *   mode=bt|bp       branch reporting mode (default bt)
 *   bp_entries=N     predictor size, power of two >= 64 (default 1024)
 *   format=VARIANT   tacit (default), tacit-oct2025, tacit-2025,
 *                    tacit-2025-unshifted, spike-2025, spike-2025-02,
 *                    spike-armed
 *   prv=U|S|M        privilege reported (default U in user mode, M under
 *                    qemu-system)
 *   taken_cycles=N   extra cycles per taken branch / jump (default 0)
 *   stall_every=N    every N instructions add stall_cycles cycles
 *   stall_cycles=M
 *   periodic=N       periodic sync every N instructions (tacit formats)
 *   time0=N          time of the first instruction (default 0)
 *   start=ADDR       trace (and truth) begin at the first execution of
 *                    ADDR, like a trace enable written by the program;
 *                    e.g. a bare-metal ELF's entry, skipping the reset ROM
 *                    (on any vCPU: the others begin at their next one)
 *   sock=ADDR        stream the trace to `ltpipe serve` (unix:PATH or
 *                    tcp:HOST:PORT) instead of out=; needs elf=. In user
 *                    mode the code map goes along (CODE frames, sent as
 *                    code is translated, ahead of the trace bytes that
 *                    walk it); code=none leaves it out (for a daemon
 *                    older than CODE frames)
 *   elf=PATH         with sock=: the guest program as the daemon sees it
 *   session=NAME     with sock=: session name (default qemu-PID)
 *   recv=NAME        with sock=: a receiver (repeatable; default txt)
 *   vcpus=all|0      trace every vCPU (default), or vCPU 0 only
 *
 * Every vCPU is traced as a trace encoder per core would (in user mode a
 * vCPU is a thread; under qemu-system, a hart): each has its own encoder
 * and output. vCPU N's trace goes to out=PATH.hartN (PATH.hartN.zst for
 * a .zst PATH; vCPU 0 keeps PATH itself, so a single-threaded program's
 * output is as before), its truth to truth=FILE.hartN, and with sock= to
 * its own daemon session SESSION-hartN announced as hart N; the code map
 * (PATH.code) is one, shared. A thread's trace starts with a sync at its
 * first instruction and ends with an end sync at its last one; qemu-user
 * gives a later thread the index of one that exited, and that thread's
 * trace is a new segment (a new start sync) in the same output.
 * vcpus=0 traces vCPU 0 only and says at exit when another vCPU ran code,
 * since profiles then miss that work.
 *
 * Record inference and its limits: infer.h. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infer.h"
#include "ltpipe_sink.h"
#include "lt_encoder.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"
#include "ltpipe/packet.h"
#include "codemap.h"
#include "outfile.h"
#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Size of the truth-file line buffer. */
#define TRUTH_BUF 65536

/* vCPU indexes traced; a vCPU at or above it is reported, not traced. */
#define MAX_HARTS 1024

/* The trace of one vCPU (one hart: a trace encoder per core). Only its own
 * thread runs its instructions, but the exit callback (another thread,
 * while threads may still run) finishes and closes it: `lock` orders the
 * two, once the program has had a second vCPU (g.several; before, there
 * is one thread, and the lock, taken per instruction, would double the
 * plugin's cost). Never freed: a late callback may still find it. */
struct hart {
	pthread_mutex_t lock;      /* guards the members below (taken once
	                              g.several is set) */
	unsigned index;            /* vCPU index = hart id */
	int live;                  /* a segment is open: enc and inf hold a
	                              thread's trace (its first instruction
	                              starts the next one) */
	int closed;                /* outputs closed at exit (or failed to
	                              open): ignore its instructions */
	uint64_t time0;            /* time of the next segment's first
	                              instruction (after the last one's) */
	struct lt_encoder enc;     /* the encoder model (when live) */
	struct lt_infer inf;       /* exec stream -> records (when live) */
	int have_out;              /* out is open */
	struct lt_outfile out;     /* trace file */
	struct lt_sink *sink;      /* sock= stream, or NULL */
	size_t code_sent;          /* entries of g.codelog sent to the sink */
	int load_sent;             /* its `load` line went out */
	FILE *truth;               /* truth file, or NULL */
	char *truth_buf;           /* pending truth lines */
	size_t truth_len;          /* bytes in truth_buf */
};

/* The plugin's state: QEMU's C callbacks carry no context of ours, so
 * there is exactly one, static. */
static struct {
	int xlen;                  /* 32 or 64, from the target name */
	struct lt_encoder_config ecfg; /* encoder settings (every hart) */
	struct lt_infer_config icfg;   /* inference settings (every hart) */
	const char *out;           /* out= (vCPU 0's trace), or NULL */
	const char *truth_path;    /* truth= (vCPU 0's), or NULL */
	const char *sock;          /* sock=, or NULL */
	struct lt_sink_options so; /* sock= session settings (vCPU 0's) */
	const char *recv[LT_PROTO_MAX_RECV];       /* recv= specs */
	const char *elf_more[LT_PROTO_MAX_ELF - 1]; /* elf= after the first */
	char session[32];          /* default session name */
	int vcpu0_only;            /* vcpus=0: trace vCPU 0 only */
	atomic_int several;        /* a vCPU other than 0 was made: harts
	                              lock (set first on vCPU 0's thread,
	                              between two of its instructions, before
	                              the new thread runs) */
	_Atomic(struct hart *) harts[MAX_HARTS]; /* by vCPU index, or NULL */
	atomic_int done;           /* atexit ran: new harts are not made */
	char *code_path;           /* code map to write (user mode), or NULL */
	atomic_int start_armed;    /* start= given and not reached yet */
	uint64_t start;            /* start= address */
	atomic_flag failed;        /* an error was reported once */
	atomic_uint other_vcpu;    /* a vCPU that ran code untraced, plus 1,
	                              or 0 */
	pthread_mutex_t lock;      /* guards the insn cache, the code log and
	                              hart creation (translation and first
	                              instructions run on several threads) */
	struct lt_qinsn **cache;   /* open-addressing set keyed (addr, raw) */
	size_t cache_cap;          /* slots, a power of two */
	size_t cache_n;            /* used slots */
	int stream_code;           /* sock= in user mode: the code map goes
	                              to the daemon as code is translated */
	struct lt_qinsn **codelog; /* every instruction translated, in order,
	                              for the harts' streams (under lock) */
	size_t ncodelog;           /* entries used */
	size_t capcodelog;         /* entries allocated */
} g = { .lock = PTHREAD_MUTEX_INITIALIZER, .failed = ATOMIC_FLAG_INIT };

static void fail(const char *what, int err)
{
	if (atomic_flag_test_and_set(&g.failed))
		return;
	fprintf(stderr, "ltpipe-qemu: %s: %s\n", what, lt_errstr(err));
}

static size_t cache_slot(uint64_t addr, uint32_t raw, size_t cap)
{
	uint64_t h = (addr ^ ((uint64_t)raw << 32 | raw)) * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 17) & (cap - 1);
}

/* Logs a new instruction for the streamed code maps (g.lock held).
 * Returns 0 or LT_ERR_NOMEM. */
static int codelog_add(struct lt_qinsn *qi)
{
	if (g.ncodelog == g.capcodelog) {
		size_t cap = g.capcodelog ? 2 * g.capcodelog : 1024;
		struct lt_qinsn **v = realloc(g.codelog, cap * sizeof(*v));
		if (!v)
			return LT_ERR_NOMEM;
		g.codelog = v;
		g.capcodelog = cap;
	}
	g.codelog[g.ncodelog++] = qi;
	return 0;
}

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

/* Returns the shared info for the instruction (addr, raw), creating it.
 * Entries live until exit: QEMU may re-translate and keep using old
 * translations, so they are never freed while it runs. */
static struct lt_qinsn *cache_get(uint64_t addr, const uint8_t *bytes,
                                  size_t size)
{
	struct lt_insn d;
	struct lt_qinsn *qi;
	uint32_t raw = 0;
	size_t i;

	for (i = 0; i < size && i < 4; i++)
		raw |= (uint32_t)bytes[i] << (8 * i);
	pthread_mutex_lock(&g.lock);
	if (2 * (g.cache_n + 1) > g.cache_cap) {
		size_t cap = g.cache_cap ? g.cache_cap * 2 : 4096;
		struct lt_qinsn **c = calloc(cap, sizeof(*c));
		if (!c) {
			pthread_mutex_unlock(&g.lock);
			return NULL;
		}
		for (i = 0; i < g.cache_cap; i++) {
			struct lt_qinsn *e = g.cache[i];
			if (!e)
				continue;
			size_t s = cache_slot(e->addr, e->raw, cap);
			while (c[s])
				s = (s + 1) & (cap - 1);
			c[s] = e;
		}
		free(g.cache);
		g.cache = c;
		g.cache_cap = cap;
	}
	i = cache_slot(addr, raw, g.cache_cap);
	while ((qi = g.cache[i]) && !(qi->addr == addr && qi->raw == raw))
		i = (i + 1) & (g.cache_cap - 1);
	if (!qi && (qi = calloc(1, sizeof(*qi)))) {
		memset(&d, 0, sizeof(d));
		lt_insn_decode(bytes, size, addr, g.xlen, &d);
		qi->addr = addr;
		qi->raw = raw;
		qi->len = (uint8_t)size;
		qi->cls = d.cls;
		qi->target = d.target;
		g.cache[i] = qi;
		g.cache_n++;
		if (g.stream_code && codelog_add(qi) < 0)
			qi = NULL; /* reported as out of memory */
	}
	pthread_mutex_unlock(&g.lock);
	return qi;
}

static void truth_flush(struct hart *h)
{
	if (h->truth_len && fwrite(h->truth_buf, 1, h->truth_len, h->truth) !=
	                    h->truth_len)
		fail("writing the truth file", LT_ERR_IO);
	h->truth_len = 0;
}

/* Appends "hex\n" for addr to h's truth buffer. */
static void truth_add(struct hart *h, uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[17];
	int n = 0;

	if (h->truth_len + 18 > TRUTH_BUF)
		truth_flush(h);
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

/* Discards all trace output: used when only truth= is given. */
static int null_write(void *user, const uint8_t *buf, size_t len)
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

/* Starts a segment of hart h (h->lock held): a fresh encoder, whose first
 * record brings a start sync, as a thread's first instruction must.
 * Returns 0 or a negative lt_error. */
static int segment_begin(struct hart *h)
{
	struct lt_infer_config icfg = g.icfg;
	int rc = lt_encoder_init(&h->enc, &g.ecfg,
	                         h->sink ? sink_write : h->have_out ? file_write :
	                         null_write, h);
	if (rc < 0)
		return rc;
	icfg.time0 = h->time0;
	lt_infer_init(&h->inf, &icfg, push_record, &h->enc);
	h->live = 1;
	return 0;
}

/* Ends hart h's segment (h->lock held): its last instruction gets the end
 * sync. The next thread given this vCPU index starts a new segment in the
 * same output, later in time. */
static void segment_end(struct hart *h)
{
	if (!h->live)
		return;
	int rc = lt_infer_finish(&h->inf);
	if (rc >= 0)
		rc = lt_encoder_finish(&h->enc);
	if (rc < 0)
		fail("encoding", rc);
	if (h->inf.n_exec)
		h->time0 = h->inf.prev_time + 1;
	lt_infer_fini(&h->inf);
	lt_encoder_fini(&h->enc);
	h->live = 0;
}

/* Output path of hart `index` for vCPU 0's `path`: path itself for hart 0,
 * else PATH.hartN (PATH-without-.zst.hartN.zst for a compressed one, so
 * it stays compressed). Returns a malloc'd string or NULL. */
static char *hart_path(const char *path, unsigned index)
{
	size_t n = strlen(path);
	int zst = n > 4 && !strcmp(path + n - 4, ".zst");
	char *p = malloc(n + 24);

	if (!p)
		return NULL;
	if (!index)
		memcpy(p, path, n + 1);
	else if (zst)
		sprintf(p, "%.*s.hart%u.zst", (int)(n - 4), path, index);
	else
		sprintf(p, "%s.hart%u", path, index);
	return p;
}

/* Opens hart h's outputs (vCPU 0's at install, so that a bad argument or
 * path refuses to start; the others' at their first instruction). Returns
 * 0, or -1 with a message on stderr (nothing left open). */
static int hart_open(struct hart *h)
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

/* Closes hart h's outputs at exit (h->lock held): ends its segment, the
 * trace file, the daemon session (with its summary) and the truth file. */
static void hart_close(struct hart *h)
{
	int rc;

	segment_end(h);
	h->closed = 1;
	if (h->have_out) {
		rc = lt_outfile_close(&h->out);
		if (rc < 0)
			fail("writing the trace file", rc);
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
		truth_flush(h);
		if (fclose(h->truth) != 0)
			fail("closing the truth file", LT_ERR_IO);
		h->truth = NULL;
	}
	free(h->truth_buf);
	h->truth_buf = NULL;
}

/* Makes the state of vCPU `index` (its outputs opened unless open_out is
 * 0: vCPU 0's are opened by install). Returns NULL after exit or on an
 * error (reported; the vCPU is then left untraced). */
static struct hart *hart_new(unsigned index, int open_out)
{
	struct hart *h;

	pthread_mutex_lock(&g.lock);
	h = atomic_load(&g.harts[index]);
	if (h || atomic_load(&g.done))
		goto out;
	h = calloc(1, sizeof(*h));
	if (!h) {
		fail("hart state", LT_ERR_NOMEM);
		goto out;
	}
	pthread_mutex_init(&h->lock, NULL);
	h->index = index;
	h->time0 = g.icfg.time0;
	if (open_out && hart_open(h) < 0)
		h->closed = 1; /* reported; its instructions are ignored */
	atomic_store_explicit(&g.harts[index], h, memory_order_release);
out:
	pthread_mutex_unlock(&g.lock);
	return h;
}

/* Notes that vCPU `vcpu` ran code that is not traced (reported at exit). */
static void untraced(unsigned int vcpu)
{
	unsigned none = 0;

	atomic_compare_exchange_strong(&g.other_vcpu, &none, vcpu + 1);
}

static void on_exec(unsigned int vcpu, void *udata)
{
	const struct lt_qinsn *qi = udata;
	struct hart *h;
	int rc;

	if (vcpu >= MAX_HARTS || (vcpu && g.vcpu0_only)) {
		untraced(vcpu);
		return;
	}
	if (atomic_load_explicit(&g.start_armed, memory_order_relaxed)) {
		if (qi->addr != g.start)
			return;
		atomic_store(&g.start_armed, 0);
	}
	h = atomic_load_explicit(&g.harts[vcpu], memory_order_acquire);
	if (!h && !(h = hart_new(vcpu, 1)))
		return;
	int lock = atomic_load_explicit(&g.several, memory_order_relaxed);
	if (lock)
		pthread_mutex_lock(&h->lock);
	if (h->closed)
		goto out;
	if (!h->live && (rc = segment_begin(h)) < 0) {
		fail("encoder", rc);
		h->closed = 1;
		goto out;
	}
	if (h->truth)
		truth_add(h, qi->addr);
	rc = lt_infer_exec(&h->inf, qi);
	if (rc < 0)
		fail("encoding", rc);
out:
	if (lock)
		pthread_mutex_unlock(&h->lock);
}

/* A vCPU went away (its thread exited after its last instruction) or its
 * index was given to a new one: the trace of the thread that had it ends,
 * so that the next thread's first instruction starts a new segment with a
 * sync rather than continuing as if jumped to. */
static void on_vcpu_change(qemu_plugin_id_t id, unsigned int vcpu)
{
	struct hart *h;

	(void)id;
	if (vcpu)
		atomic_store(&g.several, 1);
	if (vcpu >= MAX_HARTS ||
	    !(h = atomic_load_explicit(&g.harts[vcpu], memory_order_acquire)))
		return;
	pthread_mutex_lock(&h->lock);
	segment_end(h);
	pthread_mutex_unlock(&h->lock);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		struct lt_qinsn *qi = cache_get(qemu_plugin_insn_vaddr(in),
		                                qemu_plugin_insn_data(in),
		                                qemu_plugin_insn_size(in));
		if (!qi) {
			fail("instruction cache", LT_ERR_NOMEM);
			continue;
		}
		qemu_plugin_register_vcpu_insn_exec_cb(in, on_exec,
		                                       QEMU_PLUGIN_CB_NO_REGS, qi);
	}
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
	int rc;

	(void)id;
	(void)udata;
	pthread_mutex_lock(&g.lock);
	int was_done = atomic_exchange(&g.done, 1);
	pthread_mutex_unlock(&g.lock);
	if (was_done)
		return;
	unsigned other = atomic_load(&g.other_vcpu);
	if (other)
		fprintf(stderr, "ltpipe-qemu: warning: code ran on vCPU %u (another "
		        "thread), which is not traced: %s; profiles miss its "
		        "work\n", other - 1, g.vcpu0_only ?
		        "vcpus=0 traces vCPU 0 only" : "too many vCPUs");
	/* Threads still running find their hart closed from here on. */
	for (unsigned i = 0; i < MAX_HARTS; i++) {
		struct hart *h = atomic_load(&g.harts[i]);
		if (!h)
			continue;
		pthread_mutex_lock(&h->lock);
		hart_close(h);
		pthread_mutex_unlock(&h->lock);
	}
	if (g.code_path) {
		const char *bin = qemu_plugin_path_to_binary();
		struct lt_codemap_load ld = {
			.start_code = qemu_plugin_start_code(),
			.end_code = qemu_plugin_end_code(),
			.entry = qemu_plugin_entry_code(),
			.binary = bin,
		};
		pthread_mutex_lock(&g.lock);
		rc = lt_codemap_write(g.code_path, g.cache, g.cache_cap, &ld);
		pthread_mutex_unlock(&g.lock);
		if (rc < 0)
			fail("writing the code map", rc);
		free((void *)bin);
		free(g.code_path);
		g.code_path = NULL;
	}
	pthread_mutex_lock(&g.lock);
	free(g.codelog);
	g.codelog = NULL;
	g.ncodelog = g.capcodelog = 0;
	g.stream_code = 0; /* later translations log nothing */
	pthread_mutex_unlock(&g.lock);
}

/* Parses a whole unsigned number (decimal or 0x hex) into *out. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int bad_arg(const char *arg, const char *why)
{
	fprintf(stderr, "ltpipe-qemu: bad argument '%s': %s\n", arg, why);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
	struct lt_encoder_config ecfg = { LT_FMT_TACIT, LT_ENC_BT, 1024 };
	struct lt_infer_config icfg = { 0 };
	const char *out = NULL, *truth = NULL, *sock = NULL, *code = NULL;
	struct lt_sink_options so = { 0 };
	const char **recv = g.recv, **elf_more = g.elf_more;
	struct hart *h0;
	uint64_t n;
	int rc;

	g.xlen = info->target_name && strstr(info->target_name, "32") ? 32 : 64;
	icfg.priv = info->system_emulation ? LT_PRV_M : LT_PRV_U;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		const char *v = eq ? eq + 1 : "";
		size_t kl = eq ? (size_t)(eq - a) : strlen(a);

#define KEY(k) (kl == strlen(k) && strncmp(a, k, kl) == 0)
		if (!eq)
			return bad_arg(a, "expected key=value");
		if (KEY("out")) {
			out = v;
		} else if (KEY("truth")) {
			truth = v;
		} else if (KEY("code")) {
			code = v;
		} else if (KEY("mode")) {
			if (!strcmp(v, "bt"))
				ecfg.mode = LT_ENC_BT;
			else if (!strcmp(v, "bp"))
				ecfg.mode = LT_ENC_BP;
			else
				return bad_arg(a, "mode is bt or bp");
		} else if (KEY("bp_entries")) {
			if (parse_u64(v, &n) || n < 64 || n > (64u << 18) ||
			    (n & (n - 1)))
				return bad_arg(a, "a power of two, 64 to 16777216");
			ecfg.bp_entries = (uint32_t)n;
		} else if (KEY("format")) {
			rc = lt_format_parse(v);
			if (rc < 0 || rc >= LT_FMT_COUNT)
				return bad_arg(a, "tacit, tacit-oct2025, tacit-2025, "
				               "tacit-2025-unshifted, spike-2025, "
				               "spike-2025-02 or spike-armed");
			ecfg.format = rc;
		} else if (KEY("prv")) {
			if (!strcmp(v, "U") || !strcmp(v, "u"))
				icfg.priv = LT_PRV_U;
			else if (!strcmp(v, "S") || !strcmp(v, "s"))
				icfg.priv = LT_PRV_S;
			else if (!strcmp(v, "M") || !strcmp(v, "m"))
				icfg.priv = LT_PRV_M;
			else
				return bad_arg(a, "prv is U, S or M");
		} else if (KEY("taken_cycles")) {
			if (parse_u64(v, &icfg.taken_cycles))
				return bad_arg(a, "a number");
		} else if (KEY("stall_every")) {
			if (parse_u64(v, &icfg.stall_every))
				return bad_arg(a, "a number");
		} else if (KEY("stall_cycles")) {
			if (parse_u64(v, &icfg.stall_cycles))
				return bad_arg(a, "a number");
		} else if (KEY("periodic")) {
			if (parse_u64(v, &icfg.periodic))
				return bad_arg(a, "a number");
		} else if (KEY("time0")) {
			if (parse_u64(v, &icfg.time0))
				return bad_arg(a, "a number");
		} else if (KEY("sock")) {
			sock = v;
		} else if (KEY("elf")) {
			/* Repeatable (kernel, boot ROM...): PROG[:prv=P]
			 * (QEMU splits plugin arguments at commas, so one
			 * selector field per program). */
			if (!so.elf)
				so.elf = v;
			else if (so.nelf_more == LT_PROTO_MAX_ELF - 1)
				return bad_arg(a, "at most 8 programs");
			else
				elf_more[so.nelf_more++] = v;
		} else if (KEY("session")) {
			so.session = v;
		} else if (KEY("recv")) {
			if (so.nreceivers == LT_PROTO_MAX_RECV)
				return bad_arg(a, "at most 16 receivers");
			recv[so.nreceivers++] = v;
		} else if (KEY("vcpus")) {
			if (!strcmp(v, "0"))
				g.vcpu0_only = 1;
			else if (!strcmp(v, "all"))
				g.vcpu0_only = 0;
			else
				return bad_arg(a, "vcpus is all or 0");
		} else if (KEY("start")) {
			if (parse_u64(v, &g.start) || (g.start & 1))
				return bad_arg(a, "an even address");
			atomic_store(&g.start_armed, 1);
		} else {
			return bad_arg(a, "unknown key (out, truth, code, mode, "
			               "bp_entries, format, prv, taken_cycles, "
			               "stall_every, stall_cycles, periodic, time0, start, "
			               "vcpus, sock, elf, session, recv)");
		}
#undef KEY
	}
	if (icfg.periodic && ecfg.format != LT_FMT_TACIT &&
	    ecfg.format != LT_FMT_TACIT_OCT2025) {
		fprintf(stderr, "ltpipe-qemu: periodic= needs format tacit or "
		        "tacit-oct2025\n");
		return -1;
	}
	if (ecfg.format == LT_FMT_SPIKE_2025_02 && ecfg.mode == LT_ENC_BP &&
	    ecfg.bp_entries != 1024) {
		fprintf(stderr, "ltpipe-qemu: format spike-2025-02 has Spike's "
		        "1024-entry predictor (its sync cannot say another "
		        "size)\n");
		return -1;
	}
	if ((out && !*out) || (truth && !*truth) || (sock && !*sock) ||
	    (!out && !truth && !sock) || (out && sock)) {
		fprintf(stderr, "ltpipe-qemu: give out=FILE or sock=ADDR, and/or "
		        "truth=FILE\n");
		return -1;
	}
	if (sock) {
		if (!so.elf || !*so.elf) {
			fprintf(stderr, "ltpipe-qemu: sock= needs elf=PATH\n");
			return -1;
		}
		if (!so.session) {
			snprintf(g.session, sizeof(g.session), "qemu-%d",
			         (int)getpid());
			so.session = g.session;
		}
		so.receivers = recv;
		so.elf_more = elf_more;
		so.format = lt_format_name(ecfg.format);
		so.mode = ecfg.mode == LT_ENC_BP ? "bp" : "bt";
		so.bp_entries = ecfg.mode == LT_ENC_BP ? ecfg.bp_entries : 0;
		/* User mode: code outside the program goes along (see
		 * send_code); a system image names its code with elf=. */
		g.stream_code = !info->system_emulation &&
		                !(code && !strcmp(code, "none"));
		so.code_map = g.stream_code;
	}
	g.ecfg = ecfg;
	g.icfg = icfg;
	g.out = out;
	g.truth_path = truth;
	g.sock = sock;
	g.so = so;
	/* The encoder settings are checked here, once for every hart. */
	struct lt_encoder probe;
	rc = lt_encoder_init(&probe, &ecfg, null_write, NULL);
	if (rc < 0) {
		fprintf(stderr, "ltpipe-qemu: encoder: %s\n", lt_errstr(rc));
		return -1;
	}
	lt_encoder_fini(&probe);
	/* vCPU 0's outputs are made now: a bad path refuses to start. */
	if (!(h0 = hart_new(0, 0)) || hart_open(h0) < 0)
		return -1;
	/* Code outside the program (signal trampoline, libraries) goes to
	 * a code map next to the trace, for `ltpipe decode`. User mode only:
	 * a system image names its code with --elf. */
	if (!info->system_emulation && (code ? strcmp(code, "none") : !!out)) {
		if (code)
			g.code_path = strdup(code);
		else if ((g.code_path = malloc(strlen(out) + 6)))
			sprintf(g.code_path, "%s.code", out);
		if (!g.code_path) {
			fprintf(stderr, "ltpipe-qemu: out of memory\n");
			pthread_mutex_lock(&h0->lock);
			hart_close(h0);
			pthread_mutex_unlock(&h0->lock);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_change);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_change);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
