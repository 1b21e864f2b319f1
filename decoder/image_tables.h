/* Shared by image.c, image_code.c and the daemon's streamed code maps
 * (daemon_code.c): the per-halfword step tables and the code map line
 * syntax. */
#ifndef LTPIPE_DECODER_IMAGE_TABLES_H
#define LTPIPE_DECODER_IMAGE_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"

/* Bytes in one code map run: far above any library. */
#define LT_CODEMAP_MAX_RUN (1u << 24)

/* What one code map line says. */
enum lt_codemap_kind {
	LT_CM_NONE = 0, /* empty, comment, header or `binary` line */
	LT_CM_LOAD = 1, /* `load START END ENTRY` */
	LT_CM_RUN = 2,  /* `ADDR HEXBYTES`: code at ADDR */
};

/* One parsed code map line. */
struct lt_codemap_line {
	int kind;          /* enum lt_codemap_kind */
	uint64_t a;        /* LOAD: START; RUN: ADDR */
	uint64_t b;        /* LOAD: END */
	uint64_t c;        /* LOAD: ENTRY */
	uint8_t *bytes;    /* RUN: its code (malloc'd, the caller frees) */
	size_t len;        /* RUN: its byte count (even, > 0) */
};

/* Parses the NUL-terminated line s (its '\n' may be left on) of a code
 * map (format: image_code.c). The `ltpipe-code 1` header is a NONE line
 * here: callers that need it check the first line themselves. Returns 0
 * and *out, or -1 with what was expected in *why (a static string). */
int lt_codemap_parse_line(char *s, struct lt_codemap_line *out,
                          const char **why);

/* Allocates and fills r->hw and r->info for r's bytes [base, end).
 * Returns 0 or LT_ERR_NOMEM. */
int lt_region_build_tables(struct lt_region *r, int xlen);

#endif
