/* ringbuf: frames are encoded, pushed through a ring buffer in random-sized chunks
 * (sometimes damaged) and decoded by an if/else-if state machine. */
#include <stdio.h>
#include <string.h>
#include "ring.h"

enum st { S_HUNT, S_TYPE, S_LEN, S_DATA, S_CRC };

struct parser {
	enum st st;
	int esc;
	unsigned got;
	struct frame f;
	struct stats s;
	unsigned long sum;
};

static unsigned long seed = 0x2545f491;

static unsigned rnd(unsigned n)
{
	seed = seed * 1103515245UL + 12345UL;
	return (unsigned)((seed >> 16) % n);
}

static void deliver(struct parser *p)
{
	unsigned i;

	p->s.frames++;
	for (i = 0; i < p->f.len; i++)
		p->sum = p->sum * 131 + p->f.data[i] + p->f.type;
}

static void reset(struct parser *p, int resync)
{
	p->st = S_HUNT;
	p->esc = 0;
	p->got = 0;
	if (resync)
		p->s.resync++;
}

static void feed(struct parser *p, uint8_t b)
{
	p->s.bytes++;
	if (b == 0x7e) {
		if (p->st != S_HUNT)
			reset(p, 1);
		p->st = S_TYPE;
		return;
	} else if (p->st == S_HUNT) {
		return;
	} else if (b == 0x7d) {
		if (p->esc) {
			p->s.bad_esc++;
			reset(p, 1);
		} else
			p->esc = 1;
		return;
	}
	if (p->esc) {
		b ^= 0x20;
		p->esc = 0;
	}
	if (p->st == S_TYPE) {
		p->f.type = b;
		p->st = S_LEN;
	} else if (p->st == S_LEN) {
		if (b > FRAME_MAX) {
			p->s.bad_len++;
			reset(p, 1);
		} else {
			p->f.len = b;
			p->got = 0;
			p->st = b ? S_DATA : S_CRC;
		}
	} else if (p->st == S_DATA) {
		p->f.data[p->got++] = b;
		if (p->got == p->f.len)
			p->st = S_CRC;
	} else if (p->st == S_CRC) {
		uint8_t hdr[2] = { p->f.type, p->f.len };
		uint8_t c = crc8(p->f.data, p->f.len, crc8(hdr, 2, 0xff));

		if (c == b)
			deliver(p);
		else
			p->s.bad_crc++;
		reset(p, 0);
	} else {
		reset(p, 1);
	}
}

static struct frame make_frame(unsigned k)
{
	struct frame f;
	unsigned i;

	f.type = (uint8_t)(k % 5 == 0 ? 0x7e : k % 7 == 0 ? 0x7d : k & 0x3f);
	f.len = (uint8_t)(k % 11 == 0 ? 0 : 1 + rnd(FRAME_MAX));
	for (i = 0; i < f.len; i++) {
		unsigned r = rnd(16);

		f.data[i] = (uint8_t)(r == 0 ? 0x7e : r == 1 ? 0x7d : rnd(256));
	}
	return f;
}

static void drain(struct ring *r, struct parser *p)
{
	uint8_t tmp[48];

	while (r->count) {
		size_t want = 1 + rnd(sizeof tmp);
		struct rd got = ring_get(r, tmp, want);
		size_t i;

		if (!got.ok && got.n == 0)
			break;
		for (i = 0; i < got.n; i++)
			feed(p, tmp[i]);
	}
}

int main(void)
{
	static struct ring r;
	static struct parser p;
	uint8_t enc[2 * FRAME_MAX + 8];
	unsigned k, damaged = 0, toolong = 0, peeks = 0;

	ring_init(&r);
	memset(&p, 0, sizeof p);
	for (k = 0; k < 200; k++) {
		struct frame f = make_frame(k);
		size_t n = frame_encode(&f, enc, k % 13 == 0 ? 30 : sizeof enc), off = 0;

		if (n == 0) {
			toolong++;
			continue;
		}
		if (k % 9 == 4) {
			enc[1 + rnd((unsigned)n - 1)] ^= (uint8_t)(1u << rnd(8));
			damaged++;
		} else if (k % 23 == 5 && n > 3)
			n -= 2;
		while (off < n) {
			size_t chunk = 1 + rnd(40);

			if (chunk > n - off)
				chunk = n - off;
			off += ring_put(&r, enc + off, chunk);
			if (ring_peek(&r, 0) == 0x7e)
				peeks++;
			if (r.count > RING_CAP / 2 || rnd(4) == 0)
				drain(&r, &p);
		}
	}
	drain(&r, &p);
	printf("frames=%u bad_crc=%u bad_len=%u bad_esc=%u resync=%u bytes=%u\n", p.s.frames,
	       p.s.bad_crc, p.s.bad_len, p.s.bad_esc, p.s.resync, p.s.bytes);
	printf("damaged=%u toolong=%u peeks=%u overflows=%u\n", damaged, toolong, peeks,
	       r.overflows);
	printf("sum=%016lx\n", p.sum);
	return 0;
}
