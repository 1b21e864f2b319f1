/* Frontend unit tests on synthetic programs and traces made with the
 * encoder model: several images chosen by privilege and context id, trap
 * packets switching privilege and context, 40-bit addresses, two trace
 * segments, and an end sync whose last message the encoder never sent.
 * Every test asserts the exact event list. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_encoder.h"
#include "ltpipe/error.h"
#include "ltpipe/frontend.h"

#include "rv_test.h"

static struct lt_image *code_image(uint64_t base, const uint32_t *w,
                                   size_t n)
{
	uint8_t buf[256];
	for (size_t i = 0; i < n; i++)
		memcpy(buf + 4 * i, &w[i], 4);
	struct lt_image *img;
	if (lt_image_from_code(&img, base, buf, 4 * n, 64) != 0) {
		fprintf(stderr, "image\n");
		exit(2);
	}
	return img;
}

/* Expected event: kind, start, last, next, icount, image index. */
struct want {
	int kind;
	uint64_t start, last, next;
	uint32_t n;
	int img;
};

static void expect_events(const char *name, const struct evlist *l,
                          const struct want *w, size_t nw)
{
	CHECK(l->n == nw, "%s: %zu events, want %zu", name, l->n, nw);
	for (size_t i = 0; i < l->n && i < nw; i++) {
		const struct lt_event *e = &l->ev[i];
		CHECK(e->kind == w[i].kind && e->icount == w[i].n &&
		      (w[i].kind == LT_EV_START ||
		       (e->start == w[i].start && e->last == w[i].last)) &&
		      e->next == w[i].next &&
		      (w[i].img < 0 || e->img == w[i].img),
		      "%s: event %zu: got %s %#" PRIx64 "..%#" PRIx64
		      " n=%u -> %#" PRIx64 " img %u; want %s %#" PRIx64
		      "..%#" PRIx64 " n=%u -> %#" PRIx64 " img %d",
		      name, i, lt_event_kind_name(e->kind), e->start, e->last,
		      e->icount, e->next, e->img, lt_event_kind_name(w[i].kind),
		      w[i].start, w[i].last, w[i].n, w[i].next, w[i].img);
	}
}

static void encode(struct lt_encoder_mem *m, int format, int mode,
                   const struct lt_ingress *rec, size_t n)
{
	struct lt_encoder enc;
	struct lt_encoder_config cfg = {format, mode, 1024};
	if (lt_encoder_init(&enc, &cfg, lt_encoder_mem_write, m) != 0)
		exit(2);
	for (size_t i = 0; i < n; i++)
		lt_encoder_push(&enc, &rec[i]);
	lt_encoder_finish(&enc);
	lt_encoder_fini(&enc);
}

static const struct lt_decode_stats *
decode(struct lt_frontend **fp, const struct lt_image_set *set,
       unsigned addr_bits, const uint8_t *buf, size_t len,
       struct evlist *l, size_t split)
{
	struct lt_frontend_config cfg = {.format = LT_FMT_TACIT,
	                                 .mode = LT_MODE_AUTO,
	                                 .addr_bits = addr_bits};
	char err[200];
	*fp = lt_frontend_new(&cfg, set, capture, l, err, sizeof(err));
	if (!*fp)
		exit(2);
	for (size_t at = 0; at < len; at += split)
		lt_frontend_feed(*fp, buf + at, len - at < split ? len - at : split);
	lt_frontend_finish(*fp);
	return lt_frontend_stats(*fp);
}

/* A kernel (M) returning into two user programs at the same addresses,
 * told apart by the context id carried in the trap-return packets. */
