/* json receiver: JSON Lines, one object per block event (schema in
 * README.md). Addresses are strings ("0x...") because JSON numbers lose
 * 64-bit precision in many readers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_num.h"
#include "ltpipe/error.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"

struct json_state {
	struct lt_out *out; /* output file */
};

/* Hand-formatted (no printf per event): this receiver sees every block. */
static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* A hex address as a JSON string. */
static char *put_hex(char *p, uint64_t v)
{
	*p++ = '"';
	p = lt_fmt_hex(p, v);
	*p++ = '"';
	return p;
}

static int json_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct json_state *j = state;
	static const char *const prv[] = {"U", "S", "H", "M"};
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		char *p0 = (char *)lt_out_reserve(j->out, 400);
		char *p = put_str(p0, "{\"kind\":\"");
		p = put_str(p, lt_event_kind_name(e->kind));
		p = put_str(p, "\",\"start\":");
		p = put_hex(p, e->start);
		p = put_str(p, ",\"last\":");
		p = put_hex(p, e->last);
		p = put_str(p, ",\"next\":");
		p = put_hex(p, e->next);
		p = put_str(p, ",\"icount\":");
		p = lt_fmt_dec(p, e->icount);
		p = put_str(p, ",\"time\":");
		p = lt_fmt_dec(p, e->time);
		p = put_str(p, ",\"prv\":\"");
		p = put_str(p, prv[e->prv & 3]);
		p = put_str(p, "\",\"ctx\":");
		p = lt_fmt_dec(p, e->ctx);
		p = put_str(p, ",\"hart\":");
		p = lt_fmt_dec(p, e->hart);
		if (e->kind == LT_EV_EXCEPTION || e->kind == LT_EV_INTERRUPT) {
			p = put_str(p, ",\"epc\":");
			p = put_hex(p, e->aux);
		} else if (e->kind == LT_EV_LOST) {
			p = put_str(p, ",\"offset\":");
			p = lt_fmt_dec(p, e->aux);
		}
		*p++ = '}';
		*p++ = '\n';
		lt_out_advance(j->out, (size_t)(p - p0));
	}
	return 0;
}

static int json_open(void **state, const struct lt_session_info *s,
                     const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"path", NULL};
	if (lt_opts_check(opts, "json", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	struct json_state *j = calloc(1, sizeof(*j));
	if (!j)
		return LT_ERR_NOMEM;
	const char *path = lt_opts_get(opts, "path");
	char *full =
		lt_path_join(s->outdir, path && *path ? path : "events.jsonl");
	j->out = full ? lt_out_open(full, err, errlen) : NULL;
	free(full);
	if (!j->out) {
		free(j);
		return LT_ERR_IO;
	}
	*state = j;
	return 0;
}

static int json_close(void *state, int incomplete, char *err, size_t errlen)
{
	struct json_state *j = state;
	int rc = 0;
	if (incomplete == LT_CLOSE_DISCARD) {
		lt_out_abort(j->out);
		free(j);
		return 0;
	}
	if (incomplete)
		lt_out_write(j->out, "{\"kind\":\"incomplete\"}\n", 22);
	rc = lt_out_commit(j->out, err, errlen);
	free(j);
	return rc;
}

const struct lt_receiver_ops lt_receiver_json = {
	.abi = LT_RECEIVER_ABI,
	.name = "json",
	.help = "JSON Lines, one object per block event: kind, start, last, "
	        "next (hex strings), icount, time, prv, ctx, hart; epc for "
	        "traps, offset for lost. Options: path=FILE (default "
	        "OUTDIR/events.jsonl, '-' = stdout).",
	.open = json_open,
	.consume = json_consume,
	.close = json_close,
};
