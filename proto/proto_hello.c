/* Stream protocol payloads: key=value records, HELLO, ACK summary, ERROR
 * (see include/ltpipe/proto.h and proto/PROTOCOL.md). */
#include "ltpipe/proto.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/hex.h"

int lt_proto_kv_put(uint8_t *buf, size_t cap, size_t *pos, const char *key,
                    const char *val)
{
	size_t k = strlen(key), v = strlen(val);
	if (*pos > cap || cap - *pos < k + v + 2)
		return LT_ERR_INVAL;
	memcpy(buf + *pos, key, k);
	buf[*pos + k] = '=';
	memcpy(buf + *pos + k + 1, val, v);
	buf[*pos + k + 1 + v] = '\0';
	*pos += k + v + 2;
	return 0;
}

int lt_proto_kv_next(const uint8_t *p, size_t len, size_t *pos,
                     const char **key, size_t *klen, const char **val)
{
	if (*pos >= len)
		return 0;
	const uint8_t *rec = p + *pos;
	const uint8_t *nul = memchr(rec, 0, len - *pos);
	if (!nul)
		return LT_ERR_BAD_PACKET;
	const uint8_t *eq = memchr(rec, '=', (size_t)(nul - rec));
	if (!eq || eq == rec)
		return LT_ERR_BAD_PACKET;
	*key = (const char *)rec;
	*klen = (size_t)(eq - rec);
	*val = (const char *)eq + 1;
	*pos = (size_t)(nul - p) + 1;
	return 1;
}

int lt_proto_check_name(const char *name, size_t len, char *err,
                        size_t errlen)
{
	if (len == 0 || len > LT_PROTO_MAX_NAME) {
		snprintf(err, errlen, "session name must be 1 to %u bytes",
		         LT_PROTO_MAX_NAME);
		return LT_ERR_INVAL;
	}
	if (memchr(name, '/', len)) {
		snprintf(err, errlen, "session name may not contain '/'");
		return LT_ERR_INVAL;
	}
	for (size_t i = 0; i + 1 < len; i++)
		if (name[i] == '.' && name[i + 1] == '.') {
			snprintf(err, errlen, "session name may not contain '..'");
			return LT_ERR_INVAL;
		}
	if (name[0] == '.') {
		snprintf(err, errlen, "session name may not start with '.'");
		return LT_ERR_INVAL;
	}
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-')) {
			snprintf(err, errlen, "session name may only hold "
			         "letters, digits, '.', '_' and '-'");
			return LT_ERR_INVAL;
		}
	}
	return 0;
}

