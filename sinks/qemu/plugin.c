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
 *   sock=ADDR        stream the trace to `ltpipe serve` (unix:PATH or
 *                    tcp:HOST:PORT) instead of out=; needs elf=. In user
 *                    mode the code map goes along (CODE frames, sent as
 *                    code is translated, ahead of the trace bytes that
 *                    walk it); code=none leaves it out (for a daemon
 *                    older than CODE frames)
 *   elf=PATH         with sock=: the guest program as the daemon sees it
 *   session=NAME     with sock=: session name (default qemu-PID)
 *   recv=NAME        with sock=: a receiver (repeatable; default txt)
 *
 * Only vCPU 0 is traced (the main thread in user mode, hart 0 in system
 * mode), as a trace encoder sits on one core; when code runs on another
 * vCPU the plugin says so at exit, since profiles then miss that work.
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

/* The plugin's state: QEMU's C callbacks carry no context of ours, so
 * there is exactly one, static. */
static struct {
	int xlen;                  /* 32 or 64, from the target name */
	int have_out;              /* out= given */
	struct lt_sink *sink;      /* sock= stream, or NULL */
	struct lt_outfile out;     /* trace file */
	FILE *truth;               /* truth file, or NULL */
	char *truth_buf;           /* pending truth lines */
	size_t truth_len;          /* bytes in truth_buf */
	struct lt_encoder enc;     /* the encoder model */
	struct lt_infer inf;       /* exec stream -> records */
	int done;                  /* atexit ran: ignore late callbacks */
	char *code_path;           /* code map to write (user mode), or NULL */
	int start_armed;           /* start= given and not reached yet */
	uint64_t start;            /* start= address */
	int failed;                /* an error was reported once */
	atomic_uint other_vcpu;    /* a vCPU other than 0 that ran code
	                              (untraced), or 0 */
	pthread_mutex_t lock;      /* guards the insn cache (translation may
	                              run on several threads) */
	struct lt_qinsn **cache;   /* open-addressing set keyed (addr, raw) */
	size_t cache_cap;          /* slots, a power of two */
	size_t cache_n;            /* used slots */
	int stream_code;           /* sock= in user mode: the code map goes
	                              to the daemon as code is translated */
	int load_sent;             /* its `load` line went out */
	struct lt_qinsn **pend;    /* instructions translated since the last
	                              trace write, not sent yet (under lock) */
	size_t npend;              /* entries used */
	size_t cappend;            /* entries allocated */
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void fail(const char *what, int err)
{
	if (g.failed)
		return;
	g.failed = 1;
	fprintf(stderr, "ltpipe-qemu: %s: %s\n", what, lt_errstr(err));
}

static size_t cache_slot(uint64_t addr, uint32_t raw, size_t cap)
{
	uint64_t h = (addr ^ ((uint64_t)raw << 32 | raw)) * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 17) & (cap - 1);
}

/* Queues a new instruction for the streamed code map (g.lock held).
 * Returns 0 or LT_ERR_NOMEM. */
static int pend_add(struct lt_qinsn *qi)
{
	if (g.npend == g.cappend) {
		size_t cap = g.cappend ? 2 * g.cappend : 1024;
		struct lt_qinsn **v = realloc(g.pend, cap * sizeof(*v));
		if (!v)
			return LT_ERR_NOMEM;
		g.pend = v;
		g.cappend = cap;
	}
	g.pend[g.npend++] = qi;
	return 0;
}

/* Hands the instructions translated since the last call to the sink as
 * code map lines (outside the program's code segment; the first time
 * also where a position-independent program was loaded). Called before every trace write,
 * on the one thread that writes the trace: an instruction runs only after
 * its translation queued it, so every trace byte that walks it is written
 * after it was handed over, and the sink sends code before the trace
 * bytes written after it. Returns 0 or a negative lt_error. */
