/* Frontend conformance on hand-made byte traces: the worked examples of
 * shared/docs/LTRACE-FORMAT.md section 9 exactly as other encoders (RTL,
 * RTL2's parallel encoder, Spike) write them, byte for byte, and legal or
 * corrupt streams our own encoder model never writes (no start sync, a
 * resynchronisation on a trap packet, cfg branch modes without branch
 * packets, RV32 addresses, a fetch fault outside the program). Every test
 * asserts the exact event list, times and error messages. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/frontend.h"

#include "rv_test.h"

/* One instruction word placed at an address. */
struct word {
	uint64_t addr; /* where it goes */
	uint32_t w;    /* the encoding */
};

/* An image of `len` bytes of NOPs at base with the given words placed. */
static struct lt_image *image(uint64_t base, size_t len, int xlen,
                              const struct word *w, size_t n)
{
	uint8_t *buf = malloc(len);
	for (size_t i = 0; i < len; i += 4)
		memcpy(buf + i, &(uint32_t){NOP}, 4);
	for (size_t i = 0; i < n; i++)
		memcpy(buf + (w[i].addr - base), &w[i].w, 4);
	struct lt_image *img;
	if (lt_image_from_code(&img, base, buf, len, xlen) != 0) {
		fprintf(stderr, "image\n");
		exit(2);
	}
	free(buf);
	return img;
}

/* Parses hex pairs (spaces ignored) into out; returns the byte count. */
static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;
	unsigned v;
	for (; *s; s++) {
		if (*s == ' ')
			continue;
		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
		s++;
	}
	return n;
}

/* Expected event: kind, start, last, next, icount, time. */
struct want {
	int kind;
	uint64_t start, last, next;
	uint32_t n;
	uint64_t time;
};

static void expect_events(const char *name, const struct evlist *l,
                          const struct want *w, size_t nw)
{
	CHECK(l->n == nw, "%s: %zu events, want %zu", name, l->n, nw);
	for (size_t i = 0; i < l->n && i < nw; i++) {
		const struct lt_event *e = &l->ev[i];
		int marker = w[i].kind == LT_EV_START || w[i].kind == LT_EV_LOST;
		CHECK(e->kind == w[i].kind && e->icount == w[i].n &&
		      (marker || (e->start == w[i].start &&
		                  e->last == w[i].last && e->time == w[i].time)) &&
		      (w[i].kind == LT_EV_LOST || e->next == w[i].next),
		      "%s: event %zu: got %s %#" PRIx64 "..%#" PRIx64
		      " n=%u -> %#" PRIx64 " t=%" PRIu64 "; want %s %#" PRIx64
		      "..%#" PRIx64 " n=%u -> %#" PRIx64 " t=%" PRIu64,
		      name, i, lt_event_kind_name(e->kind), e->start, e->last,
		      e->icount, e->next, e->time, lt_event_kind_name(w[i].kind),
		      w[i].start, w[i].last, w[i].n, w[i].next, w[i].time);
	}
}

/* Decodes `hex` against `img` in chunks of `split` bytes into *l.
 * Returns the frontend (caller frees) for its stats. */
static struct lt_frontend *run(const struct lt_image *img, int format,
                               unsigned addr_bits, const char *hex,
                               size_t split, struct evlist *l)
{
	static uint8_t buf[512];
	size_t len = unhex(hex, buf);
	struct lt_image_sel sel[] = {{img, -1, -1}};
	static struct lt_image_set set;
	static struct lt_image_sel keep[1];
	keep[0] = sel[0];
	set.sel = keep;
	set.n = 1;
	struct lt_frontend_config cfg = {.format = format,
	                                 .mode = LT_MODE_AUTO,
	                                 .addr_bits = addr_bits};
	char err[200];
	l->n = 0;
	struct lt_frontend *f = lt_frontend_new(&cfg, &set, capture, l, err,
	                                        sizeof(err));
	if (!f) {
		fprintf(stderr, "frontend: %s\n", err);
		exit(2);
	}
	for (size_t at = 0; at < len; at += split)
		lt_frontend_feed(f, buf + at, len - at < split ? len - at : split);
	lt_frontend_finish(f);
	return f;
}

