/* Mapping a gcno function (gcda_mapper.h), step 5: counters that flow
 * conservation fixes once others are determined.
 *
 * Every block of a gcno CFG, ENTRY and EXIT joined by a virtual arc
 * EXIT -> ENTRY (the function's calls), passes on exactly what it
 * receives, in the instrumented run as in the flow gm_make_flow solved.
 * So when all arcs but one at a block are known (determined by the
 * machine code, or derived here before), the last one is the difference
 * in both: determined as well. Fake arcs count calls that did not return
 * (longjmp, exit) and longjmp landings; they are known to carry nothing
 * only when no call of the function's machine code ran more often than
 * it returned and the function has no setjmp landing arcs; otherwise
 * nothing is derived. The virtual arc is known when the caller knows
 * the function's calls. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Did every call in the function's machine code that ran return
 * exactly as often as it ran (arrivals at the next instruction not made
 * by inner transfers)? More returns than calls are longjmp landings
 * after a setjmp (gcc's abnormal dispatcher block, which has no in-arc,
 * stands for them in the gcno): the call block's fake arc then carries
 * minus their number in the instrumented run, not zero. */
static int calls_all_return(const struct gm *g)
{
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if (!gm_is_call(in))
			continue;
		uint64_t cnt = gc_insn_count(g->x->c, g->x->im, in->addr);
		if (!cnt)
			continue;
		if (!gm_falls_to_next(g, i))
			return 0;
		uint64_t next = gc_insn_count(g->x->c, g->x->im,
		                              g->in[i + 1].addr);
		uint64_t inner = gm_inner_ins(g, i + 1);
		uint64_t ret = next > inner ? next - inner : 0;
		if (cnt != ret)
			return 0;
	}
	return 1;
}

/* The count of arc a in the flow, the virtual arc (index n_arcs) being
 * ENTRY's out-flow. */
static int64_t flow_of(const struct gm *g, uint32_t a)
{
	if (a < g->f->n_arcs)
		return g->arc[a];
	int64_t s = 0;
	for (uint32_t k = 0; k < g->nout[0]; k++)
		s += g->arc[g->outa[0][k]];
	return s;
}

/* One pass over the blocks: marks known[] every arc that is the only
 * unknown one at a block whose other arcs are all known and whose
 * flow balances there. Returns how many it marked. */
static uint32_t close_once(const struct gm *g, uint8_t *known)
{
	const struct lt_gcno_fn *f = g->f;
	uint32_t na = f->n_arcs, marked = 0;
	for (uint32_t b = 0; b < f->n_blocks; b++) {
		long uin = -1, uout = -1;
		int nin = 0, nout = 0;
		int64_t in = 0, out = 0;
		for (uint32_t a = 0; a <= na; a++) {
			uint32_t src = a < na ? f->arcs[a].src : 1;
			uint32_t dst = a < na ? f->arcs[a].dst : 0;
			if (src == b) {
				out += flow_of(g, a);
				if (!known[a]) {
					uout = a;
					nout++;
				}
			}
			if (dst == b) {
				in += flow_of(g, a);
				if (!known[a]) {
					uin = a;
					nin++;
				}
			}
		}
		/* The flow must balance here, or its values prove nothing. */
		if (in != out || nin + nout != 1)
			continue;
		known[nin ? uin : uout] = 1;
		marked++;
	}
	return marked;
}

uint32_t gm_close_determined(const struct gm *g, uint8_t *det,
                             int entry_known)
{
	const struct lt_gcno_fn *f = g->f;
	uint32_t na = f->n_arcs, added = 0;
	for (uint32_t a = 0; a < na; a++)
		if ((f->arcs[a].flags & LT_GCOV_ARC_FAKE) && f->arcs[a].src == 0)
			return 0; /* setjmp landings: not seen as transfers */
	if (!calls_all_return(g))
		return 0;
	uint8_t *known = calloc(na + 1, 1);
	if (!known)
		return 0;
	for (uint32_t a = 0; a < na; a++)
		known[a] = det[a] || ((f->arcs[a].flags & LT_GCOV_ARC_FAKE) &&
		                      g->arc[a] == 0);
	known[na] = entry_known &&
	            flow_of(g, na) == (int64_t)g->entries;
	while (close_once(g, known))
		;
	for (uint32_t a = 0; a < na; a++)
		if (known[a] && !det[a] &&
		    !(f->arcs[a].flags & (LT_GCOV_ARC_ON_TREE |
		                          LT_GCOV_ARC_FAKE))) {
			det[a] = 1;
			added++;
		}
	free(known);
	return added;
}
