/* gcda writer (see gcov.h): builds the gcda a libgcov run would write from
 * a gcno and arc counters, merges runs as libgcov does, and encodes the
 * file byte for byte as libgcov's write_one_data. */
#include "ltpipe/gcov.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ltpipe/error.h"
#include "ltpipe/outfile.h"
#include "ltpipe/outlock.h"
#include "gcov_io.h"

/* ---- output buffer ---------------------------------------------------- */

void lt_gcovio_put_u32(struct lt_gcovio_buf *b, uint32_t v)
{
	if (b->oom)
		return;
	if (b->cap - b->len < 4) {
		size_t ncap = b->cap ? b->cap * 2 : 4096;
		uint8_t *q = realloc(b->p, ncap);
		if (!q) {
			b->oom = 1;
			return;
		}
		b->p = q;
		b->cap = ncap;
	}
	uint8_t *p = b->p + b->len;
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (b->big_endian ? 24 - 8 * i : 8 * i));
	b->len += 4;
}

void lt_gcovio_put_i64(struct lt_gcovio_buf *b, int64_t v)
{
	lt_gcovio_put_u32(b, (uint32_t)(uint64_t)v);
	lt_gcovio_put_u32(b, (uint32_t)((uint64_t)v >> 32));
}

/* ---- building --------------------------------------------------------- */

uint64_t lt_gcda_arcs_max(const struct lt_gcno *g,
                          const uint64_t *const *arcs)
{
	uint64_t max = 0;
	for (uint32_t i = 0; i < g->n_fns; i++)
		for (uint32_t k = 0; arcs[i] && k < g->fns[i].n_counters; k++)
			if (arcs[i][k] > max)
				max = arcs[i][k];
	return max;
}

static int all_zero(const int64_t *v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++)
		if (v[i])
			return 0;
	return 1;
}

int lt_gcda_from_gcno(const struct lt_gcno *g, const uint64_t *const *arcs,
                      uint64_t run_max, struct lt_gcda **out, char *err,
                      size_t errlen)
{
	*out = NULL;
	struct lt_gcda *d = calloc(1, sizeof(*d));
	if (!d || !(d->fns = calloc(g->n_fns ? g->n_fns : 1,
	                            sizeof(*d->fns))))
		goto oom;
	d->fmt = g->fmt;
	d->stamp = g->stamp;
	d->checksum = g->fmt.byte_lengths ? lt_gcno_object_checksum(g) : 0;
	d->has_summary = 1;
	d->runs = 1;
	d->sum_max = (uint32_t)run_max;
	/* libgcov only streams a counter kind the object uses; a kind is used
	 * when some function allocated counters of it (coverage.cc
	 * coverage_counter_alloc returns early for 0 counters). */
	int any = 0;
	for (uint32_t i = 0; i < g->n_fns; i++)
		any |= g->fns[i].n_counters != 0;
	d->n_fns = g->n_fns;
	for (uint32_t i = 0; i < g->n_fns; i++) {
		const struct lt_gcno_fn *gf = &g->fns[i];
		struct lt_gcda_fn *f = &d->fns[i];
		f->ident = gf->ident;
		f->lineno_checksum = gf->lineno_checksum;
		f->cfg_checksum = gf->cfg_checksum;
		if (!any)
			continue;
		if (!(f->ctrs = calloc(1, sizeof(*f->ctrs))))
			goto oom;
		f->n_ctrs = 1;
		struct lt_gcda_ctr *c = &f->ctrs[0];
		c->kind = LT_GCOV_CTR_ARCS;
		c->n = gf->n_counters;
		const int64_t *v = (const int64_t *)arcs[i];
		if (all_zero(v, c->n)) {
			c->all_zero = c->n != 0;
			continue;
		}
		if (!(c->values = malloc(c->n * sizeof(*c->values))))
			goto oom;
		memcpy(c->values, v, c->n * sizeof(*c->values));
	}
	*out = d;
	return 0;
oom:
	lt_gcda_free(d);
	snprintf(err, errlen, "%s: out of memory", g->path);
	return LT_ERR_NOMEM;
}

int lt_gcda_check_gcno(const struct lt_gcda *d, const struct lt_gcno *g,
                       char *err, size_t errlen)
{
	if (d->stamp != g->stamp) {
		snprintf(err, errlen,
		         "%s: stamp %u does not match the gcda's %u", g->path,
		         g->stamp, d->stamp);
		return LT_ERR_MISMATCH;
	}
	for (uint32_t i = 0; i < d->n_fns; i++) {
		const struct lt_gcda_fn *f = &d->fns[i];
		if (f->placeholder)
			continue;
		long j = lt_gcno_find_ident(g, f->ident);
		if (j < 0) {
			snprintf(err, errlen,
			         "%s: gcda function %u has ident %u, unknown "
			         "to the gcno",
			         g->path, i, f->ident);
			return LT_ERR_MISMATCH;
		}
		const struct lt_gcno_fn *gf = &g->fns[j];
		const struct lt_gcda_ctr *c = lt_gcda_fn_arcs(f);
		uint32_t n = c ? c->n : 0;
		if (f->lineno_checksum != gf->lineno_checksum ||
		    f->cfg_checksum != gf->cfg_checksum ||
		    n != gf->n_counters) {
			snprintf(err, errlen,
			         "%s: profile mismatch for '%s': checksums "
			         "0x%08x/0x%08x and %u arc counters in the "
			         "gcno, 0x%08x/0x%08x and %u in the gcda",
			         g->path, gf->name, gf->lineno_checksum,
			         gf->cfg_checksum, gf->n_counters,
			         f->lineno_checksum, f->cfg_checksum, n);
			return LT_ERR_MISMATCH;
		}
	}
	return 0;
}