static int send_code(void)
{
	pthread_mutex_lock(&g.lock);
	struct lt_qinsn **v = g.pend;
	size_t n = g.npend;
	g.pend = NULL;
	g.npend = g.cappend = 0;
	pthread_mutex_unlock(&g.lock);
	if (!n && g.load_sent)
		return 0;
	const char *bin = g.load_sent ? NULL : qemu_plugin_path_to_binary();
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
	int rc = lt_codemap_text(v, n, &ld, !g.load_sent &&
	                         lt_codemap_is_pie(bin), &text, &len);
	g.load_sent = 1;
	if (rc == 0 && len && lt_sink_code(g.sink, text, len) < 0)
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
		if (g.stream_code && pend_add(qi) < 0)
			qi = NULL; /* reported as out of memory */
	}
	pthread_mutex_unlock(&g.lock);
	return qi;
}

static void truth_flush(void)
{
	if (g.truth_len && fwrite(g.truth_buf, 1, g.truth_len, g.truth) !=
	                   g.truth_len)
		fail("writing the truth file", LT_ERR_IO);
	g.truth_len = 0;
}

/* Appends "hex\n" for addr to the truth buffer. */
static void truth_add(uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[17];
	int n = 0;

	if (g.truth_len + 18 > TRUTH_BUF)
		truth_flush();
	do {
		tmp[n++] = hex[addr & 15];
		addr >>= 4;
	} while (addr);
	while (n)
		g.truth_buf[g.truth_len++] = tmp[--n];
	g.truth_buf[g.truth_len++] = '\n';
}

