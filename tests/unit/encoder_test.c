/* Exact-byte tests of the encoder model (sinks/encoder.c) against the worked
 * examples of shared/docs/LTRACE-FORMAT.md §9 and the edge cases of §2/§4/§6. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_encoder.h"
#include "ltpipe/error.h"

static int failures;

#define M LT_PRV_M
#define U LT_PRV_U

/* Parses "36 98 80" style hex into out[]; returns the byte count. */
static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;
	unsigned v;
	int used;

	while (sscanf(s, " %2x%n", &v, &used) == 1) {
		out[n++] = (uint8_t)v;
		s += used;
	}
	return n;
}

static void print_hex(const char *label, const uint8_t *b, size_t n)
{
	fprintf(stderr, "  %s:", label);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %02X", b[i]);
	fprintf(stderr, "\n");
}

static void expect_bytes(const char *name, const uint8_t *got, size_t n,
                         const char *want_hex)
{
	uint8_t want[4096];
	size_t wn = unhex(want_hex, want);

	if (wn == n && (n == 0 || memcmp(want, got, n) == 0))
		return;
	failures++;
	fprintf(stderr, "FAIL %s\n", name);
	print_hex("want", want, wn);
	print_hex("got ", got, n);
}

static void expect_int(const char *name, long long got, long long want)
{
	if (got == want)
		return;
	failures++;
	fprintf(stderr, "FAIL %s: got %lld, want %lld\n", name, got, want);
}

/* Format names for messages (this test does not link decoder/format.c). */
static const char *fmt_name(int format)
{
	static const char *const names[] = { "tacit", "tacit-oct2025",
		"tacit-2025", "tacit-2025-unshifted", "spike-2025",
		"spike-2025-02", "spike-armed" };
	return format >= 0 && format < LT_FMT_COUNT ? names[format] : "?";
}

/* A record; `p` marks "arm a periodic sync before pushing this record". */
struct rec {
	uint64_t addr;
	int type;
	uint64_t time;
	int priv;
	uint64_t ctx;
	int p;
};

/* Encodes recs[0..n) with `format`/`mode`/`entries` and compares the whole
 * output with want_hex. */
static void check(const char *name, int format, int mode, uint32_t entries,
                  const struct rec *recs, size_t n, const char *want_hex)
{
	struct lt_encoder_config cfg = { format, mode, entries };
	struct lt_encoder enc;
	struct lt_encoder_mem mem = { 0 };
	char full[128];

	snprintf(full, sizeof(full), "%s [%s]", name, fmt_name(format));
	if (lt_encoder_init(&enc, &cfg, lt_encoder_mem_write, &mem)) {
		failures++;
		fprintf(stderr, "FAIL %s: init\n", full);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct lt_ingress in = { recs[i].addr, recs[i].time, recs[i].ctx,
		                         (uint8_t)recs[i].type,
		                         (uint8_t)recs[i].priv };
		if (recs[i].p)
			expect_int(full, lt_encoder_periodic(&enc), 0);
		expect_int(full, lt_encoder_push(&enc, &in), 0);
	}
	expect_int(full, lt_encoder_finish(&enc), 0);
	expect_bytes(full, mem.data, mem.len, want_hex);
	expect_int(full, (long long)enc.n_bytes, (long long)mem.len);
	lt_encoder_fini(&enc);
	free(mem.data);
}


