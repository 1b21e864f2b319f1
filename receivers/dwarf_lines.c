/* DWARF line map: reading every unit's line program through libdwarf into
 * one sorted span table, plus the load/free/cache plumbing shared with the
 * inline map (dwarf_inline.c). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdwarf/dwarf.h>

#include "dwarf_build.h"
#include "ltpipe/error.h"
#include "ltpipe/image_derived.h"

/* ---- string pool ------------------------------------------------------ */

/* One block of pooled strings. */
struct pool_chunk {
	struct pool_chunk *next; /* older chunk */
	size_t used;             /* bytes handed out */
	size_t size;             /* bytes in data */
	char data[];             /* the strings */
};

/* Returns len+1 bytes of pool storage, or NULL. */
static char *pool_alloc(struct lt_dwarf *d, size_t len)
{
	struct pool_chunk *c = d->pool;
	if (!c || c->size - c->used < len + 1) {
		size_t sz = len + 1 > 65536 ? len + 1 : 65536;
		struct pool_chunk *n = malloc(sizeof(*n) + sz);
		if (!n)
			return NULL;
		n->next = c;
		n->used = 0;
		n->size = sz;
		d->pool = c = n;
	}
	char *p = c->data + c->used;
	c->used += len + 1;
	return p;
}

/* FNV-1a over s[0..len). */
static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

/* True if the NUL-terminated p equals s[0..len). */
static int str_eq(const char *p, const char *s, size_t len)
{
	return strncmp(p, s, len) == 0 && p[len] == '\0';
}

/* Doubles the interned-name set. Returns 0 or LT_ERR_NOMEM. */
static int shash_grow(struct lt_dwarf_build *b)
{
	size_t cap = b->shash_cap ? b->shash_cap * 2 : 1024;
	const char **t = calloc(cap, sizeof(*t));
	if (!t)
		return LT_ERR_NOMEM;
	for (size_t i = 0; i < b->shash_cap; i++) {
		const char *s = b->shash[i];
		if (!s)
			continue;
		size_t j = str_hash(s, strlen(s)) & (cap - 1);
		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = s;
	}
	free(b->shash);
	b->shash = t;
	b->shash_cap = cap;
	return 0;
}

const char *lt_dwarf_intern(struct lt_dwarf_build *b, const char *s,
                            size_t len)
{
	if (2 * (b->shash_n + 1) > b->shash_cap && shash_grow(b))
		return NULL;
	size_t j = str_hash(s, len) & (b->shash_cap - 1);
	for (; b->shash[j]; j = (j + 1) & (b->shash_cap - 1))
		if (str_eq(b->shash[j], s, len))
			return b->shash[j];
	char *p = pool_alloc(b->d, len);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	b->shash[j] = p;
	b->shash_n++;
	return p;
}

/* Doubles the path set. Returns 0 or LT_ERR_NOMEM. */
static int fhash_grow(struct lt_dwarf_build *b)
{
	size_t cap = b->fhash_cap ? b->fhash_cap * 2 : 256;
	const char **t = calloc(cap, sizeof(*t));
	uint32_t *ti = calloc(cap, sizeof(*ti));
	if (!t || !ti) {
		free(t);
		free(ti);
		return LT_ERR_NOMEM;
	}
	for (size_t i = 0; i < b->fhash_cap; i++) {
		const char *s = b->fhash[i];
		if (!s)
			continue;
		size_t j = str_hash(s, strlen(s)) & (cap - 1);
		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = s;
		ti[j] = b->fhash_idx[i];
	}
	free(b->fhash);
	free(b->fhash_idx);
	b->fhash = t;
	b->fhash_idx = ti;
	b->fhash_cap = cap;
	return 0;
}

/* Returns the d->file index of path s[0..len), adding it if new, or
 * LT_DWARF_NO_FILE when out of memory. */