static void on_exec(unsigned int vcpu, void *udata)
{
	const struct lt_qinsn *qi = udata;
	int rc;

	if (vcpu != 0) {
		if (!atomic_load_explicit(&g.other_vcpu, memory_order_relaxed))
			atomic_store_explicit(&g.other_vcpu, vcpu,
			                      memory_order_relaxed);
		return;
	}
	if (g.done)
		return;
	if (g.start_armed) {
		if (qi->addr != g.start)
			return;
		g.start_armed = 0;
	}
	if (g.truth)
		truth_add(qi->addr);
	rc = lt_infer_exec(&g.inf, qi);
	if (rc < 0)
		fail("encoding", rc);
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

/* lt_infer_push_fn feeding the encoder. */
static int push_record(void *user, const struct lt_ingress *rec, int periodic)
{
	struct lt_encoder *enc = user;

	if (periodic)
		lt_encoder_periodic(enc);
	return lt_encoder_push(enc, rec);
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
	int rc;

	(void)id;
	(void)udata;
	if (g.done)
		return;
	g.done = 1;
	unsigned other = atomic_load(&g.other_vcpu);
	if (other)
		fprintf(stderr, "ltpipe-qemu: warning: code ran on vCPU %u (another "
		        "thread), which is not traced: only vCPU 0 is; profiles "
		        "miss the other threads' work\n", other);
	rc = lt_infer_finish(&g.inf);
	if (rc >= 0)
		rc = lt_encoder_finish(&g.enc);
	if (rc < 0)
		fail("encoding", rc);
	if (g.have_out) {
		rc = lt_outfile_close(&g.out);
		if (rc < 0)
			fail("writing the trace file", rc);
	}
	if (g.sink) {
		struct lt_proto_summary sum;
		char err[LT_PROTO_MAX_MSG + 160];
		if (lt_sink_close(g.sink, &sum, err, sizeof(err)) < 0)
			fprintf(stderr, "ltpipe-qemu: sock: %s\n", err);
		else
			fprintf(stderr, "ltpipe-qemu: streamed %" PRIu64 " bytes, "
			        "%" PRIu64 " instructions decoded, %" PRIu64
			        " errors\n", sum.bytes, sum.insns, sum.errors);
		g.sink = NULL;
	}
	if (g.code_path) {
		const char *bin = qemu_plugin_path_to_binary();
		struct lt_codemap_load ld = {
			.start_code = qemu_plugin_start_code(),
			.end_code = qemu_plugin_end_code(),
			.entry = qemu_plugin_entry_code(),
			.binary = bin,
		};
		rc = lt_codemap_write(g.code_path, g.cache, g.cache_cap, &ld);
		if (rc < 0)
			fail("writing the code map", rc);
		free((void *)bin);
		free(g.code_path);
		g.code_path = NULL;
	}
	if (g.truth) {
		truth_flush();
		if (fclose(g.truth) != 0)
			fail("closing the truth file", LT_ERR_IO);
		g.truth = NULL;
	}
	free(g.truth_buf);
	g.truth_buf = NULL;
	pthread_mutex_lock(&g.lock);
	free(g.pend);
	g.pend = NULL;
	g.npend = g.cappend = 0;
	g.stream_code = 0; /* later translations queue nothing */
	pthread_mutex_unlock(&g.lock);
	lt_infer_fini(&g.inf);
	lt_encoder_fini(&g.enc);
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

/* Discards all trace output: used when only truth= is given. */
static int null_write(void *user, const uint8_t *buf, size_t len)
{
	(void)user;
	(void)buf;
	(void)len;
	return 0;
}

/* lt_encoder_write_fn streaming into the daemon (back-pressure blocks
 * here, slowing the guest rather than growing memory). */
static int sink_write(void *user, const uint8_t *buf, size_t len)
{
	if (g.stream_code) {
		int rc = send_code();
		if (rc < 0)
			return rc;
	}
	return lt_sink_write(user, buf, len) < 0 ? LT_ERR_IO : 0;
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
	const char *recv[LT_PROTO_MAX_RECV];
	const char *elf_more[LT_PROTO_MAX_ELF - 1];
	char session[32];
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
		} else if (KEY("start")) {
			if (parse_u64(v, &g.start) || (g.start & 1))
				return bad_arg(a, "an even address");
			g.start_armed = 1;
		} else {
			return bad_arg(a, "unknown key (out, truth, code, mode, "
			               "bp_entries, format, prv, taken_cycles, "
			               "stall_every, stall_cycles, periodic, time0, start, "
			               "sock, elf, session, recv)");
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
		char err[LT_PROTO_MAX_MSG + 160];
		if (!so.elf || !*so.elf) {
			fprintf(stderr, "ltpipe-qemu: sock= needs elf=PATH\n");
			return -1;
		}
		if (!so.session) {
			snprintf(session, sizeof(session), "qemu-%d", (int)getpid());
			so.session = session;
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
		if (lt_sink_open(&g.sink, sock, &so, err, sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe-qemu: sock: %s\n", err);
			return -1;
		}
	}
	if (out) {
		rc = lt_outfile_open(&g.out, out);
		if (rc < 0) {
			fprintf(stderr, "ltpipe-qemu: cannot create %s: %s\n", out,
			        rc == LT_ERR_IO ? strerror(errno) : lt_errstr(rc));
			return -1;
		}
		g.have_out = 1;
	}
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
			goto undo;
		}
	}
	if (truth) {
		g.truth = fopen(truth, "w");
		g.truth_buf = malloc(TRUTH_BUF);
		if (!g.truth || !g.truth_buf) {
			fprintf(stderr, "ltpipe-qemu: cannot create %s: %s\n",
			        truth, strerror(errno));
			goto undo;
		}
	}
	rc = lt_encoder_init(&g.enc, &ecfg,
	                     sock ? sink_write : out ? lt_outfile_write :
	                     null_write, sock ? (void *)g.sink : (void *)&g.out);
	if (rc < 0) {
		fprintf(stderr, "ltpipe-qemu: encoder: %s\n", lt_errstr(rc));
		goto undo;
	}
	lt_infer_init(&g.inf, &icfg, push_record, &g.enc);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;

undo:	/* leave no half-made output files behind */
	if (g.sink) {
		lt_sink_abort(g.sink);
		g.sink = NULL;
	}
	if (g.have_out) {
		lt_outfile_close(&g.out);
		unlink(out);
		g.have_out = 0;
	}
	if (g.truth) {
		fclose(g.truth);
		unlink(truth);
		g.truth = NULL;
	}
	free(g.truth_buf);
	g.truth_buf = NULL;
	free(g.code_path);
	g.code_path = NULL;
	return -1;
}
