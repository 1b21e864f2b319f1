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
 * since profiles then miss that work. A child the guest forks gets its own
 * outputs, PATH.pidPID and so on (fork.c).
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
#include "plugin.h"
#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct lt_qemu_plugin g = { .lock = PTHREAD_MUTEX_INITIALIZER,
                          .failed = ATOMIC_FLAG_INIT };

void qp_fail(const char *what, int err)
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
	if (!h && !(h = qp_hart_new(vcpu, 1)))
		return;
	int lock = atomic_load_explicit(&g.several, memory_order_relaxed);
	if (lock)
		pthread_mutex_lock(&h->lock);
	if (h->closed || (h->reopen && qp_fork_reopen(h) < 0))
		goto out;
	if (!h->live && (rc = qp_segment_begin(h)) < 0) {
		qp_fail("encoder", rc);
		h->closed = 1;
		goto out;
	}
	if (h->truth)
		qp_truth_add(h, qi->addr);
	rc = lt_infer_exec(&h->inf, qi);
	if (rc < 0)
		qp_fail("encoding", rc);
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
	qp_segment_end(h);
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
			qp_fail("instruction cache", LT_ERR_NOMEM);
			continue;
		}
		qemu_plugin_register_vcpu_insn_exec_cb(in, on_exec,
		                                       QEMU_PLUGIN_CB_NO_REGS, qi);
	}
}

void qp_codemap_write(void)
{
	if (!g.code_path)
		return;
	const char *bin = qemu_plugin_path_to_binary();
	struct lt_codemap_load ld = {
		.start_code = qemu_plugin_start_code(),
		.end_code = qemu_plugin_end_code(),
		.entry = qemu_plugin_entry_code(),
		.binary = bin,
	};
	pthread_mutex_lock(&g.lock);
	int rc = lt_codemap_write(g.code_path, g.cache, g.cache_cap, &ld);
	pthread_mutex_unlock(&g.lock);
	if (rc < 0)
		qp_fail("writing the code map", rc);
	free((void *)bin);
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
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
		qp_hart_close(h);
		pthread_mutex_unlock(&h->lock);
	}
	qp_codemap_write();
	free(g.code_path);
	g.code_path = NULL;
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
	rc = lt_encoder_init(&probe, &ecfg, qp_null_write, NULL);
	if (rc < 0) {
		fprintf(stderr, "ltpipe-qemu: encoder: %s\n", lt_errstr(rc));
		return -1;
	}
	lt_encoder_fini(&probe);
	/* vCPU 0's outputs are made now: a bad path refuses to start. */
	if (!(h0 = qp_hart_new(0, 0)) || qp_hart_open(h0) < 0)
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
			qp_hart_close(h0);
			pthread_mutex_unlock(&h0->lock);
			return -1;
		}
	}
	if (!info->system_emulation && qp_fork_init(id) < 0) {
		fprintf(stderr, "ltpipe-qemu: pthread_atfork failed\n");
		pthread_mutex_lock(&h0->lock);
		qp_hart_close(h0);
		pthread_mutex_unlock(&h0->lock);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_change);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_change);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
