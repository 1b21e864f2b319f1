/* Exact tests of the stream protocol parser and payload codecs: a known
 * stream parsed at every split point gives the same frames; every limit
 * and ordering rule gives its error code; hello round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
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

static uint8_t stream[4096];
static size_t slen;

static void add_frame(uint8_t type, uint8_t flags, const void *p, size_t n)
{
	lt_proto_header(stream + slen, type, flags, (uint32_t)n);
	memcpy(stream + slen + LT_PROTO_HDR, p, n);
	slen += LT_PROTO_HDR + n;
}

/* Parses stream in two calls split at `cut`; writes a text log of the
 * frames into out, DATA pieces joined so that any split logs the same. */
static int parse_split(size_t cut, char *out, size_t cap)
{
	static struct lt_proto_parser p;
	lt_proto_parser_init(&p, LT_PROTO_DAEMON);
	size_t pos = 0, o = 0;
	int mid = 0; /* inside a DATA frame whose header was logged */
	const size_t ends[2] = {cut, slen};
	out[0] = '\0';
	for (int k = 0; k < 2; k++) {
		while (1) {
			struct lt_proto_frame f;
			size_t used;
			int rc = lt_proto_parse(&p, stream + pos, ends[k] - pos,
			                        &used, &f);
			pos += used;
			if (rc < 0)
				return rc;
			if (rc == 0)
				break;
			if (!mid)
				o += (size_t)snprintf(out + o, cap - o, "%02x/%x@%llu:",
				                      f.type, f.flags,
				                      (unsigned long long)f.offset);
			for (size_t i = 0; i < f.len; i++)
				o += (size_t)snprintf(out + o, cap - o, "%02x",
				                      f.data[i]);
			mid = !f.last;
			if (f.last)
				o += (size_t)snprintf(out + o, cap - o, ";");
		}
	}
	return 0;
}

static void test_splits(void)
{
	struct lt_proto_hello h;
	memset(&h, 0, sizeof(h));
	h.version = LT_PROTO_VERSION;
	strcpy(h.session, "run-1.a_b");
	strcpy(h.elf, "/abs/prog");
	strcpy(h.elf_more[0], "/abs/vmlinux:prv=S");
	strcpy(h.elf_more[1], "/abs/rom:prv=M,ctx=0");
	h.nelf_more = 2;
	h.build_id_len = 3;
	memcpy(h.build_id, "\x0a\x1b\x2c", 3);
	strcpy(h.mode, "bp");
	h.bp_entries = 256;
	h.hart = 7;
	h.nrecv = 2;
	strcpy(h.recv[0], "txt");
	strcpy(h.recv[1], "json:path=e.jsonl");
	h.codemap = 1;
	uint8_t hp[LT_PROTO_MAX_CTRL];
	int n = lt_proto_hello_encode(&h, hp, sizeof(hp));
	CHECK(n > 8);
	add_frame(LT_FRAME_HELLO, 0, hp, (size_t)n);
	add_frame(LT_FRAME_DATA, 0, "\x01\x02\x03", 3);
	add_frame(LT_FRAME_DATA, 0, "", 0);
	add_frame(LT_FRAME_DATA, LT_DATA_ZSTD, "\x28\xb5\x2f\xfd", 4);
	/* CODE comes in pieces as DATA does, in stream order with it. */
	add_frame(LT_FRAME_CODE, 0, "10 0100\n", 8);
	add_frame(LT_FRAME_DATA, LT_DATA_ZSTD, "\x00", 1);
	add_frame(LT_FRAME_END, 0, "", 0);

	static char whole[16384], part[16384];
	CHECK(parse_split(slen, whole, sizeof(whole)) == 0);
	char tail[256];
	snprintf(tail, sizeof(tail), "02/0@%d:010203;02/0@%d:;02/1@%d:28b52ffd;"
	         "04/0@%d:313020303130300a;02/1@%d:00;03/0@%d:;", 8 + n,
	         8 + n + 11, 8 + n + 19, 8 + n + 31, 8 + n + 47, 8 + n + 56);
	CHECK(strstr(whole, tail) != NULL);
	for (size_t cut = 0; cut <= slen; cut++) {
		CHECK(parse_split(cut, part, sizeof(part)) == 0);
		if (strcmp(part, whole)) {
			fprintf(stderr, "split at %zu differs:\n%s\n%s\n", cut,
			        part, whole);
			failures++;
			break;
		}
	}

	struct lt_proto_hello g;
	int code;
	char err[256];
	CHECK(lt_proto_hello_decode(&g, hp, (size_t)n, &code, err,
	                            sizeof(err)) == 0);
	CHECK(!strcmp(g.session, "run-1.a_b") && !strcmp(g.elf, "/abs/prog"));
	CHECK(g.nelf_more == 2 && !strcmp(g.elf_more[0], "/abs/vmlinux:prv=S") &&
	      !strcmp(g.elf_more[1], "/abs/rom:prv=M,ctx=0"));
	CHECK(g.build_id_len == 3 && !memcmp(g.build_id, "\x0a\x1b\x2c", 3));
	CHECK(!strcmp(g.mode, "bp") && g.bp_entries == 256 && g.hart == 7);
	CHECK(g.nrecv == 2 && !strcmp(g.recv[1], "json:path=e.jsonl"));
	CHECK(g.codemap == 1 &&
	      memmem(hp, (size_t)n, "codemap=1", 10) != NULL);
}

