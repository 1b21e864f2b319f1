/* The working state of mapping one gcno function (gm_map_function in
 * gcda_map.h) and the steps over it, one file each: gcda_insns.c,
 * gcda_blocks.c, gcda_align.c, gcda_route.c, gcda_pin.c, gcda_moves.c,
 * gcda_estimate.c, gcda_flow.c. Private to receivers/gcda_*.c. The arm
 * rules of branch matching are declared in gcda_arms.h, register queries
 * of single instructions in gcda_regs.h, where a branch's way goes in
 * gcno terms in gcda_waydest.h. */
#ifndef LTPIPE_GCDA_MAPPER_H
#define LTPIPE_GCDA_MAPPER_H

#include <stddef.h>
#include <stdint.h>

#include "gcda_map.h"

/* An alignment whose cost reaches this has a block whose shape
 * contradicts its gcno arcs: the code does not follow the block order. */
#define SHAPE_COST 1000
/* Cost of a block starting where a routed transfer found no arc to it
 * (gm_transfers records those starts in g->avoid). */
#define AVOID_COST 20

/* One instruction of the machine function. */
struct minsn {
	uint64_t addr;   /* its address */
	uint64_t tgt;    /* direct target, or 0 */
	uint32_t file;   /* DWARF file index, LT_DWARF_NO_FILE without line */
	uint32_t line;   /* DWARF line, 0 without */
	uint32_t disc;   /* DWARF discriminator of its row, 0 without */
	uint32_t cfile;  /* file of cline */
	uint32_t cline;  /* line as the gcno function sees it: for code
	                    inlined late (its lines in no gcno block), the
	                    call site's line; else line */
	uint8_t len;     /* length in bytes */
	uint8_t cls;     /* enum lt_insn_class */
	uint8_t link;    /* enum lt_insn_link */
	uint8_t nop;     /* a nop (gcc -O0 emits them for goto locations) */
	uint8_t in_late; /* code of a callee nested in a copy inlined late
	                    whose own lines no gcno block lists (gcda_late.c):
	                    the late copy's function counts it, however
	                    its own line is listed */
};

/* Working state of one function. */
struct gm {
	const struct gm_ctx *x;       /* context */
	const struct lt_gcno_fn *f;   /* the gcno function */
	uint64_t lo, hi;              /* machine range */
	struct minsn *in;             /* instructions: the function's body,
	                                 then its cold parts, each sorted */
	uint32_t m;                   /* number of instructions */
	uint32_t m_body;              /* of those, in the body [lo, hi) */
	uint32_t *bstart, *bend;      /* per gcno block: insn range [s, e) */
	uint32_t *blk;                /* per insn: its gcno block */
	uint32_t **outa;              /* per block: its out-arc indices */
	uint32_t *nout;               /* per block: number of out arcs */
	uint32_t *npred;              /* per block: number of in arcs */
	int64_t *arc;                 /* arc counts (targets) */
	int ambiguous;                /* a transfer had two equal routes */
	int unrouted;                 /* a transfer found no route */
	int mid_exit;                 /* a branch leaves a block before its
	                                 end: code the gcno has once runs
	                                 in two places */
	uint64_t entries;             /* calls of the function */
	const char *why;              /* first reason for inexactness */
	uint64_t *avoid;              /* (block << 32 | insn): block starts a
	                                 transfer could not reach, which the
	                                 next alignment avoids */
	uint32_t navoid;              /* entries in avoid */
	uint32_t avoid_cap;           /* entries allocated */
	uint8_t *gone;                /* per block (-O0, else NULL):
	                                 GM_GONE_TEST, a test gcc may have
	                                 deleted (gcda_deadtest.c), which
	                                 may align to no code or no branch;
	                                 GM_GONE_HUSH, a block of such a
	                                 test's region, which then has no
	                                 code */
	uint8_t *unsure;              /* per arc (-O0, else NULL): on some
	                                 but not all gcno routes of a routed
	                                 transfer */
	int blind;                    /* a transfer had two routes whose
	                                 arcs unsure[] does not mark */
	const struct gm_span *span;   /* the copies g->in holds when mapped
	                                 from copies only, else NULL */
	size_t nspan;                 /* entries in span */
	uint8_t *est_low;             /* per block, or NULL: 1 where the
	                                 block estimate is only a lower
	                                 bound (gm_copy_low) */
	const uint8_t *soft;          /* per arc, for gm_make_flow (may be
	                                 NULL): gm_pin_branches' soft[],
	                                 pins that bound only */
	const struct gm *body;        /* the out-of-line body's gm when g
	                                 maps copies beside it (gm_copy_pins),
	                                 else NULL */
};

/* gcda_insns.c: the machine instructions. */

/* Is i a call (a jump or indirect jump that links)? */
int gm_is_call(const struct minsn *i);

/* Is the instruction at addr of img a store to memory not based on sp
 * (a spill may sit anywhere; a program's own store runs exactly when its
 * statement does: never speculated above the test guarding it)? */
int gm_is_store(const struct lt_image *img, uint64_t addr);

/* The operation of the instruction at addr of img, registers left out:
 * for a register-register integer operation (OP, OP-32 and their
 * compressed forms c.add, c.sub, ...), a floating-point add, sub, mul,
 * div, min or max, or a fused multiply-add, a nonzero key equal for two
 * instructions of one operation; 0 for anything else (moves, loads,
 * immediates, transfers). */
uint32_t gm_op_key(const struct lt_image *img, uint64_t addr);

/* Does the instruction at addr of img grow the stack (addi sp,sp,-N,
 * c.addi16sp sp,-N, sub sp,sp,rs2): a prologue's frame allocation? */
