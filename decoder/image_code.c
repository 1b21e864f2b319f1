/* Code map files: code that ran outside the program's ELF, added to its
 * image as extra regions (see lt_image_add_codemap in image.h).
 *
 * A trace walks the program's code between packets, so every instruction
 * that ran must be readable. A Linux program also runs code its ELF does
 * not hold: the signal-return trampoline (`li a7,139; ecall`, in the
 * vDSO or, under qemu-user, a page of its own) that a handler returns
 * to, and a dynamically linked program's loader and libraries. The QEMU
 * plugin records the bytes of every instruction it ran outside the
 * program's code segment and writes them next to its trace. The format
 * is text, one record per line:
 *
 *   ltpipe-code 1                       first line, the version
 *   binary PATH                         the program QEMU ran (information)
 *   load START END ENTRY                its code segment and entry point as
 *                                       loaded (hex), for the PIE check
 *   ADDR HEXBYTES                       a run of contiguous code at ADDR
 *
 * Lines starting with '#' and empty lines are ignored. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_tables.h"
#include "ltpipe/error.h"
#include "ltpipe/hex.h"
#include "ltpipe/image.h"

/* Parses a hex number (optional 0x) at *s, advancing past it and the
 * blanks after it. Returns 0, or -1 when there is none or it overflows. */
static int hex_u64(char **s, uint64_t *out)
{
	char *p = *s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	uint64_t v = 0;
	int n = 0;
	for (; lt_hex_digit((unsigned char)*p) >= 0; p++, n++) {
		if (v >> 60)
			return -1;
		v = v << 4 | (uint64_t)lt_hex_digit((unsigned char)*p);
	}
	if (!n)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	*s = p;
	*out = v;
	return 0;
}

/* Does [base, end) overlap a region of img? */
static int overlaps(const struct lt_image *img, uint64_t base, uint64_t end)
{
	for (size_t i = 0; i < img->nregions; i++)
		if (base < img->regions[i].end && img->regions[i].base < end)
			return 1;
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct lt_region *x = a, *y = b;
	return x->base < y->base ? -1 : x->base > y->base;
}

/* Appends a region owning bytes[len] at base to img (tables built; the
 * caller sorts the regions). Returns 0 or LT_ERR_NOMEM (bytes then freed
 * or owned by the image). */
static int add_region(struct lt_image *img, uint64_t base, uint8_t *bytes,
                      size_t len)
{
	struct lt_region *v = realloc(img->regions,
	                              (img->nregions + 1) * sizeof(*v));
	if (!v) {
		free(bytes);
		return LT_ERR_NOMEM;
	}
	img->regions = v;
	struct lt_region *r = &v[img->nregions];
	memset(r, 0, sizeof(*r));
	r->base = base;
	r->end = base + len;
	r->bytes = bytes;
	r->owned = bytes;
	snprintf(r->name, sizeof(r->name), "code@%" PRIx64, base);
	img->nregions++;
	return lt_region_build_tables(r, img->xlen); /* freed with the image */
}

/* Parses one "ADDR HEXBYTES" line at s into a new buffer. Returns 0,
 * or -1 with the reason in *why. */
static int parse_run(char *s, uint64_t *addr, uint8_t **bytes, size_t *len,
                     const char **why)
{
	if (hex_u64(&s, addr) < 0) {
		*why = "expected a hex address";
		return -1;
	}
	size_t nhex = strspn(s, "0123456789abcdefABCDEF");
	char *rest = s + nhex;
	while (*rest == ' ' || *rest == '\t' || *rest == '\r' ||
	       *rest == '\n')
		rest++;
	if (*rest || !nhex || nhex % 4 || nhex / 2 > LT_CODEMAP_MAX_RUN) {
		*why = "expected the code as an even number of halfwords in "
		       "hex";
		return -1;
	}
	if (*addr & 1) {
		*why = "odd code address";
		return -1;
	}
	if (*addr + nhex / 2 < *addr) {
		*why = "run wraps around the address space";
		return -1;
	}
	*len = nhex / 2;
	*bytes = malloc(*len);
	if (!*bytes) {
		*why = "out of memory";
		return -1;
	}
	for (size_t i = 0; i < *len; i++)
		(*bytes)[i] = (uint8_t)(lt_hex_digit((unsigned char)s[2 * i]) << 4 |
		                        lt_hex_digit((unsigned char)s[2 * i + 1]));
	return 0;
}

int lt_codemap_parse_line(char *s, struct lt_codemap_line *out,
                          const char **why)
{
	memset(out, 0, sizeof(*out));
	if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
		return 0;
	if (!strncmp(s, "binary ", 7))
		return 0;
	if (!strncmp(s, "ltpipe-code 1", 13) &&
	    (!s[13] || s[13] == '\n' || s[13] == '\r'))
		return 0;
	if (!strncmp(s, "load ", 5)) {
		s += 5;
		if (hex_u64(&s, &out->a) < 0 || hex_u64(&s, &out->b) < 0 ||
		    hex_u64(&s, &out->c) < 0 || (*s && *s != '\n' &&
		                                 *s != '\r')) {
			*why = "expected 'load START END ENTRY' in hex";
			return -1;
		}
		out->kind = LT_CM_LOAD;
		return 0;
	}
	if (parse_run(s, &out->a, &out->bytes, &out->len, why) < 0)
		return -1;
	out->kind = LT_CM_RUN;
	return 0;
}

int lt_image_add_codemap(struct lt_image *img, const char *path,
                         struct lt_codemap_info *info, char *err,
                         size_t errlen)
{
	memset(info, 0, sizeof(*info));
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open code map: %s", path,
		         strerror(errno));
		return LT_ERR_IO;
	}
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;
	const char *why = NULL;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		char *s = line;
		if (lineno == 1) {
			if (strncmp(s, "ltpipe-code 1", 13) != 0 ||
			    (s[13] && s[13] != '\n' && s[13] != '\r')) {
				why = "not an ltpipe code map (expected "
				      "'ltpipe-code 1')";
				break;
			}
			continue;
		}
		struct lt_codemap_line ln;
		if (lt_codemap_parse_line(s, &ln, &why) < 0)
			break;
		if (ln.kind == LT_CM_LOAD) {
			info->start_code = ln.a;
			info->end_code = ln.b;
			info->entry_code = ln.c;
		}
		if (ln.kind != LT_CM_RUN)
			continue;
		uint64_t addr = ln.a;
		uint8_t *bytes = ln.bytes;
		size_t len = ln.len;
		if (overlaps(img, addr, addr + len)) {
			free(bytes);
			info->nskipped++;
			continue;
		}
		rc = add_region(img, addr, bytes, len);
		if (rc < 0) {
			why = "out of memory";
			break;
		}
		info->nruns++;
	}
	/* Lookups bisect the regions: one sort once every run is in. */
	qsort(img->regions, img->nregions, sizeof(*img->regions), cmp_region);
	if (!why && ferror(f))
		why = "read error";
	if (!why && lineno == 0)
		why = "empty file (expected 'ltpipe-code 1')";
	free(line);
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
		return rc < 0 ? rc : LT_ERR_BAD_FORMAT;
	}
	return 0;
}
