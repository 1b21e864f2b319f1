/* Private interface of the afdo receiver (afdo.c and its afdo_*.c
 * helpers): the counting tables filled while events stream in, the
 * source-level profile built from them at close, and the three writers.
 *
 * Counting happens on machine addresses only (two hash tables of address
 * pairs, O(1) per event); DWARF is consulted once, at close, for each
 * distinct executed block and call. */
#ifndef LTPIPE_RECEIVERS_AFDO_H
#define LTPIPE_RECEIVERS_AFDO_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/dwarf_lines.h"
#include "ltpipe/image.h"
#include "ltpipe/outfile.h"
#include "ltpipe/symbols.h"

/* One (a, b) -> count entry of an afdo_map. */
struct afdo_pair {
	uint64_t a;     /* first address (block start, or branch source) */
	uint64_t b;     /* second address (block's last insn, or target) */
	uint64_t count; /* executions; 0 marks an empty slot */
};

/* Open-addressing hash table of address pairs with counts. */
struct afdo_map {
	struct afdo_pair *e; /* cap slots */
	size_t cap;          /* power of two, or 0 before the first add */
	size_t n;            /* used slots */
};

/* Adds `n` (> 0) to the count of (a, b). Returns 0 or LT_ERR_NOMEM. */
int afdo_map_add(struct afdo_map *m, uint64_t a, uint64_t b, uint64_t n);

/* qsort order of pairs: by a, then b. */
int afdo_pair_order(const void *pa, const void *pb);

/* Returns the used entries sorted by (a, b) in a new array (*out, *n of
 * them; NULL with n 0 for an empty map), or LT_ERR_NOMEM. */
int afdo_map_sorted(const struct afdo_map *m, struct afdo_pair **out,
                    size_t *n);

/* Frees the table's storage. */
void afdo_map_free(struct afdo_map *m);

/* A call target observed at one source position. */
struct afdo_target {
	uint32_t name;  /* callee name (string index) */
	uint64_t count; /* calls to it from here */
};

/* Count of one source position of a function instance. */
struct afdo_pos {
	uint32_t off;             /* line minus the instance's decl line */
	uint32_t discr;           /* discriminator (0 in gcc mode) */
	uint64_t count;           /* max over the position's instructions (0:
	                             a view position, see afdo_mid.c) */
	uint64_t mid;             /* the count gcc is given (afdo_mid.c) */
	int split;                /* several decisions no count describes
	                             (afdo_mid.c): left out for gcc */
	int icall;                /* an indirect call here reached a function */
	struct afdo_target *tgt;  /* call targets, sorted by name index */
	size_t ntgt;              /* number of targets */
};

/* Which count the gcc writer gives a position (option lines=). */
enum afdo_lines {
	AFDO_LINES_GCC = 0, /* mid, and split lines left out (see afdo_mid.c) */
	AFDO_LINES_MAX = 1, /* count: every line, the maximum (create_gcov's) */
};

struct afdo_inst;

/* Returns 1 if position q is written by the gcc writer under `lines`
 * (enum afdo_lines; afdo_gcov.c). */
int afdo_pos_written(const struct afdo_pos *q, int lines);

/* An inlined call site inside a function instance. */
struct afdo_site {
	uint32_t off;            /* call line minus the caller's decl line */
	uint32_t discr;          /* call discriminator (0 in gcc mode) */
	struct afdo_inst *inst;  /* the inlined callee's instance */
};

/* A function instance: a top-level function or an inlined copy. */
struct afdo_inst {
	uint32_t name;          /* string index of its name */
	uint32_t decl_line;     /* DW_AT_decl_line: base of the offsets */
	uint64_t head;          /* entry count (top level only) */
	uint64_t total;         /* sum of every position count below it */
	struct afdo_pos *pos;   /* positions sorted by (off, discr) */
	size_t npos;            /* number of positions */
	size_t cappos;          /* allocated positions */
	struct afdo_site *site; /* call sites sorted by (off, discr, name) */
	size_t nsite;           /* number of call sites */
	size_t capsite;         /* allocated call sites */
};

/* The source-level profile of one program. */
struct afdo_prof {
	struct afdo_inst **top; /* top-level instances, sorted by name */
	size_t ntop;            /* number of them */
	size_t captop;          /* allocated */
	char **str;             /* string table; str[0] is "" */
	size_t nstr;            /* number of strings */
	size_t capstr;          /* allocated */
	uint32_t *hash;         /* open-addressing index of str (0 = empty,
	                           else string index) */
	size_t caphash;         /* slots in hash (power of two) */
	int discr;              /* keep discriminators (LLVM) or not (gcc) */
};

/* What the profile builder reads. */
struct afdo_input {
	const struct lt_image *img;    /* the program */
	const struct lt_symtab *syms;  /* its function symbols */
	const struct lt_dwarf *dw;     /* its line and inline tables */
	const struct afdo_pair *blk;   /* executed blocks (start, last), sorted */
	size_t nblk;                   /* number of them */
	const struct afdo_pair *br;    /* taken transfers (source, target),
	                                  sorted */
	size_t nbr;                    /* number of them */
	const struct afdo_pair *trap;  /* traps taken (trapping pc, handler),
	                                  sorted */
	size_t ntrap;                  /* number of them */
	uint64_t entry;                /* first executed address, or 0 */
};

