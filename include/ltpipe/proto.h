/* The ltpipe stream protocol (proto/PROTOCOL.md is the specification):
 * how a sink (simulator, QEMU plugin, `ltpipe send`) streams trace bytes
 * to `ltpipe serve`. Shared by both sides; depends on nothing but libc.
 *
 * A connection carries frames. Each frame is an 8-byte header
 *     u8 type, u8 flags, u16 reserved (0), u32 payload length (LE)
 * followed by the payload. Client -> daemon: HELLO, DATA and CODE..., END.
 * Daemon -> client: READY (hello accepted) or ERROR, then ACK (summary)
 * or ERROR. The frame parser below is resumable like zstd's streaming
 * API: any split of the bytes gives the same frames. */
#ifndef LTPIPE_PROTO_H
#define LTPIPE_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define LT_PROTO_VERSION 1          /* version carried in the hello */
#define LT_PROTO_MAGIC "LTPS"       /* first 4 bytes of a hello payload */
#define LT_PROTO_HDR 8              /* frame header size */

/* Limits (a frame or field over a limit is a protocol error). */
#define LT_PROTO_MAX_DATA (1u << 20)   /* DATA payload bytes */
#define LT_PROTO_MAX_CTRL 16384u       /* HELLO, READY, ACK payload bytes */
#define LT_PROTO_MAX_MSG 1024u         /* ERROR message bytes */
#define LT_PROTO_MAX_NAME 64u          /* session name bytes */
#define LT_PROTO_MAX_PATH 4095u        /* ELF path bytes */
#define LT_PROTO_MAX_ELF 8u            /* elf records per hello */
#define LT_PROTO_MAX_BUILD_ID 32u      /* build-id bytes (64 hex digits) */
#define LT_PROTO_MAX_RECV 16u          /* receivers per session */
#define LT_PROTO_MAX_RECV_SPEC 256u    /* bytes of one receiver spec */
#define LT_PROTO_MAX_WORD 32u          /* format and mode value bytes */
#define LT_PROTO_MAX_CODE (1u << 20)   /* CODE payload bytes */
#define LT_PROTO_MAX_CODE_BYTES (16u << 20) /* code bytes a session's CODE
                                              runs may add, in all */

/* Frame types. */
enum lt_frame_type {
	LT_FRAME_HELLO = 0x01, /* client: opens the session (first frame) */
	LT_FRAME_DATA = 0x02,  /* client: trace bytes (flags: LT_DATA_ZSTD) */
	LT_FRAME_END = 0x03,   /* client: end of stream, empty payload */
	LT_FRAME_CODE = 0x04,  /* client: code map lines (hello codemap=1) */
	LT_FRAME_READY = 0x81, /* daemon: hello accepted (key=value info) */
	LT_FRAME_ACK = 0x82,   /* daemon: outputs written (key=value summary) */
	LT_FRAME_ERROR = 0x83, /* daemon: u16 code + message; then closes */
};

/* DATA flag: the payload continues the session's zstd stream. */
#define LT_DATA_ZSTD 0x01

/* Codes carried by ERROR frames. */
enum lt_proto_code {
	LT_PC_PROTO = 1,    /* malformed frame or frame out of order */
	LT_PC_VERSION = 2,  /* unsupported protocol version or bad magic */
	LT_PC_LIMIT = 3,    /* frame or field over a stated limit */
	LT_PC_NAME = 4,     /* bad session name, or name already active */
	LT_PC_ELF = 5,      /* program ELF unknown, unreadable or mismatched */
	LT_PC_RECEIVER = 6, /* bad receiver spec or option */
	LT_PC_BUSY = 7,     /* too many sessions */
	LT_PC_IO = 8,       /* output could not be written */
	LT_PC_ZSTD = 9,     /* corrupt or truncated zstd data */
	LT_PC_SHUTDOWN = 10, /* daemon stopping: outputs flushed incomplete */
};

/* Which side a parser reads: the daemon reads client frames. */
enum lt_proto_role {
	LT_PROTO_DAEMON = 0, /* accepts HELLO, DATA and CODE, END in order */
	LT_PROTO_CLIENT = 1, /* accepts READY|ERROR, then ACK|ERROR */
};

/* One parsed frame. DATA and CODE frames are handed out in pieces as
 * their bytes arrive (zero-copy, pointing into the caller's input); every
 * other frame is handed out whole (pointing into the parser's buffer). */
struct lt_proto_frame {
	uint8_t type;          /* enum lt_frame_type */
	uint8_t flags;         /* frame flags */
	const uint8_t *data;   /* payload bytes (or this DATA piece) */
	size_t len;            /* their count */
	int last;              /* 1 on the last (or only) piece of a frame */
	uint64_t offset;       /* stream offset of the frame's header */
};

/* Resumable frame parser state. */
struct lt_proto_parser {
	int role;              /* enum lt_proto_role */
	int state;             /* frames seen so far (private) */
	uint8_t hdr[LT_PROTO_HDR]; /* header bytes being collected */
	unsigned hdr_have;     /* how many of them */
	uint8_t type;          /* current frame's type */
	uint8_t flags;         /* current frame's flags */
	uint32_t len;          /* current frame's payload length */
	uint32_t have;         /* payload bytes of it consumed */
	int in_frame;          /* header complete, payload pending */
	uint64_t offset;       /* stream bytes consumed */
	uint64_t frame_off;    /* offset of the current frame's header */
	int err;               /* sticky error (negative lt_error) or 0 */
	int code;              /* enum lt_proto_code of that error */
	char msg[160];         /* its message */
	uint8_t buf[LT_PROTO_MAX_CTRL]; /* whole control-frame payload */
};

