/* gcc gcov files: the notes file (.gcno, the compiler's CFG of every
 * instrumented function) and the data file (.gcda, the arc counters), for
 * gcc 11 (lengths in 4-byte words, word-padded strings) and gcc 12-15
 * (lengths in bytes, unpadded strings). The format family is chosen by the
 * version word; the byte order by the magic. See
 * docs/PROFILE-FORMATS.md sections 1 and 2.
 *
 * Every reader bounds-checks everything: a malformed file gives a negative
 * lt_error and a message naming the file, the byte offset and what was
 * expected there, never a crash. */
#ifndef LTPIPE_GCOV_H
#define LTPIPE_GCOV_H

#include <stddef.h>
#include <stdint.h>

#define LT_GCOV_NOTE_MAGIC 0x67636e6fu /* "gcno" */
#define LT_GCOV_DATA_MAGIC 0x67636461u /* "gcda" */

#define LT_GCOV_TAG_FUNCTION 0x01000000u
#define LT_GCOV_TAG_BLOCKS 0x01410000u
#define LT_GCOV_TAG_ARCS 0x01430000u
#define LT_GCOV_TAG_LINES 0x01450000u
#define LT_GCOV_TAG_CONDS 0x01470000u  /* gcc 14 -fcondition-coverage */
#define LT_GCOV_TAG_OBJECT_SUMMARY 0xa1000000u
#define LT_GCOV_TAG_COUNTER_BASE 0x01a10000u
#define LT_GCOV_TAG_FOR_COUNTER(k) \
	(LT_GCOV_TAG_COUNTER_BASE + ((uint32_t)(k) << 17))
/* Counter kinds 0..LT_GCOV_MAX_COUNTERS-1 are recognised in a gcda. */
#define LT_GCOV_MAX_COUNTERS 16

/* Counter kinds (gcov-counter.def order; gcc 14 appends CONDITIONS). */
enum lt_gcov_counter {
	LT_GCOV_CTR_ARCS = 0,          /* arc execution counts: add */
	LT_GCOV_CTR_INTERVAL = 1,      /* value histogram: add */
	LT_GCOV_CTR_POW2 = 2,          /* value histogram: add */
	LT_GCOV_CTR_TOPN = 3,          /* most common values: topn merge */
	LT_GCOV_CTR_INDIRECT_CALL = 4, /* indirect call targets: topn merge */
	LT_GCOV_CTR_AVERAGE = 5,       /* sum and count: add */
	LT_GCOV_CTR_IOR = 6,           /* bitwise or of values */
	LT_GCOV_CTR_TIME_PROFILER = 7, /* first-execution order: min non-zero */
	LT_GCOV_CTR_CONDITIONS = 8,    /* gcc 14 condition bitsets: ior */
};

/* Arc flags in a gcno ARCS record. */
#define LT_GCOV_ARC_ON_TREE 1u     /* on the spanning tree: no counter */
#define LT_GCOV_ARC_FAKE 2u        /* call -> EXIT, ENTRY -> setjmp target */
#define LT_GCOV_ARC_FALLTHROUGH 4u /* falls through to the next block */

/* Marks an arc on the spanning tree in lt_gcno_arc.counter. */
#define LT_GCNO_NO_COUNTER UINT32_MAX

/* How a gcov file is encoded, decided by its magic and version word. */
struct lt_gcov_format {
	uint32_t version;     /* version word: 0x4232322a "B22*" is 12.2 */
	unsigned major;       /* gcc major version from the version word */
	unsigned minor;       /* gcc minor version from the version word */
	int byte_lengths;     /* gcc >= 12: byte lengths, unpadded strings */
	int big_endian;       /* words are big-endian in the file */
};

/* One source line a gcno block belongs to. */
struct lt_gcno_line {
	uint32_t file;        /* index into lt_gcno.files */
	uint32_t line;        /* 1-based line number */
};

/* One basic block of a gcno function (0 = ENTRY, 1 = EXIT). */
struct lt_gcno_block {
	uint32_t n_lines;            /* entries in lines */
	struct lt_gcno_line *lines;  /* its lines, in LINES record order */
};

/* One CFG arc, in gcno file order. */
struct lt_gcno_arc {
	uint32_t src;         /* source block index */
	uint32_t dst;         /* destination block index */
	uint32_t flags;       /* LT_GCOV_ARC_* bits as stored */
	uint32_t counter;     /* ARCS counter index, or LT_GCNO_NO_COUNTER */
};

/* One decision of gcc 14 -fcondition-coverage (CONDS record). */
struct lt_gcno_cond {
	uint32_t block;       /* index of the expression's first block */
	uint32_t n_terms;     /* number of terms in the expression */
};