int gm_grows_stack(const struct lt_image *img, uint64_t addr);

/* Does the instruction at addr of img free stack (addi sp,sp,N or
 * c.addi16sp sp,N with N > 0): an epilogue's frame release? */
int gm_frees_stack(const struct lt_image *img, uint64_t addr);

/* Does i end a machine block (a transfer other than a call)? */
int gm_ends_block(const struct minsn *i);

/* Returns the index of the instruction at addr, or -1. */
long gm_insn_at(const struct gm *g, uint64_t addr);

/* Index of the first non-nop instruction at or after i (g->m if none). */
uint32_t gm_skip_nops(const struct gm *g, uint32_t i);

/* Is insn i a conditional branch followed by a plain jump (one gcno
 * block)? */
int gm_branch_then_jump(const struct gm *g, uint32_t i);

/* Decodes the function's own range [g->lo, g->hi) into g->in / g->m,
 * then its parts placed elsewhere cold[ncold] (sets g->m_body). Returns
 * 0 or LT_ERR_NOMEM. */
int gm_load_insns(struct gm *g, const struct gm_span *cold, size_t ncold);

/* Is insn i + 1 the instruction right after insn i in memory (i's
 * fallthrough)? */
int gm_falls_to_next(const struct gm *g, uint32_t i);

/* Decodes every copy span[n] (n > 0), in address order, as if they were
 * one function; g->lo / g->hi become their bounds. Returns 0 or
 * LT_ERR_NOMEM. */
int gm_load_copies(struct gm *g, const struct gm_span *span, size_t n);

/* The image region holding span s's first address, or NULL; sets *hi to
 * the span's end within that region (a region may end before a span). */
const struct lt_region *gm_span_region(const struct gm *g,
                                       const struct gm_span *s, uint64_t *hi);

/* The copy holding insn k when g is mapped from copies only (g->span):
 * the `copy` of the first span holding its address; 0 without spans
 * (the function's own body). */
size_t gm_copy_of(const struct gm *g, uint32_t k);

/* Is insn k code that only an indirect jump reaches (a jump-table
 * target): the instruction before it does not run on into it and no
 * direct jump or branch of the function lands there? */
int gm_indirect_landing(const struct gm *g, uint32_t k);

/* gcda_late.c: instructions of a copy inlined after the profiling pass
 * (none of its own lines in a gcno block) get the call site's line as
 * cfile/cline, at any depth inside it. Returns 0 or LT_ERR_NOMEM. */
int gm_late_copies(struct gm *g);

/* gcda_landing.c: does the jump-table landing at insn t of switch block
 * sb run, before its first transfer (not following jumps: cross-jumped
 * tails keep another case's line), lines of two cases (arcs of sb
 * whose destinations alone list them) in an order no fallthrough gives
 * (the later case's block not reachable from the earlier one's without
 * passing sb): code gcc hoisted or merged from other cases, whose lines
 * do not name the case the landing serves? Or only loads and copies on
 * one case's line, then a jump into another case's code? 1 also
 * without memory. */
int gm_mixed_landing(const struct gm *g, uint32_t sb, long t);

/* gcda_crossjump.c: of the jump-table targets xs[n] of switch block sb,
 * with arcs arcq[n] (-1: none), one landing a few instructions into
 * another target's case (falling through from it) serves the only arc
 * without a target whose case has no code: arcq becomes that arc.
 * Returns 1 when it moved one, else 0. */
int gm_crossjumped_case(const struct gm *g, uint32_t sb,
                        const struct gc_xfer *xs, size_t n, long *arcq);

/* gcda_casetree.c: when conditional branch i is a test of a switch's
 * comparison tree in optimized code with a case's code hoisted above
 * it, adds the executions of its way that serves that case to the case
 * arc's sum[] (a lower bound), marks the arc with bit `unsure` in bad[]
 * and returns 1; else returns 0. */
int gm_case_tree_pins(const struct gm *g, uint32_t i, int64_t *sum,
                      uint8_t *bad, uint8_t unsure);

/* gcda_ifswitch.c: for each gcno block with more than two real arcs (a
 * switch) that gcc made of an if-chain of one variable (the conditions of
 * its line read from the source, one per case arc in order, the
 * default's arc last), when the machine's comparison tree on that line
 * splits the variable's values so that each leaf's values lie within one
 * condition (or none: the default's), adds each arc's leaves'
 * executions to sum[] and marks the arc `unsure` in bad[]; so too the
 * arcs of the chain's first tests gcc kept as two-way blocks before the
 * switch (on its line), and sets tree[k] for each branch k of the tree
 * (g->m flags; those need no matching of their own). Optimized code
 * without a jump table, not inlined copies. Returns 1 when it pinned a
 * switch. */
int gm_if_switch_pins(const struct gm *g, int64_t *sum, uint8_t *bad,
                      uint8_t unsure, uint8_t *tree);

/* gcda_caseval.c: for an equality test i of a switch's comparison tree
 * (no jump table) comparing a register with a constant that a `case`
 * label of the source names, when another test of the line compares the
 * same register with another case's value: adds the equal way's count to
 * sum[] of that case's arc and marks it `unsure` in bad[]. Returns 1 when
 * it did. */
int gm_case_value_pins(const struct gm *g, uint32_t i, int64_t *sum,
                       uint8_t *bad, uint8_t unsure);

/* gcda_invariant.c: per insn, 1 for loop-invariant code gcc moved out of
 * a loop (code on no cycle of the machine code, no test, running straight
 * to no test of its line, whose way on enters a cycle holding code of its
 * line and not writing its register); a line's entries do not count it. Caller frees; NULL when out of memory
 * or when an indirect jump (not a call or return) could reach anywhere. */
