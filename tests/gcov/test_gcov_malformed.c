/* Malformed-input tests for the gcno and gcda readers, run on a real gcc 12
 * (byte-length, little-endian) gcno/gcda pair given on the command line:
 *
 *   test_gcov_malformed FILE.gcno FILE.gcda
 *
 * Every truncation at a multiple of 7 bytes, a bad magic, an unknown
 * version, absurd lengths and counts, out-of-range block indices, bad
 * strings and random corruption must give LT_ERR_BAD_FORMAT and a message
 * naming the file and the exact byte offset (where the test knows it) --
 * never a crash (the meson suite also runs this under ASan/UBSan). Unknown
 * records must be skipped, and a truncation exactly at a record boundary
 * must parse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/gcov.h"

static int failures;

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		if (!(cond)) {                                               \
			failures++;                                          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
		}                                                            \
	} while (0)

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	uint8_t *b = malloc(*len + 64);
	if (!b || fread(b, 1, *len, f) != *len)
		exit(2);
	fclose(f);
	return b;
}

static uint32_t rd(const uint8_t *b, size_t at)
{
	return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 |
	       (uint32_t)b[at + 2] << 16 | (uint32_t)b[at + 3] << 24;
}

static void wr(uint8_t *b, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[at + i] = (uint8_t)(v >> (8 * i));
}

/* Record starts of a gcc 12 file, plus its end: the truncation lengths at
 * which the file still parses. */
struct walk {
	size_t bound[4096]; /* lengths that parse */
	size_t n_bound;     /* entries in bound */
	size_t rec[4096];   /* offsets of records (tag words) */
	uint32_t tag[4096]; /* their tags */
	size_t n_rec;       /* entries in rec */
};

static void walk_file(const uint8_t *b, size_t len, int gcda, struct walk *w)
{
	size_t p = 16;
	if (!gcda)
		p += 4 + rd(b, 16) + 4; /* cwd string, has_unexecuted_blocks */
	w->n_bound = w->n_rec = 0;
	while (p + 4 <= len && w->n_rec < 4096) {
		w->bound[w->n_bound++] = p;
		uint32_t tag = rd(b, p);
		if (tag == 0) {
			w->bound[w->n_bound++] = p + 4;
			return;
		}
		uint32_t length = p + 8 <= len ? rd(b, p + 4) : 0;
		w->rec[w->n_rec] = p;
		w->tag[w->n_rec++] = tag;
		if (gcda && (int32_t)length < 0)
			length = 0;
		p += 8 + length;
	}
	w->bound[w->n_bound++] = p;
}

static int is_bound(const struct walk *w, size_t l)
{
	for (size_t i = 0; i < w->n_bound; i++)
		if (w->bound[i] == l)
			return 1;
	return 0;
}

static size_t find_rec(const struct walk *w, uint32_t tag, int nth)
{
	for (size_t i = 0; i < w->n_rec; i++)
		if (w->tag[i] == tag && nth-- == 0)
			return w->rec[i];
	return 0;
}

/* Parses buf as gcno or gcda; returns rc and leaves the message in err. */
static int parse(int gcda, const uint8_t *buf, size_t len, char *err,
                 size_t errlen)
{
	int rc;
	if (gcda) {
		struct lt_gcda *d;
		rc = lt_gcda_parse(buf, len, "in.gcda", &d, err, errlen);
		lt_gcda_free(d);
	} else {
		struct lt_gcno *g;
		rc = lt_gcno_parse(buf, len, "in.gcno", &g, err, errlen);
		lt_gcno_free(g);
	}
	return rc;
}

/* Expects a failure whose message contains "offset OFF:" (OFF = -1: any
 * offset) and the text want. */