/* Parses a decimal u32 of at most 10 digits no larger than max. */
static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	size_t n = strlen(s);
	if (n == 0 || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Copies a string field of at most max bytes. */
static int put_str(char *dst, size_t max, const char *val)
{
	size_t n = strlen(val);
	if (n > max)
		return -1;
	memcpy(dst, val, n + 1);
	return 0;
}

int lt_proto_hello_encode(const struct lt_proto_hello *h, uint8_t *buf,
                          size_t cap)
{
	char num[32], hex[2 * LT_PROTO_MAX_BUILD_ID + 1];
	size_t pos = 8;
	int rc = 0;
	if (cap < 8 || h->nrecv > LT_PROTO_MAX_RECV ||
	    h->nelf_more > LT_PROTO_MAX_ELF - 1 ||
	    h->build_id_len > LT_PROTO_MAX_BUILD_ID)
		return LT_ERR_INVAL;
	memcpy(buf, LT_PROTO_MAGIC, 4);
	buf[4] = (uint8_t)h->version;
	buf[5] = (uint8_t)(h->version >> 8);
	buf[6] = 0;
	buf[7] = 0;
	rc |= lt_proto_kv_put(buf, cap, &pos, "session", h->session);
	if (h->elf[0])
		rc |= lt_proto_kv_put(buf, cap, &pos, "elf", h->elf);
	for (size_t i = 0; i < h->nelf_more && i < LT_PROTO_MAX_ELF - 1; i++)
		rc |= lt_proto_kv_put(buf, cap, &pos, "elf", h->elf_more[i]);
	if (h->build_id_len) {
		for (size_t i = 0; i < h->build_id_len; i++)
			snprintf(hex + 2 * i, 3, "%02x", h->build_id[i]);
		rc |= lt_proto_kv_put(buf, cap, &pos, "build_id", hex);
	}
	if (h->format[0])
		rc |= lt_proto_kv_put(buf, cap, &pos, "format", h->format);
	if (h->mode[0])
		rc |= lt_proto_kv_put(buf, cap, &pos, "mode", h->mode);
	if (h->bp_entries) {
		snprintf(num, sizeof(num), "%" PRIu32, h->bp_entries);
		rc |= lt_proto_kv_put(buf, cap, &pos, "bp_entries", num);
	}
	if (h->addr_bits) {
		snprintf(num, sizeof(num), "%" PRIu32, h->addr_bits);
		rc |= lt_proto_kv_put(buf, cap, &pos, "addr_bits", num);
	}
	snprintf(num, sizeof(num), "%" PRIu32, h->hart);
	rc |= lt_proto_kv_put(buf, cap, &pos, "hart", num);
	for (size_t i = 0; i < h->nrecv; i++)
		rc |= lt_proto_kv_put(buf, cap, &pos, "receiver", h->recv[i]);
	if (h->codemap)
		rc |= lt_proto_kv_put(buf, cap, &pos, "codemap", "1");
	if (rc || pos > LT_PROTO_MAX_CTRL)
		return LT_ERR_INVAL;
	return (int)pos;
}

/* Reports a hello error and returns it. */
static int bad(int *code, int c, char *err, size_t errlen, const char *what,
               const char *key)
{
	*code = c;
	snprintf(err, errlen, "hello: %s%s%s", what, key ? " " : "",
	         key ? key : "");
	return c == LT_PC_LIMIT ? LT_ERR_INVAL : LT_ERR_BAD_PACKET;
}

int lt_proto_hello_decode(struct lt_proto_hello *h, const uint8_t *p,
                          size_t len, int *code, char *err, size_t errlen)
{
	memset(h, 0, sizeof(*h));
	if (len < 8 || memcmp(p, LT_PROTO_MAGIC, 4) != 0)
		return bad(code, LT_PC_VERSION, err, errlen,
		           "payload does not start with the magic 'LTPS'", NULL);
	h->version = (uint16_t)(p[4] | p[5] << 8);
	if (h->version != LT_PROTO_VERSION) {
		*code = LT_PC_VERSION;
		snprintf(err, errlen, "hello: protocol version %u is not "
		         "supported (this daemon speaks %u)", h->version,
		         LT_PROTO_VERSION);
		return LT_ERR_BAD_PACKET;
	}
	if (p[6] || p[7])
		return bad(code, LT_PC_PROTO, err, errlen,
		           "reserved bytes are not zero", NULL);
	size_t pos = 8;
	unsigned seen = 0;
	const char *key, *val;
	size_t klen;
	int rc;
	while ((rc = lt_proto_kv_next(p, len, &pos, &key, &klen, &val)) == 1) {
		static const char *const names[] = {
			"session", "elf", "build_id", "format", "mode",
			"bp_entries", "addr_bits", "hart", "receiver",
			"codemap",
		};
		char k[24];
		if (klen >= sizeof(k))
			klen = sizeof(k) - 1;
		memcpy(k, key, klen);
		k[klen] = '\0';
		if (klen >= 2 && k[0] == 'x' && k[1] == '-')
			continue; /* extension keys are ignored by design */
		unsigned idx = 0;
		while (idx < 10 && strcmp(k, names[idx]) != 0)
			idx++;
		if (idx == 10)
			return bad(code, LT_PC_PROTO, err, errlen, "unknown key", k);
		if (idx != 8 && idx != 1 && (seen & (1u << idx)))
			return bad(code, LT_PC_PROTO, err, errlen, "duplicate key", k);
		seen |= 1u << idx;
		uint32_t v;
		switch (idx) {
		case 0:
			if (put_str(h->session, LT_PROTO_MAX_NAME, val))
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "session name over 64 bytes", NULL);
			break;
		case 1: {
			char *dst = h->elf;
			if (h->elf[0]) {
				if (h->nelf_more == LT_PROTO_MAX_ELF - 1)
					return bad(code, LT_PC_LIMIT, err, errlen,
					           "more than 8 elf records",
					           NULL);
				dst = h->elf_more[h->nelf_more++];
			}
			if (put_str(dst, LT_PROTO_MAX_PATH, val))
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "elf path over 4095 bytes", NULL);
			if (!dst[0])
				return bad(code, LT_PC_PROTO, err, errlen,
				           "empty", k);
			break;
		}
		case 2: {
			size_t n = strlen(val);
			if (n == 0 || n % 2 || n > 2 * LT_PROTO_MAX_BUILD_ID)
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "build_id must be 2 to 64 hex digits",
				           NULL);
			for (size_t i = 0; i < n; i += 2) {
				int a = lt_hex_digit((unsigned char)val[i]), b = lt_hex_digit((unsigned char)val[i + 1]);
				if (a < 0 || b < 0)
					return bad(code, LT_PC_PROTO, err, errlen,
					           "build_id is not hex", NULL);
				h->build_id[i / 2] = (uint8_t)(a << 4 | b);
			}
			h->build_id_len = n / 2;
			break;
		}
		case 3:
			if (put_str(h->format, LT_PROTO_MAX_WORD, val))
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "value too long:", k);
			break;
		case 4:
			if (strcmp(val, "bt") && strcmp(val, "bp") &&
			    strcmp(val, "auto"))
				return bad(code, LT_PC_PROTO, err, errlen,
				           "mode must be bt, bp or auto", NULL);
			put_str(h->mode, LT_PROTO_MAX_WORD, val);
			break;
		case 5:
			/* 2^24 at most, as --bp-entries and the cfg byte */
			if (parse_u32(val, 1u << 24, &v) || v == 0 || (v & (v - 1)))
				return bad(code, LT_PC_PROTO, err, errlen,
				           "bp_entries must be a power of two up "
				           "to 16777216", NULL);
			h->bp_entries = v;
			break;
		case 6:
			if (parse_u32(val, 64, &v) || v < 16)
				return bad(code, LT_PC_PROTO, err, errlen,
				           "addr_bits must be 16..64", NULL);
			h->addr_bits = v;
			break;
		case 7:
			if (parse_u32(val, 65535, &v))
				return bad(code, LT_PC_PROTO, err, errlen,
				           "hart must be 0..65535", NULL);
			h->hart = v;
			break;
		case 8:
			if (h->nrecv == LT_PROTO_MAX_RECV)
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "more than 16 receivers", NULL);
			if (put_str(h->recv[h->nrecv], LT_PROTO_MAX_RECV_SPEC, val))
				return bad(code, LT_PC_LIMIT, err, errlen,
				           "receiver spec over 256 bytes", NULL);
			if (!val[0])
				return bad(code, LT_PC_PROTO, err, errlen,
				           "empty", k);
			h->nrecv++;
			break;
		case 9:
			/* The only code map syntax so far (PROTOCOL.md, CODE). */
			if (strcmp(val, "1"))
				return bad(code, LT_PC_PROTO, err, errlen,
				           "codemap must be 1", NULL);
			h->codemap = 1;
			break;
		}
	}
	if (rc < 0)
		return bad(code, LT_PC_PROTO, err, errlen,
		           "malformed key=value record", NULL);
	if (!h->session[0])
		return bad(code, LT_PC_NAME, err, errlen, "no session name", NULL);
	char why[96];
	if (lt_proto_check_name(h->session, strlen(h->session), why,
	                        sizeof(why)) < 0)
		return bad(code, LT_PC_NAME, err, errlen, why, NULL);
	if (!h->elf[0] && !h->build_id_len)
		return bad(code, LT_PC_ELF, err, errlen,
		           "needs elf or build_id", NULL);
	return 0;
}

