/* Messages for the lt_error codes (include/ltpipe/error.h). */
#include "ltpipe/error.h"

const char *lt_errstr(int err)
{
	switch (err) {
	case LT_OK:
		return "success";
	case LT_ERR_NOMEM:
		return "out of memory";
	case LT_ERR_INVAL:
		return "invalid argument";
	case LT_ERR_BAD_INSN:
		return "unknown or reserved instruction encoding";
	case LT_ERR_TRUNC:
		return "truncated input";
	case LT_ERR_BAD_PACKET:
		return "corrupt trace packet";
	case LT_ERR_NO_MAP:
		return "address not in the program image";
	case LT_ERR_MISMATCH:
		return "trace packet does not fit the program";
	case LT_ERR_IO:
		return "input/output error";
	case LT_ERR_BAD_ELF:
		return "not a usable RISC-V ELF file";
	case LT_ERR_BAD_FORMAT:
		return "unknown format or option value";
	case LT_ERR_ZSTD:
		return "zstd decompression error";
	}
	return "unknown error";
}
