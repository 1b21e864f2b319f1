/* The resumable L-trace packet parser (contract in include/ltpipe/packet.h,
 * byte layouts in shared/docs/LTRACE-FORMAT.md sections 1-3, 5, 7, 8).
 *
 * One pure function, parse_at(), parses one packet from a contiguous byte
 * range and says "need more bytes" when the range ends inside the packet.
 * It reads strictly left to right and stops at the first problem, so on any
 * prefix of a packet it either needs more bytes or gives the same verdict as
 * on the whole packet: this is what makes every chunk split give the same
 * result. lt_parser_next() runs it in place on the caller's buffer and only
 * copies the (at most 41) bytes of a packet that a chunk boundary cuts. */
#include <stdio.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/packet.h"

/* Results of parse_at() besides a positive packet size. */
#define PARSE_NEED_MORE 0
#define PARSE_CORRUPT (-1)

/* Longest varint accepted: 64 bits need 10 groups of 7. */
#define VARINT_MAX 10

/* Longest packet: trap = hdr, prv, ctx, from, xor, dt. */
#define PACKET_MAX (2 + 4 * VARINT_MAX)

_Static_assert(PACKET_MAX < sizeof(((struct lt_parser *)0)->part),
	       "part[] must hold any incomplete packet plus one more byte");

/* Compressed packet type by header bits 1:0 (10 = full, never looked up). */
static const uint8_t compressed_type[4] = { LT_PKT_TB, LT_PKT_NT, 0,
					    LT_PKT_IJ };

/* Reads the varint at b[*i..n). Returns 1 and advances *i past it, 0 if
 * b ends before its last byte (and fewer than VARINT_MAX bytes were seen),
 * PARSE_CORRUPT if VARINT_MAX bytes pass without a last byte. Bits beyond
 * 64 in a tenth byte are dropped. */
static inline int read_varint(const uint8_t *b, size_t n, size_t *i,
			      uint64_t *v)
{
	size_t k = *i;
	size_t end = n - k > VARINT_MAX ? k + VARINT_MAX : n;
	uint64_t acc = 0;
	unsigned sh = 0;

	for (; k < end; k++, sh += 7) {
		uint8_t c = b[k];

		acc |= (uint64_t)(c & 0x7f) << sh;
		if (c & 0x80) {
			*v = acc;
			*i = k + 1;
			return 1;
		}
	}
	return k - *i == VARINT_MAX ? PARSE_CORRUPT : PARSE_NEED_MORE;
}

/* Reads a varint into `dst` or returns the need-more/corrupt verdict
 * (noting why in k->bad). */
#define GET_VARINT(dst)                                     \
	do {                                                \
		int r_ = read_varint(b, n, &i, &(dst));     \
		if (r_ < 0)                                 \
			k->bad = LT_BAD_VARINT;             \
		if (r_ <= 0)                                \
			return r_;                          \
	} while (0)

/* Reads the prv byte into k or returns need-more/corrupt; a prv byte must
 * have 0b10 in bits 7:6 (the encoder's checksum). */
#define GET_PRV(k)                                          \
	do {                                                \
		uint8_t c_;                                 \
		if (i >= n)                                 \
			return PARSE_NEED_MORE;             \
		c_ = b[i++];                                \
		if ((c_ & 0xc0) != 0x80) {                  \
			(k)->bad = LT_BAD_PRV;              \
			(k)->bad_byte = c_;                 \
			return PARSE_CORRUPT;               \
		}                                           \
		(k)->has_prv = 1;                           \
		(k)->from_prv = c_ & 7;                     \
		(k)->to_prv = (c_ >> 3) & 7;                \
	} while (0)

/* 1 if `fmt` is one of the prv/ctx/cfg formats. */
static inline int is_tacit_family(int fmt)
{
	return fmt == LT_FMT_TACIT || fmt == LT_FMT_TACIT_OCT2025;
}

/* Parses the trap packet whose header (type `tt`) is b[0]; k is zeroed.
 * Under AUTO (no sync seen yet) the layout is guessed from the byte after
 * the header: a prv-shaped byte means tacit, anything else tacit-2025;
 * the guess does not resolve the parser's format. */
static int parse_trap(int fmt, const uint8_t *b, size_t n, unsigned tt,
		      struct lt_packet *k)
{
	size_t i = 1;
	uint64_t v;