static void expect_error(int gcda, const uint8_t *buf, size_t len, long off,
                         const char *want, const char *what)
{
	char err[512] = "";
	int rc = parse(gcda, buf, len, err, sizeof(err));
	char o[64];
	if (off >= 0)
		snprintf(o, sizeof(o), "offset %ld:", off);
	else
		snprintf(o, sizeof(o), "offset ");
	CHECK(rc == LT_ERR_BAD_FORMAT, "%s: rc %d, want LT_ERR_BAD_FORMAT",
	      what, rc);
	CHECK(strncmp(err, gcda ? "in.gcda: " : "in.gcno: ", 9) == 0 &&
	      strstr(err, o) && strstr(err, want),
	      "%s: message \"%s\" lacks \"%s\" / \"%s\"", what, err, o, want);
}

static void test_truncation(int gcda, const uint8_t *b, size_t len)
{
	struct walk w;
	walk_file(b, len, gcda, &w);
	CHECK(is_bound(&w, len), "walker does not end at the file end");
	char err[512];
	for (size_t l = 0; l < len; l += 7) {
		err[0] = 0;
		int rc = parse(gcda, b, l, err, sizeof(err));
		if (is_bound(&w, l)) {
			CHECK(rc == 0, "%s cut at record boundary %zu: %s",
			      gcda ? "gcda" : "gcno", l, err);
			continue;
		}
		CHECK(rc == LT_ERR_BAD_FORMAT && strstr(err, "offset "),
		      "%s truncated to %zu: rc %d \"%s\"",
		      gcda ? "gcda" : "gcno", l, rc, err);
	}
}

