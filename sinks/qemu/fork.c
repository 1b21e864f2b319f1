/* A guest fork() or execve() under qemu-user (plugin.h). A forked child is another process,
 * so another run: an instrumented child counts only what it runs after
 * the fork (libgcov's __gcov_fork resets its counters) and merges them
 * into the .gcda at its exit, as the parent does at its own. So the child
 * gets outputs of its own, named PATH.pidPID (PATH-without-.zst.pidPID.zst,
 * truth FILE.pidPID, code map PATH.pidPID.code, daemon session
 * SESSION-pidPID; its threads PATH.pidPID.hartN), whose trace starts with
 * a sync at the child's first instruction after the fork. Nothing the
 * parent buffered before the fork is written twice: the parent's pending
 * file bytes are flushed before the fork, and the child drops its copies
 * of the encoder state, files and daemon connection without writing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "plugin.h"

/* Writes out the bytes hart h (h->lock held) has buffered in its trace
 * and truth files; whole: the trace file made complete (a zstd frame
 * ended) and its daemon stream sent too. */
static void write_out(struct hart *h, int whole)
{
	if (h->have_out && (whole ? lt_outfile_sync(&h->out) :
	                    lt_outfile_flush(&h->out)) < 0)
		qp_fail("writing the trace file", LT_ERR_IO);
	if (whole && h->sink && lt_sink_flush(h->sink) < 0)
		qp_fail("streaming the trace", LT_ERR_IO);
	if (h->truth) {
		qp_truth_flush(h);
		fflush(h->truth);
	}
}

/* Before fork() in the parent: holds every hart and the plugin lock (in
 * the order the threads take them: a hart's, then g.lock), with every
 * file's buffered bytes written, so that the child starts from a quiet,
 * consistent copy. */
static void fork_prepare(void)
{
	for (unsigned i = 0; i < MAX_HARTS; i++) {
		struct hart *h = atomic_load(&g.harts[i]);
		if (!h)
			continue;
		pthread_mutex_lock(&h->lock);
		write_out(h, 0);
	}
	pthread_mutex_lock(&g.lock);
}

/* After fork() in the parent: lets go of what fork_prepare held. */
static void fork_parent(void)
{
	pthread_mutex_unlock(&g.lock);
	for (unsigned i = 0; i < MAX_HARTS; i++) {
		struct hart *h = atomic_load(&g.harts[i]);
		if (h)
			pthread_mutex_unlock(&h->lock);
	}
}

/* Drops the child's copy of hart h's state and outputs without writing
 * anything; its next instruction opens the child's own (qp_fork_reopen). */
static void drop_copy(struct hart *h)
{
	if (h->live) {
		if (h->inf.n_exec)
			h->time0 = h->inf.prev_time + 1;
		lt_infer_fini(&h->inf);
		lt_encoder_fini(&h->enc);
		h->live = 0;
	}
	if (h->have_out) {
		lt_outfile_abandon(&h->out);
		h->have_out = 0;
	}
	if (h->sink) {
		lt_sink_abort(h->sink); /* closes the child's copy of the fd */
		h->sink = NULL;
	}
	if (h->truth) {
		fclose(h->truth); /* flushed by fork_prepare: writes nothing */
		h->truth = NULL;
	}
	free(h->truth_buf);
	h->truth_buf = NULL;
	h->truth_len = 0;
	h->code_sent = 0;
	h->load_sent = 0;
	h->reopen = !h->closed;
}

/* The child's name for a parent's output path (NULL stays NULL). */
static const char *child_name(const char *path, unsigned pid)
{
	return path ? qp_suffixed(path, "pid", pid) : NULL;
}

/* After fork() in the child (one thread: the one that forked): the
 * child's names, every hart's copy dropped, the locks let go. Out of
 * memory for a name, the child is not traced (said once). */
static void fork_child(void)
{
	unsigned pid = (unsigned)getpid();
	const char *out = child_name(g.out, pid);
	const char *truth = child_name(g.truth_path, pid);
	char *code = NULL, *session = NULL;
	int nomem = (g.out && !out) || (g.truth_path && !truth);

	if (g.code_path && out) {
		/* the decoder looks for TRACE.code beside a trace */
		size_t n = strlen(g.out);
		if (!strncmp(g.code_path, g.out, n) &&
		    !strcmp(g.code_path + n, ".code")) {
			if ((code = malloc(strlen(out) + 6)))
				sprintf(code, "%s.code", out);
		} else {
			code = qp_suffixed(g.code_path, "pid", pid);
		}
		nomem |= !code;
	}
	if (g.sock) {
		if ((session = malloc(strlen(g.so.session) + 16)))
			sprintf(session, "%s-pid%u", g.so.session, pid);
		nomem |= !session;
	}
	free(g.code_path);
	g.code_path = code;
	g.out = out;
	g.truth_path = truth;
	if (session)
		g.so.session = session;
	for (unsigned i = 0; i < MAX_HARTS; i++) {
		struct hart *h = atomic_load(&g.harts[i]);
		if (h) {
			drop_copy(h);
			h->closed |= nomem;
			h->reopen &= !nomem;
		}
	}
	if (nomem)
		qp_fail("the forked child's outputs", LT_ERR_NOMEM);
	fork_parent(); /* the same locks, held by this thread in the copy */
}

int qp_fork_reopen(struct hart *h)
{
	h->reopen = 0;
	if (qp_hart_open(h) < 0) {
		h->closed = 1;
		return -1;
	}
	return 0;
}

/* execve and execveat: the generic system call numbers, riscv32's and
 * riscv64's. */
#define SYS_EXECVE 221
#define SYS_EXECVEAT 281

/* Before an execve: the process image goes and no exit callback runs, so
 * every hart's segment ends here (its end sync at the ecall) and every
 * output is written out whole (a zstd frame ended), the code map too.
 * When the execve fails the program goes on, each hart's next
 * instruction starting a new segment in the same output. */
static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
                       uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	(void)id, (void)vcpu, (void)a1, (void)a2, (void)a3, (void)a4;
	(void)a5, (void)a6, (void)a7, (void)a8;
	if (num != SYS_EXECVE && num != SYS_EXECVEAT)
		return;
	for (unsigned i = 0; i < MAX_HARTS; i++) {
		struct hart *h = atomic_load(&g.harts[i]);
		if (!h)
			continue;
		pthread_mutex_lock(&h->lock);
		qp_segment_end(h);
		write_out(h, 1);
		pthread_mutex_unlock(&h->lock);
	}
	qp_codemap_write();
}

int qp_fork_init(qemu_plugin_id_t id)
{
	if (pthread_atfork(fork_prepare, fork_parent, fork_child))
		return -1;
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	return 0;
}