static uint32_t file_intern(struct lt_dwarf_build *b, const char *s,
                            size_t len)
{
	struct lt_dwarf *d = b->d;
	if (2 * (d->nfiles + 1) > b->fhash_cap && fhash_grow(b))
		return LT_DWARF_NO_FILE;
	size_t j = str_hash(s, len) & (b->fhash_cap - 1);
	for (; b->fhash[j]; j = (j + 1) & (b->fhash_cap - 1))
		if (str_eq(b->fhash[j], s, len))
			return b->fhash_idx[j];
	if (d->nfiles == b->file_cap) {
		size_t cap = b->file_cap ? b->file_cap * 2 : 64;
		const char **f = realloc(d->file, cap * sizeof(*f));
		if (!f)
			return LT_DWARF_NO_FILE;
		d->file = f;
		b->file_cap = cap;
	}
	char *p = pool_alloc(d, len);
	if (!p)
		return LT_DWARF_NO_FILE;
	memcpy(p, s, len);
	p[len] = '\0';
	b->fhash[j] = p;
	b->fhash_idx[j] = (uint32_t)d->nfiles;
	d->file[d->nfiles] = p;
	return (uint32_t)d->nfiles++;
}

uint32_t lt_dwarf_unit_file(const struct lt_dwarf_build *b, uint64_t fileno)
{
	return fileno < b->nfmap ? b->fmap[fileno] : LT_DWARF_NO_FILE;
}

/* Turns the line breaks libdwarf puts in some messages into spaces, so
 * a message stays one line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

int lt_dwarf_fail(struct lt_dwarf_build *b, Dwarf_Error e, const char *what)
{
	snprintf(b->err, b->errlen, "%s: %s: %s", b->name, what,
	         e ? dwarf_errmsg(e) : "malformed DWARF");
	one_line(b->err);
	if (e)
		dwarf_dealloc_error(b->dbg, e);
	return LT_ERR_BAD_ELF;
}

/* Sets an out-of-memory message. Returns LT_ERR_NOMEM. */
static int fail_nomem(struct lt_dwarf_build *b)
{
	snprintf(b->err, b->errlen, "%s: out of memory reading DWARF",
	         b->name);
	return LT_ERR_NOMEM;
}

/* ---- one unit's file table -------------------------------------------- */

/* Joins up to three path parts with '/' into a pooled path and interns it. */
static uint32_t file_join(struct lt_dwarf_build *b, const char *a,
                          const char *m, const char *n)
{
	size_t la = a ? strlen(a) : 0, lm = m ? strlen(m) : 0;
	size_t ln = strlen(n);
	char stack[512];
	size_t total = la + lm + ln + 3;
	char *buf = total <= sizeof(stack) ? stack : malloc(total);
	if (!buf)
		return LT_DWARF_NO_FILE;
	size_t k = 0;
	if (la) {
		memcpy(buf + k, a, la);
		k += la;
		buf[k++] = '/';
	}
	if (lm) {
		memcpy(buf + k, m, lm);
		k += lm;
		buf[k++] = '/';
	}
	memcpy(buf + k, n, ln);
	k += ln;
	uint32_t r = file_intern(b, buf, k);
	if (buf != stack)
		free(buf);
	return r;
}

/* Fills b->fmap for the unit's line header: file number -> full path as
 * binutils' concat_filename builds it. comp_dir may be NULL. Returns 0 or
 * a negative lt_error. */
static int unit_files(struct lt_dwarf_build *b, Dwarf_Line_Context ctx,
                      const char *comp_dir)
{
	Dwarf_Signed base = 0, count = 0, end = 0, ndirs = 0;
	Dwarf_Error e = NULL;
	b->nfmap = 0;
	if (dwarf_srclines_files_indexes(ctx, &base, &count, &end, &e) !=
	    DW_DLV_OK)
		return lt_dwarf_fail(b, e, "line table file names");
	if (dwarf_srclines_include_dir_count(ctx, &ndirs, &e) != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "line table directories");
	if (end < 0 || base < 0)
		return lt_dwarf_fail(b, NULL, "line table file indexes");
	free(b->fmap);
	b->fmap = malloc(((size_t)end + 1) * sizeof(*b->fmap));
	if (!b->fmap)
		return fail_nomem(b);
	for (Dwarf_Signed i = 0; i <= end; i++)
		b->fmap[i] = LT_DWARF_NO_FILE;
	b->nfmap = (size_t)end;
	for (Dwarf_Signed i = base; i < end; i++) {
		const char *name = NULL, *dir = NULL;
		Dwarf_Unsigned di = 0, mtime, flen;
		Dwarf_Form_Data16 *md5;
		if (dwarf_srclines_files_data_b(ctx, i, &name, &di, &mtime,
		                                &flen, &md5, &e) != DW_DLV_OK)
			return lt_dwarf_fail(b, e, "line table file entry");
		if (!name)
			continue;
		/* libdwarf numbers include directories from 1 in DWARF 2-4
		 * (0 = compilation directory, not in the table) and from 0
		 * in DWARF 5, which is how the file entries refer to them. */
		Dwarf_Signed dlo = b->version >= 5 ? 0 : 1;
		Dwarf_Signed dhi = b->version >= 5 ? ndirs - 1 : ndirs;
		if ((Dwarf_Signed)di >= dlo && (Dwarf_Signed)di <= dhi &&
		    dwarf_srclines_include_dir_data(ctx, (Dwarf_Signed)di,
		                                    &dir, &e) != DW_DLV_OK)
			return lt_dwarf_fail(b, e, "line table directory");
		uint32_t f;
		if (name[0] == '/')
			f = file_join(b, NULL, NULL, name);
		else if (dir && dir[0] == '/')
			f = file_join(b, NULL, dir, name);
		else if (comp_dir)
			f = file_join(b, comp_dir, dir, name);
		else
			f = file_join(b, NULL, dir, name);
		if (f == LT_DWARF_NO_FILE)
			return fail_nomem(b);
		b->fmap[i] = f;
	}
	return 0;
}

