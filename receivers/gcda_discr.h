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

/* The block whose code the way from insn t starts with, by its
 * discriminator alone: gcc keeps a block's number on all of its code,
 * whatever the line, so code gcc moved into the block from another line
 * (a load of the next iteration's `*p` that PRE shares with a later
 * test's `p[1]`, on that test's line) still shows the block's number.
 * The way's first instruction (nops and plain jumps followed), code of
 * the function's own body with a discriminator that no block holds for
 * that instruction's line, names the one block (a block split after a
 * call counts once: its first part) holding the number for another
 * line, when later code of the same straight run shows the number on a
 * line that block lists (a number alone may be one the replay could not
 * give the instruction's own line: every line counts from 1). Returns
 * that block, or -1 (no number, one of the line's own, none or several
 * blocks holding it, no code of the block's own line beside it, g
 * mapped from copies). */
long gm_discr_owner(const struct gm *g, const uint32_t *bd, long t);

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
