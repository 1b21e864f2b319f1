/* Test helper for the gcda writer:
 *
 *   lt_gcov_rewrite GCNO IN.gcda OUT.gcda [--merge]
 *       takes IN's arc counters (matched to the gcno by ident), builds the
 *       gcda from the gcno alone with lt_gcda_from_gcno (run_max = IN's
 *       sum_max, so one-run files must come back byte-identical) and
 *       writes OUT, merged onto an existing OUT with --merge;
 *   lt_gcov_rewrite --reencode IN.gcda OUT.gcda
 *       parses IN and encodes the parsed data again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/gcov.h"

static int reencode(const char *in, const char *out)
{
	char err[512];
	struct lt_gcda *d;
	if (lt_gcda_read_file(in, &d, err, sizeof(err)) ||
	    lt_gcda_write_file(out, d, 0, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	lt_gcda_free(d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--reencode") == 0)
		return reencode(argv[2], argv[3]);
	if (argc < 4 || (argc == 5 && strcmp(argv[4], "--merge")) ||
	    argc > 5) {
		fprintf(stderr,
		        "usage: %s GCNO IN.gcda OUT.gcda [--merge]\n"
		        "       %s --reencode IN.gcda OUT.gcda\n",
		        argv[0], argv[0]);
		return 2;
	}
	char err[512];
	struct lt_gcno *g;
	struct lt_gcda *in, *out;
	if (lt_gcno_read_file(argv[1], &g, err, sizeof(err)) ||
	    lt_gcda_read_file(argv[2], &in, err, sizeof(err)) ||
	    lt_gcda_check_gcno(in, g, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	uint64_t **arcs = calloc(g->n_fns + 1, sizeof(*arcs));
	for (uint32_t i = 0; i < in->n_fns; i++) {
		const struct lt_gcda_fn *f = &in->fns[i];
		const struct lt_gcda_ctr *c;
		if (f->placeholder || !(c = lt_gcda_fn_arcs(f)) || !c->n)
			continue;
		long j = lt_gcno_find_ident(g, f->ident);
		arcs[j] = malloc(c->n * sizeof(uint64_t));
		for (uint32_t k = 0; k < c->n; k++)
			arcs[j][k] = (uint64_t)lt_gcda_ctr_value(c, k);
	}
	int rc = lt_gcda_from_gcno(g, (const uint64_t *const *)arcs,
	                           in->sum_max, &out, err, sizeof(err));
	if (!rc)
		rc = lt_gcda_write_file(argv[3], out, argc == 5, err,
		                        sizeof(err));
	if (rc)
		fprintf(stderr, "%s\n", err);
	for (uint32_t i = 0; i < g->n_fns; i++)
		free(arcs[i]);
	free(arcs);
	lt_gcda_free(out);
	lt_gcda_free(in);
	lt_gcno_free(g);
	return rc ? 1 : 0;
}