/* Reads the string attribute `at` of die into *out (NULL if absent). */
/* Does a DW_AT_producer string ("GNU C17 12.2.0 -mabi=lp64d -g -O2 ...",
 * gcc records its options) show optimization: its last -O option not
 * -O0 (no -O at all is gcc's -O0)? */
static uint8_t optimized(const char *producer)
{
	int opt = 0;
	for (const char *p = producer; p && (p = strstr(p, " -O")); p += 3)
		opt = p[3] != '0';
	return (uint8_t)opt;
}

static void die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
                       const char **out)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	char *s = NULL;
	*out = NULL;
	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc_error(dbg, e);
		return;
	}
	if (dwarf_formstring(a, &s, &e) == DW_DLV_OK)
		*out = s;
	else if (e)
		dwarf_dealloc_error(dbg, e);
	dwarf_dealloc_attribute(a);
}

/* Reads one unit: its line table (if any), then its function instances. */
static int read_unit(struct lt_dwarf_build *b, Dwarf_Die cu)
{
	Dwarf_Error e = NULL;
	Dwarf_Unsigned ver = 0;
	Dwarf_Small tables = 0;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Addr low = 0;
	const char *comp_dir;
	int rc;

	b->nfmap = 0;
	b->cu_base = 0;
	if (dwarf_lowpc(cu, &low, &e) == DW_DLV_OK)
		b->cu_base = low;
	else if (e)
		dwarf_dealloc_error(b->dbg, e), e = NULL;
	if (dwarf_dieoffset(cu, &b->cu_off, &e) != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "unit DIE offset");
	die_string(b->dbg, cu, DW_AT_comp_dir, &comp_dir);
	const char *producer;
	die_string(b->dbg, cu, DW_AT_producer, &producer);
	uint8_t *uo = realloc(b->d->unit_opt, b->d->nunits + 1);
	if (!uo)
		return fail_nomem(b);
	b->d->unit_opt = uo;
	uo[b->d->nunits] = optimized(producer);
	const char **ud = realloc(b->d->unit_dir,
	                          (b->d->nunits + 1) * sizeof(*ud));
	if (!ud)
		return fail_nomem(b);
	b->d->unit_dir = ud;
	ud[b->d->nunits] = comp_dir ?
		lt_dwarf_intern(b, comp_dir, strlen(comp_dir)) : NULL;
	rc = dwarf_srclines_b(cu, &ver, &tables, &ctx, &e);
	if (rc == DW_DLV_ERROR)
		return lt_dwarf_fail(b, e, "line table");
	if (rc == DW_DLV_OK) {
		Dwarf_Unsigned off = 0;
		rc = unit_files(b, ctx, comp_dir);
		if (!rc && dwarf_srclines_table_offset(ctx, &off, &e) !=
		                   DW_DLV_OK)
			rc = lt_dwarf_fail(b, e, "line table offset");
		if (!rc)
			rc = lt_dwarf_unit_rows(b, off);
		dwarf_srclines_dealloc_b(ctx);
		if (rc)
			return rc;
	}
	return lt_dwarf_inline_unit(b, cu);
}

/* ---- the span table ---------------------------------------------------- */

