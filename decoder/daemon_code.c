/* `ltpipe serve`: a session's streamed code map (daemon_code.h).
 *
 * Regions are built once and never changed: code that touches or overlaps
 * a region replaces it by a new region over the union (the new bytes win:
 * code that changed). The old one stays allocated until the session ends,
 * because a receiver thread may still hold it (it looks addresses up
 * while the decode thread applies CODE frames). After each frame the
 * regions built are published together as one new snapshot. */
#include "daemon_code.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_tables.h"
#include "ltpipe/error.h"

struct lt_dcode {
	struct lt_image img;          /* the session's copy of the image */
	const struct lt_image *shared; /* the shared image it copies */
	struct lt_region **live;      /* current regions, sorted by base */
	size_t nlive;                 /* entries used */
	size_t cap;                   /* entries allocated */
	struct lt_region **old;       /* published regions superseded */
	size_t nold;                  /* entries used */
	size_t capold;                /* entries allocated */
	struct lt_added_code **snaps; /* every snapshot published */
	size_t nsnaps;                /* entries used */
	size_t capsnaps;              /* entries allocated */
	uint64_t bytes_in;            /* run bytes received */
	uint64_t max_bytes;           /* limit of bytes_in */
	uint64_t bytes_built;         /* region bytes built */
	uint64_t max_built;           /* limit of bytes_built */
	uint64_t bytes_live;          /* bytes in live regions */
	int loaded;                   /* a `load` line was applied */
	uint64_t frames;              /* CODE frames applied */
	uint8_t *frame;               /* the CODE frame being assembled */
	size_t flen;                  /* its bytes so far */
	size_t fcap;                  /* allocated */
};

struct lt_dcode *lt_dcode_new(const struct lt_image *img, uint64_t max_bytes,
                              uint64_t max_built)
{
	struct lt_dcode *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->max_bytes = max_bytes;
	c->max_built = max_built;
	/* A shallow copy: sections, ELF bytes and build-id stay the shared
	 * image's (never freed through the copy). */
	c->img = *img;
	c->img.added = NULL;
	c->img.bias = 0;
	c->shared = img;
	return c;
}

const struct lt_image *lt_dcode_image(struct lt_dcode *c)
{
	return &c->img;
}

int lt_dcode_loaded(const struct lt_dcode *c)
{
	return c->loaded;
}

uint64_t lt_dcode_bytes(const struct lt_dcode *c)
{
	return c->bytes_live;
}

size_t lt_dcode_regions(const struct lt_dcode *c)
{
	return c->nlive;
}

uint64_t lt_dcode_frames(const struct lt_dcode *c)
{
	return c->frames;
}

/* Frees a region this map made (its bytes, tables and struct); NULL is
 * fine. */
static void region_free(struct lt_region *r)
{
	if (!r)
		return;
	free(r->hw);
	free(r->info);
	free(r->owned);
	free(r);
}

/* Appends p to the pointer vector *v (n used, *cap allocated). Returns 0
 * or LT_ERR_NOMEM. */
static int push(void ***v, size_t *n, size_t *cap, void *p)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		void **nv = realloc(*v, nc * sizeof(*nv));
		if (!nv)
			return LT_ERR_NOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = p;
	return 0;
}