	if (fmt == LT_FMT_AUTO) {
		if (n < 2)
			return PARSE_NEED_MORE;
		fmt = (b[1] & 0xc0) == 0x80 ? LT_FMT_TACIT : LT_FMT_TACIT_2025;
	}
	k->type = LT_PKT_TRAP;
	k->subtype = tt;
	if (is_tacit_family(fmt)) {
		GET_PRV(k);
		if (tt == LT_TRAP_RETURN && k->to_prv == LT_PRV_U) {
			GET_VARINT(k->ctx);
			k->has_ctx = 1;
		}
	}
	if (fmt == LT_FMT_SPIKE_ARMED) {
		/* Spike 09418ad8 writes the xor before the from (C6) */
		GET_VARINT(v);
		k->target = v << 1;
		GET_VARINT(v);
		k->from = v << 1;
		k->has_from = 1;
		GET_VARINT(k->value);
		return (int)i;
	}
	if (!lt_format_is_spike(fmt)) {
		GET_VARINT(v);
		k->from = fmt == LT_FMT_TACIT_2025_UNSHIFTED ? v : v << 1;
		k->has_from = 1;
	}
	GET_VARINT(v);
	k->target = v << 1;
	GET_VARINT(k->value);
	return (int)i;
}

/* Parses a Spike 09418ad8 sync (header b[0]; k zeroed): v ctx, v xor,
 * v from, v time, its subtypes numbered as enum lt_armed_sync (C5). The
 * context enter/exit subtypes (2, 3) carry a layout no known decoder read
 * and no model writes: they are corrupt here. */
static int parse_armed_sync(const uint8_t *b, size_t n, struct lt_packet *k)
{
	unsigned st = b[0] >> 5;
	size_t i = 1;
	uint64_t x, v;

	if (st == LT_ARMED_SYNC_START)
		k->subtype = LT_SYNC_START;
	else if (st == LT_ARMED_SYNC_PERIODIC)
		k->subtype = LT_SYNC_PERIODIC;
	else if (st == LT_ARMED_SYNC_END)
		k->subtype = LT_SYNC_END;
	else {
		k->bad = LT_BAD_SYNC;
		return PARSE_CORRUPT;
	}
	k->type = LT_PKT_SYNC;
	GET_VARINT(k->ctx);
	k->has_ctx = 1;
	GET_VARINT(x);
	GET_VARINT(v);
	k->from = v << 1;
	k->has_from = 1;
	k->target = (v ^ x) << 1;
	GET_VARINT(k->value);
	return (int)i;
}

/* Parses the sync packet whose header is b[0]; k is zeroed. On success
 * resolves an AUTO parser (0x16 -> tacit-2025, 0x36/0x56/0x76 -> tacit)
 * and notes a start sync. */
static int parse_sync(struct lt_parser *p, const uint8_t *b, size_t n,
		      struct lt_packet *k)
{
	unsigned st = b[0] >> 5;
	int fmt = p->format;
	size_t i = 1;
	uint64_t v;

	if (fmt == LT_FMT_SPIKE_ARMED) {
		int r = parse_armed_sync(b, n, k);

		if (r > 0 && k->subtype == LT_SYNC_START)
			p->seen_start = 1;
		return r;
	}
	if (fmt == LT_FMT_AUTO)
		fmt = st == LT_SYNC_NONE ? LT_FMT_TACIT_2025 : LT_FMT_TACIT;
	if (st > LT_SYNC_END) {
		k->bad = LT_BAD_SYNC;
		return PARSE_CORRUPT;
	}
	k->type = LT_PKT_SYNC;
	k->subtype = st;
	if (is_tacit_family(fmt)) {
		GET_PRV(k);
		GET_VARINT(k->ctx);
		k->has_ctx = 1;
		if (fmt == LT_FMT_TACIT || st == LT_SYNC_START) {
			uint8_t c;

			if (i >= n)
				return PARSE_NEED_MORE;
			c = b[i++];
			/* cfg is a varint that must fit one byte */
			if (!(c & 0x80)) {
				k->bad = LT_BAD_CFG;
				k->bad_byte = c;
				return PARSE_CORRUPT;
			}
			k->cfg = c & 0x7f;
			k->has_cfg = 1;
		}
	} else if (st != LT_SYNC_NONE) {
		k->bad = LT_BAD_SYNC;
		return PARSE_CORRUPT;
	} else if (fmt == LT_FMT_SPIKE_2025_02) {
		/* Spike's br_mode (its enum is the RTL's bp_mode) with the
		 * model's fixed 1024-entry table, as a cfg value: k = 4. */
		GET_VARINT(v);
		if (v > 3) {
			k->bad = LT_BAD_CFG;
			k->bad_byte = b[i - 1];
			return PARSE_CORRUPT;
		}
		k->cfg = (uint8_t)(4u << 2 | v);
		k->has_cfg = 1;
	}
	GET_VARINT(v);
	k->target = v << 1;
	GET_VARINT(k->value);
	p->format = fmt;
	if (st == LT_SYNC_START)
		p->seen_start = 1;
	return (int)i;
}

