/* Function symbols of an ELF: address -> function, for receivers that
 * report per function (stats, profiles).
 *
 * A table holds one entry per function start address, sorted and disjoint:
 * STT_FUNC symbols of executable sections, plus STT_NOTYPE ones (assembly
 * labels without .type) where no function covers them. A symbol of size 0
 * extends to the next symbol or the end of its section; a sized one is cut
 * at the next symbol's start, so every address maps to at most one entry.
 * Aliases (several names at one address) keep one entry: FUNC before
 * NOTYPE, GLOBAL before WEAK before LOCAL, then the smaller name. Static
 * functions of the same name in different files have different addresses
 * and stay separate entries. .symtab is used, .dynsym when it is stripped.
 *
 * Lookup is O(1) on average (a bucket index over the address span, then a
 * short search) and O(log n) at worst. Tables are immutable once built and
 * may be shared by threads. */
#ifndef LTPIPE_SYMBOLS_H
#define LTPIPE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"

/* One function. */
struct lt_sym {
	uint64_t start;   /* address of its first byte */
	uint64_t end;     /* one past its last byte (after extension/cutting) */
	const char *name; /* symbol name, owned by the table */
	uint8_t bind;     /* STB_LOCAL, STB_GLOBAL or STB_WEAK */
	uint8_t type;     /* STT_FUNC or STT_NOTYPE */
	uint8_t sized;    /* 1 if the ELF size gave `end`, 0 if extended */
	uint8_t pad;      /* unused */
};

/* A symbol table. */
struct lt_symtab {
	struct lt_sym *sym;  /* entries, sorted by start, disjoint */
	size_t n;            /* number of entries */
	char *names;         /* storage of every name */
	uint64_t lo;         /* start of the first entry (bucket origin) */
	unsigned shift;      /* log2 of the bucket size in bytes */
	size_t nbuckets;     /* number of buckets */
	uint32_t *bucket;    /* nbuckets + 1 entries: index of the first entry
	                        ending after the bucket's first byte */
};

/* Builds the table of the ELF held in memory (elf[size], not modified,
 * need not outlive the table). An ELF without function symbols gives an
 * empty table (n == 0), not an error. Returns 0, LT_ERR_BAD_ELF or
 * LT_ERR_NOMEM (message in err). */
int lt_symtab_load_mem(struct lt_symtab *tab, const void *elf, size_t size,
                       char *err, size_t errlen);

/* As lt_symtab_load_mem, from a loaded image's file contents. */
int lt_symtab_load(struct lt_symtab *tab, const struct lt_image *img,
                   char *err, size_t errlen);

/* As lt_symtab_load_mem, from the file at path (LT_ERR_IO if unreadable). */
int lt_symtab_load_file(struct lt_symtab *tab, const char *path, char *err,
                        size_t errlen);

/* Frees a table's storage (the struct itself is the caller's). */
void lt_symtab_free(struct lt_symtab *tab);

/* Returns the index of the entry holding addr, or -1. */
long lt_symtab_find(const struct lt_symtab *tab, uint64_t addr);

/* Returns the entry holding addr, or NULL. */
static inline const struct lt_sym *lt_symtab_lookup(const struct lt_symtab *t,
                                                    uint64_t addr)
{
	long i = lt_symtab_find(t, addr);
	return i < 0 ? NULL : &t->sym[i];
}

/* Returns the first entry named `name` (lowest address), or -1. O(n). */
long lt_symtab_by_name(const struct lt_symtab *tab, const char *name);

/* Shared tables: returns the table of img's ELF, built on first use and
 * shared by every caller (and every image with identical file contents:
 * the cache is keyed by a hash of the contents, so a freed image never
 * leaves a stale entry behind). Thread-safe. Each successful call takes a
 * reference, released with lt_symtab_put. Returns NULL with a message on
 * failure. */
const struct lt_symtab *lt_symtab_get(const struct lt_image *img, char *err,
                                      size_t errlen);

/* Releases a reference from lt_symtab_get; the last one frees the table.
 * NULL is fine. */
void lt_symtab_put(const struct lt_symtab *tab);

#endif
