/* Function symbols of an ELF (see include/ltpipe/symbols.h for the rules),
 * and the process-wide cache that lets receivers share one table. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/symbols.h"
#include "ltpipe/image_derived.h"

/* A symbol taken from the ELF, before aliases are merged. */
struct cand {
	uint64_t start;   /* st_value */
	uint64_t size;    /* st_size */
	uint64_t sec_end; /* end of its section: where size-0 symbols stop */
	const char *name; /* in the ELF's string table */
	uint8_t bind;     /* STB_* */
	uint8_t type;     /* STT_FUNC or STT_NOTYPE (ifuncs count as FUNC) */
};

static int bind_rank(uint8_t bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

/* Orders by address, then by which alias should name the entry. */
static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->type != b->type)
		return a->type == STT_FUNC ? -1 : 1;
	if (bind_rank(a->bind) != bind_rank(b->bind))
		return bind_rank(a->bind) - bind_rank(b->bind);
	return strcmp(a->name, b->name);
}

/* Labels that are not functions: assembler locals and mapping symbols. */
static int skip_name(const char *name)
{
	return !name || !*name || name[0] == '$' ||
	       (name[0] == '.' && name[1] == 'L');
}

/* Finds the symbol table section: .symtab, else .dynsym. */
static Elf_Scn *find_symtab(Elf *elf, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			*out = sh;
			return scn;
		}
		if (sh.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (dyn)
		*out = dsh;
	return dyn;
}

/* Collects candidate symbols into *out (malloc'd, *n entries). */
static int collect(Elf *elf, struct cand **out, size_t *n)
{
	GElf_Shdr symsh;
	*out = NULL;
	*n = 0;
	Elf_Scn *symscn = find_symtab(elf, &symsh);
	if (!symscn || !symsh.sh_entsize)
		return 0;
	Elf_Data *d = elf_getdata(symscn, NULL);
	if (!d)
		return 0;
	size_t nsyms = symsh.sh_size / symsh.sh_entsize;
	struct cand *c = malloc((nsyms ? nsyms : 1) * sizeof(*c));
	if (!c)
		return LT_ERR_NOMEM;
	size_t k = 0;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			continue;
		int type = GELF_ST_TYPE(s.st_info);
		if (type == STT_GNU_IFUNC)
			type = STT_FUNC;
		if (type != STT_FUNC && type != STT_NOTYPE)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		Elf_Scn *scn = elf_getscn(elf, s.st_shndx);
		GElf_Shdr sh;
		if (!scn || !gelf_getshdr(scn, &sh) ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		/* A label at the section's end (etext-like) covers nothing. */
		if (s.st_value < sh.sh_addr || s.st_value >= sh.sh_addr + sh.sh_size)
			continue;
		const char *name = elf_strptr(elf, symsh.sh_link, s.st_name);
		if (skip_name(name))
			continue;
		c[k].start = s.st_value;
		c[k].size = s.st_size;
		c[k].sec_end = sh.sh_addr + sh.sh_size;
		c[k].name = name;
		c[k].bind = (uint8_t)GELF_ST_BIND(s.st_info);
		c[k].type = (uint8_t)type;
		k++;
	}
	*out = c;
	*n = k;
	return 0;
}

/* Merges aliases, drops labels inside sized functions, sets every end.
 * Works in place; returns the number of entries kept. */
static size_t normalize(struct cand *c, size_t n)
{
	size_t k = 0;
	uint64_t cover = 0; /* end of the last sized FUNC kept */
	qsort(c, n, sizeof(*c), cand_cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && c[k - 1].start == c[i].start)
			continue;
		if (c[i].type == STT_NOTYPE && c[i].start < cover)
			continue;
		if (c[i].type == STT_FUNC && c[i].size &&
		    c[i].start + c[i].size > cover)
			cover = c[i].start + c[i].size;
		c[k++] = c[i];
	}
	return k;
}

/* Chooses the bucket size and fills the bucket index. */
static int build_buckets(struct lt_symtab *t)
{
	if (!t->n)
		return 0;
	t->lo = t->sym[0].start;
	uint64_t span = t->sym[t->n - 1].end - t->lo;
	t->shift = 4;
	while ((span >> t->shift) > 2 * (uint64_t)t->n + 1024)
		t->shift++;
	t->nbuckets = (size_t)(span >> t->shift) + 1;
	t->bucket = malloc((t->nbuckets + 1) * sizeof(*t->bucket));
	if (!t->bucket)
		return LT_ERR_NOMEM;
	size_t i = 0;
	for (size_t b = 0; b < t->nbuckets; b++) {
		uint64_t first = t->lo + ((uint64_t)b << t->shift);
		while (i < t->n && t->sym[i].end <= first)
			i++;
		t->bucket[b] = (uint32_t)i;
	}
	t->bucket[t->nbuckets] = (uint32_t)t->n;
	return 0;
}