/* Parses one packet from b[0..n), n >= 1, into k (zeroed by the caller;
 * offset left alone). Returns its size, PARSE_NEED_MORE or PARSE_CORRUPT.
 * Only a successful sync changes *p (format resolution, seen_start). */
static int parse_at(struct lt_parser *p, const uint8_t *b, size_t n,
		    struct lt_packet *k)
{
	uint8_t h = b[0];
	unsigned f = (h >> 2) & 7, func3 = h >> 5;
	size_t i = 1;
	uint64_t v;

	k->hdr = h;
	if ((h & 3) != 2) {
		k->type = compressed_type[h & 3];
		k->value = h >> 2;
		k->compressed = 1;
		k->size = 1;
		return 1;
	}
	switch (f) {
	case LT_PKT_TB:
	case LT_PKT_NT:
	case LT_PKT_IJ:
		if (func3) {
			k->bad = LT_BAD_FUNC3;
			return PARSE_CORRUPT;
		}
		k->type = f;
		GET_VARINT(k->value);
		break;
	case LT_PKT_UJ:
		if (func3) {
			k->bad = LT_BAD_FUNC3;
			return PARSE_CORRUPT;
		}
		k->type = LT_PKT_UJ;
		GET_VARINT(v);
		k->target = v << 1;
		GET_VARINT(k->value);
		break;
	case LT_PKT_TRAP: {
		int r;

		if (func3 != LT_TRAP_EXCEPTION && func3 != LT_TRAP_INTERRUPT &&
		    func3 != LT_TRAP_RETURN) {
			k->bad = LT_BAD_TRAP;
			return PARSE_CORRUPT;
		}
		r = parse_trap(p->format, b, n, func3, k);
		if (r <= 0)
			return r;
		i = (size_t)r;
		break;
	}
	case LT_PKT_SYNC: {
		int r = parse_sync(p, b, n, k);

		if (r <= 0)
			return r;
		i = (size_t)r;
		break;
	}
	default: /* 110 (FVal/FCtx) and 111 (reserved): never emitted */
		k->bad = LT_BAD_FHEADER;
		return PARSE_CORRUPT;
	}
	k->size = (uint8_t)i;
	return (int)i;
}

void lt_parser_init(struct lt_parser *p, int format)
{
	memset(p, 0, sizeof(*p));
	p->format = format;
}

int lt_parser_pending(const struct lt_parser *p)
{
	return p->part_len != 0;
}

/* Reports the corrupt header at the parser's offset and consumes it; pkt
 * keeps only the header byte and why parse_at() rejected it. */
static int bad_packet(struct lt_parser *p, struct lt_packet *pkt)
{
	uint8_t hdr = pkt->hdr, bad = pkt->bad, bad_byte = pkt->bad_byte;

	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = hdr;
	pkt->bad = bad;
	pkt->bad_byte = bad_byte;
	pkt->offset = p->offset;
	pkt->size = 1;
	p->offset++;
	return LT_ERR_BAD_PACKET;
}

/* lt_parser_next() when part[] holds the start of a packet: tops part[]
 * up from buf and parses there. The result may lie wholly inside the old
 * part[] bytes (after a corrupt header was dropped from it), in which case
 * nothing of buf is consumed. */
static int parse_resume(struct lt_parser *p, const uint8_t *buf, size_t len,
			size_t *pos, struct lt_packet *pkt)
{
	size_t old = p->part_len, at = *pos;
	size_t take = at < len ? len - at : 0, used;
	int r;

	if (take > sizeof(p->part) - old)
		take = sizeof(p->part) - old;
	memcpy(p->part + old, buf + at, take);
	memset(pkt, 0, sizeof(*pkt));
	r = parse_at(p, p->part, old + take, pkt);
	if (r == PARSE_NEED_MORE) {
		/* old + take <= PACKET_MAX here, so part[] never overflows */
		p->part_len = (uint8_t)(old + take);
		*pos = at + take;
		return 0;
	}
	used = r > 0 ? (size_t)r : 1;
	if (used < old) {
		memmove(p->part, p->part + used, old - used);
		p->part_len = (uint8_t)(old - used);
	} else {
		p->part_len = 0;
		*pos = at + (used - old);
	}
	if (r < 0)
		return bad_packet(p, pkt);
	pkt->offset = p->offset;
	p->offset += used;
	return 1;
}

