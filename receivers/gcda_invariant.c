/* Loop-invariant code gcc moved out of a loop (gcda_mapper.h:
 * gm_invariant_marks). The loop invariant motion pass computes a body
 * statement's invariant part once, before the loop, keeping the
 * statement's line:
 *
 *     tab[x2 & 15u] += (b & 63u) < 27u ? x0 : 2u ^ x2;   (in a loop)
 *     mv s2,s3 ; li s4,26 ; xor s7,t6,2                 (before it)
 *
 * Control enters such code once per entry of the loop, not once per run
 * of the statement, so a line's entries (gcda_estimate.c: code_entries)
 * must not count it. Told by the machine code's cycles: code on no
 * cycle, no test, running straight to no test of its line (the entry
 * copy of a rotated loop's test is on no cycle either, but it is the
 * first run of the test), whose way on enters a cycle holding code of its
 * line (not a completely unrolled loop's copy running into another,
 * inner loop: ringbuf's crc8 over two header bytes) and never writing its
 * register again (not the first iteration's load of a value the loop
 * carries). */
#include <stdlib.h>

#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "ltpipe/insn.h"

/* Successor s (0: fallthrough, 1: direct target) of insn k within the
 * function, or -1. */
static long succ(const struct gm *g, uint32_t k, int s)
{
	const struct minsn *in = &g->in[k];
	if (s == 0)
		return (in->cls == LT_INSN_OTHER || in->cls == LT_INSN_BRANCH ||
		        gm_is_call(in)) && gm_falls_to_next(g, k) ?
		       (long)k + 1 : -1;
	if ((in->cls == LT_INSN_BRANCH ||
	     (in->cls == LT_INSN_JUMP && !gm_is_call(in))) && in->tgt)
		return gm_insn_at(g, in->tgt);
	return -1;
}

/* Per insn: the number (from 1) of the cycle of the machine code it is
 * on (a strongly connected component of two or more instructions, or
 * one jumping to itself), 0 when on none; Tarjan's algorithm without
 * recursion. NULL when out of memory, or when an indirect jump other
 * than a call or return could reach anywhere. */
static uint32_t *cycles(const struct gm *g)
{
	uint32_t m = g->m;
	for (uint32_t k = 0; k < m; k++)
		if (g->in[k].cls == LT_INSN_IJUMP &&
		    g->in[k].link == LT_LINK_NONE)
			return NULL;
	uint32_t *cyc = calloc(m ? m : 1, sizeof(*cyc));
	uint32_t *idx = malloc((m + 1) * sizeof(*idx));
	uint32_t *low = malloc((m + 1) * sizeof(*low));
	uint32_t *stk = malloc((m + 1) * sizeof(*stk));
	uint32_t *call = malloc((m + 1) * sizeof(*call));
	uint8_t *next = calloc(m ? m : 1, 1), *on = calloc(m ? m : 1, 1);
	if (!cyc || !idx || !low || !stk || !call || !next || !on) {
		free(cyc);
		cyc = NULL;
		goto out;
	}
	for (uint32_t k = 0; k < m; k++)
		idx[k] = 0;
	uint32_t counter = 0, ns = 0, ncyc = 0;
	for (uint32_t r = 0; r < m; r++) {
		if (idx[r])
			continue;
		uint32_t nc = 0;
		call[nc++] = r;
		idx[r] = low[r] = ++counter;
		stk[ns++] = r;
		on[r] = 1;
		while (nc) {
			uint32_t v = call[nc - 1];
			if (next[v] < 2) {
				long w = succ(g, v, next[v]++);
				if (w < 0)
					continue;
				if (!idx[w]) {
					idx[w] = low[w] = ++counter;
					stk[ns++] = (uint32_t)w;
					on[w] = 1;
					call[nc++] = (uint32_t)w;
				} else if (on[w] && idx[w] < low[v]) {
					low[v] = idx[w];
				}
				continue;
			}
			nc--;
			if (nc && low[v] < low[call[nc - 1]])
				low[call[nc - 1]] = low[v];
			if (low[v] != idx[v])
				continue;
			uint32_t top = ns, w;
			int self = succ(g, v, 1) == (long)v;
			do {
				w = stk[--ns];
				on[w] = 0;
			} while (w != v);
			if (top - ns > 1 || self)
				ncyc++;
			for (uint32_t k = ns; k < top; k++)
				cyc[stk[k]] = top - ns > 1 || self ? ncyc : 0;
		}
	}
out:
	free(idx);
	free(low);
	free(stk);
	free(call);
	free(next);
	free(on);
	return cyc;
}

/* Does insn j run straight (no transfer taken) to a branch of its own
 * line? */
static int reaches_own_test(const struct gm *g, uint32_t j)
{
	const struct minsn *at = &g->in[j];
	for (uint32_t k = j; k < g->m; k++) {
		const struct minsn *in = &g->in[k];
		if (in->cls == LT_INSN_BRANCH)
			return in->line == at->line && in->file == at->file;
		if (gm_ends_block(in) || !gm_falls_to_next(g, k))
			return 0;
	}
	return 0;
}

/* The cycle control from insn j enters first, following fallthroughs
 * (past tests too: a loop's guard) and plain jumps, or 0. */
static uint32_t entered_cycle(const struct gm *g, const uint32_t *cyc,
                              long j)
{
	for (int steps = 0; j >= 0 && j < (long)g->m && steps < 32; steps++) {
		const struct minsn *in = &g->in[j];
		if (cyc[j])
			return cyc[j];
		if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE)
			j = gm_insn_at(g, in->tgt);
		else if (gm_falls_to_next(g, (uint32_t)j) &&
		         (in->cls == LT_INSN_OTHER ||
		          in->cls == LT_INSN_BRANCH || gm_is_call(in)))
			j++;
		else
			return 0;
	}
	return 0;
}

/* Contract in gcda_mapper.h. */
uint8_t *gm_invariant_marks(const struct gm *g)
{
	uint32_t *cyc = cycles(g);
	if (!cyc)
		return NULL;
	uint8_t *inv = calloc(g->m ? g->m : 1, 1);
	for (uint32_t j = 0; inv && j < g->m; j++) {
		const struct minsn *in = &g->in[j];
		if (cyc[j] || !in->line || in->cls != LT_INSN_OTHER ||
		    reaches_own_test(g, j))
			continue;
		/* The loop it runs into holds code of its line: the
		 * statement it was moved out of (not a completely unrolled
		 * loop's copy running into another loop). */
		uint32_t c = entered_cycle(g, cyc, j);
		uint32_t rd = gm_int_rd(g, in->addr);
		int same = 0, rewritten = 0;
		for (uint32_t k = 0; c && rd && k < g->m; k++) {
			if (cyc[k] != c)
				continue;
			same |= g->in[k].line == in->line &&
				g->in[k].file == in->file &&
				g->in[k].cline == in->cline &&
				g->in[k].cfile == in->cfile;
			/* The loop writes its register again: a value the
			 * loop carries, set up for the first iteration
			 * (ringbuf's `lbu a7,8(sp)`, hdr[0], before the loop
			 * that loads hdr[i + 1]), no invariant. */
			rewritten |= gm_int_rd(g, g->in[k].addr) == rd;
		}
		inv[j] = same && !rewritten;
	}
	free(cyc);
	return inv;
}