/* One FUNCTION of a gcno with its CFG. */
struct lt_gcno_fn {
	uint32_t ident;            /* profile id; gcda functions match on it */
	uint32_t lineno_checksum;  /* checksum of file, name and line */
	uint32_t cfg_checksum;     /* checksum of the CFG shape */
	char *name;                /* assembler (mangled) name */
	uint32_t artificial;       /* compiler-generated function */
	char *source;              /* source file name as gcc saw it */
	uint32_t start_line;       /* line of the declarator */
	uint32_t start_col;        /* column of the declarator */
	uint32_t end_line;         /* line of the closing brace */
	uint32_t end_col;          /* column of the closing brace */
	size_t offset;             /* file offset of the FUNCTION record */
	int has_blocks;            /* a BLOCKS record was seen */
	uint32_t n_blocks;         /* basic blocks, ENTRY and EXIT included */
	struct lt_gcno_block *blocks; /* n_blocks blocks */
	uint32_t n_arcs;           /* arcs in file order */
	struct lt_gcno_arc *arcs;  /* n_arcs arcs */
	uint32_t n_counters;       /* non-tree arcs = ARCS counters in a gcda */
	uint32_t *counter_arcs;    /* arc index of each counter, in order */
	uint32_t n_conds;          /* decisions (gcc 14 CONDS) */
	struct lt_gcno_cond *conds; /* n_conds decisions */
};

/* A parsed .gcno file. */
struct lt_gcno {
	char *path;                /* name used in messages */
	struct lt_gcov_format fmt; /* encoding and gcc version */
	uint32_t stamp;            /* compile stamp; the gcda must copy it */
	uint32_t checksum;         /* gcc >= 12 header word (0 in practice) */
	char *cwd;                 /* compiler's working directory */
	uint32_t has_unexecuted_blocks; /* header flag (1 except for Ada) */
	uint32_t n_fns;            /* functions in file order */
	struct lt_gcno_fn *fns;    /* n_fns functions */
	uint32_t n_files;          /* distinct source file names in LINES */
	char **files;              /* n_files names, first-seen order */
};

/* One counter record of a gcda function. */
struct lt_gcda_ctr {
	uint32_t kind;        /* counter kind k: tag = 0x01a10000 + (k << 17) */
	uint32_t n;           /* number of 64-bit counters */
	int all_zero;         /* stored in the negative-length form (no data) */
	int64_t *values;      /* n values; NULL when all_zero or n == 0 */
};

/* One FUNCTION of a gcda with its counter records. */
struct lt_gcda_fn {
	int placeholder;           /* FUNCTION record of length 0: not here */
	uint32_t ident;            /* profile id */
	uint32_t lineno_checksum;  /* must equal the gcno's */
	uint32_t cfg_checksum;     /* must equal the gcno's */
	uint32_t n_ctrs;           /* counter records, ascending kind */
	struct lt_gcda_ctr *ctrs;  /* n_ctrs records */
};

/* A parsed (or to be written) .gcda file. */
struct lt_gcda {
	struct lt_gcov_format fmt; /* encoding and gcc version */
	uint32_t stamp;            /* must equal the gcno stamp */
	uint32_t checksum;         /* object checksum (gcc >= 12 only) */
	int has_summary;           /* an OBJECT_SUMMARY record was present */
	uint32_t runs;             /* summary: number of program runs */
	uint32_t sum_max;          /* summary: sum over runs of the largest
	                              ARCS counter of the program (mod 2^32) */
	uint32_t n_fns;            /* functions in file order */
	struct lt_gcda_fn *fns;    /* n_fns functions */
};

/* Decodes a version word ("B22*" = gcc 12.2) into fmt (major, minor,
 * byte_lengths; big_endian is left alone). Returns 0, or LT_ERR_BAD_FORMAT
 * when the word is not a gcc 11..15 version. */
int lt_gcov_decode_version(uint32_t version, struct lt_gcov_format *fmt);

/* gcc's crc32_unsigned: folds the 32-bit value, most significant byte
 * first, into crc (MSB-first CRC-32, polynomial 0x04c11db7, no inversion). */
uint32_t lt_gcov_crc32_unsigned(uint32_t crc, uint32_t value);

/* Parses a gcno image of len bytes. name is used in messages. On success
 * returns 0 and *out (free with lt_gcno_free); on failure a negative
 * lt_error (LT_ERR_BAD_FORMAT for malformed input, LT_ERR_NOMEM) with a
 * message in err naming the file, the byte offset and what was expected. */
int lt_gcno_parse(const void *buf, size_t len, const char *name,
                  struct lt_gcno **out, char *err, size_t errlen);

/* Reads and parses the gcno at path, as lt_gcno_parse (LT_ERR_IO when the
 * file cannot be read). */
int lt_gcno_read_file(const char *path, struct lt_gcno **out, char *err,
                      size_t errlen);

