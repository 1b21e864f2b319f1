/* The two text outputs of the afdo receiver.
 *
 * create_gcov --profiler=text input (autofdo's TextSampleReaderWriter):
 *   N1, then N1 lines "from-to:count"   inclusive address ranges executed
 *                                       straight through (one per block)
 *   N2, then N2 lines "addr:count"      single samples (none: 0)
 *   N3, then N3 lines "from->to:count"  taken branches
 * Addresses are hex without 0x, relative to the first PT_LOAD's vaddr
 * (autofdo adds it back); counts are decimal.
 *
 * LLVM sample-profile text (SampleProfReader.h):
 *   name:total:head
 *    offset[.discr]: count [callee:n ...]
 *    offset[.discr]: inlined_callee:total
 *     ... the callee's body, one more space of indent per level
 * Offsets are relative to the declaration line of the instance they are
 * in; a discriminator is written only when non-zero. */
#include <inttypes.h>
#include <stdio.h>

#include "afdo.h"


void afdo_write_text(struct lt_out *o, const struct afdo_pair *blk,
                     size_t nblk, const struct afdo_pair *br, size_t nbr,
                     uint64_t base)
{
	lt_out_printf(o, "%zu\n", nblk);
	for (size_t i = 0; i < nblk; i++)
		lt_out_printf(o, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n", blk[i].a - base,
		     blk[i].b - base, blk[i].count);
	lt_out_printf(o, "0\n%zu\n", nbr);
	for (size_t i = 0; i < nbr; i++)
		lt_out_printf(o, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n", br[i].a - base,
		     br[i].b - base, br[i].count);
}

/* Writes "offset[.discr]: " indented by `depth` spaces. */
static void llvm_key(struct lt_out *o, int depth, uint32_t off,
                     uint32_t discr)
{
	lt_out_printf(o, "%*s%" PRIu32, depth, "", off);
	if (discr)
		lt_out_printf(o, ".%" PRIu32, discr);
	lt_out_write(o, ": ", 2);
}

/* Writes the body of instance f at indent `depth`. */
static void llvm_body(struct lt_out *o, const struct afdo_prof *p,
                      const struct afdo_inst *f, int depth)
{
	for (size_t i = 0; i < f->npos; i++) {
		const struct afdo_pos *q = &f->pos[i];
		llvm_key(o, depth, q->off, q->discr);
		lt_out_printf(o, "%" PRIu64, q->count);
		for (size_t k = 0; k < q->ntgt; k++)
			lt_out_printf(o, " %s:%" PRIu64, p->str[q->tgt[k].name],
			     q->tgt[k].count);
		lt_out_write(o, "\n", 1);
	}
	for (size_t i = 0; i < f->nsite; i++) {
		const struct afdo_site *s = &f->site[i];
		if (!s->inst->total)
			continue;
		llvm_key(o, depth, s->off, s->discr);
		lt_out_printf(o, "%s:%" PRIu64 "\n", p->str[s->inst->name],
		     s->inst->total);
		llvm_body(o, p, s->inst, depth + 1);
	}
}

void afdo_write_llvm(struct lt_out *o, const struct afdo_prof *p)
{
	for (size_t i = 0; i < p->ntop; i++) {
		const struct afdo_inst *f = p->top[i];
		if (!f->total && !f->head)
			continue;
		lt_out_printf(o, "%s:%" PRIu64 ":%" PRIu64 "\n", p->str[f->name], f->total,
		     f->head);
		llvm_body(o, p, f, 1);
	}
}
