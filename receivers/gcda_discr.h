/* DWARF discriminators of the gcno blocks (gcda_discr.c), as gcc 12's
 * assign_discriminators gave them when it built the CFG: which block
 * code of one line with a discriminator comes from. Private to
 * receivers/gcda_*.c. The arm rule that uses them is gm_discr_arms
 * (gcda_arms.h). */
#ifndef LTPIPE_GCDA_DISCR_H
#define LTPIPE_GCDA_DISCR_H

#include <stdint.h>

#include "gcda_mapper.h"

/* The discriminator of each block of g's gcno function, replayed on the
 * gcno CFG: blocks in order; for a block whose last listed line is L,
 * each real out-arc in gcno order whose destination's first or last
 * listed line is L gives the destination the next number of L (the
 * source instead when the destination has one and the source none); a
 * block the profiler split after a call (its fake arc, its one real arc
 * into a block entered from it alone) is one block with its rest.
 * Returns 3 * n_blocks entries the caller frees, or NULL without
 * memory: [b] the number (0: none), [n_blocks + b] and
 * [2 * n_blocks + b] the dw file index and line it was given for. */
uint32_t *gm_block_discriminators(const struct gm *g);

/* Does insn `in`, code of the function's own body (g mapped from its
 * body, not copies) on a line with a discriminator, belong elsewhere
 * than block k by the numbers bd (gm_block_discriminators): k has
 * another number for that line and some block has in's? */
int gm_discr_elsewhere(const struct gm *g, const uint32_t *bd, uint32_t k,
                       const struct minsn *in);

/* A block order for alignment (ord[0..n_blocks-2), a permutation of
 * 2..n_blocks-1): gcno order, but two neighbours given numbers of one
 * line (bd) swapped where the later one's code comes first in the
 * machine code (bb-reorder placed the arms of `c ? a : b` the other
 * way round). Returns the number of swaps (0: ord is gcno order). */
int gm_discr_order(const struct gm *g, const uint32_t *bd, uint32_t *ord);

/* After an alignment: does no instruction lie in a block other than
 * its discriminator's (gm_discr_elsewhere)? 1 also without memory. */
int gm_discr_agree(const struct gm *g);

#endif