/* Turns normalized candidates into the table's entries and names. */
static int fill(struct lt_symtab *t, const struct cand *c, size_t n)
{
	size_t bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(c[i].name) + 1;
	t->sym = calloc(n ? n : 1, sizeof(*t->sym));
	t->names = malloc(bytes ? bytes : 1);
	if (!t->sym || !t->names)
		return LT_ERR_NOMEM;
	char *p = t->names;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t next = i + 1 < n ? c[i + 1].start : UINT64_MAX;
		uint64_t end;
		if (c[i].size) {
			end = c[i].start + c[i].size;
			if (end < c[i].start) /* wrapped: bogus size */
				end = c[i].sec_end;
		} else {
			end = c[i].sec_end;
		}
		if (end > next)
			end = next;
		if (end <= c[i].start)
			continue;
		struct lt_sym *s = &t->sym[k++];
		size_t len = strlen(c[i].name) + 1;
		memcpy(p, c[i].name, len);
		s->start = c[i].start;
		s->end = end;
		s->name = p;
		s->bind = c[i].bind;
		s->type = c[i].type;
		s->sized = c[i].size && end == c[i].start + c[i].size;
		p += len;
	}
	t->n = k;
	return build_buckets(t);
}

int lt_symtab_load_mem(struct lt_symtab *tab, const void *elf_bytes,
                       size_t size, char *err, size_t errlen)
{
	memset(tab, 0, sizeof(*tab));
	elf_version(EV_CURRENT);
	/* libelf wants a writable pointer but only reads in this mode. */
	Elf *elf = elf_memory((char *)(uintptr_t)elf_bytes, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "not an ELF file: %s",
		         elf_errmsg(elf_errno()));
		if (elf)
			elf_end(elf);
		return LT_ERR_BAD_ELF;
	}
	struct cand *c;
	size_t n;
	int rc = collect(elf, &c, &n);
	if (!rc) {
		n = normalize(c, n);
		rc = fill(tab, c, n);
	}
	free(c);
	elf_end(elf);
	if (rc) {
		snprintf(err, errlen, "out of memory reading symbols");
		lt_symtab_free(tab);
	}
	return rc;
}

int lt_symtab_load(struct lt_symtab *tab, const struct lt_image *img,
                   char *err, size_t errlen)
{
	int rc = lt_symtab_load_mem(tab, img->elf_data, img->elf_size, err,
	                            errlen);
	if (rc) {
		char msg[200];
		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s: %s", img->path, msg);
	}
	return rc;
}

int lt_symtab_load_file(struct lt_symtab *tab, const char *path, char *err,
                        size_t errlen)
{
	memset(tab, 0, sizeof(*tab));
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return LT_ERR_IO;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		char *p = realloc(buf, cap * 2);
		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		snprintf(err, errlen, "%s: %s", path,
		         bad ? "read error" : "out of memory");
		return bad ? LT_ERR_IO : LT_ERR_NOMEM;
	}
	char msg[200];
	int rc = lt_symtab_load_mem(tab, buf, len, msg, sizeof(msg));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, msg);
	free(buf);
	return rc;
}

void lt_symtab_free(struct lt_symtab *tab)
{
	if (!tab)
		return;
	free(tab->sym);
	free(tab->names);
	free(tab->bucket);
	memset(tab, 0, sizeof(*tab));
}

long lt_symtab_find(const struct lt_symtab *t, uint64_t addr)
{
	if (!t->n || addr < t->lo)
		return -1;
	uint64_t b = (addr - t->lo) >> t->shift;
	if (b >= t->nbuckets)
		return -1;
	/* The entry holding addr, if any, lies in [lo, hi]: it ends after
	 * this bucket's first byte and starts before the next bucket's. */
	size_t lo = t->bucket[b], hi = t->bucket[b + 1];
	if (hi >= t->n)
		hi = t->n - 1;
	if (lo > hi)
		return -1;
	while (hi - lo > 4) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (t->sym[mid].start <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	while (lo < hi && t->sym[lo + 1].start <= addr)
		lo++;
	const struct lt_sym *s = &t->sym[lo];
	return addr >= s->start && addr < s->end ? (long)lo : -1;
}

long lt_symtab_by_name(const struct lt_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->sym[i].name, name) == 0)
			return (long)i;
	return -1;
}

static void *symtab_build(const struct lt_image *img, char *err,
                          size_t errlen)
{
	struct lt_symtab *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "%s: out of memory", img->path);
		return NULL;
	}
	if (lt_symtab_load(t, img, err, errlen)) {
		free(t);
		return NULL;
	}
	return t;
}

static void symtab_destroy(void *obj)
{
	lt_symtab_free(obj);
	free(obj);
}

static const struct lt_image_derived symtab_kind = {
	"symbols", symtab_build, symtab_destroy};

const struct lt_symtab *lt_symtab_get(const struct lt_image *img, char *err,
                                      size_t errlen)
{
	return lt_derived_get(&symtab_kind, img, err, errlen);
}

void lt_symtab_put(const struct lt_symtab *tab)
{
	lt_derived_put(&symtab_kind, tab);
}
