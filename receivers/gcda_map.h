/* Mapping machine execution counts onto one gcno function's CFG: the arc
 * counts an instrumented run would have counted. Private to
 * receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_MAP_H
#define LTPIPE_GCDA_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "gcda_count.h"
#include "gcda_srctext.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/gcov.h"
#include "ltpipe/symbols.h"

/* What the mapper may use. */
struct gm_ctx {
	const struct gc_counts *c;  /* finished machine counts */
	size_t im;                  /* image index in c */
	const struct lt_image *img; /* that image */
	const struct lt_dwarf *dw;  /* its DWARF line tables */
	const uint32_t *filemap;    /* gcno file index -> dw file index, or
	                               LT_DWARF_NO_FILE */
	int optimized;              /* the unit's DWARF producer shows -O1
	                               or more (0: -O0 or unknown) */
	const uint8_t *late_call;   /* per lt_dwarf.func, or NULL: a copy
	                               inlined late at a call its caller's
	                               gcno function kept (gcda.c): 1, or 2
	                               when that call ends a block of its
	                               own (gcda_early.c: nested_call_kept) */
	struct gm_srcfiles *src;    /* the source files read so far, or
	                               NULL (gcda_srctext.h) */
};

/* How a function's counts were obtained. */
enum gm_status {
	GM_ZERO = 0,      /* never executed (or not in the binary): all zero */
	GM_EXACT = 1,     /* every arc from a machine transition, consistent */
	GM_INFERRED = 2,  /* some arcs inferred; flow-consistent */
};

/* Result of mapping one function. */
struct gm_result {
	int status;           /* enum gm_status */
	uint32_t n_exact;     /* exact: every arc; inferred: counters (non-tree
	                         arcs) the machine branches pinned to them
	                         determine (gcda_map.c's determined()) */
	char why[96];         /* for inferred functions: the first reason */
	uint8_t *det;         /* set by the caller: f->n_arcs flags, or
	                         NULL; the mapper sets 1 on every arc
	                         counted in n_exact, 0 elsewhere */
};

/* Code of the function outside its own symbol: an address span of one
 * copy inlined into another function (with whatever was inlined into that
 * copy) or of a clone (f.isra.0, f.constprop.0). The instrumented run
 * counts those copies in f's counters, so they add to f's counts. */
struct gm_span {
	uint64_t lo;    /* first address */
	uint64_t hi;    /* one past the last address */
	uint32_t copy;  /* which copy: spans of one copy share it and are
	                   adjacent in the array */
	uint32_t cold;  /* 1: a part of a clone placed elsewhere (the
	                   clone's f.constprop.0.cold), 0: else */
};

/* Could gcc have found the function whose code is part[0..npart) (its
 * body and cold parts) const or pure, so that the traced build makes
 * fewer calls to it than the instrumented twin counts (gcda_pure.c)? Yes
 * when neither that code nor anything it calls directly (tab's symbols)
 * stores outside its stack frame, traps, touches a CSR, fences or calls
 * through a pointer. */
int gm_may_be_pure(const struct lt_image *img, const struct lt_symtab *tab,
                   const struct gm_span *part, size_t npart);

/* Does every call of fn written in the sources of g (fn's unit, its own
 * body included: gm_file_call_lines) show in the machine code of
 * compilation unit `unit`: a line with code whose direct calls and jumps
 * to fn's start (tab's symbols, clones too) run, together, at least as
 * often as its most executed instruction times the calls written on it?
 * 0 also when a source cannot be read. Only calls in fn's unit can be
 * merged, hoisted or deleted when gcc finds fn pure (gcda_pure.c). */
int gm_calls_all_shown(const struct lt_gcno *g, const struct gm_ctx *x,
                       const struct lt_gcno_fn *fn, uint32_t unit,
                       const struct lt_symtab *tab);

/* Computes the count of every arc of f (arc[f->n_arcs], gcno arc order)
 * from the machine function at [lo, hi) of ctx->img (lo == hi: no
 * out-of-line copy) with its parts placed elsewhere cold[ncold] (f.cold:
 * gcc moves unlikely blocks out of the function's body, so their code
 * counts as the function's own) plus its other copies span[nspan] (when [lo, hi) is
 * empty or never called, the most called whole clone among them stands
 * in for it). Always produces
 * a flow-consistent, non-negative assignment (every block but ENTRY and
 * EXIT has in == out). Other copies are counted from their lines only
 * (per copy, the largest count of a line unique to one gcno block), so a
 * function with executed copies is inferred. res->det is the caller's
 * (see struct gm_result); the rest of *res is overwritten. Returns 0 or
 * LT_ERR_NOMEM. */