/* ---- merging ---------------------------------------------------------- */

static int merge_kind_ok(uint32_t kind)
{
	return kind <= LT_GCOV_CTR_CONDITIONS && kind != LT_GCOV_CTR_TOPN &&
	       kind != LT_GCOV_CTR_INDIRECT_CALL;
}

/* Checks that src can merge into dst without changing anything. */
static int merge_check(const struct lt_gcda *dst, const struct lt_gcda *src,
                       char *err, size_t errlen)
{
	if (dst->fmt.version != src->fmt.version ||
	    (dst->fmt.byte_lengths && dst->checksum != src->checksum) ||
	    dst->n_fns != src->n_fns) {
		snprintf(err, errlen,
		         "different object: version 0x%08x/0x%08x, checksum "
		         "0x%08x/0x%08x, %u/%u functions",
		         dst->fmt.version, src->fmt.version, dst->checksum,
		         src->checksum, dst->n_fns, src->n_fns);
		return LT_ERR_MISMATCH;
	}
	for (uint32_t i = 0; i < dst->n_fns; i++) {
		const struct lt_gcda_fn *a = &dst->fns[i], *b = &src->fns[i];
		if (a->placeholder || b->placeholder)
			continue;
		int same = a->ident == b->ident &&
		           a->lineno_checksum == b->lineno_checksum &&
		           a->cfg_checksum == b->cfg_checksum &&
		           a->n_ctrs == b->n_ctrs;
		for (uint32_t k = 0; same && k < a->n_ctrs; k++)
			same = a->ctrs[k].kind == b->ctrs[k].kind &&
			       a->ctrs[k].n == b->ctrs[k].n;
		if (!same) {
			snprintf(err, errlen,
			         "merge mismatch for function %u (ident %u / "
			         "%u)",
			         i, a->ident, b->ident);
			return LT_ERR_MISMATCH;
		}
		for (uint32_t k = 0; k < a->n_ctrs; k++)
			if (!merge_kind_ok(a->ctrs[k].kind)) {
				snprintf(err, errlen,
				         "function %u: merging counter kind %u "
				         "is not supported",
				         i, a->ctrs[k].kind);
				return LT_ERR_BAD_FORMAT;
			}
	}
	return 0;
}

static void merge_values(uint32_t kind, int64_t *a, const int64_t *b,
                         uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		switch (kind) {
		case LT_GCOV_CTR_IOR:
		case LT_GCOV_CTR_CONDITIONS:
			a[i] |= b[i];
			break;
		case LT_GCOV_CTR_TIME_PROFILER:
			if (!a[i] || (b[i] && b[i] < a[i]))
				a[i] = b[i];
			break;
		default:
			a[i] = (int64_t)((uint64_t)a[i] + (uint64_t)b[i]);
		}
	}
}

static int copy_fn(struct lt_gcda_fn *to, const struct lt_gcda_fn *from)
{
	struct lt_gcda_fn f = *from;
	f.ctrs = calloc(from->n_ctrs ? from->n_ctrs : 1, sizeof(*f.ctrs));
	if (!f.ctrs)
		return LT_ERR_NOMEM;
	for (uint32_t k = 0; k < from->n_ctrs; k++) {
		f.ctrs[k] = from->ctrs[k];
		if (!from->ctrs[k].values)
			continue;
		size_t sz = from->ctrs[k].n * sizeof(int64_t);
		if (!(f.ctrs[k].values = malloc(sz))) {
			for (uint32_t j = 0; j < k; j++)
				free(f.ctrs[j].values);
			free(f.ctrs);
			return LT_ERR_NOMEM;
		}
		memcpy(f.ctrs[k].values, from->ctrs[k].values, sz);
	}
	*to = f;
	return 0;
}

int lt_gcda_merge(struct lt_gcda *dst, const struct lt_gcda *src,
                  char *err, size_t errlen)
{
	int rc = merge_check(dst, src, err, errlen);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < dst->n_fns; i++) {
		struct lt_gcda_fn *a = &dst->fns[i];
		const struct lt_gcda_fn *b = &src->fns[i];
		if (b->placeholder)
			continue;
		if (a->placeholder) {
			free(a->ctrs);
			if (copy_fn(a, b))
				goto oom;
			continue;
		}
		for (uint32_t k = 0; k < a->n_ctrs; k++) {
			struct lt_gcda_ctr *ca = &a->ctrs[k];
			const struct lt_gcda_ctr *cb = &b->ctrs[k];
			if (!cb->values)
				continue; /* libgcov skips all-zero data */
			if (!ca->values) {
				ca->values = calloc(ca->n, sizeof(int64_t));
				if (!ca->values)
					goto oom;
			}
			merge_values(ca->kind, ca->values, cb->values, ca->n);
			ca->all_zero = all_zero(ca->values, ca->n);
			if (ca->all_zero) {
				free(ca->values);
				ca->values = NULL;
			}
		}
	}
	dst->has_summary |= src->has_summary;
	dst->runs += src->runs;
	dst->sum_max += src->sum_max;
	return 0;
