/* A software model of the single-lane TACIT (L-trace) hardware encoder
 * (TacitEncoder RTL, see shared/docs/LTRACE-FORMAT.md), fed with one ingress
 * record per retired instruction (plus trap records). It writes the packets
 * of any variant in enum lt_format (not LT_FMT_AUTO) through a callback.
 *
 * Used by the QEMU plugin (sinks/qemu/) and by tests that synthesize traces.
 *
 * The exact semantics, which the decoder is written against:
 *
 * Lag. The message of record i needs the address of record i+1 ("the next
 * retired instruction": UJ and trap xor targets, trap to_prv), so the encoder
 * holds one record and emits its message when the next record is pushed.
 *
 * Start. The first pushed record gives the start sync (its iaddr, time, priv,
 * ctx); it is then held like any other record, so if it is a branch or jump
 * its own packet follows the sync.
 *
 * End. lt_encoder_finish() emits the end sync with the LAST pushed record's
 * iaddr, time, priv and ctx; that record's own message is never emitted. In
 * BP mode pending hits are NOT flushed at the end (as in the RTL).
 *
 * Time. Sync packets carry the absolute time of their record. Every other
 * time-carrying packet (TB, NT, IJ, UJ, trap, BP miss) carries
 * delta = time of the record causing it - prev_time, where prev_time is the
 * time of the previous time-carrying packet (syncs included); arithmetic is
 * modulo 2^64, so times must not decrease. BP hit packets carry the hit count
 * instead and do not change prev_time. TB/NT/IJ (and hit/miss) use the
 * one-byte compressed form when the value is <= 63, else the full header and
 * a varint.
 *
 * BT mode (LT_ENC_BT). TB / NT per conditional branch, IJ per direct jump,
 * UJ (xor = (jump ^ next) >> 1) per indirect jump, a trap packet per
 * EXCEPTION / INTERRUPT / RETURN record.
 *
 * BP mode (LT_ENC_BP). A table of bp_entries 2-bit counters, all starting at
 * 1, index (pc >> 1) % bp_entries, predict taken iff counter >= 2, updated
 * with the actual outcome on every branch. A correct prediction increments
 * the pending hit count; a misprediction flushes pending hits (TB form with
 * the count) and then emits a miss (NT form with the time delta). UJ and trap
 * records flush pending hits before their own packet. Direct jumps emit
 * nothing, except in LT_FMT_SPIKE_2025, where they emit IJ (with delta) after
 * flushing pending hits (Spike up to 8c2a5df3 did so).
 *
 * Periodic sync (LT_FMT_TACIT and LT_FMT_TACIT_OCT2025 only; ltpipe's own
 * definition, the RTL's is work in progress). lt_encoder_periodic() arms it;
 * it is emitted for the NEXT pushed record R, after the message of the record
 * before R and before R's own message: in BP mode pending hits are flushed
 * first; then header 0x56, prv byte (from 0, to R.priv), v R.ctx, cfg byte
 * (tacit only; tacit-oct2025 has cfg only in the start sync),
 * v R.iaddr >> 1, v R.time (absolute); prev_time = R.time. R is then held and
 * its message follows as usual, like after a start sync. If no record follows
 * before lt_encoder_finish(), nothing is emitted.
 *
 * Layouts per format (v = varint, §2 of LTRACE-FORMAT.md):
 *   tacit:         sync  hdr(0x36 start/0x56 periodic/0x76 end), prv, v ctx,
 *                        cfg, v iaddr>>1, v time
 *                  trap  hdr(0x32 exception/0x52 interrupt/0x92 return), prv,
 *                        [v ctx if return and to_prv == U], v from>>1,
 *                        v (from^next)>>1, v dt
 *   tacit-oct2025: as tacit, cfg only in the start sync
 *   tacit-2025:    sync  0x16, v iaddr>>1, v time (start and end alike)
 *                  trap  hdr, v from>>1, v (from^next)>>1, v dt
 *   tacit-2025-unshifted: as tacit-2025, trap from NOT shifted
 *   spike-2025:    as tacit-2025, trap hdr, v (from^next)>>1, v dt
 *   spike-2025-02: as spike-2025, sync 0x16, v br_mode (0 BT, 2 BP),
 *                  v iaddr>>1, v time; Spike's table is 1024 entries, so
 *                  other bp_entries are refused (the sync cannot say them)
 *   spike-armed:   Spike 09418ad8. The first record R1 is held without a
 *                  message; the second push R2 emits the start sync
 *                  0x16 (its subtype 0 is S_START), v R1.ctx,
 *                  v (R1^R2)>>1, v R1.iaddr>>1, v R1.time; prev_time =
 *                  R1.time; R2 is then held as usual. A trace of one
 *                  record emits nothing. The end sync is 0xF6 (S_END = 7),
 *                  v ctx, v 0, v iaddr>>1, v time of the held record.
 *                  trap  hdr, v (from^next)>>1, v from>>1, v dt (xor first);
 *                  no IJ in BP mode; the sync cannot say the mode or table
 *                  size (the decoder is told them)
 * prv byte = 0x80 | to_prv << 3 | from_prv; syncs have from_prv = 0 and
 * to_prv = the record's priv; traps have from_prv = the trap record's priv,
 * to_prv = the next record's priv. The ctx of a return-to-U trap packet is
 * the return record's own ctx (RTL: ingress_1.ctx). cfg = 0x80 | k << 2 |
 * mode with k = log2(bp_entries / 64) and mode 0 (BT) or 2 (BP).
 */
#ifndef LTPIPE_SINKS_LT_ENCODER_H
#define LTPIPE_SINKS_LT_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/packet.h"

