/* Ring buffer primitives and the frame encoder. */
#include <string.h>
#include "ring.h"

void ring_init(struct ring *r)
{
	memset(r, 0, sizeof *r);
}

size_t ring_put(struct ring *r, const uint8_t *p, size_t n)
{
	size_t room = RING_CAP - r->count, first;

	if (n > room) {
		r->overflows++;
		n = room;
	}
	if (n == 0)
		return 0;
	first = RING_CAP - r->head;
	if (first > n)
		first = n;
	memcpy(r->buf + r->head, p, first);
	if (n > first)
		memcpy(r->buf, p + first, n - first);
	r->head = (r->head + (unsigned)n) % RING_CAP;
	r->count += (unsigned)n;
	return n;
}

struct rd ring_get(struct ring *r, uint8_t *p, size_t n)
{
	struct rd res = { 0, 1 };
	size_t first;

	if (n > r->count) {
		n = r->count;
		res.ok = 0;
	}
	first = RING_CAP - r->tail;
	if (first > n)
		first = n;
	if (first)
		memcpy(p, r->buf + r->tail, first);
	if (n > first)
		memcpy(p + first, r->buf, n - first);
	r->tail = (r->tail + (unsigned)n) % RING_CAP;
	r->count -= (unsigned)n;
	res.n = n;
	return res;
}

int ring_peek(const struct ring *r, unsigned off)
{
	if (off >= r->count)
		return -1;
	return r->buf[(r->tail + off) % RING_CAP];
}

uint8_t crc8(const uint8_t *p, size_t n, uint8_t c)
{
	while (n--) {
		int k;

		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (uint8_t)(c & 0x80 ? (c << 1) ^ 0x07 : c << 1);
	}
	return c;
}

#define SOF 0x7e
#define ESC 0x7d

static size_t put_esc(uint8_t *out, size_t o, size_t cap, uint8_t b)
{
	if (b == SOF || b == ESC) {
		if (o + 2 > cap)
			return cap + 1;
		out[o++] = ESC;
		out[o++] = b ^ 0x20;
	} else {
		if (o + 1 > cap)
			return cap + 1;
		out[o++] = b;
	}
	return o;
}

size_t frame_encode(const struct frame *f, uint8_t *out, size_t cap)
{
	size_t o = 0, i;
	uint8_t hdr[2] = { f->type, f->len };
	uint8_t c = crc8(hdr, 2, 0xff);

	c = crc8(f->data, f->len, c);
	if (cap < 1)
		return 0;
	out[o++] = SOF;
	for (i = 0; i < 2 && o <= cap; i++)
		o = put_esc(out, o, cap, hdr[i]);
	for (i = 0; i < f->len && o <= cap; i++)
		o = put_esc(out, o, cap, f->data[i]);
	if (o <= cap)
		o = put_esc(out, o, cap, c);
	return o > cap ? 0 : o;
}
