/* L-trace (TACIT) packets and the resumable packet parser.
 * See shared/docs/LTRACE-FORMAT.md for the byte format of each variant. */
#ifndef LTPIPE_PACKET_H
#define LTPIPE_PACKET_H

#include <stddef.h>
#include <stdint.h>

/* Format variants ltpipe reads (names as in --format). */
enum lt_format {
	LT_FMT_TACIT = 0,            /* RTL2 >= 75118d8: prv/ctx/cfg in every sync */
	LT_FMT_TACIT_OCT2025 = 1,    /* as tacit, cfg only in the start sync */
	LT_FMT_TACIT_2025 = 2,       /* 0x16 sync: v target, v time; trap from>>1 */
	LT_FMT_TACIT_2025_UNSHIFTED = 3, /* as tacit-2025, trap from unshifted */
	LT_FMT_SPIKE_2025 = 4,       /* as tacit-2025, trap: v xor, v dt only */
	LT_FMT_SPIKE_2025_02 = 5,    /* as spike-2025, sync: v br_mode first */
	LT_FMT_SPIKE_ARMED = 6,      /* Spike 09418ad8: armed start sync (v ctx,
	                                v xor, v from, v time), trap v xor, v from */
	LT_FMT_COUNT = 7,
	LT_FMT_AUTO = 100,           /* pick tacit or tacit-2025 from the first sync */
};

/* 1 for the Spike encoder model's formats: one-address trap packets, IJ
 * packets in BP mode, a 64-bit instruction-count time. */
static inline int lt_format_is_spike(int fmt)
{
	return fmt == LT_FMT_SPIKE_2025 || fmt == LT_FMT_SPIKE_2025_02;
}

/* Sync subtypes (bits 7:5) of Spike 09418ad8 (spike-armed), conflict C5
 * of LTRACE-FORMAT.md; the parser maps them to enum lt_sync_type. */
enum lt_armed_sync {
	LT_ARMED_SYNC_START = 0,     /* S_START */
	LT_ARMED_SYNC_PERIODIC = 1,  /* S_PERIODIC */
	LT_ARMED_SYNC_END = 7,       /* S_END (2, 3: context enter/exit) */
};

/* Parses a --format name ("tacit", "tacit-2025", ..., "auto").
 * Returns the enum value or LT_ERR_BAD_FORMAT. */
int lt_format_parse(const char *name);
/* Returns the --format name of a variant, or "?" */
const char *lt_format_name(int fmt);

/* Packet types (the F-header, compressed forms folded in). */
enum lt_packet_type {
	LT_PKT_TB = 0,   /* taken branch (BT) / hit count (BP) */
	LT_PKT_NT = 1,   /* not-taken branch (BT) / miss (BP) */
	LT_PKT_UJ = 2,   /* uninferable jump: xor target */
	LT_PKT_IJ = 3,   /* inferable jump */
	LT_PKT_TRAP = 4, /* exception / interrupt / trap return */
	LT_PKT_SYNC = 5, /* none / start / periodic / end */
};

enum lt_trap_type {
	LT_TRAP_EXCEPTION = 1,
	LT_TRAP_INTERRUPT = 2,
	LT_TRAP_RETURN = 4,
};

enum lt_sync_type {
	LT_SYNC_NONE = 0,
	LT_SYNC_START = 1,
	LT_SYNC_PERIODIC = 2,
	LT_SYNC_END = 3,
};

/* Why bytes start no valid packet (lt_packet.bad after LT_ERR_BAD_PACKET). */
enum lt_bad_packet {
	LT_BAD_NONE = 0,     /* the packet is valid */
	LT_BAD_FHEADER = 1,  /* F-header 110 or 111: reserved, never emitted */
	LT_BAD_FUNC3 = 2,    /* branch/jump header with bits 7:5 not zero */
	LT_BAD_TRAP = 3,     /* trap type not 1, 2 or 4 */
	LT_BAD_SYNC = 4,     /* sync type above 3, or not 0 in a 2025 format */
	LT_BAD_PRV = 5,      /* prv byte without 0b10 in bits 7:6 */
	LT_BAD_CFG = 6,      /* cfg byte that is not a one-byte varint */
	LT_BAD_VARINT = 7,   /* varint with no last byte within 10 bytes */
};

/* Privilege codes in a prv byte. */
enum lt_prv { LT_PRV_U = 0, LT_PRV_S = 1, LT_PRV_H = 2, LT_PRV_M = 3 };

