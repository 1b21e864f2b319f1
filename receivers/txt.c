/* txt receiver: one line per retired instruction ("0x<addr>: <disasm>"),
 * event lines starting with '['. Blocks are expanded through the image;
 * each instruction's text is rendered once and cached per halfword, and
 * lines are formatted by hand (no printf per line). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_num.h"
#include "ltpipe/error.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"

/* Rendered text of the instructions of one region. */
struct txt_cache {
	const struct lt_region *reg; /* the region */
	uint32_t *off;               /* per halfword: arena offset + 1, 0 =
	                                not rendered yet */
};

struct txt_state {
	const struct lt_session_info *s; /* session */
	struct lt_out *out;              /* output file */
	int with_time;                   /* timestamp column */
	int xlen;                        /* of the first image */
	struct txt_cache *caches;        /* one per region seen */
	size_t ncaches;                  /* entries used */
	char *arena;                     /* NUL-separated rendered texts */
	size_t arena_len, arena_cap;     /* used / allocated */
	int failed;                      /* out of memory */
};

static struct txt_cache *cache_for(struct txt_state *t,
                                   const struct lt_region *r)
{
	for (size_t i = 0; i < t->ncaches; i++)
		if (t->caches[i].reg == r)
			return &t->caches[i];
	void *p = realloc(t->caches, (t->ncaches + 1) * sizeof(*t->caches));
	if (!p)
		return NULL;
	t->caches = p;
	struct txt_cache *c = &t->caches[t->ncaches];
	c->reg = r;
	c->off = calloc((size_t)((r->end - r->base) / 2 + 1), sizeof(uint32_t));
	if (!c->off)
		return NULL;
	t->ncaches++;
	return c;
}

/* Returns the whole output line of the instruction at addr in region r
 * ("0x<addr>: <text>\n"), rendered once and cached; *pre is the length of
 * the "0x<addr>: " prefix (the timestamp column goes after it). */
static const char *line_at(struct txt_state *t, struct txt_cache *c,
                           int xlen, uint64_t addr, size_t *len, size_t *pre)
{
	const struct lt_region *r = c->reg;
	uint32_t i = (uint32_t)((addr - r->base) >> 1);
	if (!c->off[i]) {
		struct lt_insn in;
		char buf[160];
		size_t n = (size_t)(lt_fmt_hex(buf, addr) - buf);
		buf[n++] = ':';
		buf[n++] = ' ';
		size_t p = n;
		lt_insn_decode(r->bytes + (addr - r->base),
		               (size_t)(r->end - addr), addr, xlen, &in);
		n += lt_insn_render(&in, xlen, buf + n, sizeof(buf) - n - 1);
		buf[n++] = '\n';
		if (n > 255)
			n = 255;
		if (t->arena_len + n + 2 > t->arena_cap) {
			size_t cap = t->arena_cap ? 2 * t->arena_cap : 1 << 16;
			while (cap < t->arena_len + n + 2)
				cap *= 2;
			char *q = realloc(t->arena, cap);
			if (!q) {
				t->failed = 1;
				*len = 2;
				*pre = 0;
				return "?\n";
			}
			t->arena = q;
			t->arena_cap = cap;
		}
		/* Stored as a length byte, a prefix-length byte, the line. */
		t->arena[t->arena_len] = (char)n;
		t->arena[t->arena_len + 1] = (char)p;
		memcpy(t->arena + t->arena_len + 2, buf, n);
		c->off[i] = (uint32_t)t->arena_len + 1;
		t->arena_len += n + 2;
	}
	const unsigned char *q = (const unsigned char *)t->arena + c->off[i] - 1;
	*len = q[0];
	*pre = q[1];
	return (const char *)q + 2;
}

static void event_line(struct txt_state *t, const struct lt_event *e)
{
	char line[256];
	static const char *const prv[] = {"U", "S", "H", "M"};
	int n;
	switch (e->kind) {
	case LT_EV_START:
		/* The hart only when not 0: a trace of several harts' says
		 * where each one's segments begin. */
		n = snprintf(line, sizeof(line),
		             "[start pc=0x%" PRIx64 " time=%" PRIu64
		             " prv=%s ctx=%u%s%.0u]\n",
		             e->next, e->time, prv[e->prv & 3], e->ctx,
		             e->hart ? " hart=" : "", e->hart);
		break;
	case LT_EV_EXCEPTION:
		n = snprintf(line, sizeof(line),
		             "[exception epc=0x%" PRIx64 " handler=0x%" PRIx64
		             " time=%" PRIu64 "]\n", e->aux, e->next, e->time);
		break;
	case LT_EV_INTERRUPT:
		n = snprintf(line, sizeof(line),
		             "[interrupt epc=0x%" PRIx64 " handler=0x%" PRIx64
		             " time=%" PRIu64 "]\n", e->aux, e->next, e->time);
		break;
	case LT_EV_TRET:
		n = snprintf(line, sizeof(line),
		             "[trap-return from=0x%" PRIx64 " to=0x%" PRIx64
		             " time=%" PRIu64 "]\n", e->last, e->next, e->time);
		break;
	case LT_EV_END:
		n = snprintf(line, sizeof(line),
		             "[end pc=0x%" PRIx64 " time=%" PRIu64 "]\n", e->last,
		             e->time);
		break;
	case LT_EV_LOST:
		n = snprintf(line, sizeof(line),
		             "[lost at trace offset %" PRIu64
		             ": resynchronising at the next sync]\n", e->aux);
		break;
	case LT_EV_SYNC:
		n = snprintf(line, sizeof(line),
		             "[sync pc=0x%" PRIx64 " time=%" PRIu64 "]\n", e->next,
		             e->time);
		break;
	default:
		return;
	}
	lt_out_write(t->out, line, (size_t)n);
}

