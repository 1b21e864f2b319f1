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

/* Whether the ELF at path is position-independent (type ET_DYN): where it
 * ran is then news to the decoder even when no code ran outside it. */
int lt_codemap_is_pie(const char *path);

/* Formats for a stream (the CODE frames of `ltpipe serve`, same line
 * syntax) the instructions of insns[n] (NULL entries skipped, any order;
 * the array is sorted in place) outside [ld->start_code, ld->end_code),
 * preceded by the `load` (and `binary`) lines when with_load. Sets *text
 * (malloc'd, the caller frees; NULL when there is nothing to say) and
 * *len. Returns 0 or LT_ERR_NOMEM / LT_ERR_IO. */
int lt_codemap_text(struct lt_qinsn **insns, size_t n,
                    const struct lt_codemap_load *ld, int with_load,
                    char **text, size_t *len);

#endif
