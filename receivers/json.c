/* json receiver: JSON Lines, one object per block event (schema in
 * README.md). Addresses are strings ("0x...") because JSON numbers lose
 * 64-bit precision in many readers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"

struct json_state {
	struct lt_out *out; /* output file */
};

static int json_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct json_state *j = state;
	static const char *const prv[] = {"U", "S", "H", "M"};
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		char *p = (char *)lt_out_reserve(j->out, 512);
		int w = snprintf(p, 400,
		                 "{\"kind\":\"%s\",\"start\":\"0x%" PRIx64
		                 "\",\"last\":\"0x%" PRIx64 "\",\"next\":\"0x%" PRIx64
		                 "\",\"icount\":%u,\"time\":%" PRIu64
		                 ",\"prv\":\"%s\",\"ctx\":%u,\"hart\":%u",
		                 lt_event_kind_name(e->kind), e->start, e->last,
		                 e->next, e->icount, e->time, prv[e->prv & 3],
		                 e->ctx, e->hart);
		if (e->kind == LT_EV_EXCEPTION || e->kind == LT_EV_INTERRUPT)
			w += snprintf(p + w, 100, ",\"epc\":\"0x%" PRIx64 "\"",
			              e->aux);
		else if (e->kind == LT_EV_LOST)
			w += snprintf(p + w, 100, ",\"offset\":%" PRIu64, e->aux);
		p[w++] = '}';
		p[w++] = '\n';
		lt_out_advance(j->out, (size_t)w);
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
	if (incomplete)
		lt_out_write(j->out, "{\"kind\":\"incomplete\"}\n", 22);
	int rc = lt_out_commit(j->out, err, errlen);
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
