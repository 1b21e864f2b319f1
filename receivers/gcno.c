/* gcno reader (see gcov.h), and the bounds-checked cursor of gcov_io.h that
 * the gcda reader shares. */
#include "ltpipe/gcov.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "gcov_io.h"

/* ---- cursor ---------------------------------------------------------- */

int lt_gcovio_fail(const struct lt_gcovio_cur *c, size_t offset,
                   const char *fmt, ...)
{
	if (c->err && c->errlen) {
		int n = snprintf(c->err, c->errlen, "%s: offset %zu: ", c->name,
		                 offset);
		if (n >= 0 && (size_t)n < c->errlen) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return LT_ERR_BAD_FORMAT;
}

static uint32_t load_u32(const uint8_t *p, int big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

int lt_gcovio_u32(struct lt_gcovio_cur *c, uint32_t *v, const char *what)
{
	*v = 0; /* defined even on failure */
	if (c->end - c->pos < 4)
		return lt_gcovio_fail(c, c->pos,
		                      "expected %s (4 bytes), only %zu left",
		                      what, c->end - c->pos);
	*v = load_u32(c->buf + c->pos, c->big_endian);
	c->pos += 4;
	return 0;
}

int lt_gcovio_i64(struct lt_gcovio_cur *c, int64_t *v, const char *what)
{
	*v = 0;
	if (c->end - c->pos < 8)
		return lt_gcovio_fail(c, c->pos,
		                      "expected %s (8 bytes), only %zu left",
		                      what, c->end - c->pos);
	uint64_t lo = load_u32(c->buf + c->pos, c->big_endian);
	uint64_t hi = load_u32(c->buf + c->pos + 4, c->big_endian);
	*v = (int64_t)(lo | hi << 32);
	c->pos += 8;
	return 0;
}

int lt_gcovio_str(struct lt_gcovio_cur *c, char **s, const char *what)
{
	size_t at = c->pos;
	uint32_t n;
	int rc = lt_gcovio_u32(c, &n, what);
	if (rc)
		return rc;
	*s = NULL;
	if (n == 0)
		return 0;
	/* gcc <= 11 counts words of NUL-padded text, gcc >= 12 bytes with
	 * exactly one NUL; either way the last byte must be a NUL. */
	uint64_t bytes = c->byte_lengths ? n : (uint64_t)n * 4;
	if (bytes > c->end - c->pos)
		return lt_gcovio_fail(c, at,
		                      "%s: string of %llu bytes runs past the "
		                      "end at offset %zu",
		                      what, (unsigned long long)bytes, c->end);
	const uint8_t *p = c->buf + c->pos;
	if (p[bytes - 1] != 0)
		return lt_gcovio_fail(c, at,
		                      "%s: string of %llu bytes is not "
		                      "NUL-terminated",
		                      what, (unsigned long long)bytes);
	size_t len = strlen((const char *)p);
	char *copy = malloc(len + 1);
	if (!copy) {
		snprintf(c->err, c->errlen, "%s: out of memory", c->name);
		return LT_ERR_NOMEM;
	}
	memcpy(copy, p, len + 1);
	c->pos += (size_t)bytes;
	*s = copy;
	return 0;
}

int lt_gcovio_record(struct lt_gcovio_cur *c, struct lt_gcovio_rec *r)
{
	int rc;
	r->offset = c->pos;
	if ((rc = lt_gcovio_u32(c, &r->tag, "record tag")) ||
	    (rc = lt_gcovio_u32(c, &r->length, "record length")))
		return rc;
	uint64_t bytes = c->byte_lengths ? r->length : (uint64_t)r->length * 4;
	if (bytes > c->end - c->pos)
		return lt_gcovio_fail(c, r->offset,
		                      "record 0x%08x: length %u (%llu bytes) "
		                      "runs past the end of the file at "
		                      "offset %zu",
		                      r->tag, r->length,
		                      (unsigned long long)bytes, c->end);
	r->body = c->pos;
	r->body_len = (size_t)bytes;
	return 0;
}

int lt_gcov_decode_version(uint32_t version, struct lt_gcov_format *fmt)
{
	unsigned b0 = version >> 24, b1 = version >> 16 & 0xff,
	         b2 = version >> 8 & 0xff;
	if (b0 < 'A' || b0 > 'Z' || b1 < '0' || b1 > '9' || b2 < '0' ||
	    b2 > '9')
		return LT_ERR_BAD_FORMAT;
	unsigned major = (b0 - 'A') * 10 + (b1 - '0');
	if (major < 11 || major > 15)
		return LT_ERR_BAD_FORMAT;
	fmt->version = version;
	fmt->major = major;
	fmt->minor = b2 - '0';
	fmt->byte_lengths = major >= 12;
	return 0;
}

static void version_text(uint32_t v, char out[5])
{
	for (int i = 0; i < 4; i++) {
		unsigned ch = v >> (24 - 8 * i) & 0xff;
		out[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	out[4] = 0;
}

int lt_gcovio_header(struct lt_gcovio_cur *c, uint32_t magic,
                     struct lt_gcov_format *fmt, uint32_t *stamp,
                     uint32_t *checksum)
{
	const char *want = magic == LT_GCOV_NOTE_MAGIC ? "gcno" : "gcda";
	if (c->end - c->pos < 4)
		return lt_gcovio_fail(c, c->pos,
		                      "expected the '%s' magic, file has %zu "
		                      "bytes",
		                      want, c->end);
	const uint8_t *p = c->buf + c->pos;
	char seen[5];
	if (load_u32(p, 0) == magic) {
		c->big_endian = 0;
	} else if (load_u32(p, 1) == magic) {
		c->big_endian = 1;
	} else {
		version_text(load_u32(p, 1), seen);
		return lt_gcovio_fail(c, c->pos,
		                      "bad magic: expected '%s' (0x%08x) in "
		                      "either byte order, found 0x%08x \"%s\"",
		                      want, magic, load_u32(p, 1), seen);
	}
	c->pos += 4;
	size_t at = c->pos;
	uint32_t version;
	int rc = lt_gcovio_u32(c, &version, "version word");
	if (rc)
		return rc;
	memset(fmt, 0, sizeof(*fmt));
	if (lt_gcov_decode_version(version, fmt)) {
		version_text(version, seen);
		return lt_gcovio_fail(c, at,
		                      "unknown version word 0x%08x \"%s\": "
		                      "expected gcc 11..15 (\"B1?*\".."
		                      "\"B5?*\")",
		                      version, seen);
	}
	fmt->big_endian = c->big_endian;
	c->byte_lengths = fmt->byte_lengths;
	if ((rc = lt_gcovio_u32(c, stamp, "stamp")))
		return rc;
	*checksum = 0;
	if (fmt->byte_lengths &&
	    (rc = lt_gcovio_u32(c, checksum, "checksum word")))
		return rc;
	return 0;
}

int lt_gcovio_slurp(const char *path, uint8_t **buf, size_t *len, char *err,
                    size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		         strerror(errno));
		return LT_ERR_IO;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *p = malloc(cap);
	while (p) {
		size_t got = fread(p + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		uint8_t *q = realloc(p, cap * 2);
		if (!q) {
			free(p);
			p = NULL;
			break;
		}
		p = q;
		cap *= 2;
	}
	int bad = !p ? LT_ERR_NOMEM : ferror(f) ? LT_ERR_IO : 0;
	fclose(f);
	if (bad) {
		snprintf(err, errlen, "%s: %s", path,
		         bad == LT_ERR_NOMEM ? "out of memory" : "read error");
		free(p);
		return bad;
	}
	*buf = p;
	*len = n;
	return 0;
}

/* ---- checksums -------------------------------------------------------- */

uint32_t lt_gcov_crc32_unsigned(uint32_t crc, uint32_t value)
{
	for (int i = 0; i < 32; i++) {
		uint32_t feedback = (crc ^ value) & 0x80000000u ? 0x04c11db7u
		                                                 : 0;
		crc = crc << 1 ^ feedback;
		value <<= 1;
	}
	return crc;
}

uint32_t lt_gcno_object_checksum(const struct lt_gcno *g)
{
	uint32_t crc = 0;
	for (uint32_t i = 0; i < g->n_fns; i++) {
		crc = lt_gcov_crc32_unsigned(crc, g->fns[i].ident);
		crc = lt_gcov_crc32_unsigned(crc, g->fns[i].lineno_checksum);
		crc = lt_gcov_crc32_unsigned(crc, g->fns[i].cfg_checksum);
	}
	return crc;
}

long lt_gcno_find_ident(const struct lt_gcno *g, uint32_t ident)
{
	for (uint32_t i = 0; i < g->n_fns; i++)
		if (g->fns[i].ident == ident)
			return (long)i;
	return -1;
}

/* ---- gcno parsing ----------------------------------------------------- */

/* Parser state beyond the cursor. */
struct gcno_parse {
	struct lt_gcovio_cur c;  /* cursor over the whole file */
	struct lt_gcno *g;       /* result being built */
	uint32_t fns_cap;        /* allocated g->fns */
	uint32_t files_cap;      /* allocated g->files */
	uint32_t *hash;          /* file-name table: index+1, 0 = empty */
	uint32_t hash_cap;       /* slots in hash (power of two) */
	uint32_t arcs_cap;       /* allocated arcs of the current function */
	uint32_t conds_cap;      /* allocated conds of the current function */
};

static int nomem(struct gcno_parse *ps)
{
	snprintf(ps->c.err, ps->c.errlen, "%s: out of memory", ps->c.name);
	return LT_ERR_NOMEM;
}

/* Grows *p (elements of size sz) so that index n fits. */
static int grow(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	uint32_t ncap = *cap ? *cap * 2 : 8;
	while (ncap <= n)
		ncap *= 2;
	void *q = realloc(*p, (size_t)ncap * sz);
	if (!q)
		return LT_ERR_NOMEM;
	*p = q;
	*cap = ncap;
	return 0;
}

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* Returns the index of name in g->files, adding it (and taking ownership)
 * when new; name is freed when already present. */
static int intern_file(struct gcno_parse *ps, char *name, uint32_t *idx)
{
	struct lt_gcno *g = ps->g;
	if ((uint64_t)(g->n_files + 1) * 2 > ps->hash_cap) {
		uint32_t ncap = ps->hash_cap ? ps->hash_cap * 2 : 64;
		uint32_t *nh = calloc(ncap, sizeof(*nh));
		if (!nh)
			return nomem(ps);
		for (uint32_t i = 0; i < g->n_files; i++) {
			uint32_t h = str_hash(g->files[i]) & (ncap - 1);
			while (nh[h])
				h = (h + 1) & (ncap - 1);
			nh[h] = i + 1;
		}
		free(ps->hash);
		ps->hash = nh;
		ps->hash_cap = ncap;
	}
	uint32_t h = str_hash(name) & (ps->hash_cap - 1);
	while (ps->hash[h]) {
		uint32_t i = ps->hash[h] - 1;
		if (strcmp(g->files[i], name) == 0) {
			free(name);
			*idx = i;
			return 0;
		}
		h = (h + 1) & (ps->hash_cap - 1);
	}
	if (grow((void **)&g->files, &ps->files_cap, g->n_files,
	         sizeof(*g->files))) {
		free(name);
		return nomem(ps);
	}
	g->files[g->n_files] = name;
	ps->hash[h] = g->n_files + 1;
	*idx = g->n_files++;
	return 0;
}

/* The current function, or an error naming the record that needs one. */
static int need_fn(struct gcno_parse *ps, const struct lt_gcovio_rec *r,
                   const char *what, int need_blocks, struct lt_gcno_fn **fn)
{
	if (!ps->g->n_fns)
		return lt_gcovio_fail(&ps->c, r->offset,
		                      "%s record before any FUNCTION record",
		                      what);
	*fn = &ps->g->fns[ps->g->n_fns - 1];
	if (need_blocks && !(*fn)->has_blocks)
		return lt_gcovio_fail(&ps->c, r->offset,
		                      "%s record of function '%s' before its "
		                      "BLOCKS record",
		                      what, (*fn)->name);
	return 0;
}

static int check_block(struct gcno_parse *ps, size_t at,
                       const struct lt_gcno_fn *fn, const char *what,
                       uint32_t b)
{
	if (b < fn->n_blocks)
		return 0;
	return lt_gcovio_fail(&ps->c, at,
	                      "%s %u out of range: function '%s' has %u "
	                      "blocks",
	                      what, b, fn->name, fn->n_blocks);
}

static int parse_function(struct gcno_parse *ps, struct lt_gcovio_cur *c,
                          const struct lt_gcovio_rec *r)
{
	struct lt_gcno *g = ps->g;
	if (grow((void **)&g->fns, &ps->fns_cap, g->n_fns, sizeof(*g->fns)))
		return nomem(ps);
	struct lt_gcno_fn *fn = &g->fns[g->n_fns++];
	memset(fn, 0, sizeof(*fn));
	fn->offset = r->offset;
	ps->arcs_cap = 0;
	ps->conds_cap = 0;
	int rc;
	if ((rc = lt_gcovio_u32(c, &fn->ident, "FUNCTION ident")) ||
	    (rc = lt_gcovio_u32(c, &fn->lineno_checksum,
	                        "FUNCTION lineno_checksum")) ||
	    (rc = lt_gcovio_u32(c, &fn->cfg_checksum,
	                        "FUNCTION cfg_checksum")) ||
	    (rc = lt_gcovio_str(c, &fn->name, "FUNCTION name")) ||
	    (rc = lt_gcovio_u32(c, &fn->artificial, "FUNCTION artificial")) ||
	    (rc = lt_gcovio_str(c, &fn->source, "FUNCTION source")) ||
	    (rc = lt_gcovio_u32(c, &fn->start_line, "FUNCTION start line")) ||
	    (rc = lt_gcovio_u32(c, &fn->start_col, "FUNCTION start column")) ||
	    (rc = lt_gcovio_u32(c, &fn->end_line, "FUNCTION end line")) ||
	    (rc = lt_gcovio_u32(c, &fn->end_col, "FUNCTION end column")))
		return rc;
	if (!fn->name && !(fn->name = strdup("")))
		return nomem(ps);
	if (!fn->source && !(fn->source = strdup("")))
		return nomem(ps);
	return 0;
}

static int parse_blocks(struct gcno_parse *ps, struct lt_gcovio_cur *c,
                        const struct lt_gcovio_rec *r)
{
	struct lt_gcno_fn *fn = NULL;
	int rc = need_fn(ps, r, "BLOCKS", 0, &fn);
	if (rc)
		return rc;
	if (fn->has_blocks)
		return lt_gcovio_fail(c, r->offset,
		                      "second BLOCKS record for function '%s'",
		                      fn->name);
	if (r->body_len != 4)
		return lt_gcovio_fail(c, r->offset,
		                      "BLOCKS record of %zu bytes: expected "
		                      "one word (the block count)",
		                      r->body_len);
	uint32_t n;
	if ((rc = lt_gcovio_u32(c, &n, "block count")))
		return rc;
	/* Every block but ENTRY and EXIT has an arc into it, and each arc
	 * takes 8 bytes of this file: a larger count is corrupt. */
	if (n < 2 || n - 2 > ps->c.end / 8)
		return lt_gcovio_fail(c, r->body,
		                      "absurd block count %u for function '%s' "
		                      "(file has %zu bytes)",
		                      n, fn->name, ps->c.end);
	fn->blocks = calloc(n, sizeof(*fn->blocks));
	if (!fn->blocks)
		return nomem(ps);
	fn->n_blocks = n;
	fn->has_blocks = 1;
	return 0;
}

static int parse_arcs(struct gcno_parse *ps, struct lt_gcovio_cur *c,
                      const struct lt_gcovio_rec *r)
{
	struct lt_gcno_fn *fn = NULL;
	int rc = need_fn(ps, r, "ARCS", 1, &fn);
	if (rc)
		return rc;
	if (r->body_len < 4 || (r->body_len - 4) % 8)
		return lt_gcovio_fail(c, r->offset,
		                      "ARCS record of %zu bytes: expected a "
		                      "source block word and 8 bytes per arc",
		                      r->body_len);
	uint32_t src;
	size_t at = c->pos;
	if ((rc = lt_gcovio_u32(c, &src, "ARCS source block")) ||
	    (rc = check_block(ps, at, fn, "ARCS source block", src)))
		return rc;
	uint32_t n = (uint32_t)((r->body_len - 4) / 8);
	for (uint32_t i = 0; i < n; i++) {
		struct lt_gcno_arc a = { .src = src };
		at = c->pos;
		if ((rc = lt_gcovio_u32(c, &a.dst, "arc destination")) ||
		    (rc = check_block(ps, at, fn, "arc destination block",
		                      a.dst)) ||
		    (rc = lt_gcovio_u32(c, &a.flags, "arc flags")))
			return rc;
		a.counter = LT_GCNO_NO_COUNTER;
		if (!(a.flags & LT_GCOV_ARC_ON_TREE))
			a.counter = fn->n_counters++;
		if (grow((void **)&fn->arcs, &ps->arcs_cap, fn->n_arcs,
		         sizeof(*fn->arcs)))
			return nomem(ps);
		fn->arcs[fn->n_arcs++] = a;
	}
	return 0;
}

static int parse_lines(struct gcno_parse *ps, struct lt_gcovio_cur *c,
                       const struct lt_gcovio_rec *r)
{
	struct lt_gcno_fn *fn = NULL;
	int rc = need_fn(ps, r, "LINES", 1, &fn);
	if (rc)
		return rc;
	uint32_t b;
	size_t at = c->pos;
	if ((rc = lt_gcovio_u32(c, &b, "LINES block")) ||
	    (rc = check_block(ps, at, fn, "LINES block", b)))
		return rc;
	struct lt_gcno_block *blk = &fn->blocks[b];
	uint32_t cap = blk->n_lines; /* exact so far: grow() doubles */
	int have_file = 0;
	uint32_t file = 0;
	for (;;) {
		uint32_t line;
		at = c->pos;
		if ((rc = lt_gcovio_u32(c, &line,
		                        "line number or 0 (LINES record "
		                        "ends with 0 and a NULL string)")))
			return rc;
		if (line == 0) {
			char *name;
			if ((rc = lt_gcovio_str(c, &name, "LINES file name")))
				return rc;
			if (!name)
				break;
			if ((rc = intern_file(ps, name, &file)))
				return rc;
			have_file = 1;
			continue;
		}
		if (!have_file)
			return lt_gcovio_fail(c, at,
			                      "LINES record of function '%s': "
			                      "line %u before any file name",
			                      fn->name, line);
		if (grow((void **)&blk->lines, &cap, blk->n_lines,
		         sizeof(*blk->lines)))
			return nomem(ps);
		blk->lines[blk->n_lines++] =
			(struct lt_gcno_line){ .file = file, .line = line };
	}
	return 0;
}

static int parse_conds(struct gcno_parse *ps, struct lt_gcovio_cur *c,
                       const struct lt_gcovio_rec *r)
{
	struct lt_gcno_fn *fn = NULL;
	int rc = need_fn(ps, r, "CONDS", 1, &fn);
	if (rc)
		return rc;
	if (r->body_len % 8)
		return lt_gcovio_fail(c, r->offset,
		                      "CONDS record of %zu bytes: expected 8 "
		                      "bytes per decision",
		                      r->body_len);
	uint32_t n = (uint32_t)(r->body_len / 8);
	for (uint32_t i = 0; i < n; i++) {
		struct lt_gcno_cond d;
		size_t at = c->pos;
		if ((rc = lt_gcovio_u32(c, &d.block, "CONDS block")) ||
		    (rc = check_block(ps, at, fn, "CONDS block", d.block)) ||
		    (rc = lt_gcovio_u32(c, &d.n_terms, "CONDS term count")))
			return rc;
		if (grow((void **)&fn->conds, &ps->conds_cap, fn->n_conds,
		         sizeof(*fn->conds)))
			return nomem(ps);
		fn->conds[fn->n_conds++] = d;
	}
	return 0;
}

/* Fills every function's counter -> arc table once all arcs are known. */
static int index_counters(struct gcno_parse *ps)
{
	for (uint32_t i = 0; i < ps->g->n_fns; i++) {
		struct lt_gcno_fn *fn = &ps->g->fns[i];
		if (!fn->n_counters)
			continue;
		fn->counter_arcs = malloc(fn->n_counters *
		                          sizeof(*fn->counter_arcs));
		if (!fn->counter_arcs)
			return nomem(ps);
		for (uint32_t a = 0; a < fn->n_arcs; a++)
			if (fn->arcs[a].counter != LT_GCNO_NO_COUNTER)
				fn->counter_arcs[fn->arcs[a].counter] = a;
	}
	return 0;
}

static int parse_body(struct gcno_parse *ps)
{
	struct lt_gcovio_cur *c = &ps->c;
	struct lt_gcno *g = ps->g;
	int rc;
	if ((rc = lt_gcovio_header(c, LT_GCOV_NOTE_MAGIC, &g->fmt, &g->stamp,
	                           &g->checksum)) ||
	    (rc = lt_gcovio_str(c, &g->cwd, "cwd string")) ||
	    (rc = lt_gcovio_u32(c, &g->has_unexecuted_blocks,
	                        "has_unexecuted_blocks word")))
		return rc;
	if (!g->cwd && !(g->cwd = strdup("")))
		return nomem(ps);
	while (c->pos < c->end) {
		/* A zero tag is gcc's optional end marker; gcov stops there. */
		if (c->end - c->pos >= 4 &&
		    load_u32(c->buf + c->pos, c->big_endian) == 0)
			break;
		struct lt_gcovio_rec r;
		if ((rc = lt_gcovio_record(c, &r)))
			return rc;
		/* Each record is parsed inside its own bounds. */
		struct lt_gcovio_cur rc_cur = *c;
		rc_cur.end = r.body + r.body_len;
		switch (r.tag) {
		case LT_GCOV_TAG_FUNCTION:
			rc = parse_function(ps, &rc_cur, &r);
			break;
		case LT_GCOV_TAG_BLOCKS:
			rc = parse_blocks(ps, &rc_cur, &r);
			break;
		case LT_GCOV_TAG_ARCS:
			rc = parse_arcs(ps, &rc_cur, &r);
			break;
		case LT_GCOV_TAG_LINES:
			rc = parse_lines(ps, &rc_cur, &r);
			break;
		case LT_GCOV_TAG_CONDS:
			rc = parse_conds(ps, &rc_cur, &r);
			break;
		default:
			break; /* unknown records are skipped by length */
		}
		if (rc)
			return rc;
		c->pos = r.body + r.body_len;
	}
	return index_counters(ps);
}

int lt_gcno_parse(const void *buf, size_t len, const char *name,
                  struct lt_gcno **out, char *err, size_t errlen)
{
	struct gcno_parse ps = {
		.c = { .buf = buf, .end = len, .name = name, .err = err,
		       .errlen = errlen },
	};
	*out = NULL;
	ps.g = calloc(1, sizeof(*ps.g));
	if (!ps.g || !(ps.g->path = strdup(name))) {
		free(ps.g);
		snprintf(err, errlen, "%s: out of memory", name);
		return LT_ERR_NOMEM;
	}
	int rc = parse_body(&ps);
	free(ps.hash);
	if (rc) {
		lt_gcno_free(ps.g);
		return rc;
	}
	*out = ps.g;
	return 0;
}

int lt_gcno_read_file(const char *path, struct lt_gcno **out, char *err,
                      size_t errlen)
{
	uint8_t *buf;
	size_t len;
	*out = NULL;
	int rc = lt_gcovio_slurp(path, &buf, &len, err, errlen);
	if (rc)
		return rc;
	rc = lt_gcno_parse(buf, len, path, out, err, errlen);
	free(buf);
	return rc;
}

void lt_gcno_free(struct lt_gcno *g)
{
	if (!g)
		return;
	for (uint32_t i = 0; i < g->n_fns; i++) {
		struct lt_gcno_fn *fn = &g->fns[i];
		for (uint32_t b = 0; b < fn->n_blocks; b++)
			free(fn->blocks[b].lines);
		free(fn->blocks);
		free(fn->arcs);
		free(fn->counter_arcs);
		free(fn->conds);
		free(fn->name);
		free(fn->source);
	}
	free(g->fns);
	for (uint32_t i = 0; i < g->n_files; i++)
		free(g->files[i]);
	free(g->files);
	free(g->cwd);
	free(g->path);
	free(g);
}
