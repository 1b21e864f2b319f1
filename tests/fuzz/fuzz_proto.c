/* libFuzzer target for the stream protocol parser. Input: byte 0 picks the
 * role (daemon or client side), byte 1 the chunking, the rest is the byte
 * stream. It is parsed whole, split in two at a position derived from
 * byte 1, and in chunks of a stride derived from it (each chunk in its own
 * exact-size allocation so ASan sees reads past it). Checked: every split
 * gives the same frames (DATA pieces joined), the same error at the same
 * offset; frames respect the limits and ordering rules; HELLO and ACK
 * payloads decode without crashing, and a hello that decodes re-encodes to
 * one that decodes to the same fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/proto.h"

#define REQUIRE(c)                         \
	do {                               \
		if (!(c))                  \
			__builtin_trap();  \
	} while (0)

/* A whole parse: frames as (type, flags, offset, payload) records. */
struct result {
	uint8_t *log;    /* serialised frames */
	size_t len;      /* bytes used */
	size_t cap;      /* allocated */
	int err;         /* final error or 0 */
	uint64_t err_off; /* parser offset at the error */
};

static void put(struct result *r, const void *p, size_t n)
{
	if (r->len + n > r->cap) {
		r->cap = (r->len + n) * 2 + 64;
		r->log = realloc(r->log, r->cap);
		REQUIRE(r->log);
	}
	memcpy(r->log + r->len, p, n);
	r->len += n;
}

static void check_hello(const struct lt_proto_frame *f)
{
	static struct lt_proto_hello h, h2;
	static uint8_t buf[LT_PROTO_MAX_CTRL];
	char err[256];
	int code;
	if (lt_proto_hello_decode(&h, f->data, f->len, &code, err,
	                          sizeof(err)) < 0) {
		REQUIRE(code >= LT_PC_PROTO && code <= LT_PC_SHUTDOWN);
		return;
	}
	REQUIRE(strlen(h.session) >= 1 && !strchr(h.session, '/') &&
	        !strstr(h.session, ".."));
	REQUIRE(h.nrecv <= LT_PROTO_MAX_RECV);
	int n = lt_proto_hello_encode(&h, buf, sizeof(buf));
	REQUIRE(n > 0);
	REQUIRE(lt_proto_hello_decode(&h2, buf, (size_t)n, &code, err,
	                              sizeof(err)) == 0);
	REQUIRE(!strcmp(h.session, h2.session) && !strcmp(h.elf, h2.elf) &&
	        h.nrecv == h2.nrecv && h.hart == h2.hart &&
	        h.build_id_len == h2.build_id_len &&
	        !memcmp(h.build_id, h2.build_id, h.build_id_len) &&
	        !strcmp(h.format, h2.format) && !strcmp(h.mode, h2.mode) &&
	        h.bp_entries == h2.bp_entries && h.addr_bits == h2.addr_bits);
	for (size_t i = 0; i < h.nrecv; i++)
		REQUIRE(!strcmp(h.recv[i], h2.recv[i]));
	REQUIRE(h.nelf_more == h2.nelf_more &&
	        h.nelf_more <= LT_PROTO_MAX_ELF - 1);
	for (size_t i = 0; i < h.nelf_more; i++)
		REQUIRE(!strcmp(h.elf_more[i], h2.elf_more[i]));
}

/* Parses data in chunks of `stride` bytes (0: whole). */
static void run(struct result *r, int role, const uint8_t *data, size_t size,
                size_t split, size_t stride)
{
	static struct lt_proto_parser p;
	lt_proto_parser_init(&p, role);
	memset(r, 0, sizeof(*r));
	size_t pos = 0;
	int in_data = 0;
	uint64_t data_off = 0;
	while (pos < size && !r->err) {
		size_t n = stride ? stride : (split ? split : size);
		if (!stride && split && pos >= split)
			n = size - pos;
		if (n > size - pos)
			n = size - pos;
		uint8_t *chunk = malloc(n ? n : 1);
		REQUIRE(chunk);
		memcpy(chunk, data + pos, n);
		size_t off = 0;
		for (;;) {
			size_t used;
			struct lt_proto_frame f;
			int rc = lt_proto_parse(&p, chunk + off, n - off, &used, &f);
			REQUIRE(used <= n - off);
			off += used;
			if (rc < 0) {
				r->err = rc;
				r->err_off = p.offset;
				REQUIRE(p.code == LT_PC_PROTO || p.code == LT_PC_LIMIT);
				REQUIRE(lt_proto_parse(&p, chunk, n, &used, &f) == rc &&
				        used == 0);
				break;
			}
			if (rc == 0) {
				REQUIRE(off == n);
				break;
			}
			if (f.type == LT_FRAME_DATA ||
			    f.type == LT_FRAME_CODE) {
				/* handed out in pieces as they arrive */
				REQUIRE(role == LT_PROTO_DAEMON);
				REQUIRE(f.data >= chunk && f.data + f.len <= chunk + n);
				if (!in_data) {
					data_off = f.offset;
					uint8_t hdr[2] = {f.type, f.flags};
					put(r, hdr, 2);
					put(r, &f.offset, sizeof(f.offset));
				}
				REQUIRE(f.offset == data_off);
				put(r, f.data, f.len);
				in_data = !f.last;
				if (f.last)
					put(r, "|", 1);
				continue;
			}
			REQUIRE(f.last && !in_data);
			REQUIRE(f.type != LT_FRAME_END || f.len == 0);
			REQUIRE(f.len <= LT_PROTO_MAX_CTRL);
			uint8_t hdr[2] = {f.type, f.flags};
			put(r, hdr, 2);
			put(r, &f.offset, sizeof(f.offset));
			put(r, f.data, f.len);
			put(r, "|", 1);
			if (f.type == LT_FRAME_HELLO)
				check_hello(&f);
			if (f.type == LT_FRAME_ACK) {
				struct lt_proto_summary s;
				lt_proto_summary_decode(&s, f.data, f.len);
			}
		}
		free(chunk);
		pos += n;
	}
	if (!r->err)
		REQUIRE(p.offset == size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int role = data[0] & 1 ? LT_PROTO_CLIENT : LT_PROTO_DAEMON;
	size_t stride = (size_t)(data[1] % 17) + 1;
	data += 2;
	size -= 2;
	size_t split = size ? (size_t)data[-1] * 7 % (size + 1) : 0;
	struct result a, b, c;
	run(&a, role, data, size, 0, 0);
	run(&b, role, data, size, split, 0);
	run(&c, role, data, size, 0, stride);
	REQUIRE(a.err == b.err && a.err == c.err);
	REQUIRE(a.err_off == b.err_off && a.err_off == c.err_off);
	REQUIRE(a.len == b.len && a.len == c.len);
	REQUIRE(!a.len || (!memcmp(a.log, b.log, a.len) &&
	                    !memcmp(a.log, c.log, a.len)));
	free(a.log);
	free(b.log);
	free(c.log);
	return 0;
}
