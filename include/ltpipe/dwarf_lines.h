/* DWARF services for profile receivers (gcda, afdo): an address -> source
 * line map from .debug_line and address -> inline stack from .debug_info,
 * built once per program image and shared read-only.
 *
 * Line map. `row` holds every row of every unit's line program, units in
 * .debug_info order and each unit's rows in program order (as
 * llvm-dwarfdump --debug-line prints them), end_sequence rows included.
 * DWARF 5 file numbers are 0-based with the file register starting at 1,
 * DWARF 2-4 ones 1-based. Rows of one
 * sequence at the same address form a group; a group covers the addresses
 * from its address up to the next address in its sequence. `range` lists
 * those covered spans sorted by address and disjoint, each naming its
 * group's first and last row. The LAST row of a group is the one
 * addr2line reports (binutils keeps only the last row per address); the
 * earlier ones are kept because they carry the other lines and is_stmt
 * flags a profile may want (e.g. the first is_stmt row of an inlined
 * call). In a linked ELF, spans are cut to the executable section
 * holding their start and dropped when none does (code the linker
 * discarded is described at address 0). Where spans still overlap (bad
 * DWARF), the one starting first keeps the shared addresses (on a tie the
 * earlier in .debug_line) and the other is cut.
 *
 * File names are full paths as addr2line prints them: an absolute name as
 * is, else its include directory (DWARF 5: entry 0 is the unit's
 * directory; DWARF 2-4: index 0 means the compilation directory) and, when
 * that is relative or absent, DW_AT_comp_dir in front. Paths are not
 * normalised. Every distinct path appears once in `file`.
 *
 * Inline map. Every concrete DW_TAG_subprogram with code (low_pc/high_pc or
 * DW_AT_ranges) is a root function; every DW_TAG_inlined_subroutine inside
 * it (through lexical blocks too) is a function whose parent is the
 * innermost enclosing subprogram or inlined subroutine. Names and
 * declaration lines come from the DIE itself or through
 * DW_AT_abstract_origin / DW_AT_specification (a linkage name anywhere on
 * that chain wins over DW_AT_name, as in addr2line). Each address maps to
 * the deepest instance covering it; its parent chain is the inline stack.
 * Spans are cut to executable sections and overlaps resolved as above.
 *
 * Lookups are binary searches (O(log n)); tables are immutable once built
 * and may be read by several threads at once. Relocatable objects (.o)
 * are read without applying relocations: use linked images. */
#ifndef LTPIPE_DWARF_LINES_H
#define LTPIPE_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"

/* One row of a line program. */
struct lt_line_row {
	uint64_t addr;          /* address of the instruction */
	uint32_t file;          /* index into lt_dwarf.file */
	uint32_t line;          /* source line, 0 for "no line" */
	uint32_t column;        /* column, 0 when unknown */
	uint32_t discriminator; /* block discriminator, 0 when none */
	uint8_t is_stmt;        /* 1 if a recommended statement boundary */
	uint8_t end_seq;        /* 1 for an end_sequence row (covers nothing) */
	uint8_t prologue_end;   /* 1 if DW_LNS_set_prologue_end was set */
	uint8_t epilogue_begin; /* 1 if DW_LNS_set_epilogue_begin was set */
	uint32_t unit;          /* index of its compilation unit (0-based) */
};

/* A span of addresses described by one group of rows. */
struct lt_line_range {
	uint64_t lo;    /* first address covered */
	uint64_t hi;    /* one past the last address covered */
	uint32_t first; /* first row of the group (index into row) */
	uint32_t last;  /* last row of the group: the one addr2line reports */
};

/* One function instance: a concrete subprogram or an inlined call. */
struct lt_inline_func {
	const char *name;            /* linkage name, else DW_AT_name, else "??" */
	uint32_t decl_file;          /* index into lt_dwarf.file, or
	                                LT_DWARF_NO_FILE */
	uint32_t decl_line;          /* DW_AT_decl_line, 0 when absent */
	int32_t parent;              /* index of the caller's instance in
	                                lt_dwarf.func, -1 for a root */
	uint32_t depth;              /* 0 for a root, parent's depth + 1 */
	uint32_t call_file;          /* call site in the caller: file index,
	                                or LT_DWARF_NO_FILE (roots) */
	uint32_t call_line;          /* call site line, 0 for roots */
	uint32_t call_column;        /* call site column, 0 when absent */
	uint32_t call_discriminator; /* DW_AT_GNU_discriminator of the call,
	                                0 when absent */
};

/* A span of addresses whose innermost function is one instance. */
struct lt_inline_range {
	uint64_t lo;   /* first address covered */
	uint64_t hi;   /* one past the last address covered */
	uint32_t func; /* index into lt_dwarf.func of the deepest instance */
	uint32_t pad;  /* unused */
};

