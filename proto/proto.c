/* Stream protocol frame parser (see include/ltpipe/proto.h and
 * proto/PROTOCOL.md). All partial state lives in the parser, so a frame
 * may be split anywhere between calls. */
#include "ltpipe/proto.h"

#include <stdio.h>
#include <string.h>

#include "ltpipe/error.h"

/* Frames seen, for the ordering rules (parser->state). */
enum {
	ST_START = 0, /* nothing yet: daemon wants HELLO, client READY|ERROR */
	ST_OPEN = 1,  /* daemon: HELLO seen; client: READY seen */
	ST_DONE = 2,  /* daemon: END seen; client: ACK or ERROR seen */
};

void lt_proto_parser_init(struct lt_proto_parser *p, int role)
{
	memset(p, 0, offsetof(struct lt_proto_parser, buf));
	p->role = role;
}

void lt_proto_header(uint8_t *hdr, uint8_t type, uint8_t flags, uint32_t len)
{
	hdr[0] = type;
	hdr[1] = flags;
	hdr[2] = 0;
	hdr[3] = 0;
	hdr[4] = (uint8_t)len;
	hdr[5] = (uint8_t)(len >> 8);
	hdr[6] = (uint8_t)(len >> 16);
	hdr[7] = (uint8_t)(len >> 24);
}

int lt_proto_at_boundary(const struct lt_proto_parser *p)
{
	return !p->in_frame && p->hdr_have == 0;
}

/* Records a sticky error and returns it. */
static int fail(struct lt_proto_parser *p, int err, int code, const char *msg)
{
	p->err = err;
	p->code = code;
	snprintf(p->msg, sizeof(p->msg), "frame at byte %llu: %s",
	         (unsigned long long)p->frame_off, msg);
	return err;
}

/* Payload limit of a frame type, or -1 when the type is not one this side
 * may receive in its current state. */
static long frame_limit(const struct lt_proto_parser *p, uint8_t type)
{
	if (p->role == LT_PROTO_DAEMON) {
		switch (type) {
		case LT_FRAME_HELLO:
			return p->state == ST_START ? (long)LT_PROTO_MAX_CTRL : -1;
		case LT_FRAME_DATA:
			return p->state == ST_OPEN ? (long)LT_PROTO_MAX_DATA : -1;
		case LT_FRAME_CODE:
			return p->state == ST_OPEN ? (long)LT_PROTO_MAX_CODE : -1;
		case LT_FRAME_END:
			return p->state == ST_OPEN ? 0 : -1;
		}
		return -1;
	}
	switch (type) {
	case LT_FRAME_READY:
		return p->state == ST_START ? (long)LT_PROTO_MAX_CTRL : -1;
	case LT_FRAME_ACK:
		return p->state == ST_OPEN ? (long)LT_PROTO_MAX_CTRL : -1;
	case LT_FRAME_ERROR:
		return p->state != ST_DONE ? (long)(2 + LT_PROTO_MAX_MSG) : -1;
	}
	return -1;
}

/* Checks a complete header and starts its frame. */
static int start_frame(struct lt_proto_parser *p)
{
	const uint8_t *h = p->hdr;
	char m[96];
	p->type = h[0];
	p->flags = h[1];
	p->len = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
	         (uint32_t)h[7] << 24;
	if (h[2] || h[3])
		return fail(p, LT_ERR_BAD_PACKET, LT_PC_PROTO,
		            "reserved header bytes are not zero");
	long lim = frame_limit(p, p->type);
	if (lim < 0) {
		if (p->role == LT_PROTO_DAEMON && p->state == ST_START &&
		    p->type != LT_FRAME_HELLO)
			snprintf(m, sizeof(m), "expected HELLO first, got type "
			         "0x%02x", p->type);
		else
			snprintf(m, sizeof(m), "unexpected frame type 0x%02x here",
			         p->type);
		return fail(p, LT_ERR_BAD_PACKET, LT_PC_PROTO, m);
	}
	uint8_t allowed = p->type == LT_FRAME_DATA ? LT_DATA_ZSTD : 0;
	if (p->flags & ~allowed) {
		snprintf(m, sizeof(m), "unknown flags 0x%02x for type 0x%02x",
		         p->flags, p->type);
		return fail(p, LT_ERR_BAD_PACKET, LT_PC_PROTO, m);
	}
	if (p->len > (unsigned long)lim) {
		snprintf(m, sizeof(m), "type 0x%02x payload of %lu bytes is over "
		         "the limit of %ld", p->type, (unsigned long)p->len, lim);
		return fail(p, LT_ERR_INVAL, LT_PC_LIMIT, m);
	}
	p->have = 0;
	p->in_frame = 1;
	return 0;
}

/* Frames handed out in pieces: too large for the parser's buffer. */
static int streamed(uint8_t type)
{
	return type == LT_FRAME_DATA || type == LT_FRAME_CODE;
}

/* Advances the ordering state once a whole frame has been handed out. */
static void end_frame(struct lt_proto_parser *p)
{
	p->in_frame = 0;
	p->hdr_have = 0;
	if (p->role == LT_PROTO_DAEMON) {
		if (p->type == LT_FRAME_HELLO)
			p->state = ST_OPEN;
		else if (p->type == LT_FRAME_END)
			p->state = ST_DONE;
	} else {
		p->state = p->type == LT_FRAME_READY ? ST_OPEN : ST_DONE;
	}
}

int lt_proto_parse(struct lt_proto_parser *p, const uint8_t *in, size_t len,
                   size_t *used, struct lt_proto_frame *f)
{
	size_t i = 0;
	*used = 0;
	if (p->err)
		return p->err;
	while (i < len || (p->in_frame && p->have == p->len)) {
		if (!p->in_frame) {
			if (p->hdr_have == 0)
				p->frame_off = p->offset;
			size_t take = LT_PROTO_HDR - p->hdr_have;
			if (take > len - i)
				take = len - i;
			memcpy(p->hdr + p->hdr_have, in + i, take);
			p->hdr_have += (unsigned)take;
			i += take;
			p->offset += take;
			if (p->hdr_have < LT_PROTO_HDR)
				break;
			int rc = start_frame(p);
			if (rc < 0) {
				*used = i;
				return rc;
			}
			if (streamed(p->type) && p->len > 0)
				continue;
		}
		size_t want = p->len - p->have;
		size_t take = want < len - i ? want : len - i;
		f->type = p->type;
		f->flags = p->flags;
		f->offset = p->frame_off;
		if (streamed(p->type)) {
			/* Zero-copy piece; an empty frame is one empty piece. */
			f->data = in + i;
			f->len = take;
			p->have += (uint32_t)take;
			i += take;
			p->offset += take;
			f->last = p->have == p->len;
			if (f->last)
				end_frame(p);
			if (take == 0 && !f->last)
				break;
			*used = i;
			return 1;
		}
		memcpy(p->buf + p->have, in + i, take);
		p->have += (uint32_t)take;
		i += take;
		p->offset += take;
		if (p->have < p->len)
			break;
		f->data = p->buf;
		f->len = p->len;
		f->last = 1;
		end_frame(p);
		*used = i;
		return 1;
	}
	*used = i;
	return 0;
}
