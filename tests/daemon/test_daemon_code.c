/* Exact tests of a session's streamed code map (decoder/daemon_code.c):
 * runs become regions of the session's copy of the image only (the
 * shared image never sees them), touching runs merge and later bytes win,
 * superseded regions and snapshots stay readable, and every malformed,
 * misplaced or over-limit CODE frame gets its ERROR code and a message
 * naming the frame, the line and the address.
 *   test_daemon_code SAMPLE.ELF   (a static, not position-independent
 *                                  RISC-V program with .text at 0x10420) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_code.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/proto.h"

static int failures;

#define CHECK(c)                                                     \
	do {                                                         \
		if (!(c)) {                                          \
			fprintf(stderr, "%s:%d: %s\n", __FILE__,     \
			        __LINE__, #c);                       \
			failures++;                                  \
		}                                                    \
	} while (0)

static char err[512];
static int code;

/* Sends text as one CODE frame at stream offset off, split in two pieces
 * at `cut` (any split must give the same result). */
static int frame(struct lt_dcode *c, uint64_t off, const char *text,
                 size_t cut, int data_started)
{
	size_t n = strlen(text);
	if (cut > n)
		cut = n;
	err[0] = '\0';
	code = 0;
	int rc = lt_dcode_piece(c, off, (const uint8_t *)text, cut, 0,
	                        data_started, &code, err, sizeof(err));
	if (rc != 0)
		return rc;
	return lt_dcode_piece(c, off, (const uint8_t *)text + cut, n - cut, 1,
	                      data_started, &code, err, sizeof(err));
}

/* Expects one frame to fail with ERROR code want and message msg. */
static void expect_error(const struct lt_image *img, const char *text,
                         int data_started, uint64_t max_bytes, int want,
                         const char *msg)
{
	struct lt_dcode *c = lt_dcode_new(img, max_bytes, 1u << 20);
	int rc = frame(c, 100, text, 3, data_started);
	CHECK(rc < 0);
	CHECK(code == want);
	if (strcmp(err, msg)) {
		fprintf(stderr, "message:\n  got  %s\n  want %s\n", err, msg);
		failures++;
	}
	lt_dcode_free(c);
}

static void test_merge(const struct lt_image *shared)
{
	struct lt_dcode *c = lt_dcode_new(shared, 1u << 20, 1u << 20);
	const struct lt_image *img = lt_dcode_image(c);
	CHECK(img != shared && img->nregions == shared->nregions);
	/* Two runs apart (nop; c.nop), split mid-line. */
	CHECK(frame(c, 0, "# streamed\nbinary /x\n100000 13000000\n"
	            "100008 0100\n", 30, 1) == 1);
	CHECK(lt_dcode_regions(c) == 2 && lt_dcode_bytes(c) == 6);
	const struct lt_region *r1 = lt_image_region(img, 0x100002);
	CHECK(r1 && r1->base == 0x100000 && r1->end == 0x100004 && r1->owned);
	CHECK(lt_image_region(img, 0x100004) == NULL);
	CHECK(lt_image_region(img, 0x100008) != NULL);
	/* Another session on the same program sees none of it. */
	CHECK(lt_image_region(shared, 0x100002) == NULL);
	CHECK(lt_image_region(img, 0x10420) == &shared->regions[0] ||
	      lt_image_region(img, 0x10420) == lt_image_region(shared, 0x10420));
	const struct lt_added_code *old = img->added;
	CHECK(old && old->n == 2);

	/* The gap filled: one region; the old ones still readable. */
	CHECK(frame(c, 50, "100004 01000100\n", 0, 1) == 1);
	CHECK(lt_dcode_regions(c) == 1 && lt_dcode_bytes(c) == 10);
	const struct lt_region *r = lt_image_region(img, 0x100009);
	CHECK(r && r->base == 0x100000 && r->end == 0x10000a);
	/* nop, c.nop x3, then the end: one straight line of 4. */
	CHECK(r && r->hw[0].n == 4 && r->hw[0].cls == LT_INSN_INVALID);
	CHECK(r1->end == 0x100004 && r1->bytes[0] == 0x13 && old->n == 2);

	/* Code that changed: the later bytes win (a 4-byte nop over two
	 * c.nops), and a run inside the region keeps it whole. */
	CHECK(frame(c, 80, "100004 13000000\n", 5, 1) == 1);
	r = lt_image_region(img, 0x100004);
	CHECK(lt_dcode_regions(c) == 1 && r && r->end == 0x10000a);
	CHECK(r && r->bytes[4] == 0x13 && r->bytes[5] == 0 && r->hw[0].n == 3);
	/* Comments only: nothing changes, nothing to publish. */
	CHECK(frame(c, 99, "# nothing\n\n", 4, 1) == 0);
	CHECK(lt_dcode_frames(c) == 4 && !lt_dcode_loaded(c));
	lt_dcode_free(c);
}

