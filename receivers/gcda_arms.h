/* The arm rules of gcda_pin.c's branch matching: each pairs the ways of
 * one machine conditional branch with the arcs of the gcno condition
 * block it tests, from what the code on the ways does (gcc's placement
 * of copies, sinking, if-conversion, jump tables, loop rotation) when
 * the lines alone cannot tell the arms apart. Each is a rule of how gcc
 * emits code; the caller keeps the guesses soft (lower bounds). */
#ifndef LTPIPE_GCDA_ARMS_H
#define LTPIPE_GCDA_ARMS_H

#include <stdint.h>

#include "gcda_mapper.h"

/* gcda_latch.c: for a branch at insn i that no block matched, on the
 * condition line of two-way gcno block b: when it jumps backward into
 * code of one successor of b only (the body: it leads back to b) and its
 * fallthrough runs code of b's other successor, of blocks after the loop
 * only (reached from that successor without passing b, none of the
 * loop's) or of the branch's own line (a rotated loop's bottom test, the
 * next entry's start merged into an enclosing loop's latch; an enclosing
 * loop's latch test merged with this loop's first test), sets the taken
 * / not-taken arcs *ta / *fa (body / exit) and returns 1; else 0. The
 * loop's first test may be folded away: the caller keeps such pins lower
 * bounds (soft). */
int gm_latch_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_deref.c: for branch i testing a register against zero, matched
 * to triangle block b both ways round, the arcs of its taken (*ta) and
 * fallthrough (*fa) ways when one way reads through the register at once
 * (the arm through b's block that reads n->f) and the other never
 * reaches that read. Returns 1 when set, else 0. */
int gm_deref_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_valtable.c: for branch i matched both ways round to the range
 * check b of a switch gcc turned into a value table (CSWTCH.N; b goes to
 * a block without lines that loads the value and on to the join, or to
 * the join directly), sets its taken (*ta) and fallthrough (*fa) ways
 * when exactly one way reads a register holding the table's address
 * within a few instructions (that way is the arm through the load's
 * block). Returns 1 when set, else 0. */
int gm_table_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_discr.c: for branch i and a block b with two arcs (one that
 * matched it both ways round) whose condition line (its last) is the
 * branch's, sets its taken (*ta) and
 * fallthrough (*fa) ways when each way's straight run shows a
 * discriminator on that line before code of another line or a
 * transfer, the two differ, and they are the numbers
 * gm_block_discriminators (gcda_discr.h) gives b's two destinations
 * for that line (either way round). Returns 1 when set, else 0. */
int gm_discr_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_discr.c: as gm_discr_arms when only one of b's destinations has a
 * number for the branch's line and exactly one way's straight run shows
 * a number, that one (`g = x > 1 ? x / 2 : 1`: the constant arm is a
 * PHI argument, put on the edge, and shows none): that way is the
 * numbered arm. Returns 1 when set, else 0 (a guess: soft pins). */
int gm_discr_one_arm(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                     long *fa);

/* gcda_bodyarms.c: for branch i of an inlined copy (g mapped from
 * copies beside the out-of-line body, g->body) matched both ways round
 * to block b, sets its taken (*ta) and fallthrough (*fa) ways from the
 * body's branch of the line whose ways gm_discr_arms tells: copies carry
 * no discriminators, but each arm runs the same operation in both (the
 * first operation gm_op_key names on each way, on the branch's line,
 * differing between the ways). Returns 1 when set, else 0 (a guess). */
int gm_body_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa);

/* gcda_reach.c: for branch i, none of whose ways starts on its own line,
 * and block b, the one two-way block whose condition the branch's line
 * is, sets its taken (*ta) and fallthrough (*fa) ways when the two ways
 * start on different lines and each line is within a few gcno arcs of
 * one of b's arcs only (not passing b again), a different arc each: a
 * loop's first test whose way in runs a loop-invariant test gcc hoisted
 * there. Returns 1 when set, else 0 (a guess). */
int gm_reach_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_discr.c: the one block whose arms gm_discr_arms pairs with the
 * ways of branch i (several blocks of a `a ? b : c ? d : e` on one line
 * match its lines both ways round); sets *ta / *fa as it does. Returns
 * the block, or -1 when none or several. */
long gm_discr_block(const struct gm *g, uint32_t i, long *ta, long *fa);