/* Runs one stream through a fresh parser; returns the error and code. */
static int parse_err(int role, const uint8_t *s, size_t n, int *code)
{
	static struct lt_proto_parser p;
	lt_proto_parser_init(&p, role);
	size_t pos = 0, used;
	struct lt_proto_frame f;
	int rc;
	do {
		rc = lt_proto_parse(&p, s + pos, n - pos, &used, &f);
		pos += used;
	} while (rc == 1);
	*code = p.code;
	return rc;
}

static void test_errors(void)
{
	uint8_t s[64];
	int code;
	lt_proto_header(s, LT_FRAME_DATA, 0, 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 8, &code) == LT_ERR_BAD_PACKET &&
	      code == LT_PC_PROTO);
	lt_proto_header(s, LT_FRAME_HELLO, 0, LT_PROTO_MAX_CTRL + 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 8, &code) == LT_ERR_INVAL &&
	      code == LT_PC_LIMIT);
	lt_proto_header(s, LT_FRAME_HELLO, 0, 0);
	lt_proto_header(s + 8, LT_FRAME_DATA, 0, LT_PROTO_MAX_DATA + 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_INVAL &&
	      code == LT_PC_LIMIT);
	lt_proto_header(s + 8, LT_FRAME_DATA, 0, LT_PROTO_MAX_DATA);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == 0);
	lt_proto_header(s + 8, LT_FRAME_DATA, 2, 0);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_BAD_PACKET);
	lt_proto_header(s + 8, LT_FRAME_END, 0, 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_INVAL);
	lt_proto_header(s + 8, LT_FRAME_HELLO, 0, 0);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_BAD_PACKET);
	lt_proto_header(s + 8, LT_FRAME_END, 0, 0);
	s[10] = 1; /* reserved byte */
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_BAD_PACKET);
	/* CODE: after the hello only, at most LT_PROTO_MAX_CODE bytes, no
	 * flags; a daemon never sends one. */
	lt_proto_header(s, LT_FRAME_CODE, 0, 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 8, &code) == LT_ERR_BAD_PACKET &&
	      code == LT_PC_PROTO);
	lt_proto_header(s, LT_FRAME_HELLO, 0, 0);
	lt_proto_header(s + 8, LT_FRAME_CODE, 0, LT_PROTO_MAX_CODE + 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_INVAL &&
	      code == LT_PC_LIMIT);
	lt_proto_header(s + 8, LT_FRAME_CODE, 0, LT_PROTO_MAX_CODE);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == 0);
	lt_proto_header(s + 8, LT_FRAME_CODE, LT_DATA_ZSTD, 1);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 16, &code) == LT_ERR_BAD_PACKET &&
	      code == LT_PC_PROTO);
	lt_proto_header(s + 8, LT_FRAME_END, 0, 0);
	lt_proto_header(s + 16, LT_FRAME_CODE, 0, 0);
	CHECK(parse_err(LT_PROTO_DAEMON, s, 24, &code) == LT_ERR_BAD_PACKET &&
	      code == LT_PC_PROTO);
	lt_proto_header(s, LT_FRAME_READY, 0, 0);
	lt_proto_header(s + 8, LT_FRAME_CODE, 0, 0);
	CHECK(parse_err(LT_PROTO_CLIENT, s, 16, &code) == LT_ERR_BAD_PACKET);
	lt_proto_header(s, LT_FRAME_ACK, 0, 0);
	CHECK(parse_err(LT_PROTO_CLIENT, s, 8, &code) == LT_ERR_BAD_PACKET);
	lt_proto_header(s, LT_FRAME_ERROR, 0, 2 + LT_PROTO_MAX_MSG + 1);
	CHECK(parse_err(LT_PROTO_CLIENT, s, 8, &code) == LT_ERR_INVAL);

	char err[128];
	const char *bad[] = {"", "a/b", "..", "x..y", ".h", "sp ace", "é"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(lt_proto_check_name(bad[i], strlen(bad[i]), err,
		                          sizeof(err)) == LT_ERR_INVAL);
	char longname[66];
	memset(longname, 'a', 65);
	longname[65] = 0;
	CHECK(lt_proto_check_name(longname, 64, err, sizeof(err)) == 0);
	CHECK(lt_proto_check_name(longname, 65, err, sizeof(err)) ==
	      LT_ERR_INVAL);

	/* Hello field errors and their codes. */
	struct {
		const char *recs; /* records, '|' for NUL */
		int code;         /* expected */
		int version;      /* protocol version in the prefix */
	} cases[] = {
		{"session=a|elf=/p|", 0, 1},
		{"session=a|elf=/p|", LT_PC_VERSION, 2},
		{"elf=/p|", LT_PC_NAME, 1},
		{"session=../x|elf=/p|", LT_PC_NAME, 1},
		{"session=a|", LT_PC_ELF, 1},
		{"session=a|elf=/p|elf=/q:prv=U|", 0, 1},
		{"session=a|elf=/1|elf=/2|elf=/3|elf=/4|elf=/5|elf=/6|elf=/7|"
		 "elf=/8|", 0, 1},
		{"session=a|elf=/1|elf=/2|elf=/3|elf=/4|elf=/5|elf=/6|elf=/7|"
		 "elf=/8|elf=/9|", LT_PC_LIMIT, 1},
		{"session=a|elf=/p|elf=|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|mode=bt|mode=bp|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|color=red|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|codemap=1|", 0, 1},
		{"session=a|elf=/p|codemap=2|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|codemap=1|codemap=1|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|x-color=red|", 0, 1},
		{"session=a|elf=/p|bp_entries=1000|", LT_PC_PROTO, 1},
		/* as --bp-entries: at most 2^24 (a client must not make the
		 * daemon allocate a 1 GiB table) */
		{"session=a|elf=/p|bp_entries=16777216|", 0, 1},
		{"session=a|elf=/p|bp_entries=33554432|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|bp_entries=1073741824|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|hart=65536|", LT_PC_PROTO, 1},
		{"session=a|build_id=0g|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|noequals|", LT_PC_PROTO, 1},
		{"session=a|elf=/p|unterminated", LT_PC_PROTO, 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t p[256] = "LTPS";
		p[4] = (uint8_t)cases[i].version;
		size_t len = 8 + strlen(cases[i].recs);
		memcpy(p + 8, cases[i].recs, strlen(cases[i].recs));
		for (size_t j = 8; j < len; j++)
			if (p[j] == '|')
				p[j] = 0;
		struct lt_proto_hello h;
		int c = 0;
		int rc = lt_proto_hello_decode(&h, p, len, &c, err, sizeof(err));
		if ((cases[i].code == 0) != (rc == 0) ||
		    (rc && c != cases[i].code)) {
			fprintf(stderr, "hello case %zu: rc %d code %d (%s)\n", i,
			        rc, c, err);
			failures++;
		}
	}

	/* Summary round trip. */
	struct lt_proto_summary a = {1, 2, 3, 4, 5, 6, 1}, b;
	uint8_t buf[256];
	int n = lt_proto_summary_encode(&a, buf, sizeof(buf));
	CHECK(n > 0 && lt_proto_summary_decode(&b, buf, (size_t)n) == 0);
	CHECK(!memcmp(&a, &b, sizeof(a)));
	/* A later daemon's ACK: unknown keys, whatever their values, are
	 * skipped (PROTOCOL.md, ACK); a known key must be decimal. */
	size_t m = (size_t)n;
	CHECK(lt_proto_kv_put(buf, sizeof(buf), &m, "outdir", "/o/s1") == 0);
	CHECK(lt_proto_kv_put(buf, sizeof(buf), &m, "rate", "1.5e6") == 0);
	CHECK(lt_proto_kv_put(buf, sizeof(buf), &m, "note", "") == 0);
	CHECK(lt_proto_summary_decode(&b, buf, m) == 0 &&
	      !memcmp(&a, &b, sizeof(a)));
	static const char *const badnum[] = {"x", "", "-1", " 5", "+5",
	                                     "99999999999999999999999"};
	for (size_t i = 0; i < sizeof(badnum) / sizeof(badnum[0]); i++) {
		m = 0;
		CHECK(lt_proto_kv_put(buf, sizeof(buf), &m, "bytes",
		                      badnum[i]) == 0);
		CHECK(lt_proto_summary_decode(&b, buf, m) < 0);
	}
}

/* tcp:HOST:PORT splitting shared by the daemon and the sink. */
static void test_hostport(void)
{
	char host[16];
	const char *port;
	CHECK(lt_proto_hostport("example.org:4000", host, sizeof(host), &port) == 0);
	CHECK(!strcmp(host, "example.org") && !strcmp(port, "4000"));
	CHECK(lt_proto_hostport(":4000", host, sizeof(host), &port) == 0);
	CHECK(!strcmp(host, "127.0.0.1") && !strcmp(port, "4000"));
	CHECK(lt_proto_hostport("[::1]:9", host, sizeof(host), &port) == 0);
	CHECK(!strcmp(host, "::1") && !strcmp(port, "9"));
	CHECK(lt_proto_hostport("host:", host, sizeof(host), &port) < 0);
	CHECK(lt_proto_hostport("noport", host, sizeof(host), &port) < 0);
	CHECK(lt_proto_hostport("a-very-long-host-name:1", host, sizeof(host),
	                        &port) < 0);
}

int main(void)
{
	test_splits();
	test_errors();
	test_hostport();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