int lt_dwarf_clip(const struct lt_dwarf_build *b, uint64_t *lo, uint64_t *hi)
{
	if (!b->xsec)
		return *lo < *hi;
	size_t a = 0, z = b->nxsec;
	while (a < z) {
		size_t m = a + (z - a) / 2;
		if (b->xsec[m].hi <= *lo)
			a = m + 1;
		else
			z = m;
	}
	if (a == b->nxsec || b->xsec[a].lo > *lo)
		return 0;
	if (*hi > b->xsec[a].hi)
		*hi = b->xsec[a].hi;
	return *lo < *hi;
}

/* Orders sections by address. */
static int xsec_cmp(const void *pa, const void *pb)
{
	const struct lt_dwarf_xsec *a = pa, *b = pb;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Collects the executable sections of a linked ELF into b->xsec (left
 * NULL for relocatable objects, whose sections all sit at 0). Returns 0
 * or LT_ERR_NOMEM. */
static int exec_sections(struct lt_dwarf_build *b, Elf *e)
{
	GElf_Ehdr eh;
	size_t shnum;
	if (!gelf_getehdr(e, &eh) || eh.e_type == ET_REL ||
	    elf_getshdrnum(e, &shnum) != 0)
		return 0;
	b->xsec = calloc(shnum + 1, sizeof(*b->xsec));
	if (!b->xsec)
		return LT_ERR_NOMEM;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
			continue;
		b->xsec[b->nxsec].lo = sh.sh_addr;
		b->xsec[b->nxsec].hi = sh.sh_addr + sh.sh_size;
		b->nxsec++;
	}
	qsort(b->xsec, b->nxsec, sizeof(*b->xsec), xsec_cmp);
	return 0;
}

/* Orders spans by start, then by row (file order) for a stable result. */
static int range_cmp(const void *pa, const void *pb)
{
	const struct lt_line_range *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Builds d->range from d->row. Returns 0 or LT_ERR_NOMEM. */
static int build_ranges(struct lt_dwarf_build *b)
{
	struct lt_dwarf *d = b->d;
	struct lt_line_range *r = malloc((d->nrows + 1) * sizeof(*r));
	if (!r)
		return LT_ERR_NOMEM;
	size_t n = 0;
	for (size_t i = 0; i < d->nrows;) {
		/* A group: rows of one sequence at one address. A sequence
		 * ends at its end_sequence row, or where a new unit starts
		 * without one (malformed: its last group is dropped). */
		size_t j = i;
		while (j + 1 < d->nrows && !d->row[i].end_seq &&
		       !d->row[j + 1].end_seq &&
		       d->row[j + 1].unit == d->row[i].unit &&
		       d->row[j + 1].addr == d->row[i].addr)
			j++;
		if (d->row[i].end_seq) {
			i++;
			continue;
		}
		if (j + 1 < d->nrows && d->row[j + 1].unit == d->row[i].unit &&
		    d->row[j + 1].addr > d->row[i].addr) {
			r[n].lo = d->row[i].addr;
			r[n].hi = d->row[j + 1].addr;
			r[n].first = (uint32_t)i;
			r[n].last = (uint32_t)j;
			if (lt_dwarf_clip(b, &r[n].lo, &r[n].hi))
				n++;
		}
		i = j + 1;
	}
	qsort(r, n, sizeof(*r), range_cmp);
	/* Overlaps: the span starting first keeps the shared addresses. */
	size_t k = 0;
	uint64_t mark = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && r[i].lo < mark) {
			if (r[i].hi <= mark)
				continue;
			r[i].lo = mark;
		}
		r[k++] = r[i];
		mark = r[i].hi;
	}
	d->range = r;
	d->nranges = k;
	return 0;
}

/* ---- loading ------------------------------------------------------------ */

/* Points b->line_sec at the contents of .debug_line and checks the list
 * sections' headers (sections are decompressed by libelf when
 * SHF_COMPRESSED; libdwarf then reads the same plain data). Leaves
 * line_sec NULL when there is none. Returns 0 or LT_ERR_BAD_ELF. */