uint8_t *gm_invariant_marks(const struct gm *g);

/* gcda_sharedtail.c: per instruction of g (m + 1 flags, NULL when out of
 * memory; the caller frees), 1 where it lies in a shared tail, a run of
 * code that jumps or fallthroughs from code of two or more lines enter
 * and that leaves the function (cross-jumping: one copy of the same
 * epilogue ending several statements) or only sets a join's values and
 * jumps on (one copy of a PHI's stub), and has the line of one of them:
 * the row of one merged statement,
 * whose entries include the others'. */
uint8_t *gm_shared_tail_marks(const struct gm *g);

/* gcda_reenter.c: the index of the instruction at addr; for an addr
 * outside the function's decoded code, the index of its conditional
 * branch on (file, line) that straight code from addr falls into within
 * a few instructions; -1 if none. */
long gm_reentry(const struct gm *g, uint64_t addr, uint32_t file,
                uint32_t line);

/* gcda_reenter.c: the fallthrough of a branch of copy `copy` whose next
 * instruction at `addr` lies outside the function's decoded code: the
 * scheduler put a few of the caller's instructions between the copy's
 * spans (`lw s10,0(s1)` of the caller's line before the arm's `sub`).
 * When straight code from addr (at most MAX_OUTSIDE instructions, no
 * transfer) runs into code of the same copy, control stays in the copy:
 * that instruction's index; else -1 (the way returns to the caller). */
long gm_resume(const struct gm *g, uint64_t addr, size_t copy);

/* The strict matches (gcda_pin.c: match_branch) of one branch by
 * blocks whose condition line is the branch's (gcda_condline.c). */
struct gm_condpick {
	int n;   /* such blocks; 2 once a block whose condition line is
	            unknown matched too */
	long ta; /* the last such block's arc of the taken way, -1 when it
	            matched both ways round */
	long fa; /* its arc of the fallthrough way */
};

/* gcda_condline.c: notes in *p one strict match of branch `in` by block
 * b (out arcs x, y; fw: x taken, y fallthrough; bw: the other way
 * round). */
void gm_cond_note(const struct gm *g, struct gm_condpick *p, uint32_t b,
                  const struct minsn *in, int fw, int bw, uint32_t x,
                  uint32_t y);

/* gcda_condline.c: of several strict matches noted in *p, the one block
 * whose condition line the branch's line is tests it: sets *ta, *fa,
 * *both = -1 and returns 1; else returns 0. */
int gm_cond_pick(const struct gm_condpick *p, long *ta, long *fa,
                 long *both);

/* gcda_latch.c: the only two-way gcno block (no fake arc) whose
 * condition line (its last line, gm_last_line_is) is the line of branch
 * `in`, or -1. */
long gm_only_cond_block(const struct gm *g, const struct minsn *in);

/* gcda_latch.c: for a backward branch at insn i (a rotated loop's bottom
 * test) whose taken way counts for arc ta from a block entered from
 * before the loop too (the loop's test) into a gcno block that only ta
 * enters (a for or while loop's body: every entry passes the test), the
 * times control entered the taken way's code other than by a transfer in
 * the function: falling into it from the code before the loop, the
 * loop's first test gone (its outcome known: `for (i = 0; i < 90; i++)`),
 * or jumping into it from code no copy of the test runs into (the entry's
 * jump over a threaded copy of the bottom test that falls into the body).
 * Each such entry ran arc ta, without a branch. 0 when none. */
uint64_t gm_folded_first_tests(const struct gm *g, uint32_t i, long ta);

/* gcda_philand.c: for a jump-table target at insn t of switch block b
 * whose code has no line row of its own (a few moves, then a plain jump:
 * the constant loads of cases whose statements became PHI arguments),
 * the one arc of b whose way, past blocks without code of their own,
 * reaches the block listing the line the jump lands on; -1 if none or
 * several. */
long gm_phi_landing_arc(const struct gm *g, uint32_t b, long t);

/* gcda_callres.c: when conditional branch i tests a0 right after a call
 * (straight code back to it that writes no a0, entered only by falling
 * through; optimized code), the call's instruction index, else -1. */
long gm_call_result(const struct gm *g, uint32_t i);

/* gcda_callres.c: is gcno block b entered from a call's block: a
 * predecessor with a fake arc (a call that may not return) and one real
 * arc, listing the line of the call at insn `call`? */
int gm_after_call(const struct gm *g, uint32_t b, uint32_t call);

/* gcda_blocks.c: what a gcno block lists. */

/* Does gcno block b list the DWARF (file, line)? */
int gm_block_has_line(const struct gm *g, uint32_t b, uint32_t file,
                      uint32_t line);

/* gcda_casetree.c: the only gcno block with more than two real out-arcs
 * (a switch's) that lists (file, line), or -1 (none, or several). */
long gm_switch_block(const struct gm *g, uint32_t file, uint32_t line);

/* Is (file, line) the last line gcno block b lists? */
int gm_last_line_is(const struct gm *g, uint32_t b, uint32_t file,
                    uint32_t line);

/* Is DWARF (file, line) in the gcno function's own body: the file of its
 * first block's first line, between its declarator and its closing
 * brace? Code there is the function's, not a caller's around an inlined
 * copy nor an inlined callee's, even on a line no block lists. */
int gm_in_own_body(const struct gm *g, uint32_t file, uint32_t line);

/* Number of gcno blocks 2.. listing (file, line); *only gets one of
 * them (the last). */
uint32_t gm_line_blocks(const struct gm *g, uint32_t file, uint32_t line,
                        uint32_t *only);

