/* The source text of a `?:` as gcc's front end would fold it (read, not
 * compiled: no preprocessor, no types), for gcda_srcarms.c: its arms'
 * kinds (a literal, a variable's name, an expression of variables, or
 * unknown), its test's kind (equality, a value's truth, relational) and
 * whether fold_ternary swaps its arms. Private to receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_SRCTEXT_H
#define LTPIPE_GCDA_SRCTEXT_H

#include <stddef.h>
#include <stdint.h>

/* What an arm's text is, as far as fold's operand order cares. */
enum gm_arm_kind {
	GM_ARM_UNKNOWN, /* may or may not be a constant (macros, sizeof, ...) */
	GM_ARM_LIT,     /* an integer or character literal: value known */
	GM_ARM_NAME,    /* a variable's name (a DECL to fold) */
	GM_ARM_EXPR,    /* an expression of variables: no constant, no DECL */
};

/* What the test of a `?:` compares, read from its text. */
enum gm_test_kind {
	GM_TEST_UNKNOWN, /* relational, a chain of && / ||, unreadable */
	GM_TEST_EQ,      /* true when its operands are equal (==, !x) */
	GM_TEST_NE,      /* true when they differ (!=, a value's truth) */
	GM_TEST_LT,      /* true when one operand is below the other (<, <=,
	                 >, >=) */
};

/* The test of a `?:`, as its text reads. */
struct gm_test {
	enum gm_test_kind kind;
	int explicit;      /* written as == or != (else a value's truth or
	                      `!x`, compared with zero) */
	int negated;       /* GM_TEST_LT read from `!(a > b)`: as `a <= b`
	                      (the front end's fold), yet still `!x`, a
	                      truth compared with zero, to a branch testing
	                      equality (`!(x > 0u)`: beqz x) */
	int strict;        /* GM_TEST_LT: written < or > (of a negated test,
	                      <= or >= inside the `!( )`) */
	size_t side[2][2]; /* GM_TEST_LT: the text spans [b, e) of the operand
	                      below (0) and the one above (1) when true */
};

/* One arm of a `?:`. */
struct gm_arm {
	enum gm_arm_kind kind;
	uint64_t val;       /* GM_ARM_LIT: the literal's value */
};

/* The one `?:` of a source line. */
struct gm_select {
	char *text;            /* the line (owned) */
	struct gm_arm arm[2];  /* then (0) and else (1) */
	struct gm_test test;   /* its test */
};

/* The source files read so far, each read once with an index of its
 * lines (gcda_srcfiles.c); owned by the caller of the mapping
 * (gcda.c: one per gcno file mapped). */
struct gm_srcfile;
struct gm_srcfiles {
	struct gm_srcfile *f; /* files read, or found unreadable */
	size_t n, cap;
};

void gm_srcfiles_init(struct gm_srcfiles *s);
void gm_srcfiles_fini(struct gm_srcfiles *s);

/* The calls a file's text shows: each identifier followed by `(`
 * outside comments, literals and preprocessor lines, with its line,
 * indexed by name (gcda_callindex.c). */
struct gm_callindex;

/* The index of text[0..n) (NUL-terminated past n, as gm_read_text
 * leaves it), which must outlive it; NULL when out of memory. */
struct gm_callindex *gm_callindex_build(const char *text, size_t n);
void gm_callindex_free(struct gm_callindex *x);

/* The lines of x's calls of `name`, one entry per call in the order of
 * the text, in *lines (malloc'd; the caller frees it); their number (0
 * and *lines NULL when none, or out of memory). */
size_t gm_callindex_lines(const struct gm_callindex *x, const char *name,
                          uint32_t **lines);

/* The lines of the file at path that call `name` (gm_callindex_lines on
 * its text, read and indexed once through s; s NULL: for this query
 * alone); 0 and *lines NULL when it cannot be read. */
size_t gm_source_call_lines(struct gm_srcfiles *s, const char *path,
                            const char *name, uint32_t **lines);