static int line_section(struct lt_dwarf_build *b, Elf *e)
{
	size_t shstr;
	if (elf_getshdrstrndx(e, &shstr) != 0)
		return 0;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s)) != NULL;) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(s, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(n = elf_strptr(e, shstr, sh.sh_name)))
			continue;
		int lists = !strcmp(n, ".debug_rnglists") ||
		            !strcmp(n, ".debug_loclists");
		if (!lists && strcmp(n, ".debug_line") != 0)
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) &&
		    elf_compress(s, 0, 0) < 0) {
			snprintf(b->err, b->errlen,
			         "%s: cannot decompress .debug_line: %s",
			         b->name, elf_errmsg(-1));
			return LT_ERR_BAD_ELF;
		}
		Elf_Data *d = elf_getdata(s, NULL);
		if (!d || !d->d_buf) {
			snprintf(b->err, b->errlen,
			         "%s: cannot read .debug_line: %s", b->name,
			         elf_errmsg(-1));
			return LT_ERR_BAD_ELF;
		}
		size_t bad;
		if (lists && lt_dwarf_list_headers_ok(d->d_buf, d->d_size, &bad)) {
			snprintf(b->err, b->errlen,
			         "%s: %s offset 0x%zx: bad unit header", b->name,
			         n, bad);
			return LT_ERR_BAD_ELF;
		}
		if (!lists) {
			b->line_sec = d->d_buf;
			b->line_size = d->d_size;
		}
	}
	return 0;
}

/* Frees build-only storage. */
static void build_fini(struct lt_dwarf_build *b)
{
	free(b->fhash);
	free(b->fhash_idx);
	free(b->shash);
	free(b->fmap);
	free(b->raw);
	free(b->xsec);
}

/* Reads every unit of dbg into b->d. Returns 0 or an error. */
static int read_all(struct lt_dwarf_build *b)
{
	for (;;) {
		Dwarf_Unsigned hlen, toff, next;
		Dwarf_Half ver, asz, lsz, xsz, type;
		Dwarf_Off aoff;
		Dwarf_Sig8 sig;
		Dwarf_Error e = NULL;
		Dwarf_Die cu = NULL;
		int rc = dwarf_next_cu_header_d(b->dbg, 1, &hlen, &ver, &aoff,
		                                &asz, &lsz, &xsz, &sig, &toff,
		                                &next, &type, &e);
		if (rc == DW_DLV_NO_ENTRY)
			return 0;
		if (rc != DW_DLV_OK)
			return lt_dwarf_fail(b, e, "unit header");
		rc = dwarf_siblingof_b(b->dbg, NULL, 1, &cu, &e);
		if (rc == DW_DLV_ERROR)
			return lt_dwarf_fail(b, e, "unit DIE");
		if (rc == DW_DLV_NO_ENTRY)
			continue;
		b->version = ver;
		rc = read_unit(b, cu);
		dwarf_dealloc_die(cu);
		if (rc)
			return rc;
		b->d->nunits++;
	}
}

int lt_dwarf_load_mem(struct lt_dwarf *d, const void *elf, size_t size,
                      const char *name, char *err, size_t errlen)
{
	struct lt_dwarf_build b = {
		.d = d, .name = name ? name : "ELF", .err = err,
		.errlen = errlen,
	};
	memset(d, 0, sizeof(*d));
	if (size < 4 || memcmp(elf, "\177ELF", 4) != 0) {
		snprintf(err, errlen, "%s: not an ELF file", b.name);
		return LT_ERR_BAD_ELF;
	}
	elf_version(EV_CURRENT);
	/* libelf only reads the image (same byte order, no update). */
	Elf *e = elf_memory((char *)elf, size);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not an ELF file: %s", b.name,
		         elf_errmsg(-1));
		if (e)
			elf_end(e);
		return LT_ERR_BAD_ELF;
	}
	Dwarf_Error de = NULL;
	int rc = line_section(&b, e);
	if (rc) {
		elf_end(e);
		return rc;
	}
	rc = dwarf_elf_init_b(e, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL,
	                          NULL, &b.dbg, &de);
	if (rc == DW_DLV_NO_ENTRY) {
		elf_end(e);
		return 0; /* no DWARF: empty tables */
	}
	if (rc != DW_DLV_OK) {
		snprintf(err, errlen, "%s: cannot read DWARF: %s", b.name,
		         de ? dwarf_errmsg(de) : "libdwarf init failed");
		one_line(err);
		/* Without a Dwarf_Debug the error cannot be freed by dbg. */
		if (de)
			dwarf_dealloc(NULL, de, DW_DLA_ERROR);
		elf_end(e);
		return LT_ERR_BAD_ELF;
	}
	rc = exec_sections(&b, e) ? fail_nomem(&b) : 0;
	if (!rc)
		rc = read_all(&b);
	if (!rc && build_ranges(&b))
		rc = fail_nomem(&b);
	if (!rc && lt_dwarf_inline_finish(&b))
		rc = fail_nomem(&b);
	dwarf_finish(b.dbg, &de);
	elf_end(e);
	build_fini(&b);
	if (rc)
		lt_dwarf_free(d);
	return rc;
}