/* Runs `hex` at every chunk size and checks events and a clean decode. */
static void check_clean(const char *name, const struct lt_image *img,
                        int format, const char *hex, const struct want *w,
                        size_t nw)
{
	for (size_t split = 1; split <= 48; split++) {
		struct evlist l;
		struct lt_frontend *f = run(img, format, 64, hex, split, &l);
		const struct lt_decode_stats *st = lt_frontend_stats(f);
		expect_events(name, &l, w, nw);
		CHECK(st->errors == 0 && st->ended, "%s (split %zu): %" PRIu64
		      " errors, first: %s", name, split, st->errors,
		      st->nkept ? st->err[0].msg : "-");
		lt_frontend_free(f);
	}
}

#define B 0x80000000ull

/* Example 1's program (a beq, a bne, a jal and a jalr) for xlen. */
static struct lt_image *ex1_image(int xlen)
{
	const struct word w[] = {
		{B + 0x08, br(0, 0, 0, 0x18)}, {B + 0x24, br(1, 0, 0, 8)},
		{B + 0x28, jal(0, 0xd8)},      {B + 0x104, jalr(0, 5)},
	};
	return image(B, 0x110, xlen, w, 4);
}

/* Example 1's events before its end sync, then `last`. */
static void ex1_events(struct want *ev, struct want last)
{
	static const struct want head[] = {
		{LT_EV_START, 0, 0, B, 0, 100},
		{LT_EV_TAKEN, B, B + 8, B + 0x20, 3, 105},
		{LT_EV_NOT_TAKEN, B + 0x20, B + 0x24, B + 0x28, 2, 110},
		{LT_EV_JUMP, B + 0x28, B + 0x28, B + 0x100, 1, 111},
		{LT_EV_IJUMP, B + 0x100, B + 0x104, B + 0x30, 2, 203},
	};
	memcpy(ev, head, sizeof(head));
	ev[5] = last;
}

/* Example 1: BT mode branch, jump, jalr, start and end sync, in the
 * current, legacy-2025 and Oct-2025 (no cfg in the end sync) layouts. */
