/* The TACIT encoder model: see lt_encoder.h for the semantics. */
#include "lt_encoder.h"

#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"

/* Compressed-packet C field values (bits 1:0 of the first byte). */
enum { C_TB = 0, C_NT = 1, C_FULL = 2, C_IJ = 3 };

/* Full header bytes. */
enum {
	HDR_TB = 0x02,
	HDR_NT = 0x06,
	HDR_UJ = 0x0A,
	HDR_IJ = 0x0E,
	HDR_TRAP = 0x12,  /* | trap type << 5 */
	HDR_SYNC = 0x16,  /* | sync type << 5 */
};

/* The largest value a compressed packet's 6-bit field holds. */
#define COMPRESS_MAX 63

/* Longest packet: header, prv, ctx (10), from (10), xor (10), time (10). */
#define MAX_PACKET 42

size_t lt_encoder_varint(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v > 0x7F) {
		out[n++] = (uint8_t)(v & 0x7F);
		v >>= 7;
	}
	out[n++] = (uint8_t)(0x80 | v);
	return n;
}

int lt_encoder_mem_write(void *user, const uint8_t *buf, size_t len)
{
	struct lt_encoder_mem *m = user;

	if (m->len + len > m->cap) {
		size_t cap = m->cap ? m->cap : 256;
		while (cap < m->len + len)
			cap *= 2;
		uint8_t *d = realloc(m->data, cap);
		if (!d)
			return LT_ERR_NOMEM;
		m->data = d;
		m->cap = cap;
	}
	memcpy(m->data + m->len, buf, len);
	m->len += len;
	return 0;
}

int lt_encoder_flush(struct lt_encoder *enc)
{
	if (!enc->err && enc->buf_len) {
		int rc = enc->write(enc->user, enc->buf, enc->buf_len);
		if (rc < 0)
			enc->err = rc;
	}
	enc->buf_len = 0;
	return enc->err;
}

/* Appends one whole packet to the output buffer. */
static void emit(struct lt_encoder *enc, const uint8_t *pkt, size_t len)
{
	if (enc->buf_len + len > LT_ENCODER_BUF_SIZE)
		lt_encoder_flush(enc);
	memcpy(enc->buf + enc->buf_len, pkt, len);
	enc->buf_len += len;
	enc->n_packets++;
	enc->n_bytes += len;
}

/* Emits a TB/NT/IJ-shaped packet: compressed when `value` fits, else the
 * full header `hdr` and a varint. */
static void emit_short(struct lt_encoder *enc, unsigned c, uint8_t hdr,
                       uint64_t value)
{
	uint8_t p[11];

	if (value <= COMPRESS_MAX) {
		p[0] = (uint8_t)(value << 2 | c);
		emit(enc, p, 1);
		return;
	}
	p[0] = hdr;
	emit(enc, p, 1 + lt_encoder_varint(p + 1, value));
}

/* Returns the time delta for `time` and makes it the new prev_time. */
static uint64_t take_delta(struct lt_encoder *enc, uint64_t time)
{
	uint64_t dt = time - enc->prev_time;

	enc->prev_time = time;
	return dt;
}

static int is_tacit(int format)
{
	return format == LT_FMT_TACIT || format == LT_FMT_TACIT_OCT2025;
}

static uint8_t prv_byte(unsigned to, unsigned from)
{
	return (uint8_t)(0x80 | (to & 7) << 3 | (from & 7));
}

/* Emits a sync of `type` (enum lt_sync_type) for record `r`. */
static void emit_sync(struct lt_encoder *enc, int type,
                      const struct lt_ingress *r)
{
	uint8_t p[MAX_PACKET];
	size_t n = 0;
	int fmt = enc->cfg.format;

	if (is_tacit(fmt)) {
		p[n++] = (uint8_t)(HDR_SYNC | type << 5);
		p[n++] = prv_byte(r->priv, LT_PRV_U);
		n += lt_encoder_varint(p + n, r->ctx);
		if (fmt == LT_FMT_TACIT || type == LT_SYNC_START)
			p[n++] = enc->cfg_byte;
	} else {
		p[n++] = HDR_SYNC;
		if (fmt == LT_FMT_SPIKE_2025_02) /* br_mode: cfg's mode bits */
			n += lt_encoder_varint(p + n, enc->cfg_byte & 3);
	}
	n += lt_encoder_varint(p + n, r->iaddr >> 1);
	n += lt_encoder_varint(p + n, r->time);
	enc->prev_time = r->time;
	emit(enc, p, n);
}

