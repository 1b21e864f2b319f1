/* State of the gcda receiver (gcda.c) shared with its gcno discovery
 * (gcda_find.c) and report (gcda_report.c). Private to receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_STATE_H
#define LTPIPE_GCDA_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gcda_count.h"
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

/* Writes OUTDIR/gcda-report.txt for the files of t that used marks
 * (gcda_report.c) and the summary line on stderr; incomplete: the trace
 * lost data. A report that cannot be written leaves the message in err;
 * the gcda files stand. */
void gcda_report(struct gcda_state *t, const uint8_t *used, int incomplete,
                 char *err, size_t errlen);

#endif