static void test_varint(void)
{
	static const struct { uint64_t v; const char *hex; } t[] = {
		{ 0, "80" }, { 1, "81" }, { 63, "BF" }, { 100, "E4" },
		{ 127, "FF" }, { 128, "00 81" }, { 154, "1A 81" },
		{ 300, "2C 82" }, { 16383, "7F FF" }, { 16384, "00 00 81" },
		{ 0x40000000, "00 00 00 00 84" },
		{ 0x40000080, "00 01 00 00 84" },
		{ 0x80000204, "04 04 00 00 88" },
		{ UINT64_MAX, "7F 7F 7F 7F 7F 7F 7F 7F 7F 81" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t b[10];
		char name[64];
		size_t n = lt_encoder_varint(b, t[i].v);
		snprintf(name, sizeof(name), "varint %llu",
		         (unsigned long long)t[i].v);
		expect_bytes(name, b, n, t[i].hex);
	}
}

/* §9 example 1: BT mode, branch, jump, jalr, start and end sync. */
static const struct rec ex1[] = {
	{ 0x80000000, LT_IT_NOTHING, 100, M, 0, 0 },
	{ 0x80000004, LT_IT_NOTHING, 102, M, 0, 0 },
	{ 0x80000008, LT_IT_BRANCH_TAKEN, 105, M, 0, 0 },
	{ 0x80000020, LT_IT_NOTHING, 107, M, 0, 0 },
	{ 0x80000024, LT_IT_BRANCH_NOT_TAKEN, 110, M, 0, 0 },
	{ 0x80000028, LT_IT_INF_JUMP, 111, M, 0, 0 },
	{ 0x80000100, LT_IT_NOTHING, 200, M, 0, 0 },
	{ 0x80000104, LT_IT_UNINF_JUMP, 203, M, 0, 0 },
	{ 0x80000030, LT_IT_NOTHING, 204, M, 0, 0 },
	{ 0x80000034, LT_IT_NOTHING, 205, M, 0, 0 },
};

static void test_example1(void)
{
	const char *legacy = "16 00 00 00 00 84 E4  14  15  07  0A 1A 81 DC"
	                     "  16 1A 00 00 00 84 4D 81";
	size_t n = sizeof(ex1) / sizeof(ex1[0]);

	check("ex1", LT_FMT_TACIT, LT_ENC_BT, 1024, ex1, n,
	      "36 98 80 90 00 00 00 00 84 E4  14  15  07  0A 1A 81 DC"
	      "  76 98 80 90 1A 00 00 00 84 4D 81");
	check("ex1", LT_FMT_TACIT_OCT2025, LT_ENC_BT, 1024, ex1, n,
	      "36 98 80 90 00 00 00 00 84 E4  14  15  07  0A 1A 81 DC"
	      "  76 98 80 1A 00 00 00 84 4D 81");
	check("ex1", LT_FMT_TACIT_2025, LT_ENC_BT, 1024, ex1, n, legacy);
	check("ex1", LT_FMT_TACIT_2025_UNSHIFTED, LT_ENC_BT, 1024, ex1, n,
	      legacy);
	check("ex1", LT_FMT_SPIKE_2025, LT_ENC_BT, 1024, ex1, n, legacy);
	/* spike-2025-02: br_mode 0 (BT) after the sync header */
	check("ex1", LT_FMT_SPIKE_2025_02, LT_ENC_BT, 1024, ex1, n,
	      "16 80 00 00 00 00 84 E4  14  15  07  0A 1A 81 DC"
	      "  16 80 1A 00 00 00 84 4D 81");
	/* spike-armed: the start sync on the second record: ctx 0, xor
	 * (0x..00 ^ 0x..04) >> 1 = 2, from, the first record's time; end
	 * sync type 7 (F6) with xor 0 */
	check("ex1", LT_FMT_SPIKE_ARMED, LT_ENC_BT, 1024, ex1, n,
	      "16 80 82 00 00 00 00 84 E4  14  15  07  0A 1A 81 DC"
	      "  F6 80 80 1A 00 00 00 84 4D 81");
	/* spike-armed: a first record that is a branch sends no packet (the
	 * sync's xor says where it went); a lone record sends nothing */
	static const struct rec armed[] = {
		{ 0x1000, LT_IT_BRANCH_TAKEN, 0, U, 0, 0 },
		{ 0x1040, LT_IT_NOTHING, 3, U, 0, 0 },
	};
	check("armed branch first", LT_FMT_SPIKE_ARMED, LT_ENC_BT, 1024, armed,
	      2, "16 80 A0 00 90 80  F6 80 80 20 90 83");
	check("armed lone record", LT_FMT_SPIKE_ARMED, LT_ENC_BT, 1024, armed,
	      1, "");
}

/* §9 example 2: compressed/full boundaries (TB 63/64, NT 300, IJ 16384). */
static void test_example2(void)
{
	static const struct rec r[] = {
		{ 0x1000, LT_IT_BRANCH_TAKEN, 0, U, 0, 0 },       /* dt 0 */
		{ 0x1000, LT_IT_BRANCH_TAKEN, 63, U, 0, 0 },      /* dt 63 */
		{ 0x1000, LT_IT_BRANCH_TAKEN, 127, U, 0, 0 },     /* dt 64 */
		{ 0x1000, LT_IT_BRANCH_NOT_TAKEN, 190, U, 0, 0 }, /* dt 63 */
		{ 0x1004, LT_IT_BRANCH_NOT_TAKEN, 490, U, 0, 0 }, /* dt 300 */
		{ 0x1008, LT_IT_INF_JUMP, 553, U, 0, 0 },         /* dt 63 */
		{ 0x1008, LT_IT_INF_JUMP, 617, U, 0, 0 },         /* dt 64 */
		{ 0x1008, LT_IT_INF_JUMP, 17001, U, 0, 0 },       /* dt 16384 */
		{ 0x1100, LT_IT_NOTHING, 17002, U, 0, 0 },
	};
	check("ex2", LT_FMT_TACIT_2025, LT_ENC_BT, 1024, r,
	      sizeof(r) / sizeof(r[0]),
	      "16 00 90 80  00  FC  02 C0  FD  06 2C 82  FF  0E C0"
	      "  0E 00 00 81  16 00 91 6A 04 81");
}

/* §9 example 3: exception and mret, previous time-carrying packet at 290. */
static void ex3_records(struct rec *r, int type, int to_priv, uint64_t ctx)
{
	struct rec t[] = {
		{ 0x80000200, LT_IT_NOTHING, 290, M, 0, 0 },
		{ 0x80000204, type, 305, M, 0, 0 },
		{ 0x80000400, LT_IT_NOTHING, 310, M, 0, 0 },
		{ 0x80000410, LT_IT_RETURN, 330, M, ctx, 0 },
		{ 0x80000208, LT_IT_NOTHING, 331, to_priv, ctx, 0 },
	};
	memcpy(r, t, sizeof(t));
}

static void test_example3(void)
{
	struct rec r[5];
	char want[512];

	ex3_records(r, LT_IT_EXCEPTION, M, 0);
	check("ex3", LT_FMT_TACIT, LT_ENC_BT, 1024, r, 5,
	      "36 98 80 90 00 02 00 00 84 22 82"
	      "  32 9B 02 02 00 00 84 02 86 8F"
	      "  92 9B 08 04 00 00 84 0C 86 99"
	      "  76 98 80 90 04 02 00 00 84 4B 82");
	check("ex3", LT_FMT_TACIT_OCT2025, LT_ENC_BT, 1024, r, 5,
	      "36 98 80 90 00 02 00 00 84 22 82"
	      "  32 9B 02 02 00 00 84 02 86 8F"
	      "  92 9B 08 04 00 00 84 0C 86 99"
	      "  76 98 80 04 02 00 00 84 4B 82");
	snprintf(want, sizeof(want), "%s%s%s%s", "16 00 02 00 00 84 22 82",
	         "  32 02 02 00 00 84 02 86 8F", "  92 08 04 00 00 84 0C 86 99",
	         "  16 04 02 00 00 84 4B 82");
	check("ex3", LT_FMT_TACIT_2025, LT_ENC_BT, 1024, r, 5, want);
	check("ex3", LT_FMT_TACIT_2025_UNSHIFTED, LT_ENC_BT, 1024, r, 5,
	      "16 00 02 00 00 84 22 82"
	      "  32 04 04 00 00 88 02 86 8F"
	      "  92 10 08 00 00 88 0C 86 99"
	      "  16 04 02 00 00 84 4B 82");
	check("ex3", LT_FMT_SPIKE_2025, LT_ENC_BT, 1024, r, 5,
	      "16 00 02 00 00 84 22 82  32 02 86 8F  92 0C 86 99"
	      "  16 04 02 00 00 84 4B 82");
	/* spike-armed: traps carry the xor before the from-address (C6) */
	check("ex3", LT_FMT_SPIKE_ARMED, LT_ENC_BT, 1024, r, 5,
	      "16 80 82 00 02 00 00 84 22 82"
	      "  32 02 86 02 02 00 00 84 8F"
	      "  92 0C 86 08 04 00 00 84 99"
	      "  F6 80 80 04 02 00 00 84 4B 82");

	/* mret to U-mode with ASID 5: prv M->U = 83, ctx 85; the end sync
	 * then reports U (98 -> 80) and ctx 5. */
	ex3_records(r, LT_IT_EXCEPTION, U, 5);
	check("ex3 ret to U", LT_FMT_TACIT, LT_ENC_BT, 1024, r, 5,
	      "36 98 80 90 00 02 00 00 84 22 82"
	      "  32 9B 02 02 00 00 84 02 86 8F"
	      "  92 83 85 08 04 00 00 84 0C 86 99"
	      "  76 80 85 90 04 02 00 00 84 4B 82");
	check("ex3 ret to U", LT_FMT_TACIT_2025, LT_ENC_BT, 1024, r, 5,
	      "16 00 02 00 00 84 22 82"
	      "  32 02 02 00 00 84 02 86 8F"
	      "  92 08 04 00 00 84 0C 86 99"
	      "  16 04 02 00 00 84 4B 82");

	/* The same trap reported as an interrupt: header 0x52. */
	ex3_records(r, LT_IT_INTERRUPT, M, 0);
	check("ex3 interrupt", LT_FMT_TACIT, LT_ENC_BT, 1024, r, 5,
	      "36 98 80 90 00 02 00 00 84 22 82"
	      "  52 9B 02 02 00 00 84 02 86 8F"
	      "  92 9B 08 04 00 00 84 0C 86 99"
	      "  76 98 80 90 04 02 00 00 84 4B 82");
}

/* §9 example 4: BP mode loop, n = 1024. */
static const struct rec ex4[] = {
	{ 0x80000100, LT_IT_NOTHING, 100, M, 0, 0 },
	{ 0x80000104, LT_IT_BRANCH_TAKEN, 102, M, 0, 0 },
	{ 0x80000100, LT_IT_NOTHING, 103, M, 0, 0 },
	{ 0x80000104, LT_IT_BRANCH_TAKEN, 104, M, 0, 0 },
	{ 0x80000100, LT_IT_NOTHING, 105, M, 0, 0 },
	{ 0x80000104, LT_IT_BRANCH_TAKEN, 106, M, 0, 0 },
	{ 0x80000100, LT_IT_NOTHING, 107, M, 0, 0 },
	{ 0x80000104, LT_IT_BRANCH_NOT_TAKEN, 108, M, 0, 0 },
	{ 0x80000108, LT_IT_UNINF_JUMP, 110, M, 0, 0 },
	{ 0x80000020, LT_IT_NOTHING, 111, M, 0, 0 },
};

static void test_example4(void)
{
	size_t n = sizeof(ex4) / sizeof(ex4[0]);

	check("ex4", LT_FMT_TACIT, LT_ENC_BP, 1024, ex4, n,
	      "36 98 80 92 00 01 00 00 84 E4  09  08  19  0A 14 81 82"
	      "  76 98 80 92 10 00 00 00 84 EF");
	check("ex4", LT_FMT_TACIT_OCT2025, LT_ENC_BP, 1024, ex4, n,
	      "36 98 80 92 00 01 00 00 84 E4  09  08  19  0A 14 81 82"
	      "  76 98 80 10 00 00 00 84 EF");
	check("ex4", LT_FMT_TACIT_2025, LT_ENC_BP, 1024, ex4, n,
	      "16 00 01 00 00 84 E4  09  08  19  0A 14 81 82"
	      "  16 10 00 00 00 84 EF");
	/* cfg byte: k = log2(n / 64) in bits 6:2. */
	check("ex4 n=64", LT_FMT_TACIT, LT_ENC_BP, 64, ex4, n,
	      "36 98 80 82 00 01 00 00 84 E4  09  08  19  0A 14 81 82"
	      "  76 98 80 82 10 00 00 00 84 EF");
	check("ex4 n=2048 BT cfg", LT_FMT_TACIT, LT_ENC_BT, 2048, ex4, 1,
	      "36 98 80 94 00 01 00 00 84 E4  76 98 80 94 00 01 00 00 84 E4");
}

/* Builds `hits` correctly predicted taken branches (after one training
 * miss) followed by a not-taken miss, then a tail record of `tail_type`. */
static size_t bp_loop(struct rec *r, int hits, int tail_type)
{
	size_t n = 0;
	uint64_t t = 10;

	r[n++] = (struct rec){ 0x2000, LT_IT_NOTHING, t, U, 0, 0 };
	/* miss #1 trains the counter to 2; then `hits` hits. */
	for (int i = 0; i < hits + 1; i++) {
		r[n++] = (struct rec){ 0x2004, LT_IT_BRANCH_TAKEN, ++t, U, 0, 0 };
		r[n++] = (struct rec){ 0x2000, LT_IT_NOTHING, ++t, U, 0, 0 };
	}
	r[n++] = (struct rec){ 0x2004, tail_type, ++t, U, 0, 0 };
	r[n++] = (struct rec){ 0x3000, LT_IT_NOTHING, ++t, U, 0, 0 };
	return n;
}

static void test_bp_counts(void)
{
	static struct rec r[600];
	size_t n;

	/* 63 hits: compressed FC; miss dt = (11 + 2*64) - 11 = 128. */
	n = bp_loop(r, 63, LT_IT_BRANCH_NOT_TAKEN);
	check("bp 63 hits", LT_FMT_TACIT_2025, LT_ENC_BP, 1024, r, n,
	      "16 00 A0 8A  05  FC  06 00 81  16 00 B0 0C 81");
	/* 64 hits: full 02 C0. */
	n = bp_loop(r, 64, LT_IT_BRANCH_NOT_TAKEN);
	check("bp 64 hits", LT_FMT_TACIT_2025, LT_ENC_BP, 1024, r, n,
	      "16 00 A0 8A  05  02 C0  06 02 81  16 00 B0 0E 81");
	/* 200 hits: 02 48 81; the tail is a taken branch, i.e. one more hit
	 * that the end sync does not flush. */
	n = bp_loop(r, 200, LT_IT_BRANCH_TAKEN);
	check("bp 201 hits unflushed", LT_FMT_TACIT_2025, LT_ENC_BP, 1024, r,
	      n, "16 00 A0 8A  05  16 00 B0 1E 83");
	/* An exception flushes the hits before its trap packet. */
	n = bp_loop(r, 3, LT_IT_EXCEPTION);
	check("bp trap flush", LT_FMT_TACIT, LT_ENC_BP, 1024, r, n,
	      "36 80 80 92 00 A0 8A  05  0C"
	      "  32 80 02 A0 02 90 88"
	      "  76 80 80 92 00 B0 94");
	/* A direct jump neither flushes nor is reported (tacit) ... */
	n = bp_loop(r, 3, LT_IT_INF_JUMP);
	check("bp IJ suppressed", LT_FMT_TACIT_2025, LT_ENC_BP, 1024, r, n,
	      "16 00 A0 8A  05  16 00 B0 94");
	/* ... but spike-2025 flushes and emits it (dt = 19 - 11 = 8). */
	check("bp IJ spike", LT_FMT_SPIKE_2025, LT_ENC_BP, 1024, r, n,
	      "16 00 A0 8A  05  0C  23  16 00 B0 94");
	/* spike-2025-02 likewise, its syncs saying br_mode 2 (BP) */
	check("bp IJ spike", LT_FMT_SPIKE_2025_02, LT_ENC_BP, 1024, r, n,
	      "16 82 00 A0 8A  05  0C  23  16 82 00 B0 94");
	/* Index aliasing: with n = 64, 0x2004 and 0x2084 share counter 2. */
	static const struct rec alias[] = {
		{ 0x2004, LT_IT_BRANCH_TAKEN, 1, U, 0, 0 },   /* miss, ->2 */
		{ 0x2084, LT_IT_BRANCH_TAKEN, 2, U, 0, 0 },   /* hit, ->3 */
		{ 0x2088, LT_IT_BRANCH_TAKEN, 3, U, 0, 0 },   /* miss, own */
		{ 0x208C, LT_IT_NOTHING, 4, U, 0, 0 },
	};
	check("bp alias n=64", LT_FMT_TACIT_2025, LT_ENC_BP, 64, alias, 4,
	      "16 02 A0 81  01  04 09  16 46 A0 84");
	check("bp no alias n=128", LT_FMT_TACIT_2025, LT_ENC_BP, 128, alias, 4,
	      "16 02 A0 81  01  05  05  16 46 A0 84");
}

/* Periodic syncs (tacit formats only). */
static void test_periodic(void)
{
	static const struct rec r[] = {
		{ 0x1000, LT_IT_BRANCH_TAKEN, 10, M, 0, 0 },    /* TB dt 0 */
		{ 0x1040, LT_IT_NOTHING, 12, M, 0, 1 },         /* periodic */
		{ 0x1044, LT_IT_BRANCH_NOT_TAKEN, 20, M, 0, 0 }, /* NT dt 8 */
		{ 0x1048, LT_IT_NOTHING, 21, M, 0, 0 },
	};
	check("periodic", LT_FMT_TACIT, LT_ENC_BT, 1024, r, 4,
	      "36 98 80 90 00 90 8A  00  56 98 80 90 20 90 8C  21"
	      "  76 98 80 90 24 90 95");
	check("periodic", LT_FMT_TACIT_OCT2025, LT_ENC_BT, 1024, r, 4,
	      "36 98 80 90 00 90 8A  00  56 98 80 20 90 8C  21"
	      "  76 98 80 24 90 95");

	/* BP: the periodic sync flushes pending hits; the synced record
	 * (a branch) is still predicted after it. */
	static const struct rec b[] = {
		{ 0x1000, LT_IT_NOTHING, 0, M, 0, 0 },
		{ 0x1004, LT_IT_BRANCH_NOT_TAKEN, 1, M, 0, 0 }, /* hit */
		{ 0x1008, LT_IT_BRANCH_NOT_TAKEN, 2, M, 0, 1 }, /* periodic; hit */
		{ 0x100C, LT_IT_BRANCH_TAKEN, 9, M, 0, 0 },     /* miss dt 7 */
		{ 0x1040, LT_IT_NOTHING, 10, M, 0, 0 },
	};
	check("periodic bp", LT_FMT_TACIT, LT_ENC_BP, 1024, b, 5,
	      "36 98 80 92 00 90 80  04  56 98 80 92 04 90 82  04  1D"
	      "  76 98 80 92 20 90 8A");

	/* Not defined for the legacy formats. */
	struct lt_encoder_config cfg = { LT_FMT_TACIT_2025, LT_ENC_BT, 1024 };
	struct lt_encoder enc;
	struct lt_encoder_mem mem = { 0 };
	expect_int("init", lt_encoder_init(&enc, &cfg, lt_encoder_mem_write,
	                                   &mem), 0);
	expect_int("periodic legacy", lt_encoder_periodic(&enc), LT_ERR_INVAL);
	lt_encoder_fini(&enc);
}

/* Start/end corner cases. */
static void test_start_end(void)
{
	/* A first record that is a jalr gets its packet after the sync. */
	static const struct rec j[] = {
		{ 0x1000, LT_IT_UNINF_JUMP, 5, U, 7, 0 },
		{ 0x1100, LT_IT_NOTHING, 6, U, 7, 0 },
	};
	check("first is jalr", LT_FMT_TACIT, LT_ENC_BT, 1024, j, 2,
	      "36 80 87 90 00 90 85  0A 00 81 80  76 80 87 90 00 91 86");
	/* One record: start and end sync at the same place. */
	check("one record", LT_FMT_TACIT, LT_ENC_BT, 1024, j, 1,
	      "36 80 87 90 00 90 85  76 80 87 90 00 90 85");
	/* The last record's own message (a branch) is never emitted. */
	static const struct rec l[] = {
		{ 0x1000, LT_IT_NOTHING, 5, U, 0, 0 },
		{ 0x1004, LT_IT_BRANCH_TAKEN, 6, U, 0, 0 },
	};
	check("last not emitted", LT_FMT_TACIT_2025, LT_ENC_BT, 1024, l, 2,
	      "16 00 90 85  16 02 90 86");
	/* Nothing pushed: nothing written. */
	check("empty", LT_FMT_TACIT, LT_ENC_BT, 1024, l, 0, "");
}

/* Bad configurations and calls. */
static void test_errors(void)
{
	struct lt_encoder enc;
	struct lt_encoder_mem mem = { 0 };
	struct lt_encoder_config bad[] = {
		{ LT_FMT_TACIT, LT_ENC_BP, 100 },
		{ LT_FMT_TACIT, LT_ENC_BP, 32 },
		{ LT_FMT_TACIT, 1, 1024 },
		{ LT_FMT_AUTO, LT_ENC_BT, 1024 },
		{ -1, LT_ENC_BT, 1024 },
		{ LT_FMT_SPIKE_2025_02, LT_ENC_BP, 512 }, /* Spike: 1024 */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_int("bad cfg", lt_encoder_init(&enc, &bad[i],
		           lt_encoder_mem_write, &mem), LT_ERR_INVAL);

	struct lt_encoder_config cfg = { LT_FMT_TACIT, LT_ENC_BT, 1024 };
	struct lt_ingress r = { 0x1000, 0, 0, 99, 0 };
	expect_int("init", lt_encoder_init(&enc, &cfg, lt_encoder_mem_write,
	                                   &mem), 0);
	expect_int("bad itype", lt_encoder_push(&enc, &r), LT_ERR_INVAL);
	r.itype = LT_IT_NOTHING;
	expect_int("push", lt_encoder_push(&enc, &r), 0);
	expect_int("finish", lt_encoder_finish(&enc), 0);
	expect_int("push after finish", lt_encoder_push(&enc, &r),
	           LT_ERR_INVAL);
	expect_int("finish twice", lt_encoder_finish(&enc), 0);
	expect_int("bytes", (long long)mem.len, 14);
	lt_encoder_fini(&enc);
	free(mem.data);
}

/* Output chunking and a sticky write error. */
struct chunks {
	struct lt_encoder_mem mem; /* concatenated output */
	size_t calls;              /* write_fn calls */
	size_t max;                /* largest chunk */
	size_t fail_at;            /* fail on this call (1-based), 0 = never */
};

static int chunk_write(void *user, const uint8_t *buf, size_t len)
{
	struct chunks *c = user;

	c->calls++;
	if (len > c->max)
		c->max = len;
	if (c->fail_at && c->calls == c->fail_at)
		return LT_ERR_IO;
	return lt_encoder_mem_write(&c->mem, buf, len);
}

static void test_chunks(void)
{
	struct lt_encoder_config cfg = { LT_FMT_TACIT, LT_ENC_BT, 1024 };
	struct lt_encoder enc;
	struct chunks c = { 0 };
	struct lt_ingress r = { 0x1000, 0, 0, LT_IT_UNINF_JUMP, U };
	const size_t n = 100000;

	lt_encoder_init(&enc, &cfg, chunk_write, &c);
	for (size_t i = 0; i < n; i++) {
		r.time = i * 1000;  /* dt 1000 = 68 87 */
		r.iaddr = (i & 1) ? 0x1000 : 0x1100;  /* xor 0x80 = 00 81 */
		lt_encoder_push(&enc, &r);
	}
	expect_int("chunks finish", lt_encoder_finish(&enc), 0);
	/* start 7 bytes, the first UJ (dt 0) 4 bytes, (n - 2) UJ of 5 bytes,
	 * end 10 bytes */
	expect_int("chunks bytes", (long long)c.mem.len,
	           7 + 4 + (long long)(n - 2) * 5 + 10);
	expect_int("chunks max", c.max <= LT_ENCODER_BUF_SIZE, 1);
	expect_int("chunks calls", c.calls > 1, 1);
	expect_bytes("chunks sample", c.mem.data + 7 + 4 + 5 * 777, 5,
	             "0A 00 81 68 87");
	expect_bytes("chunks end", c.mem.data + c.mem.len - 10, 10,
	             "76 80 80 90 00 90 18 3A 57 AF");
	lt_encoder_fini(&enc);
	free(c.mem.data);

	struct chunks f = { .fail_at = 1 };
	lt_encoder_init(&enc, &cfg, chunk_write, &f);
	for (size_t i = 0; i < n; i++)
		lt_encoder_push(&enc, &r);
	expect_int("sticky error push", lt_encoder_push(&enc, &r), LT_ERR_IO);
	expect_int("sticky error finish", lt_encoder_finish(&enc), LT_ERR_IO);
	expect_int("no writes after error", (long long)f.calls, 1);
	lt_encoder_fini(&enc);
	free(f.mem.data);
}

int main(void)
{
	test_varint();
	test_example1();
	test_example2();
	test_example3();
	test_example4();
	test_bp_counts();
	test_periodic();
	test_start_end();
	test_errors();
	test_chunks();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("encoder: all tests passed\n");
	return 0;
}