/* Is (file, line) the condition line of a gcno block from which an arc
 * reaches block head, directly or through up to two more condition
 * blocks (two real out-arcs each): a test that guards head? No memory:
 * no. */
int gm_guards(const struct gm *g, uint32_t file, uint32_t line,
              uint32_t head);

/* Number of out-arcs of block b that are not fake. */
uint32_t gm_n_real_out(const struct gm *g, uint32_t b);

/* Has block b a fake out-arc? */
int gm_has_fake_out(const struct gm *g, uint32_t b);

/* The only real successor of gcno block d, or -1 when d has none or
 * several. */
long gm_only_succ(const struct gm *g, uint32_t d);

/* gcda_callarm.c: is the indirect jump `in` a call in tail position:
 * every target it went to lies outside its own DWARF subprogram? A jump
 * table's targets are labels of the function that dispatches. */
int gm_tail_jump(const struct gm *g, const struct minsn *in);

/* gcda_blocks.c: is gcno block b on a cycle of real arcs (a loop)? 1
 * also when out of memory (the cautious answer). */
int gm_on_cycle(const struct gm *g, uint32_t b);

/* A test of one line (file index of the gcno, line) of a gcno block
 * walked by gm_chain_lines. */
typedef int (*gm_line_test)(const struct gm *g, uint32_t file, uint32_t line,
                            const void *ctx);

/* Does the chain of single real successors from gcno block b reach block
 * d within four blocks, and does every line of the blocks before d pass
 * ok (NULL: no test)? */
int gm_chain_lines(const struct gm *g, uint32_t b, uint32_t d,
                   gm_line_test ok, const void *ctx);

/* gcda_exits.c: may a way straight into a return instruction have run
 * gcno block first (through single successors up to the return block d,
 * whose only successor is s) with the return folding first's value: s
 * leads to EXIT through blocks without lines, and first's lines are all
 * lines of d (the ?: on the return's line), all the line of branch
 * `from` (may be NULL; the ?: a statement of its own before the
 * return) or lines without any instruction (a statement folded into
 * the return whole)? */
int gm_folded_arm(const struct gm *g, uint32_t first, uint32_t d, long s,
                  const struct minsn *from);

/* gcda_exits.c: has none of gcno block b's lines an instruction in the
 * function (a statement gcc folded away whole; a block without lines
 * too)? */
int gm_block_without_code(const struct gm *g, uint32_t b);

/* gcda_merged.c: bad[] |= 1 on the arcs of each condition block that
 * matched branches (nmb[b] > 0, gm_pin_branches) while a condition
 * block chained with it (one of b's ways leads to it, or one of its ways
 * to b, and their other ways meet) matched none (`if (!(x < 18)) if (x <
 * 29 && ...)`): gcc may have merged the two tests into one (a range check
 * `x - 18 <= 10`) on either's line, whose counts are then the pair's,
 * neither's alone. */
void gm_merged_tests(const struct gm *g, const uint32_t *nmb, uint8_t *bad);

/* gcda_chainsum.c: bad[] |= 1 on the arcs of a condition block b2 that
 * matched branches (nmb[b2] > 0) and of the condition block b whose arc p
 * is b2's only way in, both conditions on one line, when b's branches sent
 * p's way (sum[p]) other than the executions of b2's branches (the sum of
 * its arcs' sum[]): one of
 * the two matches is another test's (`while (i < 3 && (b & 1) == 0)` with
 * the second test hoisted above the loop and the first a countdown at its
 * bottom: each branch's ways land where the other condition's do). */
void gm_chain_sums(const struct gm *g, const uint32_t *nmb,
                   const int64_t *sum, uint8_t *bad);

/* gcda_align.c, step 1: partitions the instructions into gcno blocks
 * 2..n-1 in order, or in one of a few orders gcc's passes give (-O0's
 * merged blocks, arms swapped as their discriminators show) (sets
 * g->bstart, g->bend, g->blk). A block starting at an instruction
 * g->avoid names costs AVOID_COST more. Returns the total cost
 * (mismatches, discriminators and shape), or -1 on no memory. */
long gm_align(struct gm *g);

/* Does every conditional branch lie in a block of the alignment that
 * lists its line (or on a line no block lists)? */
int gm_branches_agree(const struct gm *g);

/* Does every block of the alignment that lists lines hold code of a
 * line it lists in each run of its code up to a jump or return that has
 * lines (arms of one shape laid out in another order than the gcno's
 * take each other's place; gcda_align.c)? */
int gm_blocks_agree(const struct gm *g);

/* In an optimized unit, is no arm of a triangle (a block between a
 * two-way branch and the join its other arc reaches directly) given
 * machine code that only copies, loads or sets constants? Out of SSA
 * such code may be the value the join receives from the direct arc,
 * put on the other way of a branch gcc inverted (gcda_triangle.c). */
int gm_triangle_moves_placed(const struct gm *g);

/* In an optimized unit, can the lines tell the arms of every diamond
 * apart (a two-way block whose two ways each pass one block to one
 * join) where one arm has machine code and the other none? gcc may
 * compute either arm's value before the test (a cheap arm of `c ? v :
 * w` on one line), leaving the other one's code alone on its way: arms
 * listing the same lines then give no clue which one that is
 * (gcda_triangle.c). */
int gm_diamond_arms_told(const struct gm *g);

/* gcda_route.c: in an -O0 unit, is insn i the jump of a goto's stub (a
 * plain jump right after a nop, run only by executions that came through
 * the nop)? Transfers landing on the stub are routed to where it goes,
 * the jump itself not at all, so no block needs to start there. */
int gm_stub_jump(const struct gm *g, uint32_t i);

/* gcda_deadtest.c: tests gcc deleted at -O0. */

