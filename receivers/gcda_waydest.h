/* Where a way of a machine branch goes, in the gcno's terms
 * (gcda_waydest.c): the line control reaches first from an instruction,
 * whether it leaves the function, and whether a gcno block is that
 * destination. The branch pins (gcda_pin.c, gcda_pinswitch.c) and the
 * rules beside them match a branch's ways to arcs with these. */
#ifndef LTPIPE_GCDA_WAYDEST_H
#define LTPIPE_GCDA_WAYDEST_H

#include "gcda_mapper.h"

/* Does gcno block d go straight to EXIT, or through blocks
 * without lines? (A return block keeps a line though its machine code
 * may be gone: an inlined copy returns by jumping back into its
 * caller.) */
int gm_dest_exits(const struct gm *g, uint32_t d);

/* The instructions a way's straight-line run is followed for (gm_run_lines). */
#define GM_MAX_RUN 12

/* The (file, line) where control arriving at insn t starts running
 * source code: the first insn with a line, following plain jumps (a
 * branch's fallthrough is often a jump to the real successor) and
 * passing code under a borrowed row (gm_borrowed_row). 0 if none
 * within a few steps. */
uint32_t gm_line_at(const struct gm *g, long t, uint32_t *file);

/* does a way of a branch (from) of gcno block cb, landing
 * at insn t (-1: it leaves the function), reach gcno block d as
 * gm_pin_branches' strict line match has it (d starts with the line t
 * runs first, or the way leaves the function as d does)? */
int gm_way_dest_is(const struct gm *g, uint32_t cb, uint32_t d, long t,
                   const struct minsn *from);

/* Has the function's machine code an instruction of (file,
 * line)? */
int gm_line_has_code(const struct gm *g, uint32_t file, uint32_t line);

/* Does gcno block d, or the chain of single real successors
 * from it (a block of a `continue` or `break` keeps its line though the
 * machine code jumps past it), list one of fl[n]? */
int gm_dest_has_any(const struct gm *g, uint32_t d, uint32_t fl[][2], int n);

/* Does control entering gcno block d (a successor of the condition
 * block cb of the branch `from`; cb -1: not known) reach code of (file,
 * line) first? Yes when d lists the line, or d is an empty forwarder (no
 * lines, or only lines passes_through `from`, one real successor) to
 * such a block. */
int gm_dest_has_line(const struct gm *g, uint32_t d, long cb, uint32_t file,
                     uint32_t line, const struct minsn *from);

/* Is the line control reaches first from a jump to insn t
 * (following nops and plain jumps, as line_at) the code's own: does a row
 * start where control lands, or between there and the first instruction
 * that is not a nop? Code that jump threading or cross-jumping left without
 * a row (gcc's constant of a `state = 3;` whose statement became a PHI, a
 * case body shared by several cases) reads as the line of the code laid out
 * before it, which says nothing about the case it serves. */
int gm_lands_on_own_line(const struct gm *g, long t);

/* Lines of the straight-line code control runs first from insn
 * t: up to GM_MAX_RUN instructions, following plain jumps, ending after the
 * first other transfer. A conditional branch on the line of `from` (may be
 * NULL) ends the run before it and adds no line: it is the next test of
 * that condition (a loop rotated onto it), which says nothing about where
 * this way of `from` went in the source. Returns how many (file, line)
 * pairs went to fl[] (GM_MAX_RUN at most). */
int gm_run_lines(const struct gm *g, long t, const struct minsn *from,
                 uint32_t fl[][2]);

/* Does gcno block d list none of fl[n] but a line with machine
 * code of its own: does a run of fl[] lines matched through d's successors
 * (dest_has_any) skip d's code? A jump-table target landing on the join
 * after the switch (a case whose statements gcc deleted) reads as the
 * join's line, which the default's block also leads to: the default's code,
 * elsewhere, did not run there. */
int gm_skips_code(const struct gm *g, uint32_t d, uint32_t fl[][2], int n);

/* Does control at insn t (-1: an address outside the function) leave
 * the function, following plain jumps: a jump out of its code (an inlined
 * copy's return to its caller, a tail call), code on lines of no block
 * (the caller's, around an inlined copy; the function's own return
 * code, unless it is a prologue) or a return? 2 for a return
 * instruction (after the epilogue's restores, if any), 1 for the
 * others, 0 when it stays. */
int gm_way_leaves(const struct gm *g, long t);

/* Does control reach gcno block d first, coming from the branch `from`
 * matched to condition block cb, when the way runs (file, line) first
 * and leaves the function as gm_way_leaves says (out)? With own >= 0
 * (the way's first code belongs to block own by its discriminator,
 * gm_discr_owner), d is that block or leads there through blocks
 * without lines. */
int gm_dest_owned(const struct gm *g, uint32_t cb, uint32_t d, uint32_t file,
                  uint32_t line, int out, const struct minsn *from, long own);

#endif
