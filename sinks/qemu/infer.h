/* Turns a stream of executed instructions (all a QEMU TCG plugin sees) into
 * encoder ingress records, with a cycle-count time model.
 *
 * The record of instruction X is decided when the next executed instruction
 * Y is known (seq = X.addr + X.len):
 *   OTHER, or TRAP/INVALID with Y == seq   -> NOTHING (in user mode a
 *                                             syscall is emulated inline)
 *   TRAP or INVALID, Y != seq              -> EXCEPTION at X
 *   OTHER, Y != seq                        -> NOTHING, then INTERRUPT at seq
 *   BRANCH, Y == target / Y == seq         -> TAKEN / NOT_TAKEN (target
 *                                             checked first)
 *   BRANCH, Y neither                      -> interrupt taken after the
 *       branch retired; its outcome (= the epc) is unknown until the
 *       handler's matching xRET returns, so X's record, an INTERRUPT record
 *       and everything after them are held back until then; then X is
 *       TAKEN if the return target is X.target, else NOT_TAKEN, and the
 *       INTERRUPT's iaddr is X's resulting successor
 *   JUMP                                   -> INF_JUMP, plus INTERRUPT at
 *                                             target when Y != target
 *   IJUMP                                  -> UNINF_JUMP to Y
 *   TRET                                   -> RETURN to Y
 * "Matching" xRET: traps nest; a depth counter goes up per EXCEPTION or
 * INTERRUPT and down per RETURN.
 *
 *   IJUMP or TRET, Y a trap vector seen    -> an interrupt taken right
 *       before the jump's target ran (e.g. one pending when an mret
 *       re-enables interrupts): the target (= the epc) is unknown until
 *       the handler's matching xRET, so the INTERRUPT record after X's and
 *       everything after it are held back until then, as for a branch
 * A trap vector is the first instruction executed after an EXCEPTION or
 * INTERRUPT record (the last LT_INFER_VECTORS distinct ones are kept).
 *
 * Known limitations (the PC sequence a decoder rebuilds still equals the
 * executed one): a faulting load/store (or any exception of an OTHER insn)
 * is reported as an interrupt after it; an interrupt right after an
 * indirect jump or xRET, to a vector not seen before, is reported as the
 * jump going to the handler; a record held back whose handler never
 * returns (e.g. a user-mode signal handler, which leaves through an ecall)
 * is resolved as not taken / as that jump to the handler, at the end or
 * once more than LT_INFER_MAX_HELD records wait behind it.
 *
 * Time model: the first instruction has time0; each next one adds 1 cycle,
 * plus taken_cycles after a branch/jump followed by a non-sequential pc,
 * plus stall_cycles after every stall_every-th instruction. Trap records
 * (INTERRUPT) take the time of the instruction that follows them.
 */
#ifndef LTPIPE_SINKS_QEMU_INFER_H
#define LTPIPE_SINKS_QEMU_INFER_H

#include <stddef.h>
#include <stdint.h>

#include "lt_encoder.h"

/* Most records held back behind one branch before it is given up as not
 * taken (bounds memory when no xRET ever comes). */
#define LT_INFER_MAX_HELD (1u << 20)

/* Trap vectors remembered (see above). */
#define LT_INFER_VECTORS 8

/* What the inference needs to know about one static instruction. */
struct lt_qinsn {
	uint64_t addr;   /* virtual address */
	uint64_t target; /* direct target of a branch / jal, else 0 */
	uint32_t raw;    /* encoding (cache key together with addr) */
	uint8_t len;     /* 2 or 4 */
	uint8_t cls;     /* enum lt_insn_class */
};

/* Time model and record constants. */
struct lt_infer_config {
	uint64_t time0;        /* time of the first instruction */
	uint64_t taken_cycles; /* extra cycles after a taken branch / jump */
	uint64_t stall_every;  /* every this many instructions (0 = never) */
	uint64_t stall_cycles; /* ... add this many cycles */
	uint64_t periodic;     /* periodic sync every N instructions (0 = no) */
	uint8_t priv;          /* privilege reported in every record */
	uint64_t ctx;          /* context id reported in every record */
};

/* Receives each finished record in order; `periodic` asks for a periodic
 * sync before it (lt_encoder_periodic). Returns 0 or a negative lt_error,
 * which the inference keeps and returns from every later call. */
typedef int (*lt_infer_push_fn)(void *user, const struct lt_ingress *rec,
                                int periodic);

/* One queued record. */
struct lt_infer_rec {
	struct lt_ingress rec;  /* the record; itype/iaddr final once resolved */
	uint8_t periodic;       /* arm a periodic sync before pushing it */
	uint8_t unresolved;     /* waits for a hold's xRET */
};

/* A branch, indirect jump or xRET whose interrupt's epc waits for the
 * matching xRET. */
struct lt_infer_hold {
	size_t branch;          /* queue index of the branch/jump record */
	size_t intr;            /* queue index of the INTERRUPT record */
	uint64_t target;        /* branch target; 0 for a jump */
	uint64_t seq;           /* branch fallthrough; for a jump, the vector
	                           its record went to */
	uint64_t depth;         /* trap depth before the interrupt */
	uint8_t jump;           /* an IJUMP/TRET hold, not a branch */
};

/* Inference state. */
struct lt_infer {
	struct lt_infer_config cfg;  /* configuration copy */
	lt_infer_push_fn push;       /* where finished records go */
	void *user;                  /* push's argument */
	int err;                     /* first encoder error, sticky */
	const struct lt_qinsn *prev; /* last executed insn, record pending */
	uint64_t prev_time;          /* its time */
	uint64_t n_exec;             /* instructions executed so far */
	uint8_t periodic_due;        /* mark the next queued record periodic */
	uint64_t depth;              /* trap nesting depth */
	struct lt_infer_rec *q;      /* record queue (FIFO) */
	size_t q_head;               /* first record not yet pushed */
	size_t q_len;                /* records in q (pushed ones included) */
	size_t q_cap;                /* allocated entries of q */
	struct lt_infer_hold *holds; /* stack of pending holds */
	size_t n_holds;              /* entries in holds */
	size_t holds_cap;            /* allocated entries of holds */
	uint64_t n_interrupts;       /* INTERRUPT records made */
	uint64_t n_exceptions;       /* EXCEPTION records made */
	uint64_t vec[LT_INFER_VECTORS]; /* trap vectors seen, oldest first */
	size_t n_vec;                /* entries in vec */
};

/* Initialises `inf`, which passes finished records to push(user, ...). */
void lt_infer_init(struct lt_infer *inf, const struct lt_infer_config *cfg,
                   lt_infer_push_fn push, void *user);

/* Reports that `insn` is the next executed instruction. `insn` must stay
 * valid until the next call (or lt_infer_finish). Returns 0, LT_ERR_NOMEM,
 * or the push function's sticky error. */
int lt_infer_exec(struct lt_infer *inf, const struct lt_qinsn *insn);

/* Ends the stream: the last executed instruction becomes the last record
 * (NOTHING; its real type is unknowable and irrelevant, the end sync
 * covers it) and pending holds are resolved as not taken. Returns 0 or an
 * error as above. The caller then finishes the encoder. */
int lt_infer_finish(struct lt_infer *inf);

/* Frees the queues. */
void lt_infer_fini(struct lt_infer *inf);

#endif
