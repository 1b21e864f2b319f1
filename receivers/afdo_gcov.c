/* gcc's AutoFDO profile (.afdo), as gcc's auto-profile.cc read_profile
 * reads it (gcc 11: version 1; gcc 12 to 15: version 2):
 *
 *   u32 'gcda' magic, u32 version, u32 0
 *   u32 0xaa000000 (file names), u32 length, u32 N, N strings
 *   u32 0xac000000 (functions), u32 length, u32 M, M x (u64 head, INSTANCE)
 *   INSTANCE = u32 name, u32 npos, u32 nsites,
 *              npos x (u32 offset, u32 ntargets, u64 count,
 *                      ntargets x (u32 hist type, u64 name, u64 count)),
 *              nsites x (u32 offset, INSTANCE)
 *   u32 0xae000000 (modules), u32 length, u32 0
 *   u32 0xaf000000 (working set), u32 length, 128 x (u32 n, u64 min)
 *
 * offset = line offset << 16 | discriminator. The discriminator written is
 * always 0: gcc 12 masks it off when reading (offset & 0xffff0000) and
 * looks statements up by line alone (checked with gcc 12.2: an entry with
 * discriminator 5 annotates statements of discriminator 0), so blocks
 * sharing a line cannot be told apart by this format for gcc <= 14; gcc
 * 15 keys by discriminator too. Which count a position gets
 * (and whether it is written at all) follows the lines= option: see
 * afdo_mid.c. Words are little-endian, u64 low word first. Strings
 * follow the gcov convention of the version:
 * gcc >= 12 writes u32 strlen+1 then the bytes and one NUL; gcc <= 11
 * writes u32 words then the bytes NUL-padded to whole words. gcc skips the
 * section lengths; they are given in bytes (v2) or words (v1) like every
 * gcov length of that gcc. String 0 is "" because gcc asserts names have
 * index > 0. A name's ".suffix" is stripped by gcc when read. gcc stops
 * after the module section (fake_read_autofdo_module_profile) and reads
 * no summary: read_autofdo_file fixes its summary at runs 1, sum_max 0,
 * so the early inliner's hotness test (afdo_callsite_hot_enough_for_
 * early_inline, maybe_hot_count_p) depends on the call site's inlined
 * instance total alone, whatever the file says; autofdo's readers
 * (dump_gcov) require the
 * working set after it: bucket i holds how many of the hottest positions
 * cover (i+1)/128 of the total count, and the smallest count among them
 * (autofdo computes it over instructions; positions are what a profile
 * holds). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "afdo.h"

#define TAG_FILE_NAMES 0xaa000000u
#define TAG_FUNCTION 0xac000000u
#define TAG_MODULES 0xae000000u
#define TAG_WORKING_SET 0xaf000000u
#define WORKING_SETS 128
#define GCOV_DATA_MAGIC 0x67636461u
/* autofdo's value for call-target histograms; gcc does not check it. */
#define HIST_INDIR_CALL_TOPN 7u

/* A growing byte buffer (a profile is small: built whole, then written). */
struct buf {
	uint8_t *p;   /* bytes */
	size_t n;     /* used */
	size_t cap;   /* allocated */
	int oom;      /* an allocation failed: the buffer is incomplete */
};

