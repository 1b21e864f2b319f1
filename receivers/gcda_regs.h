/* Register-level queries of single machine instructions, for the rules
 * that read the data flow around a branch (gcda_moves.c): which integer
 * registers an instruction writes, reads or copies. */
#ifndef LTPIPE_GCDA_REGS_H
#define LTPIPE_GCDA_REGS_H

#include <stdint.h>

#include "gcda_mapper.h"

/* Does the instruction at addr compute (integer arithmetic or logic,
 * not a register copy, a constant, a stack address or a load)? Out of
 * SSA, the value a join receives from an arc is put on its way by
 * copies, constants or reloads, never by a computation. */
int gm_computes(const struct gm *g, uint64_t addr);

/* The registers the conditional branch at addr compares, as an
 * unordered pair (smaller << 5 | larger; x0 for beqz/bnez forms), or
 * 0xffffffff when it cannot be read. */
uint32_t gm_branch_regs(const struct gm *g, uint64_t addr);

/* gcda_moves.c: for an equality test (beq, bne, c.beqz, c.bnez) at
 * addr, the way on which the operands differ: 0 taken, 1 not taken; -1
 * for other branches. */
int gm_unequal_way(const struct gm *g, uint64_t addr);

/* gcda_moves.c: is insn k a copy out of SSA puts on an edge into a join
 * (a register move, a zero-extension, a constant, a reload from the
 * stack: it writes an integer register, computes nothing, fetches
 * nothing from memory but a spilled value, stores nothing)? */
int gm_edge_copy(const struct gm *g, uint32_t k);

/* The integer register the instruction at addr writes (an ALU result,
 * a constant, a load), or 0 (none, x0, a store, a transfer, a float
 * register). */
uint32_t gm_int_rd(const struct gm *g, uint64_t addr);

/* The integer register the instruction at addr updates (reads and
 * writes: `x = x op y`), or 0. */
uint32_t gm_updated_rd(const struct gm *g, uint64_t addr);

/* Does the instruction at addr read integer register reg (a source
 * operand, a base address, a stored value)? No for x0 and for an
 * instruction that cannot be read. */
int gm_reads_reg(const struct gm *g, uint64_t addr, uint32_t reg);

/* gcda_moves.c: for a register copy (mv rd, rs: addi rd, rs, 0 or c.mv)
 * at addr, sets *rs and returns rd; else 0. */
uint32_t gm_reg_move(const struct gm *g, uint64_t addr, uint32_t *rs);

#endif