/* Records an error for lt_dcode_piece: code, then the message. */
static int bad(int *code, int c, int rc, char *err, size_t errlen,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int bad(int *code, int c, int rc, char *err, size_t errlen,
               const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	*code = c;
	return rc;
}

/* The program's own code, where it ran: its sections (link addresses)
 * and, when relocated, its executable span moved. Returns the name of
 * what [base, end) overlaps, or NULL. */
static const char *overlaps_program(const struct lt_dcode *c, uint64_t base,
                                    uint64_t end)
{
	const struct lt_image *img = c->shared;
	for (size_t i = 0; i < img->nregions; i++)
		if (base < img->regions[i].end && img->regions[i].base < end)
			return img->regions[i].name;
	if (c->img.bias && base < img->exec_hi + c->img.bias &&
	    img->exec_lo + c->img.bias < end)
		return "its executable segment as loaded";
	return NULL;
}

/* Adds the run bytes[len] at addr (taking bytes) to the live regions,
 * merging it with every region it touches into a new, unpublished one.
 * Returns 0 or LT_ERR_NOMEM. */
static int add_run(struct lt_dcode *c, uint64_t addr, uint8_t *bytes,
                   size_t len)
{
	uint64_t end = addr + len, lo = addr, hi = end;
	/* First region ending at or after addr (touching counts). */
	size_t a = 0, b = c->nlive;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (c->live[m]->end < addr)
			a = m + 1;
		else
			b = m;
	}
	size_t first = a, last = a;
	while (last < c->nlive && c->live[last]->base <= end)
		last++;
	if (first < last) {
		if (c->live[first]->base < lo)
			lo = c->live[first]->base;
		if (c->live[last - 1]->end > hi)
			hi = c->live[last - 1]->end;
	}
	struct lt_region *r = calloc(1, sizeof(*r));
	uint8_t *nb = first < last ? malloc((size_t)(hi - lo)) : bytes;
	if (!r || !nb) {
		free(r);
		free(bytes);
		if (nb != bytes)
			free(nb);
		return LT_ERR_NOMEM;
	}
	if (nb != bytes) {
		/* The regions touching the run cover [lo, hi) with it. */
		for (size_t i = first; i < last; i++) {
			const struct lt_region *o = c->live[i];
			memcpy(nb + (o->base - lo), o->bytes,
			       (size_t)(o->end - o->base));
		}
		memcpy(nb + (addr - lo), bytes, len);
		free(bytes);
	}
	r->base = lo;
	r->end = hi;
	r->bytes = nb;
	r->owned = nb;
	snprintf(r->name, sizeof(r->name), "code@%" PRIx64, lo);
	for (size_t i = first; i < last; i++) {
		struct lt_region *o = c->live[i];
		c->bytes_live -= o->end - o->base;
		if (o->hw) { /* published: a receiver may hold it */
			if (push((void ***)&c->old, &c->nold, &c->capold, o) < 0) {
				region_free(r);
				return LT_ERR_NOMEM;
			}
		} else {
			region_free(o);
		}
	}
	if (first == last && c->nlive == c->cap) {
		size_t nc = c->cap ? 2 * c->cap : 64;
		struct lt_region **nv = realloc(c->live, nc * sizeof(*nv));
		if (!nv) {
			region_free(r);
			return LT_ERR_NOMEM;
		}
		c->live = nv;
		c->cap = nc;
	}
	/* Replace live[first, last) by r. */
	size_t keep = first < last ? last - first - 1 : 0;
	if (first == last)
		memmove(c->live + first + 1, c->live + first,
		        (c->nlive - first) * sizeof(*c->live));
	else if (keep)
		memmove(c->live + first + 1, c->live + last,
		        (c->nlive - last) * sizeof(*c->live));
	c->live[first] = r;
	c->nlive = first == last ? c->nlive + 1 : c->nlive - keep;
	c->bytes_live += hi - lo;
	return 0;
}

/* Builds the tables of the regions added since the last snapshot and
 * publishes a new snapshot. Returns 0 or a negative lt_error (limit: the
 * message is set). */
static int publish(struct lt_dcode *c, int *code, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nlive; i++) {
		struct lt_region *r = c->live[i];
		if (r->hw)
			continue;
		c->bytes_built += r->end - r->base;
		if (c->bytes_built > c->max_built)
			return bad(code, LT_PC_LIMIT, LT_ERR_INVAL, err, errlen,
			           "code map: regions rebuilt for %" PRIu64
			           " bytes, over the limit of %" PRIu64 " (too "
			           "many small CODE frames next to each other)",
			           c->bytes_built, c->max_built);
		if (lt_region_build_tables(r, c->img.xlen) < 0)
			return bad(code, LT_PC_IO, LT_ERR_NOMEM, err, errlen,
			           "daemon out of memory");
	}
	struct lt_added_code *s = malloc(sizeof(*s));
	const struct lt_region **v = malloc((c->nlive ? c->nlive : 1) *
	                                    sizeof(*v));
	if (!s || !v || push((void ***)&c->snaps, &c->nsnaps, &c->capsnaps,
	                     s) < 0) {
		free(s);
		free(v);
		return bad(code, LT_PC_IO, LT_ERR_NOMEM, err, errlen,
		           "daemon out of memory");
	}
	memcpy(v, c->live, c->nlive * sizeof(*v));
	s->n = c->nlive;
	s->v = v;
	/* Release: the tables and bytes above are complete before a
	 * receiver thread can find the snapshot (lt_image_region). */
	__atomic_store_n(&c->img.added, s, __ATOMIC_RELEASE);
	return 0;
}

/* Applies a `load START END ENTRY` line: a position-independent program
 * that ran elsewhere is decoded moved (lt_image_relocate). */
static int apply_load(struct lt_dcode *c, uint64_t start, uint64_t end,
                      int *code, char *where, char *err, size_t errlen)
{
	c->loaded = 1;
	if (!lt_image_ran_elsewhere(c->shared, start, end))
		return 0;
	char why[400];
	if (lt_image_relocate(&c->img, start, end, why, sizeof(why)) < 0)
		return bad(code, LT_PC_ELF, LT_ERR_INVAL, err, errlen, "%s: %s",
		           where, why);
	return 1;
}