/* Appends n bytes. */
static void put(struct buf *b, const void *d, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

/* Appends a little-endian u32. */
static void u32(struct buf *b, uint32_t v)
{
	uint8_t w[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	                (uint8_t)(v >> 24)};
	put(b, w, 4);
}

/* Appends a gcov counter: low word, then high word. */
static void u64(struct buf *b, uint64_t v)
{
	u32(b, (uint32_t)v);
	u32(b, (uint32_t)(v >> 32));
}

/* Patches the u32 at offset `at`. */
static void patch32(struct buf *b, size_t at, uint32_t v)
{
	if (b->oom)
		return;
	b->p[at] = (uint8_t)v;
	b->p[at + 1] = (uint8_t)(v >> 8);
	b->p[at + 2] = (uint8_t)(v >> 16);
	b->p[at + 3] = (uint8_t)(v >> 24);
}

/* Appends a string in the gcov encoding of the version. */
static void str(struct buf *b, const char *s, int bytes)
{
	size_t len = strlen(s);
	static const uint8_t zero[4];
	if (bytes) {
		u32(b, (uint32_t)(len + 1));
		put(b, s, len);
		put(b, zero, 1);
	} else {
		size_t words = (len + 4) / 4;
		u32(b, (uint32_t)words);
		put(b, s, len);
		put(b, zero, words * 4 - len);
	}
}

/* Returns 1 if position q is written under `lines` (see afdo.h): a
 * split line is left out for gcc unless it holds an indirect call (gcc
 * promotes an indirect call from the position's targets alone). */
int afdo_pos_written(const struct afdo_pos *q, int lines)
{
	if (lines == AFDO_LINES_MAX)
		return q->count > 0;
	return q->mid > 0 && (!q->split || q->icall);
}

/* Appends one instance and its inlined callees, positions counted as
 * `lines` says. */
static void instance(struct buf *b, const struct afdo_inst *f, int lines)
{
	uint32_t npos = 0;
	for (size_t i = 0; i < f->npos; i++)
		npos += afdo_pos_written(&f->pos[i], lines);
	u32(b, f->name);
	u32(b, npos);
	u32(b, (uint32_t)f->nsite);
	for (size_t i = 0; i < f->npos; i++) {
		const struct afdo_pos *q = &f->pos[i];
		if (!afdo_pos_written(q, lines))
			continue;
		u32(b, q->off << 16 | (q->discr & 0xffff));
		u32(b, (uint32_t)q->ntgt);
		u64(b, lines == AFDO_LINES_MAX ? q->count : q->mid);
		for (size_t k = 0; k < q->ntgt; k++) {
			u32(b, HIST_INDIR_CALL_TOPN);
			u64(b, q->tgt[k].name);
			u64(b, q->tgt[k].count);
		}
	}
	for (size_t i = 0; i < f->nsite; i++) {
		const struct afdo_site *s = &f->site[i];
		u32(b, s->off << 16 | (s->discr & 0xffff));
		instance(b, s->inst, lines);
	}
}

/* Closes a section started at `len_at` (its length word). */
static void section_end(struct buf *b, size_t len_at, int bytes)
{
	size_t n = b->n - (len_at + 4);
	patch32(b, len_at, (uint32_t)(bytes ? n : n / 4));
}

/* Appends every position count of f and its callees to v (room known). */
static void collect(const struct afdo_inst *f, uint64_t *v, size_t *n)
{
	for (size_t i = 0; i < f->npos; i++)
		v[(*n)++] = f->pos[i].count;
	for (size_t i = 0; i < f->nsite; i++)
		collect(f->site[i].inst, v, n);
}

/* Counts the positions of f and its callees. */
static size_t npositions(const struct afdo_inst *f)
{
	size_t n = f->npos;
	for (size_t i = 0; i < f->nsite; i++)
		n += npositions(f->site[i].inst);
	return n;
}

/* Descending order of counts. */
static int count_desc(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* Appends the working-set section (see the top comment). */
static void working_set(struct buf *b, const struct afdo_prof *p, int v2)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; i < p->ntop; i++)
		n += npositions(p->top[i]);
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		b->oom = 1;
		return;
	}
	for (size_t i = 0; i < p->ntop; i++)
		collect(p->top[i], v, &k);
	qsort(v, n, sizeof(*v), count_desc);
	long double total = 0;
	for (size_t i = 0; i < n; i++)
		total += v[i];
	u32(b, TAG_WORKING_SET);
	u32(b, v2 ? WORKING_SETS * 12 : WORKING_SETS * 3);
	size_t used = 0;
	long double sum = 0;
	for (int w = 0; w < WORKING_SETS; w++) {
		long double want = total * (w + 1) / WORKING_SETS;
		while (used < n && sum < want)
			sum += v[used++];
		u32(b, (uint32_t)used);
		u64(b, used ? v[used - 1] : 0);
	}
	free(v);
}

void afdo_write_gcov(struct lt_out *o, const struct afdo_prof *p,
                     int gcc_major, int lines)
{
	int v2 = gcc_major >= 12;
	struct buf b = {0};
	u32(&b, GCOV_DATA_MAGIC);
	u32(&b, v2 ? 2 : 1);
	u32(&b, 0);
	u32(&b, TAG_FILE_NAMES);
	size_t at = b.n;
	u32(&b, 0);
	u32(&b, (uint32_t)p->nstr);
	for (size_t i = 0; i < p->nstr; i++)
		str(&b, p->str[i], v2);
	section_end(&b, at, v2);
	u32(&b, TAG_FUNCTION);
	at = b.n;
	u32(&b, 0);
	/* Functions run only inlined, deeper than gcc's auto-profile pass
	 * inlines, get an instance for their offline body, head 0
	 * (afdo_offline.c). */
	struct afdo_offline off = {0};
	if (lines == AFDO_LINES_GCC && afdo_offline_build(p, &off))
		b.oom = 1;
	uint32_t nf = 0;
	for (size_t i = 0; i < p->ntop; i++)
		nf += p->top[i]->total || p->top[i]->head;
	for (size_t i = 0; i < off.n; i++)
		nf += off.inst[i]->total > 0;
	u32(&b, nf);
	for (size_t i = 0; i < p->ntop; i++) {
		if (!p->top[i]->total && !p->top[i]->head)
			continue;
		u64(&b, p->top[i]->head);
		instance(&b, p->top[i], lines);
	}
	for (size_t i = 0; i < off.n; i++) {
		if (!off.inst[i]->total)
			continue;
		u64(&b, 0);
		instance(&b, off.inst[i], lines);
	}
	afdo_offline_free(&off);
	section_end(&b, at, v2);
	u32(&b, TAG_MODULES);
	u32(&b, v2 ? 4 : 1);
	u32(&b, 0);
	working_set(&b, p, v2);
	if (b.oom)
		o->err = o->err ? o->err : ENOMEM; /* reported at commit */
	else
		lt_out_write(o, b.p, b.n);
	free(b.p);
}