static void test_example1(void)
{
	struct lt_image *img = ex1_image(64);
	struct want ev[6];
	ex1_events(ev, (struct want){LT_EV_END, B + 0x30, B + 0x34, B + 0x34, 2, 205});
	check_clean("ex1 tacit", img, LT_FMT_TACIT,
	            "36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	            " 76 98 80 90 1A 00 00 00 84 4D 81", ev, 6);
	check_clean("ex1 auto", img, LT_FMT_AUTO,
	            "36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	            " 76 98 80 90 1A 00 00 00 84 4D 81", ev, 6);
	check_clean("ex1 legacy", img, LT_FMT_TACIT_2025,
	            "16 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	            " 16 1A 00 00 00 84 4D 81", ev, 6);
	check_clean("ex1 oct2025", img, LT_FMT_TACIT_OCT2025,
	            "36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	            " 76 98 80 1A 00 00 00 84 4D 81", ev, 6);
	/* Spike 09418ad8: the start sync names the first instruction and
	 * (by xor) the second; the end sync is type 7 */
	check_clean("ex1 armed", img, LT_FMT_SPIKE_ARMED,
	            "16 80 82 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	            " F6 80 80 1A 00 00 00 84 4D 81", ev, 6);
	/* armed start at the beq: it sent no packet, the sync's xor says it
	 * was taken (to 0x20), and the walk goes on from there */
	const struct want ev2[] = {
		{LT_EV_START, 0, 0, B + 8, 0, 105},
		{LT_EV_TAKEN, B + 8, B + 8, B + 0x20, 1, 105},
		{LT_EV_NOT_TAKEN, B + 0x20, B + 0x24, B + 0x28, 2, 110},
		{LT_EV_JUMP, B + 0x28, B + 0x28, B + 0x100, 1, 111},
		{LT_EV_IJUMP, B + 0x100, B + 0x104, B + 0x30, 2, 203},
		{LT_EV_END, B + 0x30, B + 0x34, B + 0x34, 2, 205},
	};
	check_clean("ex1 armed at a branch", img, LT_FMT_SPIKE_ARMED,
	            "16 80 94 04 00 00 00 84 E9 15 07 0A 1A 81 DC"
	            " F6 80 80 1A 00 00 00 84 4D 81", ev2, 6);
	lt_image_free(img);
}

/* Example 3: an exception at an ecall and an mret, in every variant. */
static void test_example3(void)
{
	const struct word w[] = {{B + 0x204, ECALL}, {B + 0x410, MRET}};
	struct lt_image *img = image(B + 0x200, 0x220, 64, w, 2);
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B + 0x200, 0, 290},
		{LT_EV_EXCEPTION, B + 0x200, B + 0x204, B + 0x400, 2, 305},
		{LT_EV_TRET, B + 0x400, B + 0x410, B + 0x208, 5, 330},
		{LT_EV_END, B + 0x208, B + 0x20c, B + 0x20c, 2, 340},
	};
	check_clean("ex3 tacit", img, LT_FMT_TACIT,
	            "36 98 80 90 00 02 00 00 84 22 82"
	            " 32 9B 02 02 00 00 84 02 86 8F"
	            " 92 9B 08 04 00 00 84 0C 86 99"
	            " 76 98 80 90 06 02 00 00 84 54 82", ev, 4);
	check_clean("ex3 legacy", img, LT_FMT_TACIT_2025,
	            "16 00 02 00 00 84 22 82 32 02 02 00 00 84 02 86 8F"
	            " 92 08 04 00 00 84 0C 86 99 16 06 02 00 00 84 54 82",
	            ev, 4);
	check_clean("ex3 unshifted", img, LT_FMT_TACIT_2025_UNSHIFTED,
	            "16 00 02 00 00 84 22 82 32 04 04 00 00 88 02 86 8F"
	            " 92 10 08 00 00 88 0C 86 99 16 06 02 00 00 84 54 82",
	            ev, 4);
	check_clean("ex3 spike", img, LT_FMT_SPIKE_2025,
	            "16 00 02 00 00 84 22 82 32 02 86 8F 92 0C 86 99"
	            " 16 06 02 00 00 84 54 82", ev, 4);
	check_clean("ex3 armed", img, LT_FMT_SPIKE_ARMED,
	            "16 80 82 00 02 00 00 84 22 82 32 02 86 02 02 00 00 84 8F"
	            " 92 0C 86 08 04 00 00 84 99 F6 80 80 06 02 00 00 84 54 82",
	            ev, 4);
	lt_image_free(img);
}

/* Example 4: BP mode, n = 1024 from cfg 0x92: a miss, a hit packet of
 * two, a miss, a jalr; the end walk is free of branches. */
static void test_example4(void)
{
	const struct word w[] = {{B + 0x104, br(1, 5, 0, -4)},
	                         {B + 0x108, jalr(0, 5)}};
	struct lt_image *img = image(B, 0x110, 64, w, 2);
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B + 0x100, 0, 100},
		{LT_EV_TAKEN, B + 0x100, B + 0x104, B + 0x100, 2, 102},
		{LT_EV_TAKEN, B + 0x100, B + 0x104, B + 0x100, 2, 102},
		{LT_EV_TAKEN, B + 0x100, B + 0x104, B + 0x100, 2, 102},
		{LT_EV_NOT_TAKEN, B + 0x100, B + 0x104, B + 0x108, 2, 108},
		{LT_EV_IJUMP, B + 0x108, B + 0x108, B + 0x20, 1, 110},
		{LT_EV_END, B + 0x20, B + 0x24, B + 0x24, 2, 115},
	};
	check_clean("ex4 bp", img, LT_FMT_TACIT,
	            "36 98 80 92 00 01 00 00 84 E4 09 08 19 0A 14 81 82"
	            " 76 98 80 92 12 00 00 00 84 F3", ev, 7);
	lt_image_free(img);
}

/* Example 5: the two-wide parallel encoder (cfg 0x80: BT, 64 entries);
 * the second packet of a cycle carries delta 0. */
static void test_example5(void)
{
	const struct word w[] = {{B + 0x10, br(0, 5, 0, 0x40)},
	                         {B + 0x14, br(1, 5, 0, 0x2c)},
	                         {B + 0x40, jalr(0, 5)}};
	struct lt_image *img = image(B, 0x90, 64, w, 3);
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B, 0, 490},
		{LT_EV_NOT_TAKEN, B, B + 0x10, B + 0x14, 5, 500},
		{LT_EV_TAKEN, B + 0x14, B + 0x14, B + 0x40, 1, 500},
		{LT_EV_IJUMP, B + 0x40, B + 0x40, B + 0x80, 1, 502},
		{LT_EV_END, B + 0x80, B + 0x84, B + 0x84, 2, 510},
	};
	check_clean("ex5 parallel", img, LT_FMT_TACIT,
	            "36 98 80 80 00 00 00 00 84 6A 83 29 00 0A E0 82"
	            " 76 98 80 80 42 00 00 00 84 7E 83", ev, 5);
	lt_image_free(img);
}

