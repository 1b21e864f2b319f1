/* The code map the plugin writes next to its trace: the bytes of every
 * instruction that ran outside the program's code segment (the signal
 * trampoline, a dynamically linked program's loader and libraries), so
 * that `ltpipe decode` can walk them (format: decoder/image_code.c). */
#ifndef LTPIPE_SINKS_QEMU_CODEMAP_H
#define LTPIPE_SINKS_QEMU_CODEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "infer.h"

/* Where the program was loaded (qemu-user's view of it). */
struct lt_codemap_load {
	uint64_t start_code; /* first byte of its code segment */
	uint64_t end_code;   /* one past its last byte */
	uint64_t entry;      /* its entry point */
	const char *binary;  /* its path, or NULL */
};

/* Writes to `path` (through a temporary file renamed into place) the
 * instructions of insns[n] (NULL entries skipped, any order) outside
 * [ld->start_code, ld->end_code). With none, removes a stale `path` and
 * writes nothing, unless the binary is position-independent (then the map
 * holds where it ran). Returns 0 or LT_ERR_IO / LT_ERR_NOMEM. */
int lt_codemap_write(const char *path, struct lt_qinsn *const *insns,
                     size_t n, const struct lt_codemap_load *ld);

#endif
