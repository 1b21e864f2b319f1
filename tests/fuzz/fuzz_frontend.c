/* libFuzzer target: packet parser + frontend on a small fixed program.
 * Input byte 0 picks the format and mode, byte 1 the chunking; the rest is
 * the trace. The frontend must never crash, hang, or emit an event whose
 * instructions are not in the image, and it must account for every byte. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/frontend.h"

/* RV64GC: a counted loop, a call, a conditional ecall, compressed
 * branches, mret, an indirect call and a return (tests/fuzz/README). */
static const uint8_t code[] = {
	0x29, 0x45, 0x7d, 0x15, 0x7d, 0xfd, 0xef, 0x00, 0xa0, 0x01, 0x63,
	0x04, 0xb5, 0x00, 0x73, 0x00, 0x00, 0x00, 0x05, 0x05, 0x11, 0xc1,
	0x19, 0xa0, 0x73, 0x00, 0x20, 0x30, 0x82, 0x92, 0xcd, 0xb7, 0x91,
	0xe1, 0x82, 0x80, 0xfd, 0x15, 0x82, 0x80, 0x00, 0x00, 0x00, 0x00};
#define BASE 0x80000000u

static struct lt_image *img;
static struct lt_image_sel sel;
static struct lt_image_set set;

static int check(void *user, const struct lt_event *ev, size_t n)
{
	(void)user;
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		if (e->kind >= LT_EV_KIND_COUNT)
			abort();
		if (e->icount && (e->start < BASE || e->last < e->start ||
		                  e->last >= BASE + sizeof(code)))
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!img) {
		if (lt_image_from_code(&img, BASE, code, sizeof(code), 64) < 0)
			abort();
		sel.img = img;
		sel.prv = -1;
		sel.ctx = -1;
		set.sel = &sel;
		set.n = 1;
	}
	if (size < 2)
		return 0;
	struct lt_frontend_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.format = data[0] % LT_FMT_COUNT;
	cfg.mode = (data[0] >> 4) & 1 ? LT_MODE_BP : LT_MODE_AUTO;
	cfg.addr_bits = (data[0] >> 5) & 1 ? 40 : 64;
	cfg.bp_entries = (data[0] >> 6) & 1 ? 64 : 0;
	cfg.max_hits = 1 << 12;
	char err[200];
	struct lt_frontend *f = lt_frontend_new(&cfg, &set, check, NULL, err,
	                                        sizeof(err));
	if (!f)
		abort();
	size_t chunk = 1 + data[1] % 17;
	const uint8_t *p = data + 2;
	size_t left = size - 2;
	while (left) {
		size_t n = left < chunk ? left : chunk;
		/* Exact-size copies so ASan sees any over-read. */
		uint8_t *c = malloc(n);
		memcpy(c, p, n);
		lt_frontend_feed(f, c, n);
		free(c);
		p += n;
		left -= n;
	}
	lt_frontend_finish(f);
	if (lt_frontend_stats(f)->bytes != size - 2)
		abort();
	lt_frontend_free(f);
	return 0;
}
