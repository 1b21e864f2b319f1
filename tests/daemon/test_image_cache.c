/* The daemon's image cache (decoder/daemon_images.c): one load per file
 * shared by every get, references, the idle limit (least recently used
 * freed first), a rebuilt file loaded afresh and its old image freed once
 * idle, build-id lookup and mismatch, and an unreadable path.
 * usage: test_image_cache ELF (any loadable ELF; copies go to a temp dir) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon_images.h"

static int failures;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			failures++;                                       \
			fprintf(stderr, "FAIL line %d: ", __LINE__);      \
			fprintf(stderr, __VA_ARGS__);                     \
			fputc('\n', stderr);                              \
		}                                                         \
	} while (0)

/* Copies src to dst (a new file, so a new inode). */
static void copy(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	char buf[65536];
	size_t n;
	if (!in || !out) {
		perror(dst);
		exit(2);
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
}

/* Gets path's image; NULL on error (message in err). */
static const struct lt_image *get(struct lt_image_cache *c, const char *path,
                                  char *err)
{
	const struct lt_image *img;
	if (lt_image_cache_get(c, path, NULL, 0, &img, err, 256) < 0)
		return NULL;
	return img;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_image_cache ELF\n");
		return 2;
	}
	char dir[] = "/tmp/lt-imgcache-XXXXXX", path[8][64], err[256];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	for (int i = 0; i < 8; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/p%d.elf", dir, i);
		copy(argv[1], path[i]);
	}
	struct lt_image_cache *c = lt_image_cache_new();

	/* One load per file, shared. */
	const struct lt_image *a = get(c, path[0], err);
	const struct lt_image *a2 = get(c, path[0], err);
	CHECK(a && a == a2, "two gets of one file: one image");
	CHECK(lt_image_cache_count(c) == 1, "count %zu, want 1",
	      lt_image_cache_count(c));

	/* In use: never freed, whatever the idle limit. */
	const struct lt_image *img[8];
	for (int i = 1; i < 8; i++) {
		img[i] = get(c, path[i], err);
		CHECK(img[i] != NULL, "%s: %s", path[i], err);
	}
	CHECK(lt_image_cache_count(c) == 8, "count %zu, want 8",
	      lt_image_cache_count(c));
	for (int i = 1; i < 8; i++)
		lt_image_cache_put(c, img[i]);
	/* 7 idle (p1..p7) and p0 held twice: the 3 oldest idle go. */
	CHECK(lt_image_cache_count(c) == 1 + LT_IMAGE_CACHE_IDLE,
	      "count %zu after puts, want %d", lt_image_cache_count(c),
	      1 + LT_IMAGE_CACHE_IDLE);
	/* p7 (most recent) is still the same image; p1 was loaded anew. */
	const struct lt_image *b = get(c, path[7], err);
	CHECK(b == img[7], "p7 kept loaded while idle");
	lt_image_cache_put(c, b);
	lt_image_cache_put(c, a2);
	CHECK(lt_image_cache_count(c) == 1 + LT_IMAGE_CACHE_IDLE,
	      "count %zu: p0 still referenced once", lt_image_cache_count(c));

	/* p0 rebuilt while in use: the next get loads it afresh; the old
	 * image lives until its last put. */
	copy(argv[1], path[0]);
	struct timespec later[2] = { { 0, UTIME_OMIT }, { time(NULL) + 10, 0 } };
	utimensat(AT_FDCWD, path[0], later, 0);
	const struct lt_image *fresh = get(c, path[0], err);
	CHECK(fresh && fresh != a, "rebuilt file: a new image");
	size_t before = lt_image_cache_count(c);
	lt_image_cache_put(c, a);
	CHECK(lt_image_cache_count(c) == before - 1,
	      "stale image freed at its last put (%zu -> %zu)", before,
	      lt_image_cache_count(c));

	/* Build-id lookup finds a loaded image; a mismatch is an error that
	 * takes no reference. */
	if (fresh && fresh->build_id) {
		const struct lt_image *byid;
		int rc = lt_image_cache_get(c, NULL, fresh->build_id,
		                            fresh->build_id_len, &byid, err,
		                            sizeof(err));
		CHECK(rc == 0 && byid == fresh, "by build-id: %s", err);
		lt_image_cache_put(c, byid);
		uint8_t other[20] = { 1, 2, 3 };
		rc = lt_image_cache_get(c, path[0], other, sizeof(other), &byid,
		                        err, sizeof(err));
		CHECK(rc < 0 && byid == NULL && strstr(err, "build-id"),
		      "build-id mismatch refused: %s", err);
	}
	lt_image_cache_put(c, fresh);
	CHECK(lt_image_cache_count(c) <= LT_IMAGE_CACHE_IDLE,
	      "count %zu once all idle", lt_image_cache_count(c));

	/* An unreadable path names itself. */
	char missing[80];
	snprintf(missing, sizeof(missing), "%s/missing.elf", dir);
	CHECK(get(c, missing, err) == NULL && strstr(err, "missing.elf"),
	      "missing file: %s", err);

	lt_image_cache_free(c);
	for (int i = 0; i < 8; i++)
		unlink(path[i]);
	rmdir(dir);
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("image cache: all tests passed\n");
	return 0;
}