static void test_contexts(void)
{
	const uint64_t K = 0x80000000, U = 0x1000;
	uint32_t kw[] = {NOP, MRET, NOP, NOP, NOP, MRET};
	uint32_t aw[] = {NOP, ECALL};
	uint32_t bw[] = {NOP, NOP, ECALL};
	struct lt_image *k = code_image(K, kw, 6), *a = code_image(U, aw, 2),
	                *b = code_image(U, bw, 3);
	struct lt_image_sel sel[] = {{k, LT_PRV_M, -1}, {a, LT_PRV_U, 1},
	                             {b, LT_PRV_U, 2}};
	struct lt_image_set set = {sel, 3};
	const struct lt_ingress rec[] = {
		{K, 0, 0, LT_IT_NOTHING, LT_PRV_M},
		{K + 4, 1, 1, LT_IT_RETURN, LT_PRV_M},
		{U, 2, 1, LT_IT_NOTHING, LT_PRV_U},
		{U + 4, 3, 1, LT_IT_EXCEPTION, LT_PRV_U},
		{K + 16, 4, 1, LT_IT_NOTHING, LT_PRV_M},
		{K + 20, 5, 2, LT_IT_RETURN, LT_PRV_M},
		{U, 6, 2, LT_IT_NOTHING, LT_PRV_U},
		{U + 4, 7, 2, LT_IT_NOTHING, LT_PRV_U},
		{U + 8, 8, 2, LT_IT_EXCEPTION, LT_PRV_U},
		{K + 16, 9, 2, LT_IT_NOTHING, LT_PRV_M},
	};
	struct lt_encoder_mem m = {0};
	encode(&m, LT_FMT_TACIT, LT_ENC_BT, rec, sizeof(rec) / sizeof(*rec));
	const struct want w[] = {
		{LT_EV_START, 0, 0, K, 0, -1},
		{LT_EV_TRET, K, K + 4, U, 2, 0},
		{LT_EV_EXCEPTION, U, U + 4, K + 16, 2, 1},
		{LT_EV_TRET, K + 16, K + 20, U, 2, 0},
		{LT_EV_EXCEPTION, U, U + 8, K + 16, 3, 2},
		{LT_EV_END, K + 16, K + 16, K + 16, 1, 0},
	};
	for (size_t split = 1; split <= m.len; split += 3) {
		struct evlist l = {.n = 0};
		struct lt_frontend *f;
		const struct lt_decode_stats *st =
			decode(&f, &set, 64, m.data, m.len, &l, split);
		expect_events("contexts", &l, w, sizeof(w) / sizeof(*w));
		CHECK(st->errors == 0 && st->ended, "contexts: %" PRIu64
		      " errors", st->errors);
		CHECK(l.ev[4].prv == LT_PRV_U && l.ev[4].ctx == 2 &&
		      l.ev[5].prv == LT_PRV_M,
		      "contexts: prv/ctx %u/%u %u", l.ev[4].prv, l.ev[4].ctx,
		      l.ev[5].prv);
		lt_frontend_free(f);
	}
	free(m.data);
	lt_image_free(k);
	lt_image_free(a);
	lt_image_free(b);
}

/* Rocket Sv39 traces carry 40-bit zero-extended pcs of a kernel mapped at
 * sign-extended addresses: --addr-bits 40 must sign-extend every refunded
 * address, including xor targets. */
static void test_addr40(void)
{
	const uint64_t base = 0xffffffc080000000ull;
	const uint64_t mask = (1ull << 40) - 1;
	uint32_t w[] = {NOP, jalr(0, 5), NOP, NOP, NOP};
	struct lt_image *img = code_image(base, w, 5);
	struct lt_image_sel sel[] = {{img, -1, -1}};
	struct lt_image_set set = {sel, 1};
	const struct lt_ingress rec[] = {
		{base & mask, 10, 0, LT_IT_NOTHING, LT_PRV_S},
		{(base + 4) & mask, 11, 0, LT_IT_UNINF_JUMP, LT_PRV_S},
		{(base + 16) & mask, 12, 0, LT_IT_NOTHING, LT_PRV_S},
	};
	struct lt_encoder_mem m = {0};
	encode(&m, LT_FMT_TACIT, LT_ENC_BT, rec, 3);
	struct evlist l = {.n = 0};
	struct lt_frontend *f;
	const struct lt_decode_stats *st =
		decode(&f, &set, 40, m.data, m.len, &l, m.len);
	const struct want wv[] = {
		{LT_EV_START, 0, 0, base, 0, 0},
		{LT_EV_IJUMP, base, base + 4, base + 16, 2, 0},
		{LT_EV_END, base + 16, base + 16, base + 16, 1, 0},
	};
	expect_events("addr40", &l, wv, 3);
	CHECK(st->errors == 0, "addr40: %" PRIu64 " errors", st->errors);
	lt_frontend_free(f);
	/* Without --addr-bits 40 the same trace does not fit the image. */
	l.n = 0;
	st = decode(&f, &set, 64, m.data, m.len, &l, m.len);
	CHECK(st->errors > 0 && st->losses > 0,
	      "addr64: expected a loss, got %" PRIu64 " errors", st->errors);
	lt_frontend_free(f);
	free(m.data);
	lt_image_free(img);
}

/* Two segments (start, end, start, end) in one stream, in both formats
 * families. */