/* In an -O0 unit, sets GM_GONE_TEST in g->gone[b] for every two-way
 * block b whose test gcc may have deleted: its two ways meet (directly,
 * or through blocks with one way on, or two that meet, whose lines have
 * no instruction but nops and jumps or are lines of b). The alignment
 * decides which of them lost their branch (gm_gone_settle). g->gone
 * stays NULL in optimized units. Returns 0 or LT_ERR_NOMEM. */
int gm_find_gone_tests(struct gm *g);

/* The first block g->gone marks that the alignment gave no branch at
 * its end (empty, or only the code before the test), or 0. */
uint32_t gm_gone_unbranched(const struct gm *g);

/* Marks in g->unsure every arc from a test g->gone marks that the
 * alignment left without a branch (gm_gone_unbranched) up to where its
 * ways meet: which way the executions went is gone from the machine code
 * whatever the routes say (the jump of a `break;` between the test and
 * where the ways meet is one block's, while the executions of both ways
 * ran it). Without memory, or when the ways do not meet, g->blind. */
void gm_gone_unsure(struct gm *g);

#define GM_GONE_TEST 1
#define GM_GONE_HUSH 2

/* After an alignment: clears g->gone[b] for the first candidate b the
 * alignment left without a branch although a block between b and the
 * block where b's ways meet ends in one (gcc deletes a test only once
 * both its ways reach one block with no test left between: that test
 * kept its branch, which the alignment put in the later block of its
 * line), or, when b's region is consistent but blocks of it that are
 * no tests hold code, marks them GM_GONE_HUSH. Returns whether it
 * changed anything (then align again). */
int gm_gone_settle(struct gm *g);

/* For a function whose alignment and routing are sound but some
 * transfers had several gcno routes (g->unsure marks the arcs not on
 * all of them): sets det[a] = 1 on every other arc (and not on a fake
 * arc of a block an unsure arc enters or leaves: its count is what
 * those leave) and returns the number of counters (non-tree arcs)
 * marked. */
uint32_t gm_claim_sure(const struct gm *g, uint8_t *det);

/* gcda_route.c, step 2. */

/* Routes every machine transfer of the aligned function onto g->arc and
 * sets g->entries, g->ambiguous, g->unrouted, g->mid_exit, g->why. */
void gm_transfers(struct gm *g);

/* Executions of direct branches/jumps and indirect jumps inside the
 * function landing at instruction t (not calls). */
uint64_t gm_inner_ins(const struct gm *g, uint32_t t);

/* Does every block but ENTRY and EXIT balance (and no real arc count is
 * negative)? */
int gm_balanced(const struct gm *g);

/* gcda_hoist.c: one executed machine branch matched to a gcno condition
 * block (gm_pin_branches). */
struct gm_copy {
	uint32_t insn;  /* the branch's instruction index */
	uint32_t ta;    /* the arc its taken way counts for */
	uint32_t fa;    /* the arc its not-taken way counts for */
	uint64_t count; /* times it ran */
	uint64_t taken; /* times it was taken */
};

/* Marks bad[] (bit 0) both arcs of every condition block whose copies
 * cp[n] gcc hoisted out of the loop the block is in (a test of values
 * the loop does not change): an arc of the block staying in its
 * innermost natural gcno loop took some executed way of a copy, and no
 * such way comes back to a copy of the block without passing a matched
 * test of a condition outside that loop. No memory: marks nothing. */
void gm_hoisted_tests(const struct gm *g, const struct gm_copy *cp,
                      uint32_t n, uint8_t *bad);

/* gcda_passby.c: marks bad[] (bit 0) the arcs of every condition block
 * d with branches of its own (nmb[d] > 0) that a branch's way passes
 * without them: a matched way into d whose first branch is a copy's of
 * one of d's successors (jump threading knew d's outcome on that way);
 * or a way (of one of the ncp matched branches cp, from its arc's
 * destination; or of the nun executed unmatched branches un, not inlined
 * code, from the successors of its line's two-way blocks) whose first
 * branch is a copy's of a block s that every gcno path from the way's
 * start reaches only through blocks like d (threading skipped a whole
 * condition, and the join after it, to s), d on such a path and in no
 * loop with s. The pins of d's own branches then miss those runs:
 * lower bounds. */
void gm_passed_by(const struct gm *g, const struct gm_copy *cp,
                  uint32_t ncp, const uint32_t *un, uint32_t nun,
                  const uint32_t *nmb, uint8_t *bad);

/* gcda_pin.c, step 2b: pins gcno condition and switch arcs to the
 * machine's branches and jump tables. hard[a] becomes a lower bound of
 * arc a's count, or -1; a branch only one block matches both ways adds
 * its executions to lb[] of that block (zeroed by the caller). soft[a]
 * becomes 1 where hard[a] is only a lower bound (another copy of the
 * condition may hide in a branch that matched nothing). shared[a]
 * becomes 1 where the code a pinning branch or jump goes to for arc a
 * is also reached other ways (a copy of the test the compiler resolved
 * may be missing), so hard[a] may be short. Returns the number of arcs
 * pinned. */
uint32_t gm_pin_branches(const struct gm *g, int64_t *hard, int64_t *lb,
                         uint8_t *soft, uint8_t *shared);
/* soft[a] of a condition some branch matched by shape (gm_shape_match)
 * pins; GM_BAD_SHAPE marks those arcs in gm_pin_branches. */
#define GM_SOFT_SHAPE 2
/* soft[a]: the other way of a test a way passed without a branch
 * (gm_passed_test_arms), pinned at 0: nothing counted it; the flow gives
 * it what the block's runs did not pass by the passed way. */