/* Builds the profile: every executed instruction with a line and an
 * inline stack adds its count to its position (the maximum over the
 * position's instructions), every call to a function's entry adds to that
 * function's head count and to the call position's targets, and every
 * trap into a function's entry (a signal or interrupt handler) to its
 * head count. `discr`
 * selects whether positions keep discriminators. Returns 0 or
 * LT_ERR_NOMEM (message in err). */
int afdo_prof_build(struct afdo_prof *p, const struct afdo_input *in,
                    int discr, char *err, size_t errlen);

/* Frees a profile. */
void afdo_prof_free(struct afdo_prof *p);

/* Returns a new empty instance of function `name` (string index) whose
 * offsets count from decl_line, or NULL when out of memory. */
struct afdo_inst *afdo_inst_new(uint32_t name, uint32_t decl_line);

/* Frees an instance and everything below it (NULL: nothing). */
void afdo_inst_free(struct afdo_inst *f);

/* Returns the inlined instance of `name` at call site (off, discr) of f,
 * creating it (offsets from decl_line), or NULL when out of memory. */
struct afdo_inst *afdo_site_get(struct afdo_inst *f, uint32_t off,
                                uint32_t discr, uint32_t name,
                                uint32_t decl_line);

/* Returns position (off, discr) of f, creating it with count 0, or NULL
 * when out of memory. Pointers into f's positions move when it grows. */
struct afdo_pos *afdo_pos_get(struct afdo_inst *f, uint32_t off,
                              uint32_t discr);

/* Returns the existing position (off, discr) of f, or NULL. */
struct afdo_pos *afdo_pos_find(struct afdo_inst *f, uint32_t off,
                               uint32_t discr);

/* afdo_mid.c: the records the count written for gcc (a position's mid
 * and split) is computed from, one or more per executed instruction. */
struct afdo_rec;
struct afdo_mids {
	struct afdo_rec *v; /* the records, n of cap used */
	size_t n;           /* records used */
	size_t cap;         /* records allocated (0: none yet) */
};

/* Adds the records of executed instruction ic[i] (of the nic sorted
 * instruction counts) at position (off, discr) of instance f: its own,
 * its line-table statement and view rows', capped where the scheduler
 * hoisted it above a test. Returns 0 or LT_ERR_NOMEM. */
int afdo_mid_record(struct afdo_mids *m, struct afdo_prof *p,
                    const struct afdo_input *in, const struct afdo_pair *ic,
                    size_t nic, size_t i, struct afdo_inst *f, uint32_t off,
                    uint32_t discr);

/* Sets mid and split of every position m's records name (sorting
 * them; img classifies their instructions). */
void afdo_mid_settle(struct afdo_mids *m, const struct lt_image *img);

/* Frees m's records. */
void afdo_mid_free(struct afdo_mids *m);

/* Instances for the offline bodies of functions the program ran only
 * inlined (afdo_offline.c), written for gcc beside the top-level ones. */
struct afdo_offline {
	struct afdo_inst **inst; /* one per such function, sorted by name */
	size_t n;                /* number of them */
	size_t cap;              /* allocated */
};

/* Sets the total of f and of every instance inlined into it: its position
 * counts plus its callees' totals. Returns f's. */
uint64_t afdo_sum_totals(struct afdo_inst *f);

/* Adds n calls of `callee` to the call targets of q (sorted by name
 * index). Returns 0 or LT_ERR_NOMEM. */
int afdo_target_add(struct afdo_pos *q, uint32_t callee, uint64_t n);

/* Returns the index in the name-sorted instances v[0..n) of the one named
 * `name` (*found = 1), or where it would go (*found = 0). */
size_t afdo_inst_find(const struct afdo_prof *p, struct afdo_inst *const *v,
                      size_t n, uint32_t name, int *found);

/* Returns the instance named `name` in the name-sorted vector *v of *n
 * (room for *cap), inserting a new empty one (head 0, decl_line) where it
 * belongs when absent; NULL when out of memory. p's top-level instances
 * and the gcc writer's offline instances are such vectors. */
struct afdo_inst *afdo_inst_get(const struct afdo_prof *p,
                                struct afdo_inst ***v, size_t *n,
                                size_t *cap, uint32_t name,
                                uint32_t decl_line);

/* Fills *o (zeroed by the caller) from p's lines=gcc counts, sorted by
 * name. Returns 0 or LT_ERR_NOMEM (*o then holds what was built: free
 * it). */
int afdo_offline_build(const struct afdo_prof *p, struct afdo_offline *o);

/* Frees what afdo_offline_build made. */
void afdo_offline_free(struct afdo_offline *o);

/* Where an instruction's count goes (afdo_position_of). */
enum afdo_walk_rc {
	AFDO_WALK_OK = 0,   /* *out is the position */
	AFDO_WALK_NONE = 1, /* no DWARF for it, or not representable: skip */
};

