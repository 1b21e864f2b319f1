/* The gcda receiver's report: OUTDIR/gcda-report.txt, one line per gcno
 * function (exact, inferred, zero or absent; its counters, the ones the
 * machine code determined, and why it is inferred), the exact-counter
 * rate, and the one-line summary on stderr. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcda_map.h"
#include "ltpipe/outfile.h"

#include "gcda_state.h"

/* The report's word for status s (enum gm_status, -1 absent). */
static const char *status_name(int s)
{
	switch (s) {
	case GM_ZERO:
		return "zero";
	case GM_EXACT:
		return "exact";
	case GM_INFERRED:
		return "inferred";
	default:
		return "absent";
	}
}

/* Writes " [i,j,...]", the counters det[n] marks (gcda ARCS order), to o;
 * nothing when det is NULL. */
static void write_det(struct lt_out *o, const uint8_t *det, uint32_t n)
{
	char buf[16];
	const char *sep = " [";
	for (uint32_t c = 0; det && c < n; c++) {
		if (!det[c])
			continue;
		int len = snprintf(buf, sizeof(buf), "%s%u", sep, c);
		lt_out_write(o, buf, (size_t)len);
		sep = ",";
	}
	if (det)
		lt_out_write(o, "]", 1);
}

/* Writes OUTDIR/gcda-report.txt and the stderr summary (contract in
 * gcda_state.h). */
void gcda_report(struct gcda_state *t, const uint8_t *used, int incomplete,
                 char *err, size_t errlen)
{
	uint64_t fcount[4] = {0}, ctr_exec = 0, ctr_exact = 0;
	char *p = lt_path_join(t->s->outdir, "gcda-report.txt");
	struct lt_out *o = p ? lt_out_open(p, err, errlen) : NULL;
	free(p);
	char line[1024];
	for (size_t i = 0; i < t->nfiles; i++) {
		if (!used[i])
			continue;
		const struct gfile *gf = &t->files[i];
		if (o) {
			int n = snprintf(line, sizeof(line), "gcno %s -> %s\n",
			                 gf->gcno_path, gf->gcda_path);
			lt_out_write(o, line, (size_t)n);
		}
		for (uint32_t k = 0; k < gf->g->n_fns; k++) {
			const struct lt_gcno_fn *fn = &gf->g->fns[k];
			int s = gf->status[k];
			fcount[s < 0 ? 3 : s]++;
			if (s == GM_EXACT || s == GM_INFERRED) {
				ctr_exec += fn->n_counters;
				ctr_exact += gf->nexact[k];
			}
			if (o) {
				int n = snprintf(line, sizeof(line),
				                 "  %-8s %s (%s:%u) counters=%u "
				                 "determined=%u",
				                 status_name(s), fn->name,
				                 fn->source, fn->start_line,
				                 fn->n_counters, gf->nexact[k]);
				lt_out_write(o, line, (size_t)n);
				write_det(o, gf->det[k], fn->n_counters);
				n = snprintf(line, sizeof(line), "%s%s\n",
				             gf->why[k] ? ": " : "",
				             gf->why[k] ? gf->why[k] : "");
				lt_out_write(o, line, (size_t)n);
			}
		}
	}
	int n = snprintf(line, sizeof(line),
	                 "gcda: %" PRIu64 " exact, %" PRIu64 " inferred, %"
	                 PRIu64 " never run, %" PRIu64
	                 " absent functions; exact-counter rate %.1f%% (%"
	                 PRIu64 "/%" PRIu64 " counters of executed "
	                 "functions)%s\n",
	                 fcount[GM_EXACT], fcount[GM_INFERRED], fcount[GM_ZERO],
	                 fcount[3],
	                 ctr_exec ? 100.0 * (double)ctr_exact /
	                            (double)ctr_exec : 100.0,
	                 ctr_exact, ctr_exec,
	                 incomplete ? " [trace incomplete]" : "");
	fputs(line, stderr);
	if (o) {
		lt_out_write(o, line, (size_t)n);
		char e2[256];
		lt_out_commit(o, e2, sizeof(e2));
	}
}