#define GM_SOFT_UNSEEN 3
#define GM_BAD_SHAPE 4

/* gcda_shape.c: branch matches by the shape of the code, computed on
 * first need. */
struct gm_shape {
	int tried;       /* computed (or out of memory) */
	long (*arcs)[2]; /* per insn: taken / fallthrough arcs or -1, or
	                    NULL */
};

/* A branch's match by its lines (gm_pin_branches' rules): sets *ta / *fa
 * and returns 1 when there is exactly one. */
typedef int (*gm_line_match_fn)(const struct gm *g, uint32_t i, long *ta,
                                long *fa);

/* gcda_landed.c: the two-way condition block of branch i's line that a
 * branch of that line matched by `lines` (to block *from) leads to by the
 * way that runs straight into i, or -1 (none, or branches that
 * disagree). */
long gm_landed_block(const struct gm *g, uint32_t i, gm_line_match_fn lines,
                     long *from);

/* gcda_shape.c: the arcs of conditional branch i of g->in, whose lines
 * leave it unmatched, when the shape of its copy's code tells them:
 * mapping the copy's branches onto two-way gcno blocks whose condition
 * line is theirs (a branch `lines` matches keeps that match) so that
 * each way runs straight into the branch of the block its arc leads to,
 * every such mapping gives branch i the same block, the same way round
 * (the mappings where no condition is passed from the entry first, when
 * there are any). Solved where the branch's line holds one condition
 * (its way round open), nested loops, or a loop whose test is the first
 * every call reaches (every condition alike by the lines).
 * Sets the taken / fallthrough arcs *ta / *fa and returns 1 when so,
 * else 0. Every branch is solved on the first call (kept in *sc, which
 * starts zeroed; gm_shape_free frees it). Bounds only: jump threading
 * breaks the model. */
int gm_shape_match(const struct gm *g, struct gm_shape *sc,
                   gm_line_match_fn lines, uint32_t i, long *ta, long *fa);

/* gcda_shape.c: are loops nested on (file, line): two back edges or
 * more among the blocks listing it or no line? */
int gm_nested_on_line(const struct gm *g, uint32_t file, uint32_t line);

/* Frees what gm_shape_match kept in *sc. */
void gm_shape_free(struct gm_shape *sc);

/* gcda_thread.c: does arc a's way that lands at address `at` (one of
 * the landings lands[nlands] of a's ways) also run as a copy that no
 * branch saw (jump threading or peeling resolved the test on one path
 * into it and gave that path its own copy of the way)? Yes when the
 * way's straight-line code, holding a line of a's destination other
 * than the next test's, runs into a conditional branch, and another
 * executed branch to the same two places is reached by straight-line
 * code that holds every line of the way's; or when code of a line only
 * a's destination lists ran outside the ways (and not right before a
 * test guarding it), setting a register that the ways' code of that
 * line updates from its value before them. Then a's count may exceed
 * its branches' sum. */
int gm_threaded_copy(const struct gm *g, uint32_t a, uint64_t at,
                     const uint64_t *lands, size_t nlands);

/* gcda_thread.c: sets shared[a] to 1 (its count may be more than its
 * branches' sum, as gm_ways_mark_shared) for the arc a of a condition
 * block's copy in cp[n] whose way runs where an executed plain jump
 * goes that lies on the block's condition line, alone after code of
 * another line, on neither way of the copy and not into the test: a
 * copy of the test jump threading resolved (a loop exit `while (--i &&
 * x > 11)` whose second test gcc knew on one path into it), which the
 * twin counts and no branch sees. */
void gm_threaded_jumps(const struct gm *g, const struct gm_copy *cp,
                       uint32_t n, uint8_t *shared);

/* A branch on `in`'s line was found to be the copy of a condition other
 * than the one its lines matched (a test gcc hoisted out of its loop, a
 * block's branches comparing other registers): on a line of several
 * conditions (`i < 8 && a[0] < 9`) it may be any one's, so each one's
 * matched branches may miss copies. Every two-way block whose condition
 * is on that line (and in only[], when not NULL) gets bounds only:
 * bad[] of its arcs is set. */
void gm_soften_line_conds(const struct gm *g, const struct minsn *in,
                          const uint8_t *only, uint8_t *bad);

/* gcda_recurse.c: for a function inlined into itself, after a first
 * flow (gm_make_flow with have_arcs, est and hard; routed holds the arc
 * targets it started from): its calls are those from outside (machine:
 * the entries counted from the machine code and copies elsewhere
 * span[nspan], less the calls of its own entry g->lo made from its body
 * and those copies) plus one per execution of a block calling itself,
 * as the flow counted them (blocks on the function's one line only).
 * When that is more than g->entries, g->entries becomes it and the flow
 * is made again from routed. Returns 0 or LT_ERR_NOMEM. */
int gm_recount_self(struct gm *g, const struct gm_span *span, size_t nspan,
                    const int64_t *est, const int64_t *hard, int have_arcs,
                    uint64_t machine, const int64_t *routed);

/* gcda_recurse.c: for a function inlined into itself whose calls of
 * itself all come from one gcno block (a fake arc to EXIT, on a line
 * calling itself): every call not from outside is one execution of that
 * block, so it runs g->entries less the calls from outside times. Those
 * are the entries of the out-of-line body (own) and of the copies
 * elsewhere span[nspan] not inlined into a copy of the function, less
 * the calls of its entry from its own code. Raises est[] of the block
 * (when it has one: else gm_recount_self counts the calls from the
 * flow's count of it), and of the block its call returns to when entered
 * from it alone, to that. */
void gm_self_block_estimate(const struct gm *g, const struct gm_span *span,
                            size_t nspan, uint64_t own, int64_t *est);

