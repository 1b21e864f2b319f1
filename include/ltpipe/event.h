/* Block events: what the frontend produces and every receiver consumes.
 * One event per executed basic block (never one per instruction). */
#ifndef LTPIPE_EVENT_H
#define LTPIPE_EVENT_H

#include <stdint.h>

/* How a block ended (or what marker the event is). */
enum lt_event_kind {
	LT_EV_TAKEN = 0,      /* conditional branch at `last`, taken */
	LT_EV_NOT_TAKEN = 1,  /* conditional branch at `last`, not taken */
	LT_EV_JUMP = 2,       /* direct (inferable) jump at `last` */
	LT_EV_IJUMP = 3,      /* indirect (uninferable) jump at `last` */
	LT_EV_EXCEPTION = 4,  /* exception raised by the insn at `last` (it is
	                         counted: it was fetched and issued); icount 0
	                         when the fetch itself failed outside every
	                         image (start = last = epc) */
	LT_EV_INTERRUPT = 5,  /* interrupt: the block ran up to, excluding,
	                         the interrupted pc (epc, in `aux`); `next`
	                         is the handler; icount may be 0 */
	LT_EV_TRET = 6,       /* trap return (mret/sret) at `last` */
	LT_EV_START = 7,      /* marker: trace (segment) starts at `next`;
	                         icount 0 */
	LT_EV_END = 8,        /* block ending at the end-sync address `last`
	                         (icount may be 0 when already there); trace
	                         segment ends */
	LT_EV_LOST = 9,       /* marker: data lost; decoding resumes at the
	                         next START/SYNC event; icount 0 */
	LT_EV_SYNC = 10,      /* straight-line block up to (excluding) a
	                         periodic sync's address `next`; icount may be 0 */
	LT_EV_KIND_COUNT = 11,
};

/* Returns the lower-case name of an event kind ("taken", "lost", ...). */
const char *lt_event_kind_name(int kind);

/* One executed block: instructions start, ..., last (icount of them,
 * straight-line, all but the last are not control flow), then control
 * passes to next. Markers (START, LOST) have icount 0 and only `next`
 * (START) meaningful. For INTERRUPT, `next` is the handler and `epc` (in
 * `aux`) the interrupted pc. */
struct lt_event {
	uint64_t start;   /* address of the block's first instruction */
	uint64_t last;    /* address of its last instruction (start if 1) */
	uint64_t next;    /* address executed after the block */
	uint64_t time;    /* absolute timestamp of the packet that resolved it */
	uint64_t aux;     /* INTERRUPT/EXCEPTION: epc; LOST: stream offset;
	                     START/END: ctx; otherwise 0 */
	uint32_t icount;  /* number of instructions in the block */
	uint8_t kind;     /* enum lt_event_kind */
	uint8_t prv;      /* privilege level the block ran in */
	uint16_t hart;    /* hart id of the trace */
	uint16_t img;     /* index of the image (in the session's image set)
	                     the block was decoded against */
	uint32_t ctx;     /* context id (ASID) the block ran in */
};

#endif
