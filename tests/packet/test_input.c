/* Trace input tests: raw and zstd files (one and several frames, detected
 * by magic whatever the name), stdin as a pipe fed in odd pieces, corrupt
 * and truncated zstd, missing and unreadable files, and the packet parser
 * fed by the input's chunks. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "decoder/trace_input.h"
#include "ltpipe/error.h"
#include "ltpipe/packet.h"

static int failures;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		if (!(cond)) {                                          \
			failures++;                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                   \
			fputc('\n', stderr);                            \
		}                                                       \
	} while (0)

static char dir[256];

/* Returns dir/name in a static buffer (one at a time). */
static const char *tmp(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

/* Compresses d[0..n) as one zstd frame with a content checksum; returns
 * a malloc'd buffer and its size in *zn. */
static uint8_t *compress(const uint8_t *d, size_t n, size_t *zn)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(n);
	uint8_t *z = malloc(cap);

	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	*zn = ZSTD_compress2(c, z, cap, d, n);
	if (ZSTD_isError(*zn)) {
		fprintf(stderr, "compress: %s\n", ZSTD_getErrorName(*zn));
		exit(2);
	}
	ZSTD_freeCCtx(c);
	return z;
}

/* Everything one input yielded. */
struct got {
	uint8_t *data;     /* all chunks concatenated */
	size_t len;        /* bytes in data */
	ssize_t last;      /* the final lt_input_read() result (0 or error) */
	size_t max_chunk;  /* largest chunk seen */
	uint64_t size;     /* lt_input_size() */
	uint64_t consumed; /* lt_input_consumed() at the end */
	int zstd;          /* lt_input_is_zstd() */
	char msg[512];     /* lt_input_error() at the end */
};

/* Opens path and reads it to the end or the first error into g. Returns
 * the lt_input_open() result. */
static int slurp(const char *path, struct got *g, size_t cap)
{
	struct lt_input *in;
	char err[512] = "";
	const uint8_t *c;
	ssize_t n;
	int rc = lt_input_open(&in, path, err, sizeof(err));

	memset(g, 0, sizeof(*g));
	if (rc) {
		snprintf(g->msg, sizeof(g->msg), "%s", err);
		return rc;
	}
	g->data = malloc(cap ? cap : 1);
	g->zstd = lt_input_is_zstd(in);
	while ((n = lt_input_read(in, &c)) > 0) {
		CHECK((size_t)n <= LT_INPUT_CHUNK, "chunk of %zd bytes", n);
		if ((size_t)n > g->max_chunk)
			g->max_chunk = (size_t)n;
		if (g->len + (size_t)n <= cap)
			memcpy(g->data + g->len, c, (size_t)n);
		g->len += (size_t)n;
	}
	g->last = n;
	CHECK(lt_input_read(in, &c) == n, "%s: result not sticky", path);
	CHECK(lt_input_produced(in) == g->len, "%s: produced %llu, want %zu",
	      path, (unsigned long long)lt_input_produced(in), g->len);
	g->size = lt_input_size(in);
	g->consumed = lt_input_consumed(in);
	snprintf(g->msg, sizeof(g->msg), "%s", lt_input_error(in));
	lt_input_close(in);
	return 0;
}

/* Reads `path` and expects exactly want[0..n), compressed or not. */
static void expect_file(const char *path, const uint8_t *want, size_t n,
			int zstd, uint64_t fsize)
{
	struct got g;

	CHECK(slurp(path, &g, n + 16) == 0, "%s: open failed: %s", path, g.msg);
	CHECK(g.last == 0, "%s: ended with %zd: %s", path, g.last, g.msg);
	CHECK(g.len == n && memcmp(g.data, want, n) == 0,
	      "%s: %zu bytes, want %zu, or content differs", path, g.len, n);
	CHECK(g.zstd == zstd, "%s: zstd %d, want %d", path, g.zstd, zstd);
	CHECK(g.size == fsize, "%s: size %llu, want %llu", path,
	      (unsigned long long)g.size, (unsigned long long)fsize);
	CHECK(g.consumed == fsize, "%s: consumed %llu, want %llu", path,
	      (unsigned long long)g.consumed, (unsigned long long)fsize);
	CHECK(g.msg[0] == 0, "%s: message without error: %s", path, g.msg);
	free(g.data);
}

/* Writes d[0..n) to fd in pieces of 1, 2, 1, 3, 5, 4099, 77777, ... bytes,
 * pausing after the first few so the reader sees them separately. */
static void write_odd(int fd, const uint8_t *d, size_t n)
{
	static const size_t piece[] = { 1, 2, 1, 3, 5, 4099, 77777, 65537, 13 };
	size_t off = 0, k = 0;

	while (off < n) {
		size_t m = piece[k % (sizeof(piece) / sizeof(piece[0]))];
		ssize_t w;

		if (m > n - off)
			m = n - off;
		w = write(fd, d + off, m);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			_exit(3);
		}
		off += (size_t)w;
		if (k++ < 5) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
}

