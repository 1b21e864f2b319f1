/* null receiver: consumes every event and writes nothing; the baseline for
 * measuring the frontend (scripts/bench.sh). */
#include <stdlib.h>

#include "ltpipe/error.h"
#include "ltpipe/receiver.h"

static int null_open(void **state, const struct lt_session_info *s,
                     const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {NULL};
	(void)s;
	if (lt_opts_check(opts, "null", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	*state = NULL;
	return 0;
}

static int null_consume(void *state, const struct lt_event *ev, size_t n)
{
	(void)state;
	(void)ev;
	(void)n;
	return 0;
}

static int null_close(void *state, int incomplete, char *err, size_t errlen)
{
	(void)state;
	(void)incomplete;
	(void)err;
	(void)errlen;
	return 0;
}

const struct lt_receiver_ops lt_receiver_null = {
	.abi = LT_RECEIVER_ABI,
	.name = "null",
	.help = "consumes the events and writes nothing (for benchmarks).",
	.open = null_open,
	.consume = null_consume,
	.close = null_close,
};