/* Index meaning "no file". */
#define LT_DWARF_NO_FILE UINT32_MAX

/* Line and inline tables of one ELF. */
struct lt_dwarf {
	struct lt_line_row *row;       /* every row, .debug_line order */
	size_t nrows;                  /* number of rows */
	struct lt_line_range *range;   /* covered spans, sorted, disjoint */
	size_t nranges;                /* number of spans */
	const char **file;             /* distinct full paths */
	size_t nfiles;                 /* number of paths */
	struct lt_inline_func *func;   /* function instances, parents first */
	size_t nfuncs;                 /* number of instances */
	struct lt_inline_range *irange; /* innermost-instance spans, sorted,
	                                   disjoint */
	size_t nirange;                /* number of spans */
	size_t nunits;                 /* compilation units read */
	uint8_t *unit_opt;             /* per unit: 1 when its producer
	                                  (DW_AT_producer) shows an
	                                  optimization level above -O0 */
	const char **unit_dir;         /* per unit: its DW_AT_comp_dir (where
	                                  the compiler ran, so where its
	                                  .gcno went), or NULL */
	void *pool;                    /* storage of every string (private) */
};

/* Builds the tables of the ELF held in memory (elf[size], not modified,
 * need not outlive the tables); `name` names it in messages. An ELF
 * without DWARF gives empty tables, not an error. Returns 0,
 * LT_ERR_BAD_ELF (not an ELF, or DWARF libdwarf rejects) or LT_ERR_NOMEM,
 * with a one-line message in err[errlen]. On failure *d is left empty
 * (lt_dwarf_free is still fine). */
int lt_dwarf_load_mem(struct lt_dwarf *d, const void *elf, size_t size,
                      const char *name, char *err, size_t errlen);

/* As lt_dwarf_load_mem, from a loaded image's file contents. */
int lt_dwarf_load(struct lt_dwarf *d, const struct lt_image *img, char *err,
                  size_t errlen);

/* As lt_dwarf_load_mem, from the file at path (LT_ERR_IO if unreadable). */
int lt_dwarf_load_file(struct lt_dwarf *d, const char *path, char *err,
                       size_t errlen);

/* Frees the tables' storage (the struct itself is the caller's) and
 * leaves *d empty. */
void lt_dwarf_free(struct lt_dwarf *d);

/* Returns the index of the line span holding addr, or -1. */
long lt_dwarf_line_find(const struct lt_dwarf *d, uint64_t addr);

/* Returns the row addr2line reports for addr (the last row of the group
 * covering it), or NULL where no line program covers addr. */
const struct lt_line_row *lt_dwarf_line(const struct lt_dwarf *d,
                                        uint64_t addr);

/* Returns the index of the first line span that ends after lo (so spans
 * i, i+1, ... while range[i].lo < hi are those meeting [lo, hi)); nranges
 * if none. Every row of such a span is row[first..last]. */
size_t lt_dwarf_line_first(const struct lt_dwarf *d, uint64_t lo);

/* Iterator over the line spans meeting [lo, hi). */
struct lt_line_iter {
	const struct lt_dwarf *d; /* tables iterated */
	size_t i;                 /* next span to return */
	uint64_t hi;              /* end of the queried address range */
};

/* Starts iterating the spans that meet [lo, hi). */
void lt_line_iter_init(struct lt_line_iter *it, const struct lt_dwarf *d,
                       uint64_t lo, uint64_t hi);

/* Returns the next span (ascending addresses), or NULL at the end. */
const struct lt_line_range *lt_line_iter_next(struct lt_line_iter *it);

/* Returns the index in d->func of the innermost function instance at
 * addr, or -1 where no subprogram with code covers it. */
long lt_dwarf_inline_find(const struct lt_dwarf *d, uint64_t addr);

/* Fills stack[0..max) with the inline stack at addr, innermost first:
 * stack[0] is the deepest inlined instance (or the subprogram itself),
 * stack[k+1] is the caller of stack[k], and stack[k]->call_* is the call
 * site inside stack[k+1]. Returns the full depth (may exceed max; only
 * max entries are written), 0 where no function covers addr. */
int lt_dwarf_inline_stack(const struct lt_dwarf *d, uint64_t addr,
                          const struct lt_inline_func **stack, int max);

/* Shared tables: returns the tables of img's ELF, built on first use and
 * shared by every caller and every image with identical contents (the
 * cache is keyed by a hash of the contents). Thread-safe. Each successful
 * call takes a reference, released with lt_dwarf_put. Returns NULL with a
 * message on failure. */
const struct lt_dwarf *lt_dwarf_get(const struct lt_image *img, char *err,
                                    size_t errlen);

/* Releases a reference from lt_dwarf_get; the last one frees the tables.
 * NULL is fine. */
void lt_dwarf_put(const struct lt_dwarf *d);

#endif