/* Reads "-" with stdin a pipe that a child feeds with d in odd pieces;
 * expects want[0..wn). */
static void expect_pipe(const uint8_t *d, size_t n, const uint8_t *want,
			size_t wn, int zstd)
{
	int fds[2], saved = dup(STDIN_FILENO), status;
	pid_t pid;
	struct got g;

	if (pipe(fds) != 0 || saved < 0) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		write_odd(fds[1], d, n);
		_exit(0);
	}
	close(fds[1]);
	dup2(fds[0], STDIN_FILENO);
	close(fds[0]);
	CHECK(slurp("-", &g, wn + 16) == 0, "stdin: open failed: %s", g.msg);
	CHECK(g.last == 0, "stdin: ended with %zd: %s", g.last, g.msg);
	CHECK(g.len == wn && memcmp(g.data, want, wn) == 0,
	      "stdin: %zu bytes, want %zu, or content differs", g.len, wn);
	CHECK(g.zstd == zstd, "stdin: zstd %d, want %d", g.zstd, zstd);
	CHECK(g.size == 0, "stdin pipe: size %llu", (unsigned long long)g.size);
	CHECK(g.consumed == n, "stdin: consumed %llu, want %zu",
	      (unsigned long long)g.consumed, n);
	free(g.data);
	dup2(saved, STDIN_FILENO);
	close(saved);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer failed");
}

/* Expects reading `path` to fail with LT_ERR_ZSTD with a message naming
 * the file, an offset and `what`; if `prefix`, the bytes delivered before
 * must be a prefix of want (not so for corrupt blocks, which zstd may
 * decode to garbage before the frame checksum catches them). */
static void expect_zstd_error(const char *path, const uint8_t *want,
			      size_t n, const char *what, int prefix)
{
	struct got g;

	CHECK(slurp(path, &g, n + 16) == 0, "%s: open failed", path);
	CHECK(g.last == LT_ERR_ZSTD, "%s: ended with %zd, want LT_ERR_ZSTD",
	      path, g.last);
	CHECK(!prefix || (g.len <= n && memcmp(g.data, want, g.len) == 0),
	      "%s: delivered bytes are not a prefix of the data", path);
	CHECK(strstr(g.msg, path) == g.msg, "%s: message '%s' lacks the name",
	      path, g.msg);
	CHECK(strstr(g.msg, "offset") && strstr(g.msg, what),
	      "%s: message '%s' lacks offset/'%s'", path, g.msg, what);
	CHECK(strchr(g.msg, '\n') == NULL, "%s: message is not one line", path);
	free(g.data);
}

/* The packet parser fed by the input's chunks (a zstd file: packets cut
 * at the decompressed chunk edges) gives the same packets as one parse of
 * the whole buffer. */
static void test_parse_through_input(const uint8_t *d, size_t n,
				     const uint8_t *z, size_t zn)
{
	struct lt_parser p;
	struct lt_packet k;
	uint64_t h1 = 0, h2 = 0, c1 = 0, c2 = 0;
	size_t pos = 0;
	int r;

	lt_parser_init(&p, LT_FMT_TACIT);
	while ((r = lt_parser_next(&p, d, n, &pos, &k)) != 0) {
		h1 = h1 * 31 + k.offset * 7 + (r == 1 ? k.value + k.target : 1);
		c1++;
	}
	write_file(tmp("parse.zst"), z, zn);
	{
		struct lt_input *in;
		const uint8_t *c;
		ssize_t m;
		char err[256];

		CHECK(lt_input_open(&in, tmp("parse.zst"), err, sizeof(err)) == 0,
		      "open: %s", err);
		lt_parser_init(&p, LT_FMT_TACIT);
		while ((m = lt_input_read(in, &c)) > 0) {
			pos = 0;
			while ((r = lt_parser_next(&p, c, (size_t)m, &pos, &k)) != 0) {
				h2 = h2 * 31 + k.offset * 7 +
				     (r == 1 ? k.value + k.target : 1);
				c2++;
			}
		}
		CHECK(m == 0, "parse input ended with %zd", m);
		lt_input_close(in);
	}
	CHECK(c1 == c2 && h1 == h2, "chunked parse: %llu packets, want %llu",
	      (unsigned long long)c2, (unsigned long long)c1);
}

