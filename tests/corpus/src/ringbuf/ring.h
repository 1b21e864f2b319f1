/* ringbuf: a byte ring buffer and a framing protocol over it. */
#ifndef RING_H
#define RING_H
#include <stddef.h>
#include <stdint.h>

#define RING_CAP 64
#define FRAME_MAX 40

struct ring {
	uint8_t buf[RING_CAP];
	unsigned head, tail, count;
	unsigned overflows;
};

struct rd {
	size_t n;
	int ok;
};

struct frame {
	uint8_t type;
	uint8_t len;
	uint8_t data[FRAME_MAX];
};

struct stats {
	unsigned frames, bad_crc, bad_len, bad_esc, resync, bytes;
};

void ring_init(struct ring *r);
size_t ring_put(struct ring *r, const uint8_t *p, size_t n);
struct rd ring_get(struct ring *r, uint8_t *p, size_t n);
int ring_peek(const struct ring *r, unsigned off);

size_t frame_encode(const struct frame *f, uint8_t *out, size_t cap);
uint8_t crc8(const uint8_t *p, size_t n, uint8_t c);

#endif
