/* gcda reader (see gcov.h): header, object summary, functions and counter
 * records of every kind, including libgcov 12's negative-length all-zero
 * form. */
#include "ltpipe/gcov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "gcov_io.h"

/* Parser state beyond the cursor. */
struct gcda_parse {
	struct lt_gcovio_cur c;  /* cursor over the whole file */
	struct lt_gcda *d;       /* result being built */
	uint32_t fns_cap;        /* allocated d->fns */
	uint32_t ctrs_cap;       /* allocated ctrs of the current function */
};

static int nomem(struct gcda_parse *ps)
{
	snprintf(ps->c.err, ps->c.errlen, "%s: out of memory", ps->c.name);
	return LT_ERR_NOMEM;
}

static int is_counter_tag(uint32_t tag)
{
	return tag >= LT_GCOV_TAG_COUNTER_BASE &&
	       (tag - LT_GCOV_TAG_COUNTER_BASE) % (1u << 17) == 0 &&
	       (tag - LT_GCOV_TAG_COUNTER_BASE) >> 17 < LT_GCOV_MAX_COUNTERS;
}

static int parse_summary(struct gcda_parse *ps, const struct lt_gcovio_rec *r)
{
	struct lt_gcovio_cur c = ps->c;
	c.end = r->body + r->body_len;
	if (r->body_len != 8)
		return lt_gcovio_fail(&c, r->offset,
		                      "OBJECT_SUMMARY record of %zu bytes: "
		                      "expected 8 (runs, sum_max)",
		                      r->body_len);
	if (ps->d->has_summary)
		return lt_gcovio_fail(&c, r->offset,
		                      "second OBJECT_SUMMARY record");
	ps->d->has_summary = 1;
	int rc;
	if ((rc = lt_gcovio_u32(&c, &ps->d->runs, "summary runs")) ||
	    (rc = lt_gcovio_u32(&c, &ps->d->sum_max, "summary sum_max")))
		return rc;
	return 0;
}

static int parse_function(struct gcda_parse *ps, const struct lt_gcovio_rec *r)
{
	struct lt_gcda *d = ps->d;
	struct lt_gcovio_cur c = ps->c;
	c.end = r->body + r->body_len;
	if (r->body_len != 0 && r->body_len != 12)
		return lt_gcovio_fail(&c, r->offset,
		                      "FUNCTION record of %zu bytes: expected "
		                      "12 (ident and two checksums) or 0",
		                      r->body_len);
	if (d->n_fns >= ps->fns_cap) {
		uint32_t ncap = ps->fns_cap ? ps->fns_cap * 2 : 16;
		void *q = realloc(d->fns, ncap * sizeof(*d->fns));
		if (!q)
			return nomem(ps);
		d->fns = q;
		ps->fns_cap = ncap;
	}
	struct lt_gcda_fn *f = &d->fns[d->n_fns++];
	memset(f, 0, sizeof(*f));
	ps->ctrs_cap = 0;
	if (r->body_len == 0) {
		f->placeholder = 1;
		return 0;
	}
	int rc;
	if ((rc = lt_gcovio_u32(&c, &f->ident, "FUNCTION ident")) ||
	    (rc = lt_gcovio_u32(&c, &f->lineno_checksum,
	                        "FUNCTION lineno_checksum")) ||
	    (rc = lt_gcovio_u32(&c, &f->cfg_checksum,
	                        "FUNCTION cfg_checksum")))
		return rc;
	return 0;
}

