/* Functions the binary keeps nothing of (gcda_map.h): no code, no
 * inline record, and no line calling them with code of its own. gcc
 * inlined and folded every call (`return stop();` of a function that
 * returns a constant struct, its value merged into code of other lines),
 * yet the gcno still counts those calls: the instrumented run did call
 * the function. The gcno blocks of the callers that list a calling line
 * ran once per call; their counts (from the callers' own mapping) count
 * the function's entries. Zero counts would tell -fprofile-use that the
 * function never ran while its callers' calls did. */
#include <stdlib.h>
#include <string.h>

#include "gcda_map.h"
#include "ltpipe/error.h"

void gm_block_flow(const struct lt_gcno_fn *fn, const uint64_t *arc,
                   uint64_t *bc)
{
	memset(bc, 0, fn->n_blocks * sizeof(*bc));
	for (uint32_t a = 0; a < fn->n_arcs; a++)
		if (fn->arcs[a].dst < fn->n_blocks)
			bc[fn->arcs[a].dst] += arc[a];
}

/* Calls of fn the blocks of g's other functions show: per source call
 * (a line calling fn outside fn's body, once per call written on it), the
 * smallest count of a mapped caller's block that lists the line (a line
 * with a test before the call is listed by the test's block too). */
static uint64_t block_calls(const struct lt_gcno *g, const struct gm_ctx *x,
                            const struct lt_gcno_fn *fn, uint64_t *const *bc)
{
	uint64_t total = 0;
	for (uint32_t i = 0; x->dw && i < g->n_files; i++) {
		uint32_t df, *lines = NULL;
		size_t n = gm_file_call_lines(g, x, fn, i, &df, &lines);
		for (size_t k = 0; k < n; k++) {
			uint64_t least = UINT64_MAX;
			if (gm_own_body_line(g, fn, i, lines[k]))
				continue;
			for (uint32_t c = 0; c < g->n_fns; c++) {
				const struct lt_gcno_fn *cf = &g->fns[c];
				if (cf == fn || !bc[c])
					continue;
				for (uint32_t b = 2; b < cf->n_blocks; b++)
					for (uint32_t q = 0;
					     q < cf->blocks[b].n_lines; q++)
						if (cf->blocks[b].lines[q].file ==
						    i &&
						    cf->blocks[b].lines[q].line ==
						    lines[k] && bc[c][b] < least)
							least = bc[c][b];
			}
			if (least != UINT64_MAX)
				total += least;
		}
		free(lines);
	}
	return total;
}

int gm_count_absent(const struct lt_gcno *g, const struct gm_ctx *x,
                    int *status, uint64_t **counters, char **why,
                    uint64_t *const *bc)
{
	for (uint32_t k = 0; k < g->n_fns; k++) {
		const struct lt_gcno_fn *fn = &g->fns[k];
		if (status[k] != -1)
			continue;
		uint64_t calls = block_calls(g, x, fn, bc);
		if (!calls)
			continue;
		uint64_t *arc = calloc(fn->n_arcs + 1, sizeof(*arc));
		struct gm_result res = {0};
		if (!arc)
			return LT_ERR_NOMEM;
		int rc = gm_map_entries(x, fn, calls, arc, &res);
		if (rc) {
			free(arc);
			return rc;
		}
		for (uint32_t c = 0; c < fn->n_counters; c++)
			counters[k][c] = arc[fn->counter_arcs[c]];
		free(arc);
		status[k] = GM_INFERRED;
		why[k] = strdup("no code, inline record or line in the binary: "
		                "calls counted from the callers' blocks");
		if (!why[k])
			return LT_ERR_NOMEM;
	}
	return 0;
}