/* Frees a gcno from lt_gcno_parse (NULL is fine). */
void lt_gcno_free(struct lt_gcno *g);

/* The object checksum libgcov writes into the gcda header (gcc >= 12):
 * lt_gcov_crc32_unsigned chained from 0 over ident, lineno_checksum and
 * cfg_checksum of every function in gcno order. */
uint32_t lt_gcno_object_checksum(const struct lt_gcno *g);

/* Returns the index of the function with this ident, or -1. */
long lt_gcno_find_ident(const struct lt_gcno *g, uint32_t ident);

/* Parses a gcda image of len bytes, as lt_gcno_parse. Counter records of
 * every kind are kept, including the negative-length all-zero form. */
int lt_gcda_parse(const void *buf, size_t len, const char *name,
                  struct lt_gcda **out, char *err, size_t errlen);

/* Reads and parses the gcda at path (LT_ERR_IO when unreadable). */
int lt_gcda_read_file(const char *path, struct lt_gcda **out, char *err,
                      size_t errlen);

/* Frees a gcda (NULL is fine). */
void lt_gcda_free(struct lt_gcda *d);

/* Returns counter i of c (0 for the all-zero form). i < c->n. */
static inline int64_t lt_gcda_ctr_value(const struct lt_gcda_ctr *c,
                                        uint32_t i)
{
	return c->values ? c->values[i] : 0;
}

/* Returns the ARCS counter record of f, or NULL if it has none. */
const struct lt_gcda_ctr *lt_gcda_fn_arcs(const struct lt_gcda_fn *f);

/* Largest ARCS counter over every function of the gcno's counters (arcs[i]
 * has g->fns[i].n_counters values; a NULL arcs[i] means all zero). This is
 * one object's share of libgcov's run_max; a program's run_max is the
 * maximum of it over every object linked into the program. */
uint64_t lt_gcda_arcs_max(const struct lt_gcno *g,
                          const uint64_t *const *arcs);

/* Builds the gcda a libgcov run would write for the gcno: version, stamp
 * and byte order copied, object checksum computed, summary runs = 1 and
 * sum_max = run_max (truncated to 32 bits as libgcov writes it), one
 * FUNCTION and one ARCS record per function, in gcno order. arcs[i] holds
 * g->fns[i].n_counters values in gcno non-tree arc order (NULL: all zero).
 * Returns 0 and *out, or LT_ERR_NOMEM. */
int lt_gcda_from_gcno(const struct lt_gcno *g, const uint64_t *const *arcs,
                      uint64_t run_max, struct lt_gcda **out, char *err,
                      size_t errlen);

/* Checks that d holds counters for g exactly as gcov would require: same
 * stamp, every non-placeholder function's ident known to g with equal
 * checksums and an ARCS record of exactly n_counters values. Returns 0 or
 * LT_ERR_MISMATCH with a message naming the function. */
int lt_gcda_check_gcno(const struct lt_gcda *d, const struct lt_gcno *g,
                       char *err, size_t errlen);

/* Merges src into dst as libgcov merges a run into an existing file:
 * runs and sum_max added, ARCS/INTERVAL/POW2/AVERAGE counters added,
 * IOR/CONDITIONS or-ed, TIME_PROFILER the smallest non-zero. Functions are
 * matched by position and must have the same ident and checksums, counter
 * records the same kinds and lengths; a placeholder in dst takes src's
 * function. Counter records whose result is all zero keep the
 * negative-length form. TOPN and INDIRECT_CALL records are refused
 * (LT_ERR_BAD_FORMAT). Returns 0, LT_ERR_MISMATCH (object checksum or
 * function mismatch; dst unchanged) or LT_ERR_NOMEM. */
int lt_gcda_merge(struct lt_gcda *dst, const struct lt_gcda *src,
                  char *err, size_t errlen);

/* Encodes d exactly as libgcov's write_one_data: header (checksum word
 * only for gcc >= 12), summary, functions, counters (gcc >= 12: all-zero
 * records in the negative-length form, as libgcov 12 writes them), end
 * word 0. Returns 0 and a malloc'ed buffer in *buf / *len, or
 * LT_ERR_NOMEM. */
int lt_gcda_encode(const struct lt_gcda *d, uint8_t **buf, size_t *len);

/* Writes d to path atomically (temp file + rename). With merge set and a
 * gcda already at path, that file is read and d merged onto it first
 * (lt_gcda_merge; a mismatch is an error and leaves the file alone),
 * under the lock of path (outlock.h) from the read to the rename, so that
 * writers merging into the same file at once (processes, daemon
 * sessions) each add their counts. Returns 0 or a negative lt_error
 * with a message naming the file. */
int lt_gcda_write_file(const char *path, const struct lt_gcda *d, int merge,
                       char *err, size_t errlen);

#endif