/* spike-armed: emits the sync of Spike 09418ad8, subtype `st` (enum
 * lt_armed_sync), for record `r` whose next record is `next` (r itself for
 * the end sync, whose xor is then 0). */
static void emit_armed_sync(struct lt_encoder *enc, unsigned st,
                            const struct lt_ingress *r,
                            const struct lt_ingress *next)
{
	uint8_t p[MAX_PACKET];
	size_t n = 0;

	p[n++] = (uint8_t)(HDR_SYNC | st << 5);
	n += lt_encoder_varint(p + n, r->ctx);
	n += lt_encoder_varint(p + n, (r->iaddr ^ next->iaddr) >> 1);
	n += lt_encoder_varint(p + n, r->iaddr >> 1);
	n += lt_encoder_varint(p + n, r->time);
	enc->prev_time = r->time;
	emit(enc, p, n);
}

/* BP mode: emits the pending hit count, if any. */
static void flush_hits(struct lt_encoder *enc)
{
	if (enc->hits) {
		emit_short(enc, C_TB, HDR_TB, enc->hits);
		enc->hits = 0;
	}
}

/* Emits the trap packet of record `r` (type enum lt_trap_type) whose next
 * retired record is `next`. */
static void emit_trap(struct lt_encoder *enc, int type,
                      const struct lt_ingress *r, const struct lt_ingress *next)
{
	uint8_t p[MAX_PACKET];
	size_t n = 0;
	int fmt = enc->cfg.format;
	uint64_t xor = (r->iaddr ^ next->iaddr) >> 1;

	p[n++] = (uint8_t)(HDR_TRAP | type << 5);
	if (is_tacit(fmt)) {
		p[n++] = prv_byte(next->priv, r->priv);
		if (type == LT_TRAP_RETURN && next->priv == LT_PRV_U)
			n += lt_encoder_varint(p + n, r->ctx);
	}
	if (fmt == LT_FMT_SPIKE_ARMED) /* xor before from (C6) */
		n += lt_encoder_varint(p + n, xor);
	if (fmt == LT_FMT_TACIT_2025_UNSHIFTED)
		n += lt_encoder_varint(p + n, r->iaddr);
	else if (!lt_format_is_spike(fmt))
		n += lt_encoder_varint(p + n, r->iaddr >> 1);
	if (fmt != LT_FMT_SPIKE_ARMED)
		n += lt_encoder_varint(p + n, xor);
	n += lt_encoder_varint(p + n, take_delta(enc, r->time));
	emit(enc, p, n);
}

/* BP mode: predicts branch `r`, updates the counter and the hit count, and
 * emits hit + miss packets on a misprediction. */
static void bp_branch(struct lt_encoder *enc, const struct lt_ingress *r)
{
	uint8_t *ctr = &enc->bp[(r->iaddr >> 1) & (enc->cfg.bp_entries - 1)];
	int taken = r->itype == LT_IT_BRANCH_TAKEN;
	int pred = *ctr >= 2;

	if (taken && *ctr < 3)
		(*ctr)++;
	else if (!taken && *ctr > 0)
		(*ctr)--;
	if (pred == taken) {
		enc->hits++;
		return;
	}
	flush_hits(enc);
	emit_short(enc, C_NT, HDR_NT, take_delta(enc, r->time));
}

/* Emits the message of record `r`, whose next retired record is `next`. */
static void message(struct lt_encoder *enc, const struct lt_ingress *r,
                    const struct lt_ingress *next)
{
	int bp = enc->cfg.mode == LT_ENC_BP;

	switch (r->itype) {
	case LT_IT_NOTHING:
		break;
	case LT_IT_BRANCH_TAKEN:
	case LT_IT_BRANCH_NOT_TAKEN:
		if (bp)
			bp_branch(enc, r);
		else if (r->itype == LT_IT_BRANCH_TAKEN)
			emit_short(enc, C_TB, HDR_TB, take_delta(enc, r->time));
		else
			emit_short(enc, C_NT, HDR_NT, take_delta(enc, r->time));
		break;
	case LT_IT_INF_JUMP:
		if (bp && !lt_format_is_spike(enc->cfg.format))
			break;
		flush_hits(enc);
		emit_short(enc, C_IJ, HDR_IJ, take_delta(enc, r->time));
		break;
	case LT_IT_UNINF_JUMP: {
		uint8_t p[MAX_PACKET];
		size_t n = 0;

		flush_hits(enc);
		p[n++] = HDR_UJ;
		n += lt_encoder_varint(p + n, (r->iaddr ^ next->iaddr) >> 1);
		n += lt_encoder_varint(p + n, take_delta(enc, r->time));
		emit(enc, p, n);
		break;
	}
	case LT_IT_EXCEPTION:
		flush_hits(enc);
		emit_trap(enc, LT_TRAP_EXCEPTION, r, next);
		break;
	case LT_IT_INTERRUPT:
		flush_hits(enc);
		emit_trap(enc, LT_TRAP_INTERRUPT, r, next);
		break;
	case LT_IT_RETURN:
		flush_hits(enc);
		emit_trap(enc, LT_TRAP_RETURN, r, next);
		break;
	}
}

