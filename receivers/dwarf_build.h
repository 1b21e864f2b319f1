/* Private to dwarf_lines.c and dwarf_inline.c: the state shared while one
 * ELF's DWARF is read (string pool, per-unit file map). */
#ifndef LTPIPE_DWARF_BUILD_H
#define LTPIPE_DWARF_BUILD_H

#include <libdwarf/libdwarf.h>
#include <stddef.h>
#include <stdint.h>

#include "ltpipe/dwarf_lines.h"

/* A raw (possibly nested) address range of a function instance, before
 * the innermost-instance spans are computed. */
struct lt_dwarf_raw {
	uint64_t lo;   /* first address */
	uint64_t hi;   /* one past the last */
	uint32_t func;  /* instance index */
	uint32_t root;  /* index of its root instance (groups one tree) */
	uint32_t depth; /* the instance's inline depth */
	uint32_t pad;   /* unused */
};

/* An executable section's address span. */
struct lt_dwarf_xsec {
	uint64_t lo; /* sh_addr */
	uint64_t hi; /* sh_addr + sh_size */
};

/* Everything the build of one lt_dwarf needs. */
struct lt_dwarf_build {
	struct lt_dwarf *d;       /* tables being filled */
	Dwarf_Debug dbg;          /* the open libdwarf handle */
	const char *name;         /* ELF name for messages */
	char *err;                /* message buffer */
	size_t errlen;            /* its size */
	size_t row_cap;           /* allocated entries of d->row */
	size_t file_cap;          /* allocated entries of d->file */
	size_t func_cap;          /* allocated entries of d->func */
	const char **fhash;       /* open-addressing set of d->file paths */
	uint32_t *fhash_idx;      /* file index of each fhash slot */
	size_t fhash_cap;         /* slots (power of two) */
	const char **shash;       /* open-addressing set of interned names */
	size_t shash_cap;         /* slots (power of two) */
	size_t shash_n;           /* names interned */
	uint32_t *fmap;           /* this unit: file number -> d->file index */
	size_t nfmap;             /* entries of fmap */
	struct lt_dwarf_raw *raw; /* raw instance ranges of all units */
	size_t nraw;              /* number of raw ranges */
	size_t raw_cap;           /* allocated raw ranges */
	struct lt_dwarf_xsec *xsec; /* executable sections, sorted; NULL
	                               when not filtering (ET_REL) */
	size_t nxsec;             /* number of executable sections */
	const uint8_t *line_sec;  /* .debug_line contents, or NULL */
	size_t line_size;         /* its size */
	Dwarf_Half version;       /* this unit's DWARF version */
	uint64_t cu_base;         /* this unit's base address (low_pc) */
	Dwarf_Off cu_off;         /* this unit's DIE offset */
};

/* Copies s[0..len) into the tables' pool (deduplicated). Returns the
 * stored copy, or NULL when out of memory. */
const char *lt_dwarf_intern(struct lt_dwarf_build *b, const char *s,
                            size_t len);

/* Maps a DWARF file number of the current unit (line rows, decl_file,
 * call_file) to a d->file index, LT_DWARF_NO_FILE when out of range. */
uint32_t lt_dwarf_unit_file(const struct lt_dwarf_build *b, uint64_t fileno);

/* Sets a "name: what: libdwarf message" line in b->err and frees e.
 * Returns LT_ERR_BAD_ELF. */
int lt_dwarf_fail(struct lt_dwarf_build *b, Dwarf_Error e, const char *what);

/* Cuts [*lo, *hi) to the executable section holding *lo (spans of
 * discarded code, relocated to 0, fall outside every section). Returns 1
 * to keep the span, 0 to drop it. */
int lt_dwarf_clip(const struct lt_dwarf_build *b, uint64_t *lo, uint64_t *hi);

/* Appends the rows of the line program at offset off of b->line_sec to
 * b->d->row, file numbers mapped through the unit's file map. Returns 0
 * or a negative lt_error with the message set. */
int lt_dwarf_unit_rows(struct lt_dwarf_build *b, uint64_t off);

/* Checks the unit headers of a DWARF 5 list section (.debug_rnglists,
 * .debug_loclists): libdwarf 20210528 frees memory twice when a unit
 * length runs past the section, so such input is refused before libdwarf
 * sees it. Returns 0, or -1 with *bad_off set to the bad header. */
int lt_dwarf_list_headers_ok(const uint8_t *p, size_t size, size_t *bad_off);

/* Reads the function instances of the unit whose DIE is cu (after its
 * line table, so the unit's file map is set). Returns 0 or a negative
 * lt_error with the message set. */
int lt_dwarf_inline_unit(struct lt_dwarf_build *b, Dwarf_Die cu);

/* After every unit: turns the raw ranges into d->irange. Returns 0 or
 * LT_ERR_NOMEM. */
int lt_dwarf_inline_finish(struct lt_dwarf_build *b);

#endif