/* Applies the assembled frame's lines. Returns as lt_dcode_piece. */
static int apply_frame(struct lt_dcode *c, uint64_t offset, int data_started,
                       int *code, char *err, size_t errlen)
{
	char where[96];
	int changed = 0, runs = 0;
	long lineno = 0;
	char *s = (char *)c->frame, *fend = s + c->flen;
	if (memchr(c->frame, 0, c->flen))
		return bad(code, LT_PC_PROTO, LT_ERR_BAD_PACKET, err, errlen,
		           "CODE frame at byte %" PRIu64 ": a NUL byte in the "
		           "code map text", offset);
	while (s < fend) {
		char *nl = memchr(s, '\n', (size_t)(fend - s));
		char *next = nl ? nl + 1 : fend;
		if (nl)
			*nl = '\0';
		else
			*fend = '\0'; /* the buffer has room for it */
		lineno++;
		snprintf(where, sizeof(where), "CODE frame at byte %" PRIu64
		         ", line %ld", offset, lineno);
		struct lt_codemap_line ln;
		const char *why;
		if (lt_codemap_parse_line(s, &ln, &why) < 0)
			return bad(code, LT_PC_PROTO, LT_ERR_BAD_PACKET, err,
			           errlen, "%s: %s", where, why);
		s = next;
		if (ln.kind == LT_CM_LOAD) {
			if (data_started)
				return bad(code, LT_PC_PROTO, LT_ERR_BAD_PACKET,
				           err, errlen, "%s: a load line after "
				           "trace data (where the program ran "
				           "must come before its first trace "
				           "byte)", where);
			if (c->loaded)
				return bad(code, LT_PC_PROTO, LT_ERR_BAD_PACKET,
				           err, errlen, "%s: a second load line",
				           where);
			int rc = apply_load(c, ln.a, ln.b, code, where, err,
			                    errlen);
			if (rc < 0)
				return rc;
			changed |= rc;
			continue;
		}
		if (ln.kind != LT_CM_RUN)
			continue;
		const char *own = overlaps_program(c, ln.a, ln.a + ln.len);
		if (own) {
			free(ln.bytes);
			return bad(code, LT_PC_PROTO, LT_ERR_BAD_PACKET, err,
			           errlen, "%s: code at 0x%" PRIx64 "-0x%" PRIx64
			           " overlaps the program's own code (%s)",
			           where, ln.a, ln.a + ln.len, own);
		}
		c->bytes_in += ln.len;
		if (c->bytes_in > c->max_bytes) {
			free(ln.bytes);
			return bad(code, LT_PC_LIMIT, LT_ERR_INVAL, err, errlen,
			           "%s: code at 0x%" PRIx64 " brings the "
			           "session's code map over the limit of %"
			           PRIu64 " bytes", where, ln.a, c->max_bytes);
		}
		if (add_run(c, ln.a, ln.bytes, ln.len) < 0)
			return bad(code, LT_PC_IO, LT_ERR_NOMEM, err, errlen,
			           "daemon out of memory");
		if (c->nlive > LT_DCODE_MAX_REGIONS)
			return bad(code, LT_PC_LIMIT, LT_ERR_INVAL, err, errlen,
			           "%s: code at 0x%" PRIx64 " makes more than %u "
			           "separate code regions", where, ln.a,
			           LT_DCODE_MAX_REGIONS);
		runs = 1;
	}
	if (runs) {
		int rc = publish(c, code, err, errlen);
		if (rc < 0)
			return rc;
		changed = 1;
	}
	return changed;
}

int lt_dcode_piece(struct lt_dcode *c, uint64_t offset, const uint8_t *p,
                   size_t len, int last, int data_started, int *code,
                   char *err, size_t errlen)
{
	if (c->flen + len + 1 > c->fcap) {
		/* +1: room for a NUL after the last line. */
		size_t nc = c->fcap ? c->fcap : 4096;
		while (nc < c->flen + len + 1)
			nc *= 2;
		uint8_t *nf = realloc(c->frame, nc);
		if (!nf)
			return bad(code, LT_PC_IO, LT_ERR_NOMEM, err, errlen,
			           "daemon out of memory");
		c->frame = nf;
		c->fcap = nc;
	}
	if (len)
		memcpy(c->frame + c->flen, p, len);
	c->flen += len;
	if (!last)
		return 0;
	int rc = apply_frame(c, offset, data_started, code, err, errlen);
	c->flen = 0;
	c->frames++;
	return rc;
}

void lt_dcode_free(struct lt_dcode *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nlive; i++)
		region_free(c->live[i]);
	for (size_t i = 0; i < c->nold; i++)
		region_free(c->old[i]);
	for (size_t i = 0; i < c->nsnaps; i++) {
		free((void *)c->snaps[i]->v);
		free(c->snaps[i]);
	}
	free(c->live);
	free(c->old);
	free(c->snaps);
	free(c->frame);
	free(c);
}
