/* libFuzzer target for the packet parser. Input: byte 0 picks the format
 * (the five variants and auto), byte 1 picks the chunking, the rest is the
 * trace. The trace is parsed whole, split in two at a position derived
 * from byte 1, and in small chunks of a stride derived from it; each chunk
 * lives in its own exact-size allocation so ASan sees any read past it.
 * Checked: every byte is accounted for (packet sizes + one per error +
 * bytes still pending = length), offsets are contiguous and increasing,
 * packet fields are consistent, and every chunking gives the same result. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/packet.h"

/* Stops the fuzzer on a broken invariant (libFuzzer reports the crash). */
#define REQUIRE(c)                         \
	do {                               \
		if (!(c))                  \
			__builtin_trap();  \
	} while (0)

/* Results of one parse of the whole input. */
struct result {
	struct lt_packet *ev; /* packets; errors have type 0xEE */
	size_t n;             /* entries used */
	int format;           /* parser format at the end */
	unsigned part_len;    /* bytes pending at the end */
};

/* Checks one parser result against the running state. */
static void check_event(int r, const struct lt_packet *k, uint64_t *off)
{
	REQUIRE(r == 1 || r == LT_ERR_BAD_PACKET);
	REQUIRE(k->offset == *off);
	if (r != 1) {
		*off += 1;
		return;
	}
	REQUIRE(k->size >= 1 && k->size <= 42);
	REQUIRE(k->type <= LT_PKT_SYNC);
	if (k->compressed)
		REQUIRE(k->size == 1 && k->value < 64 && k->type != LT_PKT_UJ &&
			k->type <= LT_PKT_IJ);
	else
		REQUIRE(k->size >= 2);
	REQUIRE(!k->has_cfg || k->type == LT_PKT_SYNC);
	REQUIRE(!k->has_from || k->type == LT_PKT_TRAP);
	REQUIRE(k->has_ctx || k->ctx == 0);
	REQUIRE(k->has_prv || (k->to_prv == 0 && k->from_prv == 0));
	*off += k->size;
}

/* Parses d[0..n) in chunks ending at cuts[0..nc) into res. */
static void parse(int fmt, const uint8_t *d, size_t n, const size_t *cuts,
		  size_t nc, struct result *res)
{
	struct lt_parser p;
	uint64_t off = 0;
	size_t start = 0, c;

	lt_parser_init(&p, fmt);
	res->n = 0;
	for (c = 0; c <= nc; c++) {
		size_t end = c < nc ? cuts[c] : n, len = end - start, pos = 0;
		uint8_t *chunk = malloc(len ? len : 1);
		struct lt_packet k;
		int r;

		memcpy(chunk, d + start, len);
		while ((r = lt_parser_next(&p, chunk, len, &pos, &k)) != 0) {
			check_event(r, &k, &off);
			if (r != 1)
				k.type = 0xEE;
			res->ev[res->n++] = k;
		}
		REQUIRE(pos == len);
		free(chunk);
		start = end;
	}
	REQUIRE(off + p.part_len == n);
	REQUIRE(lt_parser_pending(&p) == (p.part_len != 0));
	REQUIRE(fmt == LT_FMT_AUTO || p.format == fmt);
	res->format = p.format;
	res->part_len = p.part_len;
}

/* Requires two parses to agree exactly. */
static void same(const struct result *a, const struct result *b)
{
	size_t i;

	REQUIRE(a->n == b->n && a->format == b->format &&
		a->part_len == b->part_len);
	for (i = 0; i < a->n; i++) {
		const struct lt_packet *x = &a->ev[i], *y = &b->ev[i];

		REQUIRE(x->offset == y->offset && x->type == y->type);
		if (x->type == 0xEE)
			continue;
		REQUIRE(x->subtype == y->subtype && x->size == y->size &&
			x->compressed == y->compressed &&
			x->has_prv == y->has_prv && x->from_prv == y->from_prv &&
			x->to_prv == y->to_prv && x->has_ctx == y->has_ctx &&
			x->has_cfg == y->has_cfg && x->has_from == y->has_from &&
			x->cfg == y->cfg && x->ctx == y->ctx &&
			x->value == y->value && x->from == y->from &&
			x->target == y->target);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int fmts[] = { LT_FMT_TACIT, LT_FMT_TACIT_OCT2025,
				    LT_FMT_TACIT_2025,
				    LT_FMT_TACIT_2025_UNSHIFTED,
				    LT_FMT_SPIKE_2025, LT_FMT_SPIKE_2025_02,
				    LT_FMT_SPIKE_ARMED,
				    LT_FMT_AUTO };
	struct result whole, split;
	size_t n, *cuts, nc = 0, i, stride;
	const uint8_t *d;
	int fmt;

	if (size < 2)
		return 0;
	fmt = fmts[data[0] % 6];
	stride = (data[1] >> 4) + 1;
	d = data + 2;
	n = size - 2;
	whole.ev = malloc((n + 1) * sizeof(*whole.ev));
	split.ev = malloc((n + 1) * sizeof(*split.ev));
	cuts = malloc((n + 1) * sizeof(*cuts));
	parse(fmt, d, n, NULL, 0, &whole);

	cuts[0] = (size_t)(data[1] & 0x0f) * n / 15;
	parse(fmt, d, n, cuts, 1, &split);
	same(&whole, &split);

	for (i = stride; i < n; i += stride)
		cuts[nc++] = i;
	parse(fmt, d, n, cuts, nc, &split);
	same(&whole, &split);

	free(cuts);
	free(whole.ev);
	free(split.ev);
	return 0;
}