/* gcda_discr.c: the lines matched branch i to block `from`, which has
 * no replayed discriminator for the branch's line, while the branch
 * shows one: the gcno block whose replayed number for the line is the
 * branch's (a number names one block: the test's own), when that block
 * is a two-way condition of the line; else -1. Function's own body only
 * (copies carry no numbers). A block the replay numbered, the branch
 * showing another number, is left alone: the numbers were given on the
 * CFG before the early passes, which loop header copying changes. */
long gm_discr_own_block(const struct gm *g, uint32_t i, long from);

/* gcda_named.c: branch i's ways against the arcs of block b, the block
 * its own discriminator names (gm_discr_own_block): sets *ta / *fa when
 * the pairs of a way and a destination that hold (gm_way_dest_is) agree
 * on one way round, and returns 1; else 0. */
int gm_named_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                  long *fa);

/* gcda_named.c: branch i, matched to no block, whose taken way lands
 * just past another test (the branch before its landing falls into it):
 * jump threading sent the way past a test its outcome decides. The one
 * two-way block of i's line with one destination whose condition is on
 * the skipped test's line and the other reached by the fallthrough
 * (gm_way_dest_is): sets *ta / *fa and returns 1; else 0. A guess: the
 * caller keeps the pins soft. */
int gm_threaded_arms(const struct gm *g, uint32_t i, long *ta, long *fa);

/* gcda_named.c: branch i, matched to no block, one of whose ways runs
 * first code of a destination d of a two-way block b of i's line while
 * the other runs code of neither destination but of a destination of
 * b's other successor c, itself a two-way condition: jump threading sent
 * that way past c's test, which b's outcome decided (`if (k == T && !ok(to))
 * ...; if (k == T && from == to) ...`: where the first `k == T` fails, the
 * second's is known). Sets *ta / *fa (the way into d to b's arc to d, the
 * other to b's arc to c), *pa to the arc of c the way passed and *pw to
 * that way (0 taken, 1 not taken) when one block and one way round fit,
 * and returns 1; else 0. A guess: the caller keeps the pins soft. */
int gm_passed_test_arms(const struct gm *g, uint32_t i, long *ta, long *fa,
                        long *pa, int *pw);

/* gcda_named.c: branch i, matched to arc a (its way w: 0 taken, 1 not
 * taken), whose way runs first code of a destination e of a's
 * destination c, itself a two-way condition joining other paths, no
 * loop's head (head[], gm_loop_heads), whose own code the way skips:
 * jump threading sent the way past c's test, whose outcome a path
 * through a decided (two `if ((b & 7) < 3)` in a loop, `if (a > b)`
 * between them). Returns c's arc to e, which the way's runs ran too, or
 * -1. */
long gm_passed_after_arc(const struct gm *g, uint32_t i, uint32_t a, int w,
                         const uint8_t *head);

/* gcda_named.c: per gcno block, 1 where an arc of a depth-first walk
 * from the entry comes back to it (a loop's head: its test's first run,
 * folded into a way in, is gm_folded_first_tests' to count); NULL when
 * out of memory. The caller frees it. */
uint8_t *gm_loop_heads(const struct gm *g);

/* gcda_callarm.c: for branch i matched both ways round to block b (a
 * `c ? x : f(y)` on one line), sets its taken (*ta) and fallthrough
 * (*fa) ways when exactly one of b's destinations makes a call on the
 * branch's line, the other not leading straight into it, and exactly
 * one way calls first thing (a call of that line, or code of a copy
 * inlined late there): that way is the call's arm. Returns 1 when set,
 * else 0. */
int gm_call_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa);

/* gcda_siblings.c: the gcno condition block that the branch at insn i
 * tests when several calls of one function inlined early on one line
 * give several condition blocks its line: the branch's inline instance
 * ranks among its siblings (same callee, same caller instance) by call
 * line and column as the block ranks among those condition blocks. -1
 * when fewer than two blocks have its line as condition, or the copies
 * and blocks do not pair up one to one. */
long gm_sibling_block(const struct gm *g, uint32_t i);

/* When each of those copies holds the same number (more than one) of
 * the condition blocks of the branch's line (`a->t < b->t || (a->t ==
 * b->t && a->seq < b->seq)` inlined early on lines 37 and 38: six blocks
 * on line 13), the first and last of the blocks of the branch's copy
 * (*lo, *hi; the copies' groups in call-site order, each group's first
 * block listing its copy's call line and no earlier group's first block
 * listing it). Returns 1 when set, else 0. */
int gm_sibling_group(const struct gm *g, uint32_t i, uint32_t *lo,
                     uint32_t *hi);