/* Finds (creating) the position of the instruction at addr: its inline
 * stack from the root down, then its line. Returns AFDO_WALK_OK with *out
 * and its instance in *inst, AFDO_WALK_NONE, or LT_ERR_NOMEM. */
int afdo_position_of(struct afdo_prof *p, const struct afdo_input *in,
                     uint64_t addr, struct afdo_pos **out,
                     struct afdo_inst **inst);

/* Sets *arm to the smaller count among the outcomes of the conditional
 * branch at addr (run n times) of position (f, off) that run the line's
 * own code (an `if (c) x;` on one line; afdo_tests.c). ic: the sorted
 * instruction counts. Returns 0 or LT_ERR_NOMEM. */
int afdo_branch_arm(struct afdo_prof *p, const struct afdo_input *in,
                    const struct afdo_pair *ic, size_t nic, uint64_t addr,
                    uint64_t n, const struct afdo_inst *f, uint32_t off,
                    uint64_t *arm);

/* Lowers *arm to the count of the outcome of the forward conditional
 * branch at addr (run n times) of position (f, off) that goes straight
 * into its loop's continuation, code of other lines ending in the loop's
 * backward transfer (a `continue`; afdo_continue.c). Returns 0 or
 * LT_ERR_NOMEM. */
int afdo_continue_arm(struct afdo_prof *p, const struct afdo_input *in,
                      const struct afdo_pair *ic, size_t nic, uint64_t addr,
                      uint64_t n, const struct afdo_inst *f, uint32_t off,
                      uint64_t *arm);

/* afdo_pairs.c, lookups in a table of pairs sorted by first address: the
 * index of the first pair whose first address is at least a (n if
 * none). */
size_t afdo_pairs_first(const struct afdo_pair *t, size_t n, uint64_t a);

/* Executions of the instruction at addr (ic: instruction counts), or 0. */
uint64_t afdo_count_at(const struct afdo_pair *ic, size_t nic, uint64_t addr);

/* Times the transfer at addr was taken, to any target (in->br). */
uint64_t afdo_taken_from(const struct afdo_input *in, uint64_t addr);

/* Times the transfer from a to b was taken (in->br), or 0. */
uint64_t afdo_taken_to(const struct afdo_input *in, uint64_t a, uint64_t b);

/* Returns 1 if the instruction at addr is an indirect jump, not a call,
 * every taken transfer of which (in->br, at least one) went into its own
 * function's body, not to its entry: a switch's jump table
 * (afdo_switch.c). */
int afdo_table_jump(const struct afdo_input *in, uint64_t addr);

/* Sets exits[0] to the target of the conditional branch or plain jump at
 * addr (run n times) of position (f, off) and exits[1] to its
 * fall-through, each when it ran and is not code of that position, else
 * 0 (afdo_multiway.c). Returns 0 or LT_ERR_NOMEM. */
int afdo_branch_exits(struct afdo_prof *p, const struct afdo_input *in,
                      uint64_t addr, uint64_t n, const struct afdo_inst *f,
                      uint32_t off, uint64_t exits[2]);

/* afdo_tests.c: the first instruction from addr on (in addr's region)
 * that is a transfer other than a call, or has no length: its info, with
 * *at set to its address; NULL when the region ends first or addr is in
 * none. */
const struct lt_hwinfo *afdo_next_transfer(const struct afdo_input *in,
                                           uint64_t addr, uint64_t *at);

/* The count position (f, off)'s code at addr gets when the scheduler
 * hoisted it above an earlier line's test (afdo_tests.c), else
 * UINT64_MAX; 0 with *rc set on error. */
uint64_t afdo_hoist_cap(struct afdo_prof *p, const struct afdo_input *in,
                        const struct afdo_pair *ic, size_t nic,
                        uint64_t addr, const struct afdo_inst *f,
                        uint32_t off, int *rc);

/* The count of position (f, off)'s code at addr when it is its loop's
 * step moved above the body's last test, the back edge (afdo_step.c):
 * the times that edge was taken; else UINT64_MAX; 0 with *rc set on
 * error. */
uint64_t afdo_step_cap(struct afdo_prof *p, const struct afdo_input *in,
                       uint64_t addr, const struct afdo_inst *f,
                       uint32_t off, int *rc);

/* Returns 1 if the instruction at addr of img links (a call). */
int afdo_is_call(const struct lt_image *img, uint64_t addr);

/* Writes gcc's .afdo: version 2 with byte-length strings when gcc_major
 * >= 12, else version 1 with word-padded strings; `lines` (enum
 * afdo_lines) picks the position counts. */
void afdo_write_gcov(struct lt_out *o, const struct afdo_prof *p,
                     int gcc_major, int lines);

/* Writes LLVM's sample-profile text. */
void afdo_write_llvm(struct lt_out *o, const struct afdo_prof *p);

/* Writes create_gcov's --profiler=text input: the blocks as ranges and the
 * transfers as branches, addresses minus `base` (the first PT_LOAD). */
void afdo_write_text(struct lt_out *o, const struct afdo_pair *blk,
                     size_t nblk, const struct afdo_pair *br, size_t nbr,
                     uint64_t base);

#endif