/* The bytes of the file at path, *len of them, followed by two NUL
 * bytes (malloc'd; the caller frees it); NULL when it cannot be read, is
 * larger than 64 MiB or memory runs out. (gcda_srcfiles.c) */
char *gm_read_text(const char *path, size_t *len);

/* Line `line` (1-based) of the file at path, its first max bytes,
 * NUL-terminated (malloc'd; the caller frees it), read through s (NULL:
 * the file is read for this query alone); NULL when the file cannot be
 * read (its sources moved or deleted after the build), has no such line,
 * or memory runs out. A file's last line is the text after its last
 * newline (empty when the file ends in one). */
char *gm_source_line(struct gm_srcfiles *s, const char *path, uint32_t line,
                     size_t max);

/* Reads line `line` of the file at path (through files, which may be
 * NULL: gm_source_line) and the one `?:` on it into *s:
 * 1 when the line has exactly one `?` outside literals and comments, not
 * nested, whose arms end within the line (s->test.kind is
 * GM_TEST_UNKNOWN when the test may begin on an earlier line); else 0.
 * Either way gm_select_fini(s) frees what it holds. */
int gm_select_read(struct gm_srcfiles *files, const char *path,
                   uint32_t line, struct gm_select *s);

void gm_select_fini(struct gm_select *s);

/* Does fold_ternary swap the arms of s (tree_swap_operands_p: constants
 * second, then DECLs second; the test inverted)? 1 yes, 0 no, -1 when
 * the text cannot tell. */
int gm_select_swapped(const struct gm_select *s);

/* Is v a load of arm a's literal (equal, or equal in 32 bits: an
 * unsigned int constant sign-extended)? */
int gm_select_delivers(const struct gm_select *s, int a, uint64_t v);

/* Relational test of s: is side d (0 below, 1 above when true) written
 * as the literal 0? */
int gm_select_side_zero(const struct gm_select *s, int d);

/* Relational test of s: does side d, no literal itself, hold the integer
 * literal v (or -v) among its operands (`x & 31u` holds 31)? */
int gm_select_side_holds(const struct gm_select *s, int d, int64_t v);

/* Relational test of s: does side d read an array element at a
 * variable subscript (`t[x & 15u]`, `a[i] + 1`: a load from a computed
 * address), with no call, dereference or member in its text? */
int gm_select_side_element(const struct gm_select *s, int d);
/* Relational test of s: is side d a name or a literal alone (`x3`)? */
int gm_select_side_plain(const struct gm_select *s, int d);
/* Relational test of s: is side d the literal 0, or an expression with
 * no integer literal in it (`d`, `v[i]`; not `x + 1`, `t[2]`)? Such a
 * side is no constant fold can move (`x < 5` reads `x <= 4` in GIMPLE). */
int gm_select_side_unmoved(const struct gm_select *s, int d);
/* The values of the `case` labels on line `line` of the file at path
 * (read through files, which may be NULL: gm_source_line), into
 * vals[0..max): their number (0 for a line with none), or -1
 * when the line cannot be read or one of its labels is no integer or
 * character literal (a name, a macro, a range `a ... b`). */
int gm_case_labels(struct gm_srcfiles *files, const char *path,
                   uint32_t line, uint64_t *vals, int max);

/* Is the `case` label on line `line` stacked under another label: does
 * the nearest line above it with code (blank and comment lines skipped)
 * end in ':' (`case 2u:` above `case 3u:`, or `default:`)? gcc lists only
 * the first label's line of a stack in the block they start. 1 yes, 0
 * no, -1 when the text cannot tell (unreadable, a block comment, too far
 * up). */
int gm_label_stacked(struct gm_srcfiles *files, const char *path,
                     uint32_t line);

/* The one line in [from, to] (at most 2000 lines read) holding a `case`
 * label of value v (equal, or equal in 32 bits), or -1 (none, several:
 * a nested switch's, or a line the reader cannot tell). */
long gm_case_label_line(struct gm_srcfiles *files, const char *path,
                        uint32_t from, uint32_t to, uint64_t v);

#endif