/* gcda_copychain.c: for branch i of such a copy (gm_sibling_group; the
 * branches of its line in the same inlined instance, one per condition
 * block, or one per block for each copy of the chain that jump threading
 * made), the arcs of its taken (*ta) and fallthrough (*fa) ways, pairing
 * the copy's tests with its blocks by how they run into each other: a
 * test no other runs into is the first block's (one per chain), an arc
 * into another block of the copy is the way running straight into that
 * block's test, an arc out of the copy the way landing where a paired
 * test of the chain lands by its way into the same block. Only when
 * every test pairs and every block gets one test per chain. Returns 1
 * when set, else 0. */
int gm_group_arms(const struct gm *g, uint32_t i, long *ta, long *fa);

/* The branch at insn i tests gcno block b of one such copy
 * (gm_sibling_block), and its lines match b both ways round: when one
 * way stays in the copy and the other lands on the next copy's test
 * (its condition block is one of b's destinations), sets the taken /
 * not-taken arcs *ta / *fa and returns 1; else 0. */
int gm_sibling_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                    long *fa);

/* gcda_triangle.c: a branch at insn i that skips one arm of gcno
 * condition block b (matched both ways round by lines), landing where
 * the arm's code leads: sets the taken / not-taken arcs *ta / *fa and
 * returns 1 when the arm's instructions (other than copies) identify
 * b's arc, else returns 0. */
int gm_triangle_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                     long *fa);

/* gcda_triangle.c: a branch at insn i that several condition blocks of
 * its line match, one way running straight code of that line (a
 * computation, no branch) into the other way's landing: gcc made the
 * later tests of an `a && b` chain on the line branch-free (`t += !x &&
 * !y` as one branch on x and a computed y), so the branch is the chain's
 * head h, whose arc into the next condition c is the way that computes,
 * and whose other arc (into a block without lines that is one of c's
 * destinations: the value h decides) the way that skips. Only when the
 * line holds one such pair (h, c). Sets the taken / not-taken arcs *ta /
 * *fa and returns 1, else 0. A guess: a chain whose head gcc made
 * branch-free and whose later test it kept looks alike. */
int gm_chain_head_arms(const struct gm *g, uint32_t i, long *ta, long *fa);

/* gcda_triangle.c: a branch at insn i that several condition blocks of
 * its line match, one of which alone gm_triangle_arms tells (its arm
 * block holds the code one way runs before the other way's landing; the
 * others lead to no such arm): sets that block's taken / not-taken arcs
 * *ta / *fa and returns 1, else 0. `if (a || b) c |= 2;` on one line:
 * the branch skipping `c |= 2` over to the next line is b's test (a's
 * ways lead to b's test and to the arm). A guess. */
int gm_one_triangle_block(const struct gm *g, uint32_t i, long *ta,
                          long *fa);

/* gcda_listedline.c: a branch at insn i on a line that no gcno block
 * ends on and exactly one two-way block b lists (reassoc's merged range
 * tests carry the line of another statement of the chain's first
 * block): when one way starts code that only one of b's destinations
 * lists (not b) and the other runs straight into the next test of the
 * line, that destination being a two-way condition, sets the taken /
 * not-taken arcs *ta / *fa and returns 1, else 0. A guess. */
int gm_listed_line_arms(const struct gm *g, uint32_t i, long *ta, long *fa);

/* gcda_triangle.c: is two-way gcno block b a triangle, one arc (*arm)
 * to a block whose only successor is the other arc's (*direct)
 * destination? Returns 1 and sets both, else 0 (b must have exactly two
 * out-arcs). */
int gm_triangle_split(const struct gm *g, uint32_t b, long *arm,
                      long *direct);

/* gcda_skipped.c: when b is the first test of a two-test chain both of
 * whose ways are pinned (hard[a] >= 0, lower bounds) and the flow ran b
 * more often than the pins add up to, sets bal[a] of b's ways to the pin
 * plus its share of the rest in the pins' proportion (copies of the test
 * jump threading dropped keep its odds) and returns 1; else 0. */
int gm_skipped_share(const struct gm *g, uint32_t b, const int64_t *hard,
                     const int64_t *flow, int64_t *bal);

/* gcda_modsel.c: when gcno block b is a select gcc computed without a
 * branch on a residue (`i % K == c ? x : y`: one arc straight to the
 * join, the other through an empty forwarder, and on b's condition line
 * a rem by a constant K loaded with li and a seqz/snez of the residue),
 * returns K and sets *eq to the arc of the equal way; else 0. A prior
 * for the flow's split (the equal way runs about once in K), no claim. */