int lt_dwarf_load(struct lt_dwarf *d, const struct lt_image *img, char *err,
                  size_t errlen)
{
	return lt_dwarf_load_mem(d, img->elf_data, img->elf_size, img->path,
	                         err, errlen);
}

int lt_dwarf_load_file(struct lt_dwarf *d, const char *path, char *err,
                       size_t errlen)
{
	memset(d, 0, sizeof(*d));
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return LT_ERR_IO;
	}
	size_t size = (size_t)st.st_size;
	char *buf = malloc(size ? size : 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return LT_ERR_NOMEM;
	}
	size_t got = 0;
	while (got < size) {
		ssize_t k = read(fd, buf + got, size - got);
		if (k <= 0) {
			snprintf(err, errlen, "%s: read failed: %s", path,
			         k < 0 ? strerror(errno) : "short file");
			free(buf);
			close(fd);
			return LT_ERR_IO;
		}
		got += (size_t)k;
	}
	close(fd);
	int rc = lt_dwarf_load_mem(d, buf, size, path, err, errlen);
	free(buf);
	return rc;
}

void lt_dwarf_free(struct lt_dwarf *d)
{
	struct pool_chunk *c = d->pool;
	while (c) {
		struct pool_chunk *n = c->next;
		free(c);
		c = n;
	}
	free(d->row);
	free(d->range);
	free(d->file);
	free(d->func);
	free(d->irange);
	free(d->unit_opt);
	free(d->unit_dir);
	memset(d, 0, sizeof(*d));
}

/* ---- lookups ------------------------------------------------------------ */

size_t lt_dwarf_line_first(const struct lt_dwarf *d, uint64_t lo)
{
	size_t a = 0, z = d->nranges;
	while (a < z) {
		size_t m = a + (z - a) / 2;
		if (d->range[m].hi <= lo)
			a = m + 1;
		else
			z = m;
	}
	return a;
}

long lt_dwarf_line_find(const struct lt_dwarf *d, uint64_t addr)
{
	size_t i = lt_dwarf_line_first(d, addr);
	if (i < d->nranges && d->range[i].lo <= addr)
		return (long)i;
	return -1;
}

const struct lt_line_row *lt_dwarf_line(const struct lt_dwarf *d,
                                        uint64_t addr)
{
	long i = lt_dwarf_line_find(d, addr);
	return i < 0 ? NULL : &d->row[d->range[i].last];
}

void lt_line_iter_init(struct lt_line_iter *it, const struct lt_dwarf *d,
                       uint64_t lo, uint64_t hi)
{
	it->d = d;
	it->i = lt_dwarf_line_first(d, lo);
	it->hi = hi;
}

const struct lt_line_range *lt_line_iter_next(struct lt_line_iter *it)
{
	if (it->i >= it->d->nranges || it->d->range[it->i].lo >= it->hi)
		return NULL;
	return &it->d->range[it->i++];
}

/* ---- shared cache ------------------------------------------------------- */

static void *dwarf_build(const struct lt_image *img, char *err,
                         size_t errlen)
{
	struct lt_dwarf *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "%s: out of memory", img->path);
		return NULL;
	}
	if (lt_dwarf_load(d, img, err, errlen)) {
		free(d);
		return NULL;
	}
	return d;
}

static void dwarf_destroy(void *obj)
{
	lt_dwarf_free(obj);
	free(obj);
}

static const struct lt_image_derived dwarf_kind = {
	"DWARF", dwarf_build, dwarf_destroy};

const struct lt_dwarf *lt_dwarf_get(const struct lt_image *img, char *err,
                                    size_t errlen)
{
	return lt_derived_get(&dwarf_kind, img, err, errlen);
}

void lt_dwarf_put(const struct lt_dwarf *d)
{
	lt_derived_put(&dwarf_kind, d);
}
