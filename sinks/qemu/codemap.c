/* Writing the plugin's code map (codemap.h). */
#include "codemap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpipe/error.h"

static int cmp_addr(const void *a, const void *b)
{
	const struct lt_qinsn *x = *(struct lt_qinsn *const *)a;
	const struct lt_qinsn *y = *(struct lt_qinsn *const *)b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Writes the runs of v[n] (sorted) to f: contiguous instructions share a
 * line; an instruction overlapping the one before (code that changed, or
 * was entered in the middle) is left out. */
static void write_runs(FILE *f, struct lt_qinsn **v, size_t n)
{
	uint64_t end = 0;
	int open = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lt_qinsn *q = v[i];
		if (open && q->addr < end)
			continue;
		if (!open || q->addr != end) {
			fprintf(f, "%s%" PRIx64 " ", open ? "\n" : "", q->addr);
			open = 1;
		}
		for (unsigned k = 0; k < q->len && k < 4; k++)
			fprintf(f, "%02x", (unsigned)(q->raw >> (8 * k)) & 0xff);
		end = q->addr + q->len;
	}
	if (open)
		fputc('\n', f);
}

/* Writes the `binary` and `load` lines of ld to f. */
static void write_load(FILE *f, const struct lt_codemap_load *ld)
{
	if (ld->binary && !strchr(ld->binary, '\n'))
		fprintf(f, "binary %s\n", ld->binary);
	fprintf(f, "load %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", ld->start_code,
	        ld->end_code, ld->entry);
}

int lt_codemap_text(struct lt_qinsn **insns, size_t n,
                    const struct lt_codemap_load *ld, int with_load,
                    char **text, size_t *len)
{
	size_t m = 0;
	*text = NULL;
	*len = 0;
	for (size_t i = 0; i < n; i++)
		if (insns[i] && (insns[i]->addr < ld->start_code ||
		                 insns[i]->addr >= ld->end_code))
			insns[m++] = insns[i];
	if (!m && !with_load)
		return 0;
	qsort(insns, m, sizeof(*insns), cmp_addr);
	FILE *f = open_memstream(text, len);
	if (!f)
		return LT_ERR_NOMEM;
	if (with_load)
		write_load(f, ld);
	write_runs(f, insns, m);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		free(*text);
		*text = NULL;
		*len = 0;
		return LT_ERR_IO;
	}
	return 0;
}

int lt_codemap_is_pie(const char *path)
{
	unsigned char h[18];
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return 0;
	size_t n = fread(h, 1, sizeof(h), f);
	fclose(f);
	return n == sizeof(h) && memcmp(h, "\177ELF", 4) == 0 &&
	       h[5] == 1 /* little-endian */ && h[16] == 3 && h[17] == 0;
}

int lt_codemap_write(const char *path, struct lt_qinsn *const *insns,
                     size_t n, const struct lt_codemap_load *ld)
{
	struct lt_qinsn **v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (insns[i] && (insns[i]->addr < ld->start_code ||
		                 insns[i]->addr >= ld->end_code))
			v[m++] = insns[i];
	if (!m && !lt_codemap_is_pie(ld->binary)) {
		free(v);
		if (unlink(path) != 0 && errno != ENOENT)
			return LT_ERR_IO;
		return 0;
	}
	if (m)
		qsort(v, m, sizeof(*v), cmp_addr);
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 8);
	if (!tmp) {
		free(v);
		return LT_ERR_NOMEM;
	}
	snprintf(tmp, plen + 8, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;
	if (!f) {
		rc = LT_ERR_IO;
		goto out;
	}
	fprintf(f, "ltpipe-code 1\n");
	write_load(f, ld);
	write_runs(f, v, m);
	if (ferror(f))
		rc = LT_ERR_IO;
	if (fclose(f) != 0)
		rc = LT_ERR_IO;
	if (!rc && rename(tmp, path) != 0)
		rc = LT_ERR_IO;
	if (rc)
		unlink(tmp);
out:
	free(tmp);
	free(v);
	return rc;
}