/* Runs `hex` at every chunk size; checks the events and that the errors
 * are exactly msgs[] (offset, packet index, text). */
static void check_errors(const char *name, const struct lt_image *img,
                         int format, unsigned addr_bits, const char *hex,
                         const struct want *w, size_t nw,
                         const struct lt_decode_error *msgs, size_t nmsg)
{
	for (size_t split = 1; split <= 48; split++) {
		struct evlist l;
		struct lt_frontend *f = run(img, format, addr_bits, hex, split,
		                            &l);
		const struct lt_decode_stats *st = lt_frontend_stats(f);
		expect_events(name, &l, w, nw);
		CHECK(st->errors == nmsg, "%s (split %zu): %" PRIu64
		      " errors, want %zu; first: %s", name, split, st->errors,
		      nmsg, st->nkept ? st->err[0].msg : "-");
		for (size_t i = 0; i < nmsg && i < st->nkept; i++)
			CHECK(st->err[i].offset == msgs[i].offset &&
			      st->err[i].packet == msgs[i].packet &&
			      strcmp(st->err[i].msg, msgs[i].msg) == 0,
			      "%s (split %zu): error %zu: offset %" PRIu64
			      " packet %" PRIu64 " '%s'; want %" PRIu64 " %" PRIu64
			      " '%s'", name, split, i, st->err[i].offset,
			      st->err[i].packet, st->err[i].msg, msgs[i].offset,
			      msgs[i].packet, msgs[i].msg);
		lt_frontend_free(f);
	}
}

/* The example-3 program: ecall at 0x204, jalr at 0x20c, mret at 0x410. */
static struct lt_image *ex3_image(void)
{
	const struct word w[] = {{B + 0x204, ECALL}, {B + 0x20c, jalr(0, 5)},
	                         {B + 0x410, MRET}};
	return image(B + 0x200, 0x220, 64, w, 3);
}

/* A trace cut at its start (a ring-buffer sink that wrapped, a capture
 * begun late): its leading packets are lost data, reported, and the first
 * trap packet re-anchors the walk (its from-address is absolute). */
