/* The QEMU plugin's state (private to sinks/qemu): one hart (a trace
 * encoder per vCPU) and the plugin's globals. */
#ifndef LTPIPE_SINKS_QEMU_PLUGIN_H
#define LTPIPE_SINKS_QEMU_PLUGIN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "infer.h"
#include "ltpipe_sink.h"
#include "lt_encoder.h"
#include "outfile.h"
#include "qemu_plugin_api.h"

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
	int reopen;                /* a forked child's copy: its outputs
	                              are opened anew (the child's names) at
	                              its next instruction */
	char *truth_buf;           /* pending truth lines */
	size_t truth_len;          /* bytes in truth_buf */
};

/* The plugin's state: QEMU's C callbacks carry no context of ours, so
 * there is exactly one, `g` (plugin.c; hidden: the plugin exports only
 * QEMU's entry points). */
struct lt_qemu_plugin {
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
};

extern struct lt_qemu_plugin g;

/* Reports the first error (what failed, an lt_error) once on stderr. */
void qp_fail(const char *what, int err);

/* hart.c: a hart's encoder segments and outputs. */

/* lt_encoder_write_fn discarding all trace output (only truth= given). */
int qp_null_write(void *user, const uint8_t *buf, size_t len);

/* Writes h's pending truth lines to its truth file's stdio buffer. */
void qp_truth_flush(struct hart *h);

/* Appends "hex\n" for addr to h's truth buffer. */
void qp_truth_add(struct hart *h, uint64_t addr);

/* Starts a segment of hart h (h->lock held): a fresh encoder, whose first
 * record brings a start sync, as a thread's first instruction must.
 * Returns 0 or a negative lt_error. */
int qp_segment_begin(struct hart *h);

/* Ends hart h's segment (h->lock held): its last instruction gets the end
 * sync. The next thread given this vCPU index starts a new segment in the
 * same output, later in time. */
void qp_segment_end(struct hart *h);

/* PATH.WHATn, or PATH-without-.zst.WHATn.zst for a compressed PATH (so
 * that it stays compressed): a malloc'd string, or NULL. */
char *qp_suffixed(const char *path, const char *what, unsigned n);

/* Opens hart h's outputs (vCPU 0's at install, so that a bad argument or
 * path refuses to start; the others' at their first instruction). Returns
 * 0, or -1 with a message on stderr (nothing left open). */
int qp_hart_open(struct hart *h);

/* Closes hart h's outputs at exit (h->lock held): ends its segment, the
 * trace file, the daemon session (with its summary) and the truth file. */
void qp_hart_close(struct hart *h);

/* Writes the code map (g.code_path, if any) of the code translated so
 * far (at exit, and before an execve). */
void qp_codemap_write(void);

/* fork.c: has the outputs follow the guest's processes (a forked child's
 * own outputs; everything written out before an execve): registers the
 * handlers once, at install (user mode). Returns 0 or -1. */
int qp_fork_init(qemu_plugin_id_t id);

/* Opens a forked child's copy of hart h anew (h->reopen set; h->lock
 * held): 0, or -1 (reported; the hart is then closed). */
int qp_fork_reopen(struct hart *h);

/* Makes the state of vCPU `index` (its outputs opened unless open_out is
 * 0: vCPU 0's are opened by install). Returns NULL after exit or on an
 * error (reported; the vCPU is then left untraced). */
struct hart *qp_hart_new(unsigned index, int open_out);

#endif