uint32_t gm_mod_select(const struct gm *g, uint32_t b, uint32_t *eq);

/* gcda_triangle.c: for branch i matched both ways round to gcno block b
 * of a triangle whose arm block d has no lines (a PHI's edge: b -> d ->
 * j, b -> j), when one way runs computations of an earlier statement
 * (lines none of b, d and j lists: gcc sank them into the one way that
 * uses them) before its first transfer and the other way computes
 * nothing, sets the computing way to the arm through d (*ta / *fa: the
 * taken / not-taken arcs) and returns 1; else 0. A guess from how gcc
 * sinks code, not a proof: the caller keeps such pins soft. */
int gm_sunk_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa);

/* gcda_chain.c: the branch at insn i tests one block of a chain of
 * condition blocks on its line (`a && b && c` of a loop: C1 -> C2 -> C3,
 * each leaving by its other arc to one block): when a run of as many
 * branches of the line, each going on straight to the next, pairs with
 * the chain in order, sets the taken / not-taken arcs *ta / *fa of the
 * branch's block and returns 1; else 0. closed: only when the run's last
 * test leaves where an earlier one leaves (required of the last test
 * always; of every run when no line matched the branch). A chain mixing
 * `&&` and `||` (`a || (b && c)`: its tests leave to two blocks) returns
 * 2, its last test's ways landing where earlier tests leave to, each way
 * at its own block's landing (checked whatever closed says). */
int gm_chain_arms(const struct gm *g, uint32_t i, int closed, long *ta,
                  long *fa);

/* Is one way of the branch at insn i only one or two moves (mv, li) on
 * the branch's own line, after which control goes on where the other way
 * lands, or in a copy of that code up to a return (the return gcc
 * tail-duplicated: `return c ? y : 0;` with the 0 already in the result
 * register, `mv a0,a1; ret` on one way, `ret` on the other)? Those are the copies out-of-SSA puts on an edge into a join,
 * and which arm's edge they sit on, the lines cannot tell: gcc often
 * computes one arm's value before the branch, so that the moves are the
 * other, empty arm's (`n = strlen(s); if (n + 1 > cap) n = cap - 1;` on
 * one line became `s1 = cap - 1; if (cap >= n + 1) s1 = n;`). Not when
 * a move writes a register the branch tests: that register held the
 * tested value, no value set up for the other arm, so the move is its
 * own arm's code (`len ? len : 1`); unless the moves are on the way an
 * equality test fails: on the other way the tested value is known, and
 * gcc folds an arm computed from it to the register already holding it
 * (`x = a != 7 ? y : (a & 15);` leaves `mv x,y` and nothing). */
int gm_edge_copies(const struct gm *g, uint32_t i);

/* gcda_moves.c: does one way of the branch at insn i run only moves or
 * constant loads (at most a few) straight into where the other way
 * lands, all on lines that its condition block b lists? Such a way is
 * the edge copies of an arm that computes nothing, and which gcno arc
 * it is, its lines cannot tell: out of SSA, gcc puts the value a join
 * receives from the arc without a block of its own on that arc's way,
 * under the condition's line, which an arm block of a `?:` on that line
 * lists too (`g[x] > x ? (x - x) : g[x]` inlined: `li a5,0` on the
 * direct arc's way, the loaded g[x] kept on the block's). */
int gm_cond_line_copies(const struct gm *g, uint32_t i, uint32_t b);

/* gcda_moves.c: do both ways of the branch at insn i start with the same
 * move (one instruction, the same encoding) of a line other than the
 * branch's? Then a statement before the test had only copies left (its
 * values known: `b = 13u >> k; a = x2;` in a loop, k and x2 invariant),
 * which gcc put on both edges out of the test: each way runs that
 * statement's line first, which tells neither arm, and the test is one
 * that follows the statement (the next iteration's first test where the
 * loop was rotated), not one before it as that line's block suggests. */
int gm_shared_moves(const struct gm *g, uint32_t i);