/* gcda_exits.c: pins the fake arcs to EXIT of calls that did not return
 * (longjmp, exit): a call on a line whose blocks include exactly one with
 * a fake arc to EXIT gives that arc (hard[], see gm_pin_branches) a lower
 * bound of its executions minus the returns to the instruction after it
 * (arrivals there that no branch or jump of the function made). Returns
 * the number of arcs pinned. */
uint32_t gm_pin_unreturned(const struct gm *g, int64_t *hard);

/* gcda_exits.c: a lower bound of the function's calls that return, from
 * the branch pins hard[] (gm_pin_branches: lower bounds themselves): the
 * sum over the firm pins (soft[a] == 0: every branch on the condition's
 * lines matched it) of two-way condition blocks' arcs that lead straight
 * on to EXIT (through blocks with one real successor each), each taken
 * once by a call on its way out. */
uint64_t gm_pinned_returns(const struct gm *g, const int64_t *hard,
                           const uint8_t *soft);

/* gcda_pinentry.c: the calls of the function from the branch pins
 * hard[] (gm_pin_branches): the pins on both ways of the first condition
 * every call reaches, less the arrivals at it from inside the function
 * (arcs whose counts the pins give); -1 when the pins do not tell, or
 * when the pins of the arcs into EXIT, all given, count otherwise. */
int64_t gm_pinned_entries(const struct gm *g, const int64_t *hard);

/* gcda_pinentry.c: the calls of the function from the firm pins (hard[]
 * >= 0, soft[] 0 on both ways) of a condition every call passes exactly
 * once: one on every path from ENTRY to EXIT (real arcs) and on no
 * cycle. The most such a condition's ways count; -1 when there is
 * none. */
int64_t gm_once_entries(const struct gm *g, const int64_t *hard,
                        const uint8_t *soft);

/* gcda_estimate.c: counts from lines. */

/* Block estimates est[n_blocks] from anchor lines (-1: no anchor). */
void gm_estimates(const struct gm *g, int64_t *est);

/* Does insn j run straight on (no transfer between) into a conditional
 * branch on a test that guards block head (gm_guards: the condition
 * line of a gcno block with an arc to head, or a few condition blocks
 * before), a branch that does not go back to j (a loop's next test)?
 * Then j was hoisted above the test that guards head (a value every arm
 * needs, or the cheap arm of an if/else computed before the test) and
 * counts the test's executions, not head's. */
int gm_hoisted_above_guard(const struct gm *g, uint32_t j, uint32_t head);

/* gcda_estimate.c: a block whose anchor lines hold a store
 * (gm_is_store) ran as often as its most executed store: its other
 * instructions may have been hoisted above the test guarding the block
 * (an address computed before the branch), which makes them run more
 * often than the block; a store never is (nor run less often: a block is
 * straight-line code). So est[b] becomes st[b] where that is lower
 * (b < nb). st may be NULL. */
void gm_store_caps(const int64_t *st, int64_t *est, uint32_t nb);

/* gcda_copyest.c: adds the counts of the other copies span[n] to est[]
 * and returns their entries; loc[n_blocks] is scratch. */
uint64_t gm_copy_estimates(const struct gm *g, const struct gm_span *span,
                           size_t n, int64_t *est, int64_t *loc);

/* gcda_copypins.c: adds to hard[] / soft[] (gm_pin_branches' output for
 * g's out-of-line body) the pins the branches of the copies span[nspan]
 * give, matched as a function mapped from those copies alone would be.
 * Returns the arcs pinned that the body did not. */
uint32_t gm_copy_pins(const struct gm *g, const struct gm_span *span,
                      size_t nspan, int64_t *hard, uint8_t *soft);

/* gcda_copylow.c: sets low[b] for every block b with an anchor line (one
 * no other block lists) but no estimate of one copy (loc[b] < 0) that
 * lists a line on which the copy span[n] ran code: the copy ran b's
 * other statements, its anchor lines left none, so a summed estimate of
 * b is a lower bound. low may be NULL. */
void gm_copy_low(const struct gm *g, const struct gm_span *span, size_t n,
                 const int64_t *loc, uint8_t *low);

/* Estimates of blocks without one (est[b] < 0) that start a line several
 * blocks list (a condition's first test: the line's other blocks are
 * reached only from blocks of that line, the head from none): the times
 * control entered the line's code from elsewhere, summed over every
 * copy of it in g->in. */
void gm_entry_estimates(const struct gm *g, int64_t *est);

/* Is insn j the function's own code on (file, line) (not code inlined
 * late and seen as its call site's line)? */
int gm_own_line(const struct gm *g, long j, uint32_t file, uint32_t line);

/* gcda_lineloop.c: the body of a loop written on one line (its test and
 * body blocks list the same line) from the machine loop's iterations;
 * only blocks without an estimate (est[b] < 0) take one. */
void gm_line_loop_estimates(const struct gm *g, int64_t *est);

/* gcda_lineloop.c: does every machine loop of (file, line) (an executed
 * backward branch or jump of the line) have a test of the line ahead of
 * it in its copy (an executed branch of the line in no such loop of the
 * copy)? Then the loop's first test was not resolved on entry: the pins
 * of the line's conditions see every execution. */
int gm_line_entry_tested(const struct gm *g, uint32_t file, uint32_t line);

/* Entries of the copies of the function inlined into itself. */
uint64_t gm_self_entries(const struct gm *g);

/* A lower bound of the function's calls where one gcno block is its only
 * real way to EXIT and goes nowhere else (it runs once per call that
 * returns): the times control entered the code of the lines only that
 * block lists, summed over every copy in g->in (the function inlined
 * into itself repeats it); 0 without such a block. Raises that block's
 * estimate est[] to it. */