int lt_encoder_init(struct lt_encoder *enc, const struct lt_encoder_config *cfg,
                    lt_encoder_write_fn write, void *user)
{
	uint32_t n = cfg->bp_entries;
	unsigned k = 0;

	memset(enc, 0, sizeof(*enc));
	if (!write || cfg->format < 0 || cfg->format >= LT_FMT_COUNT)
		return LT_ERR_INVAL;
	if (cfg->mode != LT_ENC_BT && cfg->mode != LT_ENC_BP)
		return LT_ERR_INVAL;
	if (n < 64 || n > (64u << 20) || (n & (n - 1)))
		return LT_ERR_INVAL;
	if (cfg->format == LT_FMT_SPIKE_2025_02 && cfg->mode == LT_ENC_BP &&
	    n != 1024)
		return LT_ERR_INVAL;
	while ((64u << k) < n)
		k++;
	enc->cfg = *cfg;
	enc->write = write;
	enc->user = user;
	enc->cfg_byte = (uint8_t)(0x80 | k << 2 | (unsigned)cfg->mode);
	enc->buf = malloc(LT_ENCODER_BUF_SIZE);
	enc->bp = malloc(n);
	if (!enc->buf || !enc->bp) {
		lt_encoder_fini(enc);
		return LT_ERR_NOMEM;
	}
	memset(enc->bp, 1, n);
	return 0;
}

void lt_encoder_fini(struct lt_encoder *enc)
{
	free(enc->buf);
	free(enc->bp);
	enc->buf = NULL;
	enc->bp = NULL;
	enc->buf_len = 0;
}

int lt_encoder_push(struct lt_encoder *enc, const struct lt_ingress *rec)
{
	if (enc->finished || rec->itype > LT_IT_RETURN)
		return LT_ERR_INVAL;
	enc->n_records++;
	if (!enc->started && enc->cfg.format == LT_FMT_SPIKE_ARMED) {
		enc->started = 1;
		enc->start_pending = 1;
	} else if (enc->start_pending) {
		emit_armed_sync(enc, LT_ARMED_SYNC_START, &enc->held, rec);
		enc->start_pending = 0;
	} else if (!enc->started) {
		emit_sync(enc, is_tacit(enc->cfg.format) ? LT_SYNC_START
		                                         : LT_SYNC_NONE, rec);
		enc->started = 1;
		enc->periodic_armed = 0;
	} else {
		message(enc, &enc->held, rec);
		if (enc->periodic_armed) {
			flush_hits(enc);
			emit_sync(enc, LT_SYNC_PERIODIC, rec);
			enc->periodic_armed = 0;
		}
	}
	enc->held = *rec;
	return enc->err;
}

int lt_encoder_periodic(struct lt_encoder *enc)
{
	if (!is_tacit(enc->cfg.format))
		return LT_ERR_INVAL;
	if (enc->started)
		enc->periodic_armed = 1;
	return 0;
}

int lt_encoder_finish(struct lt_encoder *enc)
{
	if (enc->started && !enc->finished &&
	    enc->cfg.format == LT_FMT_SPIKE_ARMED) {
		if (!enc->start_pending)
			emit_armed_sync(enc, LT_ARMED_SYNC_END, &enc->held,
			                &enc->held);
		enc->finished = 1;
	} else if (enc->started && !enc->finished) {
		emit_sync(enc, is_tacit(enc->cfg.format) ? LT_SYNC_END
		                                         : LT_SYNC_NONE,
		          &enc->held);
		enc->finished = 1;
	}
	return lt_encoder_flush(enc);
}