static void test_segments(void)
{
	const uint64_t B = 0x2000;
	uint32_t w[] = {NOP, beq(0, 0, 8), NOP, NOP, jal(0, -16)};
	struct lt_image *img = code_image(B, w, 5);
	struct lt_image_sel sel[] = {{img, -1, -1}};
	struct lt_image_set set = {sel, 1};
	const struct lt_ingress r1[] = {
		{B, 0, 0, LT_IT_NOTHING, LT_PRV_U},
		{B + 4, 1, 0, LT_IT_BRANCH_TAKEN, LT_PRV_U},
		{B + 12, 2, 0, LT_IT_NOTHING, LT_PRV_U},
	};
	const struct lt_ingress r2[] = {
		{B + 8, 50, 0, LT_IT_NOTHING, LT_PRV_U},
		{B + 12, 51, 0, LT_IT_NOTHING, LT_PRV_U},
		{B + 16, 52, 0, LT_IT_INF_JUMP, LT_PRV_U},
		{B, 53, 0, LT_IT_NOTHING, LT_PRV_U},
	};
	const struct want wv[] = {
		{LT_EV_START, 0, 0, B, 0, 0},
		{LT_EV_TAKEN, B, B + 4, B + 12, 2, 0},
		{LT_EV_END, B + 12, B + 12, B + 12, 1, 0},
		{LT_EV_START, 0, 0, B + 8, 0, 0},
		{LT_EV_JUMP, B + 8, B + 16, B, 3, 0},
		{LT_EV_END, B, B, B, 1, 0},
	};
	static const int fmts[] = {LT_FMT_TACIT, LT_FMT_TACIT_2025};
	for (int i = 0; i < 2; i++) {
		struct lt_encoder_mem m = {0};
		encode(&m, fmts[i], LT_ENC_BT, r1, 3);
		encode(&m, fmts[i], LT_ENC_BT, r2, 4);
		struct evlist l = {.n = 0};
		struct lt_frontend_config cfg = {.format = fmts[i],
		                                 .mode = LT_MODE_AUTO,
		                                 .addr_bits = 64};
		char err[100];
		struct lt_frontend *f =
			lt_frontend_new(&cfg, &set, capture, &l, err, sizeof(err));
		lt_frontend_feed(f, m.data, m.len);
		lt_frontend_finish(f);
		expect_events(lt_format_name(fmts[i]), &l, wv, 6);
		CHECK(lt_frontend_stats(f)->segments == 2 &&
		      lt_frontend_stats(f)->errors == 0,
		      "segments: %" PRIu64 " segments, %" PRIu64 " errors",
		      lt_frontend_stats(f)->segments, lt_frontend_stats(f)->errors);
		CHECK(l.ev[3].time == 50 && l.ev[5].time == 53,
		      "segments: times %" PRIu64 " %" PRIu64, l.ev[3].time,
		      l.ev[5].time);
		lt_frontend_free(f);
		free(m.data);
	}
	lt_image_free(img);
}

/* The RTL does not emit the message of the instruction before the end
 * sync's; a decoder must still reach the end address (BT: by the side of
 * the branch that leads there). */
static void test_end_without_last_message(void)
{
	const uint64_t B = 0x4000;
	uint32_t w[] = {NOP, beq(0, 0, 12), NOP, NOP, NOP, NOP};
	struct lt_image *img = code_image(B, w, 6);
	struct lt_image_sel sel[] = {{img, -1, -1}};
	struct lt_image_set set = {sel, 1};
	const struct lt_ingress rec[] = {
		{B, 0, 0, LT_IT_NOTHING, LT_PRV_U},
		{B + 4, 1, 0, LT_IT_BRANCH_TAKEN, LT_PRV_U},
		{B + 16, 2, 0, LT_IT_NOTHING, LT_PRV_U},
	};
	struct lt_encoder_mem m = {0};
	encode(&m, LT_FMT_TACIT, LT_ENC_BT, rec, 3);
	/* Drop the taken-branch byte between the start and end syncs. */
	size_t start_len = 0;
	{
		struct lt_parser p;
		struct lt_packet pk;
		size_t pos = 0;
		lt_parser_init(&p, LT_FMT_TACIT);
		lt_parser_next(&p, m.data, m.len, &pos, &pk);
		start_len = pos;
		lt_parser_next(&p, m.data, m.len, &pos, &pk);
		CHECK(pk.type == LT_PKT_TB && pos == start_len + 1,
		      "end: expected one TB byte after the start sync");
	}
	memmove(m.data + start_len, m.data + start_len + 1,
	        m.len - start_len - 1);
	m.len--;
	struct evlist l = {.n = 0};
	struct lt_frontend *f;
	const struct lt_decode_stats *st =
		decode(&f, &set, 64, m.data, m.len, &l, m.len);
	const struct want wv[] = {
		{LT_EV_START, 0, 0, B, 0, 0},
		{LT_EV_TAKEN, B, B + 4, B + 16, 2, 0},
		{LT_EV_END, B + 16, B + 16, B + 16, 1, 0},
	};
	expect_events("end-guess", &l, wv, 3);
	CHECK(st->errors == 0, "end-guess: %" PRIu64 " errors", st->errors);
	lt_frontend_free(f);
	free(m.data);
	lt_image_free(img);
}

int main(void)
{
	test_contexts();
	test_addr40();
	test_segments();
	test_end_without_last_message();
	printf("frontend tests: %d failures\n", failures);
	return failures ? 1 : 0;
}