static void test_no_start_sync(void)
{
	struct lt_image *img = ex3_image();
	static const struct lt_decode_error e1[] = {
		{0, 0, 0, "a trap packet before the first sync (the trace does "
		          "not start with a sync)"}};
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B + 0x400, 0, 15},
		{LT_EV_TRET, B + 0x400, B + 0x410, B + 0x208, 5, 40},
		{LT_EV_END, B + 0x208, B + 0x20c, B + 0x20c, 2, 340},
	};
	check_errors("cut-trap", img, LT_FMT_TACIT, 64,
	             "32 9B 02 02 00 00 84 02 86 8F"
	             " 92 9B 08 04 00 00 84 0C 86 99"
	             " 76 98 80 90 06 02 00 00 84 54 82", ev, 3, e1, 1);
	static const struct lt_decode_error e2[] = {
		{0, 0, 0, "a branch/jump packet before the first sync (the "
		          "trace does not start with a sync)"}};
	check_errors("cut-branch", img, LT_FMT_TACIT, 64,
	             "14 15 07 0A 1A 81 DC 76 98 80 90 1A 00 00 00 84 4D 81",
	             NULL, 0, e2, 1);
	static const struct lt_decode_error e3[] = {
		{0, 0, 0, "end sync without a start sync (the segment's start "
		          "is missing)"}};
	check_errors("cut-to-end", img, LT_FMT_TACIT, 64,
	             "76 98 80 90 1A 00 00 00 84 4D 81", NULL, 0, e3, 1);
	lt_image_free(img);
}

/* A corrupt byte inside a segment: the error names the header, the rule
 * it breaks and its offset and packet index at every chunk split (the
 * header may sit in the parser's carry-over buffer), and the next trap
 * packet resumes decoding with the time deltas of the skipped packets. */
static void test_corrupt_then_trap(void)
{
	struct lt_image *img = ex3_image();
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B + 0x200, 0, 290},
		{LT_EV_LOST, 0, 0, 0, 0, 0},
		{LT_EV_START, 0, 0, B + 0x400, 0, 308},
		{LT_EV_TRET, B + 0x400, B + 0x410, B + 0x208, 5, 333},
		{LT_EV_END, B + 0x208, B + 0x20c, B + 0x20c, 2, 340},
	};
	static const struct lt_decode_error e1[] = {
		{11, 1, 0, "corrupt packet, header 0x1e: reserved F-header "
		           "(110/111, never emitted)"}};
	check_errors("corrupt-fheader", img, LT_FMT_TACIT, 64,
	             "36 98 80 90 00 02 00 00 84 22 82 1E 0D"
	             " 32 9B 02 02 00 00 84 02 86 8F"
	             " 92 9B 08 04 00 00 84 0C 86 99"
	             " 76 98 80 90 06 02 00 00 84 54 82", ev, 5, e1, 1);
	static const struct lt_decode_error e2[] = {
		{11, 1, 0, "corrupt packet, header 0x36: prv byte without 0b10 "
		           "in bits 7:6 (0x0c)"}};
	check_errors("corrupt-prv", img, LT_FMT_TACIT, 64,
	             "36 98 80 90 00 02 00 00 84 22 82 36 0C"
	             " 32 9B 02 02 00 00 84 02 86 8F"
	             " 92 9B 08 04 00 00 84 0C 86 99"
	             " 76 98 80 90 06 02 00 00 84 54 82", ev, 5, e2, 1);
	lt_image_free(img);
}

/* An Oct-2025 trace (no cfg in the end sync) read as tacit: the error
 * says which byte broke which rule and names the format that fits. */