int lt_proto_summary_encode(const struct lt_proto_summary *s, uint8_t *buf,
                            size_t cap)
{
	const struct {
		const char *k;
		uint64_t v;
	} f[] = {
		{"bytes", s->bytes},   {"packets", s->packets},
		{"blocks", s->blocks}, {"insns", s->insns},
		{"errors", s->errors}, {"losses", s->losses},
		{"incomplete", s->incomplete},
	};
	size_t pos = 0;
	char num[24];
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(num, sizeof(num), "%" PRIu64, f[i].v);
		if (lt_proto_kv_put(buf, cap, &pos, f[i].k, num))
			return LT_ERR_INVAL;
	}
	return (int)pos;
}

/* Parses a decimal u64: digits only, no sign or space, no overflow. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' ||
		    v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int lt_proto_summary_decode(struct lt_proto_summary *s, const uint8_t *p,
                            size_t len)
{
	memset(s, 0, sizeof(*s));
	size_t pos = 0, klen;
	const char *key, *val;
	int rc;
	while ((rc = lt_proto_kv_next(p, len, &pos, &key, &klen, &val)) == 1) {
		/* Only known keys are read: a later daemon's keys are skipped
		 * whatever their values (PROTOCOL.md, ACK). */
		uint64_t v;
#define FIELD(name, dst, max)                                          \
	if (klen == sizeof(name) - 1 && !memcmp(key, name, klen)) { \
		if (parse_u64(val, &v) || v > (max))                 \
			return LT_ERR_BAD_PACKET;                    \
		dst = v;                                             \
		continue;                                            \
	}
		FIELD("bytes", s->bytes, UINT64_MAX)
		FIELD("packets", s->packets, UINT64_MAX)
		FIELD("blocks", s->blocks, UINT64_MAX)
		FIELD("insns", s->insns, UINT64_MAX)
		FIELD("errors", s->errors, UINT64_MAX)
		FIELD("losses", s->losses, UINT64_MAX)
		FIELD("incomplete", s->incomplete, 1)
#undef FIELD
	}
	return rc < 0 ? rc : 0;
}

size_t lt_proto_error_encode(uint8_t *buf, int code, const char *msg)
{
	size_t n = strlen(msg);
	if (n > LT_PROTO_MAX_MSG)
		n = LT_PROTO_MAX_MSG;
	buf[0] = (uint8_t)code;
	buf[1] = (uint8_t)(code >> 8);
	memcpy(buf + 2, msg, n);
	return n + 2;
}