int main(void)
{
	size_t n = 3 * LT_INPUT_CHUNK + 17, zn, zn2, i;
	uint8_t *d = malloc(n), *z, *z2, *both, *bad;
	uint64_t s = 0x2545F4914F6CDD1Dull;
	const char *tdir = getenv("TMPDIR");
	struct got g;

	snprintf(dir, sizeof(dir), "%s/lt-input-XXXXXX", tdir ? tdir : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	/* compressible but not trivial: runs of packet-like bytes */
	for (i = 0; i < n; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		d[i] = (s & 0x300) ? (uint8_t)(s & 0x1f) : (uint8_t)(s >> 40);
	}
	z = compress(d, n, &zn);

	/* raw file, including a raw file with a .zst name */
	write_file(tmp("raw.bin"), d, n);
	expect_file(tmp("raw.bin"), d, n, 0, n);
	write_file(tmp("raw.zst"), d, 1000);
	expect_file(tmp("raw.zst"), d, 1000, 0, 1000);
	/* zstd detected by magic under any name */
	write_file(tmp("trace.bin"), z, zn);
	expect_file(tmp("trace.bin"), d, n, 1, zn);
	/* two frames back to back */
	z2 = compress(d + 777, n - 777, &zn2);
	free(z);
	z = compress(d, 777, &zn);
	both = malloc(zn + zn2);
	memcpy(both, z, zn);
	memcpy(both + zn, z2, zn2);
	write_file(tmp("two.zst"), both, zn + zn2);
	expect_file(tmp("two.zst"), d, n, 1, zn + zn2);
	/* a skippable frame first and between the frames, as pzstd writes
	 * (magic 0x184D2A50..5F, u32 length, payload): still zstd */
	{
		static const uint8_t skip[12] = { 0x50, 0x2A, 0x4D, 0x18, 4, 0,
						  0, 0, 1, 2, 3, 4 };
		uint8_t *sk = malloc(zn + zn2 + 24);

		memcpy(sk, skip, 12);
		memcpy(sk + 12, z, zn);
		memcpy(sk + 12 + zn, skip, 12);
		sk[12 + zn] = 0x5F; /* any of the 16 skippable magics */
		memcpy(sk + 24 + zn, z2, zn2);
		write_file(tmp("skip.zst"), sk, zn + zn2 + 24);
		expect_file(tmp("skip.zst"), d, n, 1, zn + zn2 + 24);
		free(sk);
	}
	/* empty, and shorter than the magic (even when it starts like it) */
	write_file(tmp("empty"), d, 0);
	expect_file(tmp("empty"), d, 0, 0, 0);
	write_file(tmp("short"), both, 3);
	expect_file(tmp("short"), both, 3, 0, 3);

	/* stdin pipes, raw and zstd, magic arriving one byte at a time */
	expect_pipe(d, n, d, n, 0);
	expect_pipe(both, zn + zn2, d, n, 1);
	expect_pipe(both, 2, both, 2, 0);

	/* corrupt: trash 64 bytes in the middle of the second frame */
	bad = malloc(zn + zn2);
	memcpy(bad, both, zn + zn2);
	memset(bad + zn + zn2 / 2, 0xA5, 64);
	write_file(tmp("corrupt.zst"), bad, zn + zn2);
	expect_zstd_error(tmp("corrupt.zst"), d, n, "corrupt zstd data", 0);
	/* garbage after a complete frame */
	memcpy(bad, z, zn);
	memset(bad + zn, 0x11, 10);
	write_file(tmp("trailing.zst"), bad, zn + 10);
	expect_zstd_error(tmp("trailing.zst"), d, n, "corrupt zstd data", 1);
	/* truncated: the last 10 bytes of the second frame are missing */
	write_file(tmp("trunc.zst"), both, zn + zn2 - 10);
	expect_zstd_error(tmp("trunc.zst"), d, n, "truncated zstd frame", 1);
	/* truncated right after the magic */
	write_file(tmp("magic.zst"), both, 4);
	expect_zstd_error(tmp("magic.zst"), d, n, "truncated zstd frame", 1);

	/* missing file, directory */
	CHECK(slurp(tmp("missing"), &g, 0) == LT_ERR_IO, "missing: no error");
	CHECK(strstr(g.msg, tmp("missing")) == g.msg &&
	      strstr(g.msg, "No such file"), "missing: message '%s'", g.msg);
	CHECK(slurp(dir, &g, 0) == LT_ERR_IO, "directory: no error");
	CHECK(strstr(g.msg, dir) == g.msg && strstr(g.msg, "offset 0"),
	      "directory: message '%s'", g.msg);

	test_parse_through_input(d, n, both, zn + zn2);

	/* clean up the scratch files */
	{
		static const char *const names[] = {
			"raw.bin", "raw.zst", "trace.bin", "two.zst", "empty",
			"short", "corrupt.zst", "trailing.zst", "trunc.zst",
			"magic.zst", "parse.zst", "skip.zst"
		};
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			unlink(tmp(names[i]));
		rmdir(dir);
	}
	free(d);
	free(z);
	free(z2);
	free(both);
	free(bad);
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
