/* ltpipe error codes: every fallible function returns 0 (or a non-negative
 * value documented at the function) on success and a negative lt_error on
 * failure. lt_errstr() names the code for messages. */
#ifndef LTPIPE_ERROR_H
#define LTPIPE_ERROR_H

enum lt_error {
	LT_OK = 0,
	LT_ERR_NOMEM = -1,       /* allocation failed */
	LT_ERR_INVAL = -2,       /* bad argument from the caller */
	LT_ERR_BAD_INSN = -3,    /* reserved or unknown instruction encoding */
	LT_ERR_TRUNC = -4,       /* not enough bytes (instruction or packet) */
	LT_ERR_BAD_PACKET = -5,  /* corrupt packet: unknown header, bad subtype,
	                            bad prv byte, over-long varint */
	LT_ERR_NO_MAP = -6,      /* address outside every section of the image */
	LT_ERR_MISMATCH = -7,    /* packet does not fit the program at this pc */
	LT_ERR_IO = -8,          /* read/write/open failed (errno is kept) */
	LT_ERR_BAD_ELF = -9,     /* not a RISC-V ELF we can use */
	LT_ERR_BAD_FORMAT = -10, /* unknown format variant / option value */
	LT_ERR_ZSTD = -11,       /* zstd decompression error */
};

/* Returns a static, human-readable description of an lt_error code. */
const char *lt_errstr(int err);

#endif
