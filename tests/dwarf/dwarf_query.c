/* Test tool for the DWARF services: prints what lt_dwarf answers, in forms
 * check_dwarf.py compares with addr2line and llvm-dwarfdump.
 *
 *   dwarf_query ELF rows          every row, .debug_line order
 *   dwarf_query ELF spans         the line spans
 *   dwarf_query ELF lines         per hex address on stdin: the line row
 *                                 ("file:line discriminator")
 *   dwarf_query ELF inline        the same, then " | " and each frame of
 *                                 the inline stack, innermost first
 *   dwarf_query ELF iter LO HI    rows of the spans meeting [LO, HI)
 *   dwarf_query ELF stats         counts, and the build time
 *   dwarf_query ELF cache         lt_dwarf_get twice on two loads of the
 *                                 image: one shared table set, same rows
 *
 * Exits 1 with the loader's message when the ELF cannot be read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpipe/dwarf_lines.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"

/* Path of file index f, "??" for none. */
static const char *fname(const struct lt_dwarf *d, uint32_t f)
{
	return f < d->nfiles ? d->file[f] : "??";
}

/* Prints one row. */
static void print_row(const struct lt_dwarf *d, const struct lt_line_row *r)
{
	printf("0x%" PRIx64 " %s %u %u %u %u %u %u %u\n", r->addr,
	       fname(d, r->file), r->line, r->column, r->discriminator,
	       r->is_stmt, r->end_seq, r->prologue_end, r->epilogue_begin);
}

/* Answers each address read from stdin. */
static void per_address(const struct lt_dwarf *d, int inl)
{
	char buf[128];
	while (fgets(buf, sizeof(buf), stdin)) {
		uint64_t a = strtoull(buf, NULL, 16);
		const struct lt_line_row *r = lt_dwarf_line(d, a);
		printf("0x%" PRIx64, a);
		if (r)
			printf(" %s:%u %u", fname(d, r->file), r->line,
			       r->discriminator);
		else
			printf(" ??:0 0");
		if (!inl) {
			printf("\n");
			continue;
		}
		const struct lt_inline_func *st[64];
		int n = lt_dwarf_inline_stack(d, a, st, 64);
		if (n > 64)
			n = 64;
		for (int i = 0; i < n; i++)
			printf(" | %s %u %s:%u:%u:%u", st[i]->name,
			       st[i]->decl_line, fname(d, st[i]->call_file),
			       st[i]->call_line, st[i]->call_column,
			       st[i]->call_discriminator);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s ELF rows|spans|lines|inline|"
		                "iter LO HI|stats\n", argv[0]);
		return 2;
	}
	struct lt_dwarf d;
	char err[512];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = lt_dwarf_load_file(&d, argv[1], err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc) {
		printf("error %s: %s\n", lt_errstr(rc), err);
		return 1;
	}
	const char *m = argv[2];
	if (!strcmp(m, "rows")) {
		for (size_t i = 0; i < d.nrows; i++)
			print_row(&d, &d.row[i]);
	} else if (!strcmp(m, "spans")) {
		for (size_t i = 0; i < d.nranges; i++)
			printf("0x%" PRIx64 " 0x%" PRIx64 " %u %u\n",
			       d.range[i].lo, d.range[i].hi, d.range[i].first,
			       d.range[i].last);
	} else if (!strcmp(m, "lines") || !strcmp(m, "inline")) {
		per_address(&d, !strcmp(m, "inline"));
	} else if (!strcmp(m, "iter") && argc == 5) {
		struct lt_line_iter it;
		const struct lt_line_range *s;
		lt_line_iter_init(&it, &d, strtoull(argv[3], NULL, 16),
		                  strtoull(argv[4], NULL, 16));
		while ((s = lt_line_iter_next(&it)))
			for (uint32_t i = s->first; i <= s->last; i++)
				print_row(&d, &d.row[i]);
	} else if (!strcmp(m, "cache")) {
		struct lt_image *i1 = NULL, *i2 = NULL;
		if (lt_image_load(&i1, argv[1], err, sizeof(err)) ||
		    lt_image_load(&i2, argv[1], err, sizeof(err))) {
			printf("error %s\n", err);
			return 1;
		}
		const struct lt_dwarf *a = lt_dwarf_get(i1, err, sizeof(err));
		const struct lt_dwarf *b = lt_dwarf_get(i2, err, sizeof(err));
		int same = a && a == b && a->nrows == d.nrows &&
		           a->nfuncs == d.nfuncs &&
		           !memcmp(a->row, d.row, d.nrows * sizeof(*d.row));
		lt_image_free(i1);
		lt_dwarf_put(a);
		/* The second reference keeps the tables alive. */
		same = same && b->nranges == d.nranges;
		lt_dwarf_put(b);
		lt_image_free(i2);
		printf("cache %s rows %zu\n", same ? "shared" : "BROKEN",
		       d.nrows);
	} else if (!strcmp(m, "stats")) {
		double ms = (t1.tv_sec - t0.tv_sec) * 1e3 +
		            (t1.tv_nsec - t0.tv_nsec) / 1e6;
		printf("units %zu rows %zu spans %zu files %zu funcs %zu "
		       "inline-spans %zu load-ms %.1f\n", d.nunits, d.nrows,
		       d.nranges, d.nfiles, d.nfuncs, d.nirange, ms);
	} else {
		fprintf(stderr, "unknown mode %s\n", m);
		lt_dwarf_free(&d);
		return 2;
	}
	lt_dwarf_free(&d);
	return 0;
}
