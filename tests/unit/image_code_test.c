/* Code map files (decoder/image_code.c): a good map adds exactly its runs
 * (decodable, with step tables), skips runs over the image's own code and
 * reports the load line; every malformed map is refused with the file and
 * line in the message, leaving the image as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

static int failures;

#define CHECK(c, ...)                                                         \
	do {                                                                  \
		if (!(c)) {                                                   \
			printf("FAIL line %d: ", __LINE__);                   \
			printf(__VA_ARGS__);                                  \
			printf("\n");                                         \
			failures++;                                           \
		}                                                             \
	} while (0)

/* Writes text to a fresh temporary file; returns its path (static). */
static const char *write_map(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/lt-codemap-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("tmp");
		exit(2);
	}
	close(fd);
	return path;
}

/* A fresh image: 8 bytes of code (two nops) at 0x10000. */
static struct lt_image *base_image(void)
{
	static const uint8_t nops[8] = {0x13, 0, 0, 0, 0x13, 0, 0, 0};
	struct lt_image *img;
	if (lt_image_from_code(&img, 0x10000, nops, sizeof(nops), 64) < 0)
		exit(2);
	return img;
}

static void good_map(void)
{
	/* The sigreturn trampoline (li a7,139; ecall), a c.jr ra run, and a
	 * run over the image's own code, which must be skipped. */
	const char *p = write_map("ltpipe-code 1\n"
	                          "# comment\n"
	                          "binary ./prog\n"
	                          "load 10000 10008 10000\n"
	                          "\n"
	                          "4000801000 9308b00873000000\n"
	                          "0x5000 8280\n"
	                          "10004 13000000\n");
	struct lt_image *img = base_image();
	struct lt_codemap_info info;
	char err[256] = "";
	int rc = lt_image_add_codemap(img, p, &info, err, sizeof(err));
	CHECK(rc == 0, "good map refused: %s", err);
	CHECK(info.nruns == 2 && info.nskipped == 1, "runs %zu skipped %zu",
	      info.nruns, info.nskipped);
	CHECK(info.start_code == 0x10000 && info.end_code == 0x10008 &&
	      info.entry_code == 0x10000, "load line misread");
	CHECK(img->nregions == 3, "regions %zu", img->nregions);
	for (size_t i = 1; i < img->nregions; i++)
		CHECK(img->regions[i - 1].end <= img->regions[i].base,
		      "regions not sorted");
	struct lt_insn in;
	CHECK(lt_image_insn(img, 0x4000801004, &in) == 4 &&
	      in.cls == LT_INSN_TRAP, "ecall not decoded (cls %d)", in.cls);
	CHECK(lt_image_insn(img, 0x5000, &in) == 2 &&
	      in.cls == LT_INSN_IJUMP, "c.jr ra not decoded");
	const struct lt_region *r = lt_image_region(img, 0x4000801000);
	CHECK(r && r->hw[0].n == 2 && r->end == 0x4000801008,
	      "trampoline run's step table wrong");
	CHECK(lt_image_insn(img, 0x4000801008, &in) == LT_ERR_NO_MAP,
	      "code past the run");
	lt_image_free(img);
	unlink(p);
}

/* One malformed map: refused, its message naming file and line. */
static void bad_map(const char *text, long line, const char *why)
{
	const char *p = write_map(text);
	struct lt_image *img = base_image();
	struct lt_codemap_info info;
	char err[256] = "", want[128];
	int rc = lt_image_add_codemap(img, p, &info, err, sizeof(err));
	snprintf(want, sizeof(want), "%s:%ld: ", p, line);
	CHECK(rc < 0, "accepted: %s", text);
	CHECK(strncmp(err, want, strlen(want)) == 0 && strstr(err, why),
	      "message '%s', want '%s...%s'", err, want, why);
	CHECK(img->nregions >= 1, "image lost its code");
	lt_image_free(img);
	unlink(p);
}

/* lt_image_relocate: a PIE moved by whole pages is relocated; anything
 * else is another program's trace and refused with the spans named. */
static void relocate(void)
{
	struct lt_image *img = base_image();
	char err[512] = "";
	img->exec_lo = 0x10000;
	img->exec_hi = 0x10008;
	CHECK(lt_image_relocate(img, 0x10000, 0x10008, err, sizeof(err)) == 0 &&
	      img->bias == 0, "at link addresses: bias %llx",
	      (unsigned long long)img->bias);
	CHECK(lt_image_relocate(img, 0x4000010000, 0x4000010008, err,
	                        sizeof(err)) == LT_ERR_INVAL &&
	      strstr(err, "not position-independent"), "not PIE: %s", err);
	img->pie = 1;
	CHECK(lt_image_relocate(img, 0x4000010000, 0x4000010008, err,
	                        sizeof(err)) == 1 &&
	      img->bias == 0x4000000000, "PIE: bias %llx",
	      (unsigned long long)img->bias);
	CHECK(lt_image_relocate(img, 0x4000010800, 0x4000010808, err,
	                        sizeof(err)) == LT_ERR_INVAL && img->bias == 0 &&
	      strstr(err, "0x4000010800-0x4000010808") &&
	      strstr(err, "0x10000-0x10008"), "half a page: %s", err);
	CHECK(lt_image_relocate(img, 0x4000010000, 0x4000010010, err,
	                        sizeof(err)) == LT_ERR_INVAL,
	      "other size accepted");
	lt_image_free(img);
}

int main(void)
{
	relocate();
	good_map();
	bad_map("", 0, "empty file");
	bad_map("ltpipe-code 2\n", 1, "not an ltpipe code map");
	bad_map("ELF\n4000 13000000\n", 1, "not an ltpipe code map");
	bad_map("ltpipe-code 1\nload 1 2\n", 2, "load START END ENTRY");
	bad_map("ltpipe-code 1\nzz 1300\n", 2, "hex address");
	bad_map("ltpipe-code 1\n4000 130\n", 2, "even number of halfwords");
	bad_map("ltpipe-code 1\n4000 13000000 x\n", 2, "even number");
	bad_map("ltpipe-code 1\n4000\n", 2, "even number");
	bad_map("ltpipe-code 1\n4001 1300\n", 2, "odd code address");
	bad_map("ltpipe-code 1\nfffffffffffffffe 13000000\n", 2, "wraps");
	bad_map("ltpipe-code 1\n4000 1300\n4000x 1300\n", 3, "even number");
	struct lt_image *img = base_image();
	struct lt_codemap_info info;
	char err[256] = "";
	CHECK(lt_image_add_codemap(img, "/nonexistent/map", &info, err,
	                           sizeof(err)) == LT_ERR_IO &&
	      strstr(err, "/nonexistent/map: cannot open code map"),
	      "missing file: %s", err);
	lt_image_free(img);
	if (failures)
		return 1;
	printf("image_code: all checks passed\n");
	return 0;
}