static void test_gcno(const uint8_t *orig, size_t len)
{
	uint8_t *b = malloc(len + 64);
	struct walk w;
	walk_file(orig, len, 0, &w);
	char err[512];
	struct lt_gcno *g;
	int rc = lt_gcno_parse(orig, len, "in.gcno", &g, err, sizeof(err));
	CHECK(rc == 0, "real gcno: %s", err);
	if (rc)
		exit(1);

	test_truncation(0, orig, len);

	memcpy(b, orig, len);
	b[0] ^= 0xff;
	expect_error(0, b, len, 0, "bad magic", "bad magic");

	memcpy(b, orig, len);
	memcpy(b + 4, "*99A", 4);
	expect_error(0, b, len, 4, "unknown version", "version A99*");
	memcpy(b + 4, "*30B", 4); /* gcc 10.3: not supported */
	expect_error(0, b, len, 4, "unknown version", "version B03*");

	size_t fn = find_rec(&w, LT_GCOV_TAG_FUNCTION, 0);
	memcpy(b, orig, len);
	wr(b, fn + 4, 0xfffffff0u);
	expect_error(0, b, len, (long)fn, "runs past the end",
	             "absurd FUNCTION length");

	/* The name string: its length runs past the record. */
	memcpy(b, orig, len);
	uint32_t name_len = rd(b, fn + 20);
	wr(b, fn + 20, 0x7fffffffu);
	expect_error(0, b, len, (long)fn + 20, "runs past the end",
	             "absurd string length");
	/* An unterminated name. */
	memcpy(b, orig, len);
	b[fn + 24 + name_len - 1] = 'x';
	expect_error(0, b, len, (long)fn + 20, "not NUL-terminated",
	             "unterminated string");

	size_t blk = find_rec(&w, LT_GCOV_TAG_BLOCKS, 0);
	uint32_t n_blocks = rd(orig, blk + 8);
	memcpy(b, orig, len);
	wr(b, blk + 8, 0xffffffffu);
	expect_error(0, b, len, (long)blk + 8, "absurd block count",
	             "absurd block count");

	size_t arcs = find_rec(&w, LT_GCOV_TAG_ARCS, 1);
	memcpy(b, orig, len);
	wr(b, arcs + 12, n_blocks);
	expect_error(0, b, len, (long)arcs + 12, "out of range",
	             "arc destination out of range");
	memcpy(b, orig, len);
	wr(b, arcs + 8, 0x10000);
	expect_error(0, b, len, (long)arcs + 8, "out of range",
	             "arc source out of range");
	memcpy(b, orig, len);
	wr(b, arcs + 4, rd(b, arcs + 4) - 4);
	expect_error(0, b, len, (long)arcs, "8 bytes per arc",
	             "ARCS length not 4 + 8n");

	size_t lines = find_rec(&w, LT_GCOV_TAG_LINES, 0);
	memcpy(b, orig, len);
	wr(b, lines + 8, n_blocks + 7);
	expect_error(0, b, len, (long)lines + 8, "out of range",
	             "LINES block out of range");
	/* A LINES record whose NULL terminator is cut off by its length. */
	memcpy(b, orig, len);
	wr(b, lines + 4, rd(b, lines + 4) - 8);
	expect_error(0, b, len, -1, "LINES", "LINES without terminator");

	/* Records out of order. */
	memcpy(b, orig, len);
	wr(b, blk, LT_GCOV_TAG_ARCS);
	expect_error(0, b, len, (long)blk, "before its BLOCKS",
	             "ARCS before BLOCKS");

	/* Unknown records (a gcc 15 PATHS record, say) are skipped. */
	size_t at = w.rec[0];
	memcpy(b, orig, at);
	wr(b + at, 0, 0x01490000);
	wr(b + at, 4, 8);
	memset(b + at + 8, 0xee, 8);
	size_t at2 = find_rec(&w, LT_GCOV_TAG_FUNCTION, 1);
	if (!at2)
		at2 = len;
	/* ... and a gcc 14 CONDS record (block 2, 3 terms) ends the first
	 * function's records. */
	size_t conds = at + 16 + (at2 - at);
	memcpy(b + at + 16, orig + at, at2 - at);
	wr(b + conds, 0, LT_GCOV_TAG_CONDS);
	wr(b + conds, 4, 8);
	wr(b + conds, 8, 2);
	wr(b + conds, 12, 3);
	memcpy(b + conds + 16, orig + at2, len - at2);
	struct lt_gcno *g2;
	rc = lt_gcno_parse(b, len + 32, "in.gcno", &g2, err, sizeof(err));
	CHECK(rc == 0, "unknown records not skipped: %s", err);
	if (!rc) {
		CHECK(g2->fns[0].n_conds == 1 &&
		      g2->fns[0].conds[0].block == 2 &&
		      g2->fns[0].conds[0].n_terms == 3,
		      "CONDS record not read");
		int same = g2->n_fns == g->n_fns && g2->n_files == g->n_files;
		for (uint32_t i = 0; same && i < g->n_fns; i++)
			same = g2->fns[i].ident == g->fns[i].ident &&
			       g2->fns[i].n_arcs == g->fns[i].n_arcs &&
			       g2->fns[i].n_counters == g->fns[i].n_counters &&
			       memcmp(g2->fns[i].arcs, g->fns[i].arcs,
			              g->fns[i].n_arcs *
			                      sizeof(*g->fns[i].arcs)) == 0;
		CHECK(same, "unknown records changed the model");
		lt_gcno_free(g2);
	}
	wr(b + conds, 8, n_blocks);
	expect_error(0, b, len + 32, (long)conds + 8, "out of range",
	             "CONDS block out of range");
	lt_gcno_free(g);
	free(b);
}