int gm_map_function(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                    uint64_t lo, uint64_t hi, const struct gm_span *cold,
                    size_t ncold, const struct gm_span *span, size_t nspan,
                    uint64_t *arc, struct gm_result *res);

/* Maps f from its entry count alone: for a function with no code and no
 * inline record in the binary (gcc inlined it and its debug information
 * lost every trace of the copy) whose callers ran. The arcs are a
 * flow-consistent fill-in of `entries` calls; the function is inferred.
 * Returns 0 or LT_ERR_NOMEM. */
int gm_map_entries(const struct gm_ctx *ctx, const struct lt_gcno_fn *f,
                   uint64_t entries, uint64_t *arc, struct gm_result *res);

/* Does line `line` of the C source at path call `name` and nothing
 * else: is every identifier followed by `(` outside comments and
 * literals that name or a keyword (`if (`, `return (`), at least once?
 * A macro or any other call on the line, or a file that cannot be read,
 * gives 0. (gcda_callindex.c) */
int gm_line_calls_only(const char *path, uint32_t line, const char *name);

/* Can gcno file i of g not be read (moved or deleted after the build; a
 * relative name is taken from g's cwd)? (gcda_callsites.c) */
int gm_gcno_source_unread(const struct lt_gcno *g, uint32_t i);

/* Can a source file of g that has DWARF lines not be read (moved or
 * deleted after the build)? Then the calls its text would show (copies
 * inlined without an inline record, copies deleted or folded whole) are
 * unknown. (gcda_callsites.c) */
int gm_unit_source_unread(const struct lt_gcno *g, const struct gm_ctx *x);

/* The lines of gcno file i that call fn (gm_source_call_lines on the file, a
 * relative name taken from g's cwd), *df its DWARF file; 0 (and *lines
 * NULL) when it has no DWARF lines or cannot be read. The caller frees
 * *lines. (gcda_callsites.c) */
size_t gm_file_call_lines(const struct lt_gcno *g, const struct gm_ctx *x,
                          const struct lt_gcno_fn *fn, uint32_t i,
                          uint32_t *df, uint32_t **lines);

/* Was the call of fn on line `line` of g's source file `file` inlined
 * before the gcno was written (early inlining: the gcno function holding
 * the line lists fn's lines)? (gcda_callsites.c) */
int gm_early_call(const struct lt_gcno *g, const struct lt_gcno_fn *fn,
                  uint32_t file, uint32_t line);

/* Is line of gcno file i inside fn's own body (a recursive call)? */
int gm_own_body_line(const struct lt_gcno *g, const struct lt_gcno_fn *fn,
                     uint32_t i, uint32_t line);

/* Does the DWARF path p name the same file as gcno source s (equal, or
 * one a trailing path of the other)? (gcda.c) */
int gm_same_file(const char *p, const char *s);

/* Did an instance of a function that calls fn (a gcno function of g's
 * sources whose body holds a line calling fn) run in compilation unit
 * `unit` without showing that call: no inlined copy of fn with that
 * call site nested in the instance and no call of fn's code (tab's
 * symbols) from it? gcc deletes an inlined copy whose result is unused
 * and whose code has no effect there, while the instrumented twin's copy
 * counts its arcs. Calls inlined early and recursion are not looked at.
 * (gcda_callsites.c) */
int gm_lost_copies(const struct lt_gcno *g, const struct gm_ctx *x,
                   const struct lt_gcno_fn *fn, uint32_t unit,
                   const struct lt_symtab *tab);

/* Does the code at addr belong to compilation unit `unit` (or is either
 * unknown)? (gcda.c) */
int gm_in_unit(const struct lt_dwarf *dw, uint64_t addr, uint32_t unit);

struct lt_image;
/* Called by gm_elf_syms for one symbol: its name, value, size and ELF
 * type (STT_*). Returns 0 to go on, anything else to stop the walk. */
typedef uint64_t (*gm_elf_sym_fn)(void *user, const char *name,
                                  uint64_t value, uint64_t size, int type);

/* gcda_elfsyms.c: calls `each` for every named symbol of img's ELF
 * symbol tables (the file as loaded, not lt_symtab's selection), in file
 * order, until it returns nonzero. Returns that value, or 0 (no ELF data, none did). */
uint64_t gm_elf_syms(const struct lt_image *img, gm_elf_sym_fn each,
                     void *user);

/* gcda_fold.c: identical code folding. Returns the address of fn's code
 * when it is shared with another of g's functions: fn's kept symbol is
 * tab->sym[si] (si < 0: none kept) and the ELF's .symtab names that
 * address after another of g's functions too, or fn's name is an alias,
 * in `unit`, of code kept under another of g's functions' names; else 0. */