/* A counter record: its length may be negative (all zero, no data). */
static int parse_counters(struct gcda_parse *ps, size_t offset, uint32_t tag)
{
	struct lt_gcovio_cur *c = &ps->c;
	struct lt_gcda *d = ps->d;
	uint32_t kind = (tag - LT_GCOV_TAG_COUNTER_BASE) >> 17;
	if (!d->n_fns || d->fns[d->n_fns - 1].placeholder)
		return lt_gcovio_fail(c, offset,
		                      "counter record 0x%08x outside a "
		                      "FUNCTION with data",
		                      tag);
	uint32_t length;
	int rc = lt_gcovio_u32(c, &length, "counter record length");
	if (rc)
		return rc;
	struct lt_gcda_ctr ctr = { .kind = kind };
	/* gcc >= 12 counts bytes (8 per counter), gcc 11 words (2). */
	uint32_t unit = d->fmt.byte_lengths ? 8 : 2;
	int32_t slen = (int32_t)length;
	uint32_t mag = slen < 0 ? 0u - length : length;
	if (mag % unit)
		return lt_gcovio_fail(c, offset,
		                      "counter record 0x%08x: length %d is not "
		                      "a whole number of 64-bit counters",
		                      tag, slen);
	ctr.n = mag / unit;
	if (slen < 0) {
		ctr.all_zero = 1;
	} else if (ctr.n) {
		if ((uint64_t)ctr.n * 8 > c->end - c->pos)
			return lt_gcovio_fail(c, offset,
			                      "counter record 0x%08x: %u "
			                      "counters run past the end of "
			                      "the file at offset %zu",
			                      tag, ctr.n, c->end);
		ctr.values = malloc((size_t)ctr.n * sizeof(*ctr.values));
		if (!ctr.values)
			return nomem(ps);
		for (uint32_t i = 0; i < ctr.n; i++)
			lt_gcovio_i64(c, &ctr.values[i], "counter");
	}
	struct lt_gcda_fn *f = &d->fns[d->n_fns - 1];
	if (f->n_ctrs >= ps->ctrs_cap) {
		uint32_t ncap = ps->ctrs_cap ? ps->ctrs_cap * 2 : 4;
		void *q = realloc(f->ctrs, ncap * sizeof(*f->ctrs));
		if (!q) {
			free(ctr.values);
			return nomem(ps);
		}
		f->ctrs = q;
		ps->ctrs_cap = ncap;
	}
	f->ctrs[f->n_ctrs++] = ctr;
	return 0;
}

static int parse_body(struct gcda_parse *ps)
{
	struct lt_gcovio_cur *c = &ps->c;
	struct lt_gcda *d = ps->d;
	uint32_t stamp, checksum;
	int rc = lt_gcovio_header(c, LT_GCOV_DATA_MAGIC, &d->fmt, &stamp,
	                          &checksum);
	if (rc)
		return rc;
	d->stamp = stamp;
	d->checksum = checksum;
	while (c->pos < c->end) {
		size_t offset = c->pos;
		uint32_t tag;
		if ((rc = lt_gcovio_u32(c, &tag, "record tag")))
			return rc;
		if (tag == 0)
			break; /* end marker */
		if (is_counter_tag(tag)) {
			if ((rc = parse_counters(ps, offset, tag)))
				return rc;
			continue;
		}
		c->pos = offset;
		struct lt_gcovio_rec r;
		if ((rc = lt_gcovio_record(c, &r)))
			return rc;
		if (tag == LT_GCOV_TAG_OBJECT_SUMMARY)
			rc = parse_summary(ps, &r);
		else if (tag == LT_GCOV_TAG_FUNCTION)
			rc = parse_function(ps, &r);
		if (rc)
			return rc;
		c->pos = r.body + r.body_len;
	}
	return 0;
}

int lt_gcda_parse(const void *buf, size_t len, const char *name,
                  struct lt_gcda **out, char *err, size_t errlen)
{
	struct gcda_parse ps = {
		.c = { .buf = buf, .end = len, .name = name, .err = err,
		       .errlen = errlen },
	};
	*out = NULL;
	ps.d = calloc(1, sizeof(*ps.d));
	if (!ps.d) {
		snprintf(err, errlen, "%s: out of memory", name);
		return LT_ERR_NOMEM;
	}
	int rc = parse_body(&ps);
	if (rc) {
		lt_gcda_free(ps.d);
		return rc;
	}
	*out = ps.d;
	return 0;
}

int lt_gcda_read_file(const char *path, struct lt_gcda **out, char *err,
                      size_t errlen)
{
	uint8_t *buf;
	size_t len;
	*out = NULL;
	int rc = lt_gcovio_slurp(path, &buf, &len, err, errlen);
	if (rc)
		return rc;
	rc = lt_gcda_parse(buf, len, path, out, err, errlen);
	free(buf);
	return rc;
}

void lt_gcda_free(struct lt_gcda *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->n_fns; i++) {
		for (uint32_t k = 0; k < d->fns[i].n_ctrs; k++)
			free(d->fns[i].ctrs[k].values);
		free(d->fns[i].ctrs);
	}
	free(d->fns);
	free(d);
}

const struct lt_gcda_ctr *lt_gcda_fn_arcs(const struct lt_gcda_fn *f)
{
	for (uint32_t k = 0; k < f->n_ctrs; k++)
		if (f->ctrs[k].kind == LT_GCOV_CTR_ARCS)
			return &f->ctrs[k];
	return NULL;
}