uint64_t gm_exit_entries(const struct gm *g, int64_t *est);

/* gcda_copyest.c: entries of a copy of the function whose code is
 * span[n] (sorted, disjoint): the arrivals at its instructions from
 * outside it. Returns UINT64_MAX when out of memory. */
uint64_t gm_span_entries(const struct gm *g, const struct gm_span *span,
                         size_t n);

/* gcda_arms.c: estimates of the two arms of a condition written on one
 * line, from the call or inlined copy each runs first; only arms without
 * an estimate (est[b] < 0) take one. */
void gm_arm_estimates(const struct gm *g, int64_t *est);

/* gcda_gotolabel.c: raises the estimate of each computed-goto label's
 * block (a fake arc from ENTRY, the label's line listed first) to the
 * landings of the function's indirect jumps at that line's code. */
void gm_goto_label_estimates(const struct gm *g, int64_t *est);

/* gcda_gotolabel.c: the landings of the function's computed gotos at
 * label blocks (per block added into land[b] unless land is NULL): the
 * flow ENTRY's fake arcs carry in the instrumented run. */
int64_t gm_goto_landings(const struct gm *g, int64_t *land);

/* gcda_gotolabel.c: is b a computed goto's dispatch block (no line, no
 * real out-arc, a fake arc to EXIT)? */
int gm_goto_dispatch(const struct gm *g, uint32_t b);

/* gcda_fortrip.c: after the flow, the body of each loop whose test line
 * is `for (T v = C0; v < C1; v++)` (constant trip count; the body one
 * gcno block whose only way is back to the test) runs trip times the
 * arc entering the test from before the loop; g->arc's cycle test ->
 * body -> test is set so, unless an arc of it is pinned (hard >= 0 and
 * not soft; both may be NULL). gm_for_trip: that trip count of a source
 * line, 0 if the line is no such `for`. */
void gm_fortrip_counts(struct gm *g, const int64_t *hard,
                       const uint8_t *soft);
long gm_for_trip(const char *line);

/* gcda_flow.c, step 3: makes g->arc flow-consistent from arc targets
 * (when have_arcs), block estimates est[] and pinned arcs hard[] (may be
 * NULL), ENTRY's out-flow fixed to g->entries; a block's count that
 * these leave free to take several arcs is split evenly among them; a
 * switch's one way no pin counts takes what its pinned ways did not see.
 * Returns 0 or LT_ERR_NOMEM. */
int gm_make_flow(struct gm *g, int have_arcs, const int64_t *est,
                 const int64_t *hard);

/* gcda_closure.c: counters flow conservation fixes. */

/* Adds to det[] (1 = determined) every counter arc whose count flow
 * conservation fixes from the arcs already in det[] (and fake arcs,
 * when every call of the function returned: none; and the function's
 * calls, g->entries, when entry_known), in g->arc's solved flow.
 * Returns how many it added. */
uint32_t gm_close_determined(const struct gm *g, uint8_t *det,
                             int entry_known);

/* gcda_ways.c: one machine way a pin came from: where a way of a matched
 * branch or jump table lands, how often it went there and the arc it
 * pinned. */
struct gm_way {
	uint64_t at;  /* address control lands at */
	int64_t n;    /* times it went there */
	uint32_t arc; /* the arc it counts for */
};

/* The ways of a function's pins. */
struct gm_ways {
	struct gm_way *w; /* ways recorded */
	size_t len;       /* entries in w */
	size_t cap;       /* entries allocated */
	int failed;       /* an allocation failed: nothing is known */
};

/* Records one way (see struct gm_way); on an allocation failure marks
 * the ways failed instead. */
void gm_way_add(struct gm_ways *w, uint64_t at, int64_t n, uint32_t arc);

/* Marks shared[a] = 1 for every arc a with a way whose landing address
 * runs more often than the recorded ways bring control there: control
 * also arrives there some other way (the path that skips a test the
 * compiler resolved, a jump from an unmatched branch), so the arc's count
 * may be more than its branches' sum; 2 where another arrival only may
 * be one (no claim, and no licence for its siblings to exceed their
 * pins). Every arc when the ways are unknown. Sorts w. Where the other
 * path is seen running the code of an arc's destination block (a jump
 * into its arm's code), raises that block's lb[] to the code's count. */
void gm_ways_mark_shared(const struct gm *g, struct gm_ways *w,
                         uint8_t *shared, int64_t *lb);

/* gm_pin_branches' bad[a] bit for an arc of a switch whose jump-table
 * targets may each serve several arcs (gm_pin_switch); bit 0 marks arcs of
 * a condition an unmatched branch may copy, which a switch block's
 * range check always is. */
#define GM_SWITCH_UNSURE 2

/* gcda_insns.c: does a line-table row (a group of rows) start at addr? */
int gm_row_starts(const struct gm *g, uint64_t addr);

/* gcda_insns.c: is the code at addr under a row it did not start, after
 * code of that row that does not run on into it (a jump, a return)?
 * Code gcc gave no location (a copy placed out of line on an edge:
 * `li a4,255` on the way out of an inlined loop, then a jump back)
 * gets no row and shows the row of whatever the layout put before it,
 * another statement's, even the caller's: its line tells nothing. */
int gm_borrowed_row(const struct gm *g, uint64_t addr);

/* gcda_pinswitch.c: pins the arcs of the switch block whose jump table
 * the indirect jump at insn i reads (contract at its definition). */
int gm_pin_switch(const struct gm *g, uint32_t i, int64_t *sum, uint8_t *bad,
                  struct gm_ways *w);

#endif