int lt_parser_next(struct lt_parser *p, const uint8_t *buf, size_t len,
		   size_t *pos, struct lt_packet *pkt)
{
	size_t at = *pos;
	uint8_t h;
	int r;

	if (__builtin_expect(p->part_len != 0, 0))
		return parse_resume(p, buf, len, pos, pkt);
	if (at >= len)
		return 0;
	h = buf[at];
	if (__builtin_expect((h & 3) != 2, 1)) {
		/* the hot path: one-byte compressed TB/NT/IJ */
		memset(pkt, 0, sizeof(*pkt));
		pkt->offset = p->offset;
		pkt->hdr = h;
		pkt->type = compressed_type[h & 3];
		pkt->value = h >> 2;
		pkt->compressed = 1;
		pkt->size = 1;
		p->offset++;
		*pos = at + 1;
		return 1;
	}
	memset(pkt, 0, sizeof(*pkt));
	r = parse_at(p, buf + at, len - at, pkt);
	if (r > 0) {
		pkt->offset = p->offset;
		p->offset += (unsigned)r;
		*pos = at + (unsigned)r;
		return 1;
	}
	if (r == PARSE_NEED_MORE) {
		/* fewer than PACKET_MAX bytes remain, else it would be complete */
		memcpy(p->part, buf + at, len - at);
		p->part_len = (uint8_t)(len - at);
		*pos = len;
		return 0;
	}
	*pos = at + 1;
	return bad_packet(p, pkt);
}

void lt_packet_describe_bad(const struct lt_packet *k, int format, char *buf,
			    size_t size)
{
	static const char *const why[] = {
		[LT_BAD_NONE] = "corrupt packet",
		[LT_BAD_FHEADER] = "reserved F-header (110/111, never emitted)",
		[LT_BAD_FUNC3] = "branch/jump header with bits 7:5 not 0",
		[LT_BAD_TRAP] = "trap type (bits 7:5) not 1, 2 or 4",
		[LT_BAD_SYNC] = "sync type (bits 7:5) not valid in this format",
		[LT_BAD_PRV] = "prv byte without 0b10 in bits 7:6",
		[LT_BAD_CFG] = "cfg byte without the varint end bit",
		[LT_BAD_VARINT] = "varint longer than 10 bytes",
	};
	const char *hint = "";
	unsigned bad = k->bad < sizeof(why) / sizeof(why[0]) ? k->bad : 0;

	/* The one layout difference the bytes reveal: an Oct-2025 end or
	 * periodic sync has no cfg byte, so a tacit parse meets the target
	 * varint's first byte there. */
	if (bad == LT_BAD_CFG && format == LT_FMT_TACIT &&
	    (k->hdr >> 5) != LT_SYNC_START)
		hint = " (a sync without cfg: try --format tacit-oct2025)";
	/* The 2025 formats' syncs are 0x16 with no prv byte; the tacit
	 * formats' are 0x36/0x56/0x76. */
	if (bad == LT_BAD_PRV && k->hdr == 0x16 && is_tacit_family(format))
		hint = " (a 2025 sync: try --format tacit-2025 or auto)";
	if (bad == LT_BAD_SYNC && format == LT_FMT_SPIKE_ARMED)
		hint = " (spike-armed sync types: 0 start, 1 periodic, 7 end)";
	else if (bad == LT_BAD_SYNC && (k->hdr >> 5) <= LT_SYNC_END &&
	         !is_tacit_family(format))
		hint = " (a prv/ctx/cfg sync: try --format tacit or auto)";
	if (bad == LT_BAD_PRV || bad == LT_BAD_CFG)
		snprintf(buf, size, "corrupt packet, header 0x%02x: %s (0x%02x)%s",
			 k->hdr, why[bad], k->bad_byte, hint);
	else
		snprintf(buf, size, "corrupt packet, header 0x%02x: %s%s",
			 k->hdr, why[bad], hint);
}