/* gcda_moves.c: the branch at insn i tests gcno block b (its lines
 * matched b both ways round, or none matched and b is the one condition
 * of its line), a triangle whose arm block has no lines (a PHI's edge:
 * b -> d -> j, b -> j); its fallthrough runs only edge copies (moves,
 * zero-extensions, constants, reloads from the stack: nothing computed,
 * fetched or stored)
 * up to its target, and the target way none. Out of SSA, gcc gives the
 * arc with a block of its own (d) the value already in place before the
 * test (computed above the branch, or the register an equality test
 * compared) and puts the direct arc's value on its way: sets the
 * copies' way to the direct arc, the empty way to the arm (*ta / *fa:
 * the taken / not-taken arcs) and returns 1 (unless the source's `?:`
 * tells the ways apart: gm_source_arms decides first); else 0. A guess from how
 * gcc places the copies, not a proof: the caller keeps such pins soft. */
int gm_copy_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa);

/* gcda_moves.c: the branch at insn i tests gcno block b, a triangle
 * (b -> arm -> j, b -> j) whose arm block lists lines; one way runs only
 * edge copies, all on one line of the function's own code that no gcno
 * block lists, then rejoins the other way, which runs nothing. Such a
 * line is a statement early optimization folded into a PHI argument
 * (`if (x < 18u) return 113u;` inlined early: the return's block became
 * the constant on the direct arc; gcc keeps the statement's location on
 * the argument, and out of SSA on its copy), which the arm block that
 * stayed cannot hold: sets the copies' way to the direct arc, the other
 * to the arm (*ta / *fa: the taken / not-taken arcs) and returns 1; else
 * 0. A guess from how gcc places the copies: the caller keeps such pins
 * soft. */
int gm_gone_stmt_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                      long *fa);

/* gcda_srcarms.c: for branch i testing two-way gcno block b (matched
 * both ways round, or the one condition of its line), when its line
 * holds one `?:` whose source tells its ways apart: a literal arm whose
 * constant a way delivers (an li among edge copies on the fallthrough,
 * or one loaded before the branch into a register they set: the taken
 * way's value), an equality test (==, !=, a value's truth) that the
 * branch tests as equality too (beq, bne, beqz, bnez), or a relational
 * test whose operands' registers the immediates computing them tell
 * (blt, bge, bltu, bgeu), or a relational test VRP narrowed to the
 * equality the branch tests (gm_narrowed_equal_way), sets the ways to
 * b's arcs: the first is the
 * true way of the test as gcc's front end folded it (arms swapped, test
 * inverted, for `c ? K : e` and `c ? v : e`, e an expression). Sets *ta
 * / *fa (the taken / not-taken arcs) and returns 1; else (no source,
 * several `?`, arms or test the text cannot classify, the readings
 * disagree) 0. A guess: keep such pins soft. */
int gm_source_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                   long *fa);

/* gcda_srcarms.c: branch i tests gcno block b, one way running the
 * instructions arm[n] into the other's landing, on a line holding one
 * `?:` with a literal arm: when an op-imm among them uses that literal
 * (`xori a4,a4,255` for `(c ? s.a : 255u) ^ v`, the other arm's value a
 * constant the join's operation folded away: s.a a zero no store
 * changes), b's arc delivering the literal arm (the arms in the order
 * fold_ternary leaves them); else -1. The code is the join's operation
 * on the literal, kept on that arm's way. */
long gm_literal_arm_arc(const struct gm *g, uint32_t i, uint32_t b,
                        const uint32_t *arm, int n);

/* gcda_hoistarm.c: a branch at insn i matched by its lines to arcs *ta
 * (taken) / *fa (not taken), one of whose arm blocks has code placed
 * above the branch (a line that block lists and neither the other arm's
 * nor the condition's block, which neither way runs: `li a0,0` of
 * `return 0;` in an early copy of `if (t[x] > x) return x; return 0;`,
 * hoisted, so that arm's way runs no code of its own and reads as the
 * arm skipped). The way keeping the register that code set is that
 * arm's, the way overwriting it the other's: when the match says the
 * opposite, swaps *ta / *fa and returns 1 (a guess); else 0. */
int gm_hoisted_arm(const struct gm *g, uint32_t i, long *ta, long *fa);
/* gcda_srcarms.c: when gm_source_arms told branch i's ways by a
 * relational test that VRP narrowed to the equality the branch tests
 * (a range known on the branch's path left one side of the relation),
 * the branch's equal way (0 taken, 1 not taken); else -1. The paths
 * where the earlier test decided the relation (jump threading copied
 * the test there and folded it) are the other side of that range: the
 * relation's outcome there is the equal way's (`a > b` held: `a - b <
 * 0` false, as on a == b). */
int gm_narrowed_equal_way(const struct gm *g, uint32_t i);

