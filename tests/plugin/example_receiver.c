/* An example receiver plugin: counts events by kind, blocks and
 * instructions, and writes them to OUTDIR/example.txt (or path=FILE).
 *
 * Build it as a shared object exporting lt_receiver_plugin_v1, e.g.
 *     cc -shared -fPIC -I ltpipe/include -o example.so example_receiver.c
 * and run `ltpipe decode ... -r ./example.so[:path=FILE]`. It calls back
 * into ltpipe (lt_opts_*, lt_out_*, lt_event_kind_name): those symbols are
 * resolved against the ltpipe executable when the plugin is loaded. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"

/* Per-instance state: each instance runs on its own thread, so no locks. */
struct example_state {
	struct lt_out *out;                /* the output, committed at close */
	uint64_t kind[LT_EV_KIND_COUNT];   /* events by kind */
	uint64_t other;                    /* events of an unknown kind */
	uint64_t insns;                    /* instructions */
};

static int example_open(void **state, const struct lt_session_info *s,
                        const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"path", NULL};
	if (lt_opts_check(opts, "example", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	struct example_state *x = calloc(1, sizeof(*x));
	if (!x)
		return LT_ERR_NOMEM;
	const char *path = lt_opts_get(opts, "path");
	char *full = lt_path_join(s->outdir, path && *path ? path
	                                                  : "example.txt");
	/* Opened now so that an unwritable output fails before decoding. */
	x->out = full ? lt_out_open(full, err, errlen) : NULL;
	free(full);
	if (!x->out) {
		free(x);
		return LT_ERR_IO;
	}
	*state = x;
	return 0;
}

/* Called with batches of events in stream order; keep it cheap. */
static int example_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct example_state *x = state;
	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind < LT_EV_KIND_COUNT)
			x->kind[ev[i].kind]++;
		else
			x->other++;
		x->insns += ev[i].icount;
	}
	return 0;
}

static int example_close(void *state, int incomplete, char *err,
                         size_t errlen)
{
	struct example_state *x = state;
	char line[128];
	uint64_t blocks = 0;
	for (int k = 0; k < LT_EV_KIND_COUNT; k++) {
		int n = snprintf(line, sizeof(line), "%s %" PRIu64 "\n",
		                 lt_event_kind_name(k), x->kind[k]);
		lt_out_write(x->out, line, (size_t)n);
		if (k != LT_EV_START && k != LT_EV_LOST)
			blocks += x->kind[k];
	}
	int n = snprintf(line, sizeof(line),
	                 "blocks %" PRIu64 "\ninstructions %" PRIu64 "\n",
	                 blocks, x->insns);
	lt_out_write(x->out, line, (size_t)n);
	if (incomplete)
		lt_out_write(x->out, "incomplete\n", 11);
	/* Renames the temp file into place; on error nothing is left. */
	int rc = lt_out_commit(x->out, err, errlen);
	free(x);
	return rc;
}

static const struct lt_receiver_ops example_ops = {
	.abi = LT_RECEIVER_ABI,
	.name = "example",
	.help = "counts events by kind, blocks and instructions into "
	        "OUTDIR/example.txt. Options: path=FILE.",
	.open = example_open,
	.consume = example_consume,
	.close = example_close,
};

/* The plugin's only exported symbol. */
__attribute__((visibility("default")))
const struct lt_receiver_ops *lt_receiver_plugin_v1(void)
{
	return &example_ops;
}