/* Initialises a parser for one side of a connection. */
void lt_proto_parser_init(struct lt_proto_parser *p, int role);

/* Consumes bytes from in[0..len) until one frame (or DATA piece) is ready.
 * Returns 1 with *f filled, 0 when every byte was consumed without
 * completing one, or LT_ERR_BAD_PACKET (bad header, unknown type, frame
 * out of order) / LT_ERR_INVAL (over a limit) with the message and the
 * ERROR code in p->msg / p->code; errors are sticky. *used is the count of
 * bytes consumed in every case; call again with the rest. *f is valid until
 * the next call (DATA pieces: as long as `in`). */
int lt_proto_parse(struct lt_proto_parser *p, const uint8_t *in, size_t len,
                   size_t *used, struct lt_proto_frame *f);

/* Returns 1 when the parser sits between frames (not inside one). */
int lt_proto_at_boundary(const struct lt_proto_parser *p);

/* Writes a frame header for (type, flags, len) into hdr[LT_PROTO_HDR]. */
void lt_proto_header(uint8_t *hdr, uint8_t type, uint8_t flags,
                     uint32_t len);

/* What a HELLO carries. Strings are NUL-terminated; "" means absent. */
struct lt_proto_hello {
	uint16_t version;                      /* protocol version */
	char session[LT_PROTO_MAX_NAME + 1];   /* session name (required) */
	char elf[LT_PROTO_MAX_PATH + 1];       /* first ELF path on the daemon
	                                          host, "PROG[:prv=P,ctx=N]" */
	char elf_more[LT_PROTO_MAX_ELF - 1][LT_PROTO_MAX_PATH + 1]; /* more */
	size_t nelf_more;                      /* entries in elf_more */
	uint8_t build_id[LT_PROTO_MAX_BUILD_ID]; /* expected GNU build-id */
	size_t build_id_len;                   /* its length, 0 if absent */
	char format[LT_PROTO_MAX_WORD + 1];    /* format variant name */
	char mode[LT_PROTO_MAX_WORD + 1];      /* "bt", "bp" or "" (auto) */
	uint32_t bp_entries;                   /* predictor entries, 0 = auto */
	uint32_t addr_bits;                    /* address width, 0 = 64 */
	uint32_t hart;                         /* hart id (<= 65535) */
	size_t nrecv;                          /* receivers (0 = txt) */
	char recv[LT_PROTO_MAX_RECV][LT_PROTO_MAX_RECV_SPEC + 1]; /* specs */
	int codemap;                           /* 1: the sink sends CODE
	                                          frames (key codemap=1) */
};

/* Encodes a hello payload into buf[cap]. Returns its length, or
 * LT_ERR_INVAL if a field is over its limit or the result exceeds cap. */
int lt_proto_hello_encode(const struct lt_proto_hello *h, uint8_t *buf,
                          size_t cap);

/* Decodes and checks a hello payload (magic, version, known keys, limits,
 * session name syntax). Returns 0, or a negative lt_error with the ERROR
 * code in *code and a message naming the field in err[errlen]. */
int lt_proto_hello_decode(struct lt_proto_hello *h, const uint8_t *p,
                          size_t len, int *code, char *err, size_t errlen);

/* Checks a session name: 1..LT_PROTO_MAX_NAME bytes of [A-Za-z0-9._-],
 * not starting with '.', no '/' and no "..". Returns 0 or LT_ERR_INVAL
 * with the reason in err. */
int lt_proto_check_name(const char *name, size_t len, char *err,
                        size_t errlen);

/* Appends the record "key=value\0" at buf[*pos]. Returns 0, or
 * LT_ERR_INVAL if it does not fit in cap. */
int lt_proto_kv_put(uint8_t *buf, size_t cap, size_t *pos, const char *key,
                    const char *val);

/* Reads the next "key=value\0" record from p[*pos..len). Returns 1 with
 * key/val pointing into p (key not NUL-terminated: *klen), 0 at the end,
 * LT_ERR_BAD_PACKET for a record without '=' or without its NUL. */
int lt_proto_kv_next(const uint8_t *p, size_t len, size_t *pos,
                     const char **key, size_t *klen, const char **val);

/* The end-of-session summary carried by ACK (and logged by the daemon). */
struct lt_proto_summary {
	uint64_t bytes;      /* trace bytes decoded (after decompression) */
	uint64_t packets;    /* packets parsed */
	uint64_t blocks;     /* basic blocks */
	uint64_t insns;      /* instructions */
	uint64_t errors;     /* decode errors (lost data) */
	uint64_t losses;     /* LOST events */
	uint32_t incomplete; /* 1 if outputs are marked incomplete */
};

/* Encodes / decodes an ACK payload. Encode returns the length or
 * LT_ERR_INVAL; decode returns 0 or LT_ERR_BAD_PACKET (unknown keys are
 * skipped so that later daemons may add some). */
int lt_proto_summary_encode(const struct lt_proto_summary *s, uint8_t *buf,
                            size_t cap);
int lt_proto_summary_decode(struct lt_proto_summary *s, const uint8_t *p,
                            size_t len);

/* Fills buf with an ERROR payload (u16 code LE + message, truncated to
 * LT_PROTO_MAX_MSG). Returns its length (buf needs 2 + LT_PROTO_MAX_MSG). */
size_t lt_proto_error_encode(uint8_t *buf, int code, const char *msg);

/* Splits "HOST:PORT" (the part after "tcp:") into host[hostlen] and *port
 * (pointing into spec). "[v6addr]" loses its brackets; an empty host is
 * 127.0.0.1 (loopback by default). Returns 0, or -1 when there is no port
 * or the host does not fit. */
int lt_proto_hostport(const char *spec, char *host, size_t hostlen,
                      const char **port);

#endif