/* Ingress instruction type of a record (what the core reports at retire). */
enum lt_itype {
	LT_IT_NOTHING = 0,          /* no control-flow message */
	LT_IT_BRANCH_TAKEN = 1,     /* conditional branch, taken */
	LT_IT_BRANCH_NOT_TAKEN = 2, /* conditional branch, not taken */
	LT_IT_INF_JUMP = 3,         /* jal, c.j, c.jal */
	LT_IT_UNINF_JUMP = 4,       /* jalr, c.jr, c.jalr */
	LT_IT_EXCEPTION = 5,        /* the excepting insn; iaddr = epc */
	LT_IT_INTERRUPT = 6,        /* iaddr = interrupted, not executed insn */
	LT_IT_RETURN = 7,           /* mret / sret */
};

/* Branch reporting mode (the cfg byte's mode field). */
enum lt_enc_mode {
	LT_ENC_BT = 0, /* branch target: one TB/NT per branch */
	LT_ENC_BP = 2, /* branch prediction: hit counts and misses */
};

/* One ingress record. */
struct lt_ingress {
	uint64_t iaddr; /* instruction address (epc for traps) */
	uint64_t time;  /* timestamp of the record, non-decreasing */
	uint64_t ctx;   /* context id (ASID) */
	uint8_t itype;  /* enum lt_itype */
	uint8_t priv;   /* privilege of the record: enum lt_prv */
};

/* Encoder configuration. */
struct lt_encoder_config {
	int format;          /* enum lt_format, LT_FMT_AUTO is invalid */
	int mode;            /* enum lt_enc_mode */
	uint32_t bp_entries; /* predictor size: power of two, 64 .. 64 << 20;
	                        encoded in the cfg byte in BT mode too */
};

/* Receives encoded bytes, in order; returns 0 or a negative lt_error, which
 * the encoder keeps and returns from every later call. */
typedef int (*lt_encoder_write_fn)(void *user, const uint8_t *buf, size_t len);

/* Size of the output buffer: write_fn sees chunks of at most this size. */
#define LT_ENCODER_BUF_SIZE 65536

/* Encoder state. */
struct lt_encoder {
	struct lt_encoder_config cfg; /* copy of the configuration */
	lt_encoder_write_fn write;    /* output callback */
	void *user;                   /* output callback argument */
	int err;                      /* first write error, sticky */
	uint8_t started;              /* the start sync was emitted */
	uint8_t finished;             /* the end sync was emitted */
	uint8_t periodic_armed;       /* emit a periodic sync at the next push */
	uint8_t start_pending;        /* spike-armed: first record held, the
	                                 start sync waits for the second */
	uint8_t cfg_byte;             /* the sync cfg byte, 0x80 | k << 2 | mode */
	struct lt_ingress held;       /* last pushed record, message pending */
	uint64_t prev_time;           /* time of the last time-carrying packet */
	uint64_t hits;                /* BP: pending correctly predicted branches */
	uint8_t *bp;                  /* BP: bp_entries 2-bit counters */
	uint8_t *buf;                 /* output buffer, LT_ENCODER_BUF_SIZE */
	size_t buf_len;               /* valid bytes in buf */
	uint64_t n_records;           /* records pushed */
	uint64_t n_packets;           /* packets emitted */
	uint64_t n_bytes;             /* bytes emitted (buffered ones included) */
};

/* Initialises `enc`. Returns 0, LT_ERR_INVAL for a bad format, mode or
 * bp_entries (or a NULL write), or LT_ERR_NOMEM. */
int lt_encoder_init(struct lt_encoder *enc, const struct lt_encoder_config *cfg,
                    lt_encoder_write_fn write, void *user);

/* Pushes one record: emits the previous record's message (and the start or a
 * periodic sync when due). Returns 0, LT_ERR_INVAL (bad itype, or pushed after
 * lt_encoder_finish) or the sticky write error. */
int lt_encoder_push(struct lt_encoder *enc, const struct lt_ingress *rec);

/* Arms a periodic sync at the next pushed record (see the top comment).
 * Returns 0, or LT_ERR_INVAL for a format without periodic syncs (nothing is
 * armed then). Before the first push it is a no-op: the start sync serves. */
int lt_encoder_periodic(struct lt_encoder *enc);

/* Emits the end sync at the last pushed record (nothing if no record was
 * pushed) and flushes the buffer to write_fn. Returns 0 or the sticky write
 * error. Later pushes fail; a second call only flushes. */
int lt_encoder_finish(struct lt_encoder *enc);

/* Passes buffered bytes to write_fn. Returns 0 or the sticky write error. */
int lt_encoder_flush(struct lt_encoder *enc);

/* Frees the encoder's memory (does not flush). */
void lt_encoder_fini(struct lt_encoder *enc);

/* Writes `v` as a TACIT varint (bit 7 set on the LAST byte) into out[],
 * which must hold 10 bytes; returns the number of bytes written (1..10). */
size_t lt_encoder_varint(uint8_t *out, uint64_t v);

/* A growable in-memory sink, handy for tests: pass lt_encoder_mem_write as
 * write_fn and a zeroed struct lt_encoder_mem as user; free(data) after. */
struct lt_encoder_mem {
	uint8_t *data; /* bytes written so far (malloc'd) */
	size_t len;    /* number of valid bytes */
	size_t cap;    /* allocated size of data */
};

/* write_fn appending to a struct lt_encoder_mem; LT_ERR_NOMEM on failure. */
int lt_encoder_mem_write(void *user, const uint8_t *buf, size_t len);

#endif