/* gcda_moves.c: the branch at insn i matched gcno block b both ways
 * round, a triangle whose arm block d has no lines and other
 * predecessors (b -> d -> j, b -> j, x -> d): when control reaches one
 * of the branch's ways by other transfers too and the other way by this
 * branch only, sets the shared way to the arc into d, the other to the
 * direct arc (*ta / *fa: the taken / not-taken arcs) and returns 1; else
 * 0. Cross-jumping makes one copy of the stub a PHI's block left (its
 * constants, `li a3,3; j latch`) for every way into d, while the direct
 * arc's copies are its own. A guess: the caller keeps such pins soft. */
int gm_stub_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                 long *fa);

/* gcda_restore.c: for branch i with a way of only edge copies
 * (gm_edge_copies) and gcno condition block b of an `if` without else
 * (a triangle: b -> arm -> j, b -> j), when exactly one way's copies put
 * back the register a computation before the branch read (`add a4,a3,a2;
 * bnez c,L; mv a4,a3; L:`: the then-value a3 + k computed early, shared
 * with the condition, the copy restores the unchanged value a3), sets that
 * way to the arc that skips the arm, the other to the arm (*ta / *fa: the
 * taken / not-taken arcs) and returns 1; else 0. A guess from how gcc
 * if-converts, not a proof: the caller keeps such pins soft. */
int gm_restore_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                    long *fa);

/* gcda_duptest.c: the arcs of conditional branch i's duplicate: another
 * branch of g on its line with the same comparison of the same registers
 * (the encoding but for the offset) and the same target, which `lines`
 * matches (every such branch that matches agreeing), neither setting
 * those registers in the straight code before it. cur is the block the
 * lines matched i to, -1 for none: the duplicate then wins only when it
 * names another block and a branch of the line that `lines` matches to
 * cur compares other registers. Sets the taken (*ta) and fallthrough
 * (*fa) arcs and returns 1, else 0. A guess: bounds only. */
int gm_dup_test_arms(const struct gm *g, uint32_t i, gm_line_match_fn lines,
                     long cur, long *ta, long *fa);
/* gcda_phishare.c: for branch i that no rule matched, when a lineless
 * block d with one successor (a PHI argument's block) is entered from two
 * condition blocks (`a ? (b ? v : 1) : (c ? 2 : 1)`, the `1`s one block;
 * `x || y ? i : j`) and one way of i lands where a way of another branch
 * k lands, with the same constants or register copies in every register
 * the edge copies of i's ways write (an edge copy on the way, or the
 * value set above the test), while i's other way delivers other values:
 * that way is the arc into d of the one two-way block whose condition
 * line is i's, that has exactly one arc into such a block, and that is
 * not the block k matched (cp[ncp]: the branches matched so far, as
 * gm_pin_branches records them), which must enter d itself; of several
 * such blocks, the one no other branch matched. Ways of several tests
 * of i's line alike that agree count as one (the first). Sets
 * *ta / *fa (the taken / not-taken arcs) and returns 1; else 0. Out of
 * SSA each machine way into the join delivers its PHI argument itself,
 * so equal values tell the shared argument's ways; a guess (equal
 * values on different arcs also happen): keep such pins soft. */
int gm_phishare_arms(const struct gm *g, uint32_t i,
                     const struct gm_copy *cp, uint32_t ncp, long *ta,
                     long *fa);

/* gcda_tailmerge.c: for branch i of two-way gcno block b whose arcs
 * lead to an arm block and to the join the arm leads to (`if (c) s;`),
 * when one way runs first a line of another block with the same only
 * successor (tail merging kept that block's copy of the statement) on
 * which a statement is written exactly as one on a line the arm lists
 * (or runs first code, no edge copy, on the arm's own line, the join's
 * not), and the other way runs neither the arm's line nor the test's
 * first: that way is the arm's arc. Only the function's own tests. Sets
 * *ta / *fa (the taken / not-taken arcs) and returns 1; else 0. A guess:
 * bounds only. */
int gm_tail_merged_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                        long *fa);

/* gcda_tailmerge.c: the lines whose code a way of some branch of g runs
 * as the arm of another line's condition (what gm_tail_merged_arms
 * matched by the statements' text), up to max of them into fl[] as
 * (file, line); returns how many. That code is entered for other
 * statements too: such a line's entries count none of its own blocks. */
int gm_tail_merged_lines(const struct gm *g, uint32_t (*fl)[2], int max);

#endif