static void test_load(const struct lt_image *shared)
{
	char line[128];
	snprintf(line, sizeof(line), "load %" PRIx64 " %" PRIx64 " 10420\n",
	         shared->exec_lo, shared->exec_hi);
	struct lt_dcode *c = lt_dcode_new(shared, 1u << 20, 1u << 20);
	/* Where it was linked: nothing to relocate. */
	CHECK(frame(c, 0, line, 7, 0) == 0 && lt_dcode_loaded(c));
	CHECK(lt_dcode_image(c)->bias == 0);
	CHECK(frame(c, 40, line, 7, 0) < 0 && code == LT_PC_PROTO);
	CHECK(!strcmp(err, "CODE frame at byte 40, line 1: a second load "
	              "line"));
	lt_dcode_free(c);
	snprintf(err, sizeof(err), "CODE frame at byte 100, line 1: a load "
	         "line after trace data (where the program ran must come "
	         "before its first trace byte)");
	char want[512];
	snprintf(want, sizeof(want), "%s", err);
	expect_error(shared, line, 1, 1u << 20, LT_PC_PROTO, want);
	/* Moved, but it is not position-independent. */
	snprintf(line, sizeof(line), "load %" PRIx64 " %" PRIx64 " 0\n",
	         shared->exec_lo + 0x100000, shared->exec_hi + 0x100000);
	snprintf(want, sizeof(want), "CODE frame at byte 100, line 1: %s ran "
	         "with its code at 0x%" PRIx64 "-0x%" PRIx64 ", but its "
	         "executable segments are 0x%" PRIx64 "-0x%" PRIx64 " and it "
	         "is not position-independent: another program ran?",
	         shared->path, shared->exec_lo + 0x100000,
	         shared->exec_hi + 0x100000, shared->exec_lo, shared->exec_hi);
	expect_error(shared, line, 0, 1u << 20, LT_PC_ELF, want);
}

static void test_errors(const struct lt_image *shared)
{
	expect_error(shared, "10420 0100\n", 1, 1u << 20, LT_PC_PROTO,
	             "CODE frame at byte 100, line 1: code at 0x10420-0x10422 "
	             "overlaps the program's own code (.text)");
	expect_error(shared, "100000 0100\nxyz 0100\n", 1, 1u << 20,
	             LT_PC_PROTO, "CODE frame at byte 100, line 2: expected a "
	             "hex address");
	expect_error(shared, "100000 010\n", 1, 1u << 20, LT_PC_PROTO,
	             "CODE frame at byte 100, line 1: expected the code as an "
	             "even number of halfwords in hex");
	expect_error(shared, "100001 0100\n", 1, 1u << 20, LT_PC_PROTO,
	             "CODE frame at byte 100, line 1: odd code address");
	expect_error(shared, "load 1 2\n", 0, 1u << 20, LT_PC_PROTO,
	             "CODE frame at byte 100, line 1: expected 'load START "
	             "END ENTRY' in hex");
	struct lt_dcode *n = lt_dcode_new(shared, 1u << 20, 1u << 20);
	CHECK(lt_dcode_piece(n, 100, (const uint8_t *)"ab\0cd\n", 6, 1, 1,
	                     &code, err, sizeof(err)) < 0 &&
	      code == LT_PC_PROTO);
	CHECK(!strcmp(err, "CODE frame at byte 100: a NUL byte in the code map "
	              "text"));
	lt_dcode_free(n);
	/* Limits: run bytes received in all, and bytes rebuilt. */
	expect_error(shared, "100000 01000100\n100010 0100010001000100\n", 1,
	             8, LT_PC_LIMIT, "CODE frame at byte 100, line 2: code at "
	             "0x100010 brings the session's code map over the limit "
	             "of 8 bytes");
	struct lt_dcode *c = lt_dcode_new(shared, 1u << 20, 8);
	CHECK(frame(c, 0, "100000 010001000100\n", 2, 1) == 1);
	CHECK(frame(c, 30, "100006 0100\n", 2, 1) < 0 && code == LT_PC_LIMIT);
	CHECK(!strcmp(err, "code map: regions rebuilt for 14 bytes, over the "
	              "limit of 8 (too many small CODE frames next to each "
	              "other)"));
	lt_dcode_free(c);
}

int main(int argc, char **argv)
{
	struct lt_image *img;
	char e[512];
	if (argc != 2 || lt_image_load(&img, argv[1], e, sizeof(e)) < 0) {
		fprintf(stderr, "usage: test_daemon_code SAMPLE.ELF (%s)\n",
		        argc == 2 ? e : "");
		return 2;
	}
	test_merge(img);
	test_load(img);
	test_errors(img);
	lt_image_free(img);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