uint64_t gm_folded(const struct lt_image *img, const struct lt_gcno *g,
                   const struct lt_symtab *tab, const struct lt_dwarf *dw,
                   uint32_t unit, const struct lt_gcno_fn *fn, long si);

/* Calls of fn, whose code at addr is folded with other functions': the
 * executions of the direct calls and jumps to addr on the source lines
 * that call fn (gm_file_call_lines, outside fn) in compilation unit `unit`. */
uint64_t gm_folded_calls(const struct lt_gcno *g, const struct gm_ctx *x,
                         const struct lt_gcno_fn *fn, uint32_t unit,
                         uint64_t addr);

/* fn's share (calls of the code's entries) of the folded code at addr,
 * every arc scaled alike (shares of the calls of every function folded there): 1 and arc[] set when the scaled arcs conserve
 * flow, else 0 (gcda_fold.c). */
int gm_folded_share(const struct lt_gcno *g, const struct gm_ctx *x,
                    const struct lt_symtab *tab, const struct lt_gcno_fn *fn,
                    uint32_t unit, uint64_t addr, uint64_t calls,
                    uint64_t *arc);

/* Executions of (DWARF file, line) in compilation unit `unit`
 * (LT_DWARF_NO_FILE: any): the largest count of an instruction the line
 * table gives that line. */
uint64_t gm_line_count(const struct gm_ctx *x, uint32_t file, uint32_t line,
                       uint32_t unit);

/* Is symbol s (NULL: no) the code of the function `name`: the function
 * itself or a clone of it (name.isra.0, name.constprop.0, ...)?
 * (gcda_callsites.c) */
int gm_is_fn_code(const struct lt_sym *s, const char *name);

/* Calls of fn in the running program that its machine code does not
 * show, counted from the source lines calling it in compilation unit
 * `unit` (gcda_callsites.c: with tab NULL every calling line, else only
 * lines whose code shows no call or copy of fn). */
uint64_t gm_source_calls(const struct lt_gcno *g, const struct gm_ctx *x,
                         const struct lt_gcno_fn *fn, uint32_t unit,
                         const struct lt_symtab *tab);

/* Is a call of fn (a source line calling it, outside fn) copied by early
 * inlining into another of g's functions c (c's CFG lists the line, c's
 * own body does not hold it) whose machine code [rng[c][0], rng[c][1])
 * ran but shows nothing of that line: no instruction of it, no copy
 * inlined from it? gcc then folded that copy of the call away after
 * the profiling pass (a constant argument decided it), while the
 * instrumented run counted it in fn: fn's counters are not
 * determined. (gcda_callsites.c) */
int gm_early_copy_lost(const struct lt_gcno *g, const struct gm_ctx *x,
                       const struct lt_gcno_fn *fn, const uint64_t (*rng)[2]);

/* gcda_absent.c: bc[b] = the flow into each block b of fn, whose arcs
 * carry arc[] (all arcs, gcno order). */
void gm_block_flow(const struct lt_gcno_fn *fn, const uint64_t *arc,
                   uint64_t *bc);

/* gcda_absent.c: for every function of g marked absent (status -1: no
 * code, no inline record, no calling line with code), the calls its
 * callers' gcno blocks listing a calling line show (bc[c]: the block
 * flow of function c as mapped, NULL when not mapped); when there are
 * some, their flow-consistent fill-in goes to counters[k] (gcda order),
 * the function becomes inferred with a reason in why[k] (malloc'd).
 * Returns 0 or LT_ERR_NOMEM. */
int gm_count_absent(const struct lt_gcno *g, const struct gm_ctx *x,
                    int *status, uint64_t **counters, char **why,
                    uint64_t *const *bc);

/* Did gcc inline calls early in g's unit, i.e. before the gcno was
 * written (gcda_callsites.c)? There a call the binary folded away was
 * most likely folded before counting too, so gm_source_calls' lines with
 * code but no call are not calls the instrumented run made. */
int gm_unit_inlines_early(const struct lt_gcno *g);

/* Adds (when `add`) `hidden` calls' flow-consistent fill-in to arc[]
 * and makes res inferred with no counter determined: whether the
 * instrumented run made those calls is not certain either way. Returns
 * 0 or LT_ERR_NOMEM. */
int gm_add_hidden(const struct gm_ctx *x, const struct lt_gcno_fn *fn,
                  uint64_t hidden, int add, uint64_t *arc,
                  struct gm_result *res);

/* Is `line` of fn's source file in fn's body: after its declaration
 * line, or on it for a function written on one line? A caller's CFG that
 * lists such a line holds a copy of fn inlined early. */
static inline int gm_in_body(const struct lt_gcno_fn *fn, uint32_t line)
{
	return fn->start_line == fn->end_line ? line == fn->start_line :
	       line > fn->start_line && line <= fn->end_line;
}

#endif