static void block_lines(struct txt_state *t, const struct lt_event *e)
{
	if (e->icount == 0 || e->img >= t->s->images->n)
		return;
	const struct lt_image *img = t->s->images->sel[e->img].img;
	uint64_t a = e->start;
	const struct lt_region *r = lt_image_region(img, a);
	struct txt_cache *c = r ? cache_for(t, r) : NULL;
	if (!c)
		return;
	char tbuf[24];
	size_t tlen = 0;
	if (t->with_time) {
		tlen = (size_t)(lt_fmt_dec(tbuf, e->time) - tbuf);
		tbuf[tlen++] = '\t';
	}
	for (uint32_t k = 0; k < e->icount; k++) {
		if (a < r->base || a >= r->end)
			break;
		size_t n, pre;
		const char *line = line_at(t, c, img->xlen, a, &n, &pre);
		char *p = (char *)lt_out_reserve(t->out, 300);
		if (tlen) {
			memcpy(p, line, pre);
			memcpy(p + pre, tbuf, tlen);
			memcpy(p + pre + tlen, line + pre, n - pre);
			lt_out_advance(t->out, n + tlen);
		} else {
			memcpy(p, line, n);
			lt_out_advance(t->out, n);
		}
		a += r->info[(a - r->base) >> 1].len;
	}
}

static int txt_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct txt_state *t = state;
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		if (e->kind != LT_EV_START && e->kind != LT_EV_LOST)
			block_lines(t, e);
		switch (e->kind) {
		case LT_EV_TAKEN:
		case LT_EV_NOT_TAKEN:
		case LT_EV_JUMP:
		case LT_EV_IJUMP:
			break;
		default:
			event_line(t, e);
		}
	}
	return t->failed ? LT_ERR_NOMEM : 0;
}

static int txt_open(void **state, const struct lt_session_info *s,
                    const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"path", "time", NULL};
	if (lt_opts_check(opts, "txt", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	struct txt_state *t = calloc(1, sizeof(*t));
	if (!t)
		return LT_ERR_NOMEM;
	t->s = s;
	const char *tm = lt_opts_get(opts, "time");
	t->with_time = tm && strcmp(tm, "0") != 0;
	const char *path = lt_opts_get(opts, "path");
	char *full = lt_path_join(s->outdir, path && *path ? path : "trace.txt");
	t->out = full ? lt_out_open(full, err, errlen) : NULL;
	free(full);
	if (!t->out) {
		free(t);
		return LT_ERR_IO;
	}
	*state = t;
	return 0;
}

static int txt_close(void *state, int incomplete, char *err, size_t errlen)
{
	struct txt_state *t = state;
	if (incomplete == LT_CLOSE_DISCARD) {
		lt_out_abort(t->out);
		t->out = NULL;
	} else if (incomplete)
		lt_out_write(t->out, "[incomplete: the stream was cut short]\n",
		             39);
	int rc = t->out ? lt_out_commit(t->out, err, errlen) : 0;
	if (!rc && t->failed) {
		snprintf(err, errlen, "txt: out of memory");
		rc = LT_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->ncaches; i++)
		free(t->caches[i].off);
	free(t->caches);
	free(t->arena);
	free(t);
	return rc;
}

const struct lt_receiver_ops lt_receiver_txt = {
	.abi = LT_RECEIVER_ABI,
	.name = "txt",
	.help = "one line per retired instruction, '0x<addr>: <disassembly>'; "
	        "event lines (start, traps, end, lost) start with '['. "
	        "Options: path=FILE (default OUTDIR/trace.txt, '-' = stdout), "
	        "time=1 (a timestamp column after the address).",
	.open = txt_open,
	.consume = txt_consume,
	.close = txt_close,
};