/* One parsed packet. Fields not carried by the packet's variant are 0 and
 * their has_* flag is 0. */
struct lt_packet {
	uint64_t offset;   /* byte offset of the header in the whole stream */
	uint8_t type;      /* enum lt_packet_type */
	uint8_t subtype;   /* trap type (enum lt_trap_type) or sync type */
	uint8_t size;      /* total encoded length in bytes */
	uint8_t compressed;/* 1 if it was a one-byte compressed packet */
	uint8_t has_prv;   /* prv byte present (tacit formats: trap, sync) */
	uint8_t from_prv;  /* prv byte bits 2:0 */
	uint8_t to_prv;    /* prv byte bits 5:3 */
	uint8_t has_ctx;   /* ctx varint present */
	uint8_t has_cfg;   /* cfg byte present (sync) */
	uint8_t has_from;  /* trap from-address present (not spike-2025);
	                      spike-armed sync: its from-address too */
	uint8_t cfg;       /* the cfg byte's 7-bit value (terminator stripped) */
	uint64_t ctx;      /* context id (ASID) */
	uint64_t value;    /* TB/NT/IJ/UJ/trap: time delta (BP hit: count);
	                      sync: absolute time */
	uint64_t from;     /* trap, spike-armed sync: from-address as a byte
	                      address (already shifted back per the variant) */
	uint64_t target;   /* sync: absolute target byte address (<<1 applied;
	                      spike-armed: from ^ xor, the second insn);
	                      UJ/trap: xor value as bytes (xor field << 1) */
	uint8_t hdr;       /* the header byte (also for a corrupt packet) */
	uint8_t bad;       /* enum lt_bad_packet: why it is corrupt */
	uint8_t bad_byte;  /* the offending prv/cfg byte (LT_BAD_PRV/CFG) */
};

/* Parser state: everything needed to resume between chunks. */
struct lt_parser {
	int format;          /* enum lt_format (AUTO resolves on first sync) */
	uint64_t offset;     /* stream offset of the next byte not yet returned
	                        in a packet (= of part[0] while one is kept) */
	uint8_t part[64];    /* bytes of a packet split across chunks */
	uint8_t part_len;    /* number of valid bytes in part[] */
	uint8_t seen_start;  /* a start sync has been parsed (informational) */
};

/* Initialises a parser for `format` (a variant or LT_FMT_AUTO).
 * LT_FMT_AUTO resolves on the first valid sync packet and p->format then
 * holds the variant: header 0x16 -> tacit-2025, 0x36/0x56/0x76 (followed
 * by a valid prv byte) -> tacit. tacit-oct2025, tacit-2025-unshifted
 * and the spike formats (spike-armed's start sync is 0x16 too) cannot be
 * told apart from the bytes and must be chosen explicitly. Before the first sync, trap packets are read with the tacit
 * layout if the byte after the header looks like a prv byte (bits 7:6 =
 * 10), else with the tacit-2025 layout; that guess resolves nothing. */
void lt_parser_init(struct lt_parser *p, int format);

/* Parses the next packet from buf[*pos..len). On return:
 *  1: a packet was written to *pkt; *pos advanced past its bytes;
 *  0: buf is exhausted mid-packet or empty; the partial bytes were kept
 *     and *pos == len; call again with the next chunk;
 *  LT_ERR_BAD_PACKET: the byte at pkt->offset starts no valid packet;
 *     exactly that one byte was consumed (pkt is zeroed except offset,
 *     size = 1, hdr, bad and bad_byte); the caller skips packets until a
 *     sync.
 * The same bytes split into chunks anywhere give the same packets. */
int lt_parser_next(struct lt_parser *p, const uint8_t *buf, size_t len,
                   size_t *pos, struct lt_packet *pkt);

/* Writes a one-line description of the corrupt packet `k` (from
 * LT_ERR_BAD_PACKET) into buf[size], naming its header, the rule it breaks
 * and, where the bytes suggest one, the --format that would read them.
 * `format` is the parser's format at that point. */
void lt_packet_describe_bad(const struct lt_packet *k, int format, char *buf,
                            size_t size);

/* Returns 1 if a partial packet is buffered (at end of stream this means
 * the trace was truncated mid-packet), else 0. */
int lt_parser_pending(const struct lt_parser *p);

#endif