static void test_gcda(const uint8_t *orig, size_t len, const uint8_t *gcno,
                      size_t gcno_len)
{
	uint8_t *b = malloc(len + 64);
	char err[512];
	struct walk w;
	walk_file(orig, len, 1, &w);
	struct lt_gcda *d;
	int rc = lt_gcda_parse(orig, len, "in.gcda", &d, err, sizeof(err));
	CHECK(rc == 0, "real gcda: %s", err);
	if (rc)
		exit(1);
	uint8_t *enc;
	size_t enc_len;
	CHECK(lt_gcda_encode(d, &enc, &enc_len) == 0 && enc_len == len &&
	      memcmp(enc, orig, len) == 0,
	      "gcda does not re-encode byte for byte");
	free(enc);
	lt_gcda_free(d);

	test_truncation(1, orig, len);

	memcpy(b, orig, len);
	b[3] = 'x';
	expect_error(1, b, len, 0, "bad magic", "gcda bad magic");
	expect_error(1, gcno, gcno_len, 0, "bad magic", "gcno as gcda");
	expect_error(0, orig, len, 0, "bad magic", "gcda as gcno");

	size_t ctr = find_rec(&w, LT_GCOV_TAG_FOR_COUNTER(0), 0);
	memcpy(b, orig, len);
	wr(b, ctr + 4, 0x7ffffff8u);
	expect_error(1, b, len, (long)ctr, "run past the end",
	             "absurd counter length");
	memcpy(b, orig, len);
	wr(b, ctr + 4, 12);
	expect_error(1, b, len, (long)ctr, "whole number",
	             "counter length not 8n");
	/* A huge all-zero record has no data: it must parse without
	 * allocating for it. */
	memcpy(b, orig, len);
	memmove(b + ctr + 8, b + ctr + 8 + rd(orig, ctr + 4),
	        len - (ctr + 8 + rd(orig, ctr + 4)));
	size_t short_len = len - rd(orig, ctr + 4);
	wr(b, ctr + 4, 0x80000000u);
	rc = lt_gcda_parse(b, short_len, "in.gcda", &d, err, sizeof(err));
	CHECK(rc == 0 && d->fns[0].ctrs[0].all_zero &&
	      d->fns[0].ctrs[0].n == 0x10000000u,
	      "negative-length record: rc %d %s", rc, err);
	lt_gcda_free(d);

	size_t sum = find_rec(&w, LT_GCOV_TAG_OBJECT_SUMMARY, 0);
	memcpy(b, orig, len);
	wr(b, sum, LT_GCOV_TAG_FOR_COUNTER(0));
	expect_error(1, b, len, (long)sum, "outside a FUNCTION",
	             "counters before any FUNCTION");
	memcpy(b, orig, len);
	wr(b, sum + 4, 4);
	expect_error(1, b, len, (long)sum, "expected 8",
	             "short OBJECT_SUMMARY");
	size_t fn = find_rec(&w, LT_GCOV_TAG_FUNCTION, 0);
	memcpy(b, orig, len);
	wr(b, fn + 4, 8);
	expect_error(1, b, len, (long)fn, "expected 12",
	             "FUNCTION of 8 bytes");
	free(b);
}

/* Random corruption: never a crash, and every failure names an offset. */
static void test_random(int gcda, const uint8_t *orig, size_t len)
{
	uint8_t *b = malloc(len + 64);
	unsigned seed = 12345;
	char err[512];
	int bad = 0, ok = 0;
	for (int it = 0; it < 4000; it++) {
		memcpy(b, orig, len);
		int flips = 1 + it % 4;
		for (int f = 0; f < flips; f++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % len;
			seed = seed * 1103515245u + 12345u;
			if (it & 1)
				b[at] = (uint8_t)(seed >> 16);
			else if (at + 4 <= len)
				wr(b, at & ~(size_t)3, seed);
		}
		err[0] = 0;
		int rc = parse(gcda, b, len, err, sizeof(err));
		if (rc) {
			bad++;
			CHECK(rc == LT_ERR_BAD_FORMAT && strstr(err, "offset "),
			      "random corruption %d: rc %d \"%s\"", it, rc,
			      err);
		} else {
			ok++;
		}
	}
	printf("%s: %d random corruptions rejected, %d still parse\n",
	       gcda ? "gcda" : "gcno", bad, ok);
	free(b);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE.gcno FILE.gcda\n", argv[0]);
		return 2;
	}
	size_t gcno_len, gcda_len;
	uint8_t *gcno = slurp(argv[1], &gcno_len);
	uint8_t *gcda = slurp(argv[2], &gcda_len);
	test_gcno(gcno, gcno_len);
	test_gcda(gcda, gcda_len, gcno, gcno_len);
	test_random(0, gcno, gcno_len);
	test_random(1, gcda, gcda_len);
	free(gcno);
	free(gcda);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("all malformed-input checks passed\n");
	return failures ? 1 : 0;
}