static void test_oct2025_hint(void)
{
	struct lt_image *img = ex1_image(64);
	struct want ev[6];
	ex1_events(ev, (struct want){LT_EV_LOST, 0, 0, 0, 0, 0});
	static const struct lt_decode_error e[] = {
		{17, 5, 0, "corrupt packet, header 0x76: cfg byte without the "
		           "varint end bit (0x1a) (a sync without cfg: try "
		           "--format tacit-oct2025)"}};
	check_errors("oct2025-as-tacit", img, LT_FMT_TACIT, 64,
	             "36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	             " 76 98 80 1A 00 00 00 84 4D 81", ev, 6, e, 1);
	/* The 2025 layout read as tacit and the other way round. */
	static const struct lt_decode_error e2[] = {
		{0, 0, 0, "corrupt packet, header 0x16: prv byte without 0b10 in "
		          "bits 7:6 (0x00) (a 2025 sync: try --format tacit-2025 "
		          "or auto)"}};
	check_errors("2025-as-tacit", img, LT_FMT_TACIT, 64,
	             "16 00 00 00 00 84 E4 14", NULL, 0, e2, 1);
	static const struct lt_decode_error e3[] = {
		{0, 0, 0, "corrupt packet, header 0x36: sync type (bits 7:5) not "
		          "valid in this format (a prv/ctx/cfg sync: try --format "
		          "tacit or auto)"}};
	check_errors("tacit-as-2025", img, LT_FMT_TACIT_2025, 64,
	             "36 98 80 90 00 00 00 00 84 E4", NULL, 0, e3, 1);
	/* spike-armed: a sync type outside its enum (2, ctx enter) at byte
	 * 9, and an armed start whose xor does not follow the first insn */
	const struct want ev4[] = {
		{LT_EV_START, 0, 0, B, 0, 100},
		{LT_EV_LOST, 0, 0, 0, 0, 0},
	};
	static const struct lt_decode_error e4[] = {
		{9, 1, 0, "corrupt packet, header 0x56: sync type (bits 7:5) not "
		          "valid in this format (spike-armed sync types: 0 start, "
		          "1 periodic, 7 end)"}};
	check_errors("armed bad sync type", img, LT_FMT_SPIKE_ARMED, 64,
	             "16 80 82 00 00 00 00 84 E4 56", ev4, 2, e4, 1);
	static const struct lt_decode_error e5[] = {
		{0, 0, 0, "armed start sync: 0x80000000 does not lead to "
		          "0x80000040"}};
	check_errors("armed bad start", img, LT_FMT_SPIKE_ARMED, 64,
	             "16 80 A0 00 00 00 00 84 E4", ev4, 2, e5, 1);
	lt_image_free(img);
}

/* Traps our QEMU sink never writes: an interrupt at the very first traced
 * instruction (nothing ran before it) and an instruction fetch fault at a
 * jalr's target outside the program (nothing to fetch). */
static void test_trap_edges(void)
{
	struct lt_image *img = ex3_image();
	const struct want ev[] = {
		{LT_EV_START, 0, 0, B + 0x200, 0, 290},
		{LT_EV_INTERRUPT, B + 0x200, B + 0x200, B + 0x400, 0, 295},
		{LT_EV_TRET, B + 0x400, B + 0x410, B + 0x200, 5, 300},
		{LT_EV_IJUMP, B + 0x200, B + 0x20c, B + 0x4000, 4, 301},
		{LT_EV_EXCEPTION, B + 0x4000, B + 0x4000, B + 0x400, 0, 303},
		{LT_EV_END, B + 0x400, B + 0x404, B + 0x404, 2, 400},
	};
	check_clean("trap-edges", img, LT_FMT_TACIT,
	            "36 98 80 90 00 02 00 00 84 22 82"
	            " 52 9B 00 02 00 00 84 00 86 85"
	            " 92 9B 08 04 00 00 84 08 86 85"
	            " 0A 06 C2 81"
	            " 32 9B 00 40 00 00 84 00 C4 82"
	            " 76 98 80 90 02 04 00 00 84 10 83", ev, 6);
	lt_image_free(img);
}

/* cfg branch modes 1 and 3 (RTL: no branch packets at all) cannot be
 * walked: one clear error instead of a mismatch per packet. */
static void test_cfg_mode1(void)
{
	struct lt_image *img = ex3_image();
	const struct want ev[] = {{LT_EV_LOST, 0, 0, 0, 0, 0}};
	static const struct lt_decode_error e[] = {
		{0, 0, 0, "cfg byte 0x11: branch mode 1 carries no branch "
		          "packets and cannot be decoded (--mode overrides)"}};
	check_errors("cfg-mode1", img, LT_FMT_TACIT, 64,
	             "36 98 80 91 00 02 00 00 84 22 82"
	             " 76 98 80 91 06 02 00 00 84 54 82", ev, 1, e, 1);
	/* its trap packets do not re-anchor a walk that cannot go on */
	check_errors("cfg-mode1-trap", img, LT_FMT_TACIT, 64,
	             "36 98 80 91 00 02 00 00 84 22 82"
	             " 32 9B 02 02 00 00 84 02 86 8F"
	             " 76 98 80 91 06 02 00 00 84 54 82", ev, 1, e, 1);
	lt_image_free(img);
}

/* --addr-bits 32 on an RV32 program above 2 GiB: RV32 addresses are
 * unsigned, so refunded addresses must not be sign-extended. */
static void test_rv32(void)
{
	struct lt_image *img = ex1_image(32);
	struct want ev[6];
	ex1_events(ev, (struct want){LT_EV_END, B + 0x30, B + 0x34, B + 0x34, 2, 205});
	check_errors("rv32", img, LT_FMT_TACIT, 32,
	             "36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
	             " 76 98 80 90 1A 00 00 00 84 4D 81", ev, 6, NULL, 0);
	lt_image_free(img);
}

/* RV32 time wraps at 2^32: example 1 on RV32 starting 3 ticks before the
 * wrap. Deltas count on past it; the end sync's 32-bit time (102) is read
 * as 2^32 + 102, not as a jump back to 102. */
static void test_rv32_time_wrap(void)
{
	struct lt_image *img = ex1_image(32);
	const uint64_t t0 = 0xFFFFFFFDull;
	struct want ev[6];
	ex1_events(ev, (struct want){LT_EV_END, B + 0x30, B + 0x34, B + 0x34,
	                             2, t0 + 105});
	for (int i = 1; i < 5; i++)
		ev[i].time += t0 - 100;
	check_errors("rv32-time-wrap", img, LT_FMT_TACIT, 32,
	             "36 98 80 90 00 00 00 00 84 7D 7F 7F 7F 8F 14 15 07 0A 1A"
	             " 81 DC 76 98 80 90 1A 00 00 00 84 E6", ev, 6, NULL, 0);
	lt_image_free(img);
}

/* RTL2's work-in-progress periodic sync (target 0xC0FFEE, cfg 0x7F, both
 * placeholders): in a running segment and before the start sync it neither
 * re-anchors nor ends the walk; example 1 decodes as without it. */
static void test_placeholder_sync(void)
{
	struct lt_image *img = ex1_image(64);
	struct want ev[6];
	ex1_events(ev, (struct want){LT_EV_END, B + 0x30, B + 0x34, B + 0x34, 2, 205});
	static const char *const hex[] = {
		"36 98 80 90 00 00 00 00 84 E4 14 15 56 98 80 FF 77 7F 01 83 EE"
		" 07 0A 1A 81 DC 76 98 80 90 1A 00 00 00 84 4D 81",
		"56 98 80 FF 77 7F 01 83 E0"
		" 36 98 80 90 00 00 00 00 84 E4 14 15 07 0A 1A 81 DC"
		" 76 98 80 90 1A 00 00 00 84 4D 81"};
	for (int i = 0; i < 2; i++) {
		struct evlist l;
		struct lt_frontend *f = run(img, LT_FMT_TACIT, 64, hex[i], 7, &l);
		const struct lt_decode_stats *st = lt_frontend_stats(f);
		expect_events(i ? "placeholder-idle" : "placeholder-run", &l,
		              ev, 6);
		CHECK(st->errors == 0 && st->ended && st->syncs_ignored == 1 &&
		      st->ignored_target == 0xC0FFEE,
		      "placeholder %d: %" PRIu64 " errors (%s), %" PRIu64
		      " ignored, first %#" PRIx64, i, st->errors,
		      st->nkept ? st->err[0].msg : "-", st->syncs_ignored,
		      st->ignored_target);
		lt_frontend_free(f);
	}
	lt_image_free(img);
}

int main(void)
{
	test_example1();
	test_example3();
	test_example4();
	test_example5();
	test_no_start_sync();
	test_corrupt_then_trap();
	test_oct2025_hint();
	test_trap_edges();
	test_cfg_mode1();
	test_rv32();
	test_rv32_time_wrap();
	test_placeholder_sync();
	printf("conformance tests: %d failures\n", failures);
	return failures ? 1 : 0;
}
