/* The end-of-decode summary printed by `ltpipe decode` and the daemon. */
#include <inttypes.h>

#include "cli.h"
#include "ltpipe/error.h"
#include "ltpipe/packet.h"

void lt_print_summary(FILE *f, const char *what,
                      const struct lt_decode_stats *st, double seconds)
{
	fprintf(f,
	        "ltpipe: %s: %" PRIu64 " bytes, %" PRIu64 " packets, %" PRIu64
	        " blocks, %" PRIu64 " instructions, format %s, mode %s",
	        what, st->bytes, st->packets, st->blocks, st->insns,
	        lt_format_name(st->resolved_format),
	        st->resolved_mode == 2 ? "bp" : "bt");
	if (st->resolved_mode == 2)
		fprintf(f, " (%u entries)", st->resolved_bp_entries);
	if (seconds > 0)
		fprintf(f, ", %.3f s", seconds);
	fprintf(f, "\n");
	if (st->syncs_ignored)
		fprintf(f,
		        "ltpipe: %s: %" PRIu64 " periodic syncs ignored: their "
		        "target (first 0x%" PRIx64 ") is no program code (RTL2's "
		        "placeholder is 0xC0FFEE)\n",
		        what, st->syncs_ignored, st->ignored_target);
	if (!st->errors)
		return;
	fprintf(f,
	        "ltpipe: %s: DATA LOST: %" PRIu64 " errors, %" PRIu64
	        " losses, %" PRIu64 " bytes skipped while resynchronising\n",
	        what, st->errors, st->losses, st->bytes_skipped);
	for (unsigned i = 0; i < st->nkept; i++)
		fprintf(f, "ltpipe: %s: offset %" PRIu64 ": %s [packet %" PRIu64
		        "]\n", what, st->err[i].offset, st->err[i].msg,
		        st->err[i].packet);
	if (st->errors > st->nkept)
		fprintf(f, "ltpipe: %s: ... %" PRIu64 " more errors\n", what,
		        st->errors - st->nkept);
	if (st->bp_loss)
		fprintf(f,
		        "ltpipe: %s: BP mode: after a loss the predictor state is "
		        "unknowable; blocks decoded after a resync may be wrong\n",
		        what);
}