oom:
	snprintf(err, errlen, "out of memory while merging");
	return LT_ERR_NOMEM;
}

/* ---- encoding --------------------------------------------------------- */

int lt_gcda_encode(const struct lt_gcda *d, uint8_t **buf, size_t *len)
{
	struct lt_gcovio_buf b = { .big_endian = d->fmt.big_endian };
	/* Record lengths count bytes from gcc 12 on, words before. */
	uint32_t unit = d->fmt.byte_lengths ? 4 : 1;
	lt_gcovio_put_u32(&b, LT_GCOV_DATA_MAGIC);
	lt_gcovio_put_u32(&b, d->fmt.version);
	lt_gcovio_put_u32(&b, d->stamp);
	if (d->fmt.byte_lengths)
		lt_gcovio_put_u32(&b, d->checksum);
	if (d->has_summary) {
		lt_gcovio_put_u32(&b, LT_GCOV_TAG_OBJECT_SUMMARY);
		lt_gcovio_put_u32(&b, 2 * unit);
		lt_gcovio_put_u32(&b, d->runs);
		lt_gcovio_put_u32(&b, d->sum_max);
	}
	for (uint32_t i = 0; i < d->n_fns; i++) {
		const struct lt_gcda_fn *f = &d->fns[i];
		lt_gcovio_put_u32(&b, LT_GCOV_TAG_FUNCTION);
		if (f->placeholder) {
			lt_gcovio_put_u32(&b, 0);
			continue;
		}
		lt_gcovio_put_u32(&b, 3 * unit);
		lt_gcovio_put_u32(&b, f->ident);
		lt_gcovio_put_u32(&b, f->lineno_checksum);
		lt_gcovio_put_u32(&b, f->cfg_checksum);
		for (uint32_t k = 0; k < f->n_ctrs; k++) {
			const struct lt_gcda_ctr *c = &f->ctrs[k];
			uint32_t length = c->n * 2 * unit;
			/* libgcov 12 streams no data for an all-zero record
			 * (topn records are written by their own routine,
			 * which has no such form). */
			int zero = d->fmt.byte_lengths &&
			           c->kind != LT_GCOV_CTR_TOPN &&
			           c->kind != LT_GCOV_CTR_INDIRECT_CALL &&
			           all_zero(c->values, c->n);
			lt_gcovio_put_u32(&b, LT_GCOV_TAG_FOR_COUNTER(c->kind));
			lt_gcovio_put_u32(&b, zero ? 0u - length : length);
			for (uint32_t v = 0; !zero && v < c->n; v++)
				lt_gcovio_put_i64(&b, lt_gcda_ctr_value(c, v));
		}
	}
	lt_gcovio_put_u32(&b, 0);
	if (b.oom) {
		free(b.p);
		return LT_ERR_NOMEM;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}

/* Reads, merges, encodes and writes; the caller holds the merge lock. */
static int write_locked(const char *path, const struct lt_gcda *d, int merge,
                        char *err, size_t errlen)
{
	struct lt_gcda *old = NULL;
	const struct lt_gcda *out = d;
	struct stat st;
	int rc;
	if (merge && stat(path, &st) == 0) {
		if ((rc = lt_gcda_read_file(path, &old, err, errlen)))
			return rc;
		char why[512];
		if ((rc = lt_gcda_merge(old, d, why, sizeof(why)))) {
			snprintf(err, errlen, "%s: cannot merge: %s", path,
			         why);
			lt_gcda_free(old);
			return rc;
		}
		out = old;
	}
	uint8_t *buf;
	size_t len;
	if ((rc = lt_gcda_encode(out, &buf, &len))) {
		snprintf(err, errlen, "%s: out of memory", path);
		lt_gcda_free(old);
		return rc;
	}
	lt_gcda_free(old);
	struct lt_out *o = lt_out_open(path, err, errlen);
	if (!o) {
		free(buf);
		return LT_ERR_IO;
	}
	lt_out_write(o, buf, len);
	free(buf);
	return lt_out_commit(o, err, errlen);
}

int lt_gcda_write_file(const char *path, const struct lt_gcda *d, int merge,
                       char *err, size_t errlen)
{
	/* A plain write needs no lock: the rename replaces the file whole,
	 * and a merging writer reads either the old or the new one. */
	if (!merge)
		return write_locked(path, d, 0, err, errlen);
	struct lt_out_lock l;
	int rc = lt_out_lock(path, &l, err, errlen);
	if (rc)
		return rc;
	rc = write_locked(path, d, 1, err, errlen);
	lt_out_unlock(&l);
	return rc;
}
