/* State of the gcda receiver (gcda.c) shared with its gcno discovery
 * (gcda_find.c) and report (gcda_report.c). Private to receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_STATE_H
#define LTPIPE_GCDA_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gcda_count.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/gcov.h"
#include "ltpipe/receiver.h"

#define MAX_GCNO 4096

/* One gcno to produce a gcda for. */
struct gfile {
	char *gcno_path;        /* the notes file */
	char *gcda_path;        /* where its gcda goes */
	struct lt_gcno *g;      /* parsed notes */
	uint64_t **arcs;        /* per function: counters (gcda order) */
	int *status;            /* per function: enum gm_status, -1 absent */
	char **why;             /* per function: reason when inferred */
	uint32_t *nexact;       /* per function: counters the machine code
	                           determined */
	uint8_t **det;          /* per function: per counter, 1 when
	                           determined (NULL: none or all) */
	dev_t dev;              /* the notes file's device and inode, */
	ino_t ino;              /* so a file found twice is added once */
};

struct gcda_state {
	const struct lt_session_info *s; /* session */
	struct gc_counts counts;         /* machine counts */
	struct gfile *files;             /* gcno files */
	size_t nfiles;                   /* entries in files */
	char *outdir;                    /* out=DIR, or NULL */
	int merge;                       /* merge=1 */
};

/* Finds the session's .gcno files into t->files: those gcno names (a
 * directory scanned three levels deep, or files separated by ':' or ';'),
 * or when gcno is NULL the directories of the session's ELFs and, when
 * those hold none, the compilation directories (DW_AT_comp_dir) of the
 * ELFs' units, where gcc wrote them. Returns 0, or an error with a
 * message in err (none found, unreadable, malformed). */
int gcda_find_gcno(struct gcda_state *t, const char *gcno, char *err,
                   size_t errlen);

/* gcda_early.c: was the copy of fn at DWARF instance inst put into its
 * caller before the gcno was written (early inlining)? Then the caller's
 * gcno function lists fn's lines and its counters count that copy, not
 * fn's. Returns 1 when so, 0 when not, 2 when maybe: the caller lists
 * fn's lines, but no block lists them with the call's line (which may
 * be the call's own statements beside an early copy's, `switch (f(y))`
 * after the copy's return, or a call kept next to another call's early
 * copy). */
int gcda_early_inlined(const struct gcda_state *t, const struct lt_dwarf *dw,
                       const struct lt_gcno_fn *fn, uint32_t inst);

/* gcda_early.c: per DWARF instance (dw->nfuncs flags; NULL without
 * memory or instances), 1 for a copy inlined late into a function of
 * gcno g at a call that function's gcno kept, even where the caller
 * also holds an early copy of the callee, whose lines it then lists
 * (gcda_late.c); 2 for such a copy inside the early copy of a function
 * with no gcno function, at a call ending a block of its own
 * (nested_call_kept). */
uint8_t *gcda_late_calls(const struct gcda_state *t, const struct lt_gcno *g,
                         const struct lt_dwarf *dw);

/* Writes OUTDIR/gcda-report.txt for the files of t that used marks
 * (gcda_report.c) and the summary line on stderr; incomplete: the trace
 * lost data. A report that cannot be written leaves the message in err;
 * the gcda files stand. */
void gcda_report(struct gcda_state *t, const uint8_t *used, int incomplete,
                 char *err, size_t errlen);

#endif
