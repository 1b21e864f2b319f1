/* afdo receiver: sample-based-optimisation profiles with exact counts.
 *
 *   -r afdo[:format=gcov|text|llvm][,path=FILE][,gcc=N][,img=K]
 *          [,lines=gcc|max]
 *
 * format=gcov (default): gcc's .afdo for -fauto-profile, written directly
 *   (version 2, byte-length strings, for gcc >= 12; version 1, padded
 *   strings, for gcc <= 11; gcc=N picks it, by default the gcc named in
 *   the program's .comment, else 12). Default path OUTDIR/PROG.afdo.
 * format=text: input for autofdo's `create_gcov --profiler=text` (one range
 *   per distinct executed block, one branch record per distinct taken
 *   transfer, exact counts, addresses relative to the first PT_LOAD).
 *   Default path OUTDIR/PROG.afdo.txt.
 * format=llvm: LLVM sample-profile text for `llvm-profdata merge --sample`
 *   and clang -fprofile-sample-use. Default path OUTDIR/PROG.llvm.txt.
 * img=K profiles the session's image K (default 0); other images' blocks
 * are ignored. lines= picks the line counts of format=gcov: gcc (default)
 * the counts that make gcc <= 14's line-keyed annotation decide best
 * (mostly the upper median over a line's instructions; lines holding
 * several decisions left out unless they are one && chain; see
 * afdo_mid.c); max the maximum over a
 * line's instructions, for every line (create_gcov's rule).
 *
 * Counting (per event, O(1)): every block with instructions counts once
 * for (start, last); every taken branch, direct or indirect jump once for
 * (last, next). At close, DWARF turns these into per-line counts (the
 * maximum over a line's instructions), inline stacks and call targets; a
 * function's head count is the number of transfers from a linking jump
 * (jal/jalr writing ra or t0) to its first address, plus one for the
 * function where the trace starts. See afdo_prof.c. An aborted stream
 * still writes its profile (of what was seen). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "afdo_elf.h"
#include "ltpipe/error.h"
#include "ltpipe/event.h"
#include "ltpipe/frontend.h"
#include "ltpipe/receiver.h"

/* Output formats. */
enum afdo_format {
	FMT_GCOV = 0, /* gcc .afdo */
	FMT_TEXT = 1, /* create_gcov text */
	FMT_LLVM = 2, /* LLVM sample text */
};

struct afdo_state {
	const struct lt_image *img; /* the profiled image */
	uint16_t img_index;         /* its index in the session's image set */
	int format;                 /* enum afdo_format */
	int gcc_major;              /* gcc the .afdo is for */
	int lines;                  /* enum afdo_lines (format=gcov) */
	struct lt_out *out;         /* the output, opened at open() */
	struct afdo_map blk;        /* (start, last) -> executions */
	struct afdo_map br;         /* (source, target) -> taken transfers */
	struct afdo_map trap;       /* (trapping pc, handler) -> traps taken */
	uint64_t entry;             /* first executed block's start */
	int seen;                   /* entry is set */
	int failed;                 /* out of memory while counting */
};

/* Counts a batch: one or two hash-table adds per event. */
static int afdo_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct afdo_state *t = state;
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		if (e->img != t->img_index || e->kind == LT_EV_START ||
		    e->kind == LT_EV_LOST)
			continue;
		if (e->icount) {
			if (!t->seen) {
				t->entry = e->start;
				t->seen = 1;
			}
			if (afdo_map_add(&t->blk, e->start, e->last, 1) < 0)
				goto oom;
		}
		if (e->kind == LT_EV_TAKEN || e->kind == LT_EV_JUMP ||
		    e->kind == LT_EV_IJUMP)
			if (afdo_map_add(&t->br, e->last, e->next, 1) < 0)
				goto oom;
		/* A trap into a function's entry (a signal handler, an
		 * interrupt handler) runs it as a call would. */
		if (e->kind == LT_EV_EXCEPTION || e->kind == LT_EV_INTERRUPT)
			if (afdo_map_add(&t->trap, e->last, e->next, 1) < 0)
				goto oom;
	}
	return 0;
oom:
	t->failed = 1;
	return LT_ERR_NOMEM;
}

/* Frees the state (the output must be committed or aborted already). */
static void afdo_free(struct afdo_state *t)
{
	afdo_map_free(&t->blk);
	afdo_map_free(&t->br);
	afdo_map_free(&t->trap);
	free(t);
}

/* Default output name: OUTDIR/<program basename><suffix>. */
static char *default_path(const struct lt_session_info *s,
                          const struct lt_image *img, const char *suffix)
{
	const char *base = strrchr(img->path, '/');
	base = base ? base + 1 : img->path;
	size_t n = strlen(base) + strlen(suffix) + 1;
	char *name = malloc(n);
	if (!name)
		return NULL;
	snprintf(name, n, "%s%s", base, suffix);
	char *p = lt_path_join(s->outdir, name);
	free(name);
	return p;
}

/* Parses a decimal option value in [lo, hi] into *v. */
static int opt_num(const char *v, long lo, long hi, long *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (!*v || *end || x < lo || x > hi)
		return -1;
	*out = x;
	return 0;
}

/* Checks the options, picks the image and opens the output (so an
 * unwritable path fails before decoding). */
static int afdo_open(void **state, const struct lt_session_info *s,
                     const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"format", "path", "gcc", "img",
	                                      "lines", NULL};
	static const char *const suffix[] = {".afdo", ".afdo.txt", ".llvm.txt"};
	if (lt_opts_check(opts, "afdo", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	int format = FMT_GCOV;
	const char *v = lt_opts_get(opts, "format");
	if (v) {
		if (!strcmp(v, "gcov"))
			format = FMT_GCOV;
		else if (!strcmp(v, "text"))
			format = FMT_TEXT;
		else if (!strcmp(v, "llvm"))
			format = FMT_LLVM;
		else {
			snprintf(err, errlen, "receiver afdo: format=%s is not gcov, "
			         "text or llvm", v);
			return LT_ERR_INVAL;
		}
	}
	long img = 0, gcc = 0;
	v = lt_opts_get(opts, "img");
	if (v && opt_num(v, 0, UINT16_MAX - 1, &img) < 0) {
		snprintf(err, errlen, "receiver afdo: img=%s is not an image "
		         "index", v);
		return LT_ERR_INVAL;
	}
	if (!s->images || (size_t)img >= s->images->n) {
		snprintf(err, errlen, "receiver afdo: no image %ld in this "
		         "session", img);
		return LT_ERR_INVAL;
	}
	v = lt_opts_get(opts, "gcc");
	if (v && opt_num(v, 4, 999, &gcc) < 0) {
		snprintf(err, errlen, "receiver afdo: gcc=%s is not a gcc major "
		         "version (e.g. 11 or 12)", v);
		return LT_ERR_INVAL;
	}
	int lines = AFDO_LINES_GCC;
	v = lt_opts_get(opts, "lines");
	if (v) {
		if (!strcmp(v, "max"))
			lines = AFDO_LINES_MAX;
		else if (strcmp(v, "gcc")) {
			snprintf(err, errlen, "receiver afdo: lines=%s is not gcc "
			         "or max", v);
			return LT_ERR_INVAL;
		}
	}
	struct afdo_state *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "receiver afdo: out of memory");
		return LT_ERR_NOMEM;
	}
	t->img = s->images->sel[img].img;
	t->img_index = (uint16_t)img;
	t->format = format;
	t->lines = lines;
	t->gcc_major = gcc ? (int)gcc : afdo_gcc_major(t->img);
	if (!t->gcc_major)
		t->gcc_major = 12;
	v = lt_opts_get(opts, "path");
	char *path = v && *v ? strdup(v)
	                     : default_path(s, t->img, suffix[format]);
	t->out = path ? lt_out_open(path, err, errlen) : NULL;
	if (!path)
		snprintf(err, errlen, "receiver afdo: out of memory");
	free(path);
	if (!t->out) {
		afdo_free(t);
		return LT_ERR_IO;
	}
	*state = t;
	return 0;
}

/* Builds the profile from the counts and writes it in the chosen format. */
static int write_profile(struct afdo_state *t, char *err, size_t errlen)
{
	struct afdo_pair *blk = NULL, *br = NULL, *trap = NULL;
	size_t nblk = 0, nbr = 0, ntrap = 0;
	if (afdo_map_sorted(&t->blk, &blk, &nblk) < 0 ||
	    afdo_map_sorted(&t->br, &br, &nbr) < 0 ||
	    afdo_map_sorted(&t->trap, &trap, &ntrap) < 0) {
		free(blk);
		free(br);
		snprintf(err, errlen, "receiver afdo: out of memory");
		return LT_ERR_NOMEM;
	}
	int rc = 0;
	if (t->format == FMT_TEXT) {
		uint64_t base = 0;
		if (afdo_first_load(t->img, &base) < 0) {
			snprintf(err, errlen, "receiver afdo: %s has no PT_LOAD "
			         "segment to make addresses relative to",
			         t->img->path);
			rc = LT_ERR_BAD_ELF;
		} else if (ntrap) {
			/* Traps go in as branch records, as a hardware branch
			 * record (LBR) holds them: create_gcov then counts
			 * the handlers' entries as our head counts do. */
			struct afdo_pair *all = malloc((nbr + ntrap) *
			                               sizeof(*all));
			if (!all) {
				snprintf(err, errlen,
				         "receiver afdo: out of memory");
				rc = LT_ERR_NOMEM;
			} else {
				memcpy(all, br, nbr * sizeof(*all));
				memcpy(all + nbr, trap, ntrap * sizeof(*all));
				qsort(all, nbr + ntrap, sizeof(*all),
				      afdo_pair_order);
				afdo_write_text(t->out, blk, nblk, all,
				                nbr + ntrap, base);
				free(all);
			}
		} else {
			afdo_write_text(t->out, blk, nblk, br, nbr, base);
		}
	} else {
		const struct lt_symtab *syms = lt_symtab_get(t->img, err, errlen);
		const struct lt_dwarf *dw =
			syms ? lt_dwarf_get(t->img, err, errlen) : NULL;
		struct afdo_prof p;
		struct afdo_input in = {
			.img = t->img, .syms = syms, .dw = dw, .blk = blk,
			.nblk = nblk, .br = br, .nbr = nbr, .trap = trap,
			.ntrap = ntrap,
			.entry = t->seen ? t->entry : 0,
		};
		if (!dw)
			rc = LT_ERR_BAD_ELF;
		else
			rc = afdo_prof_build(&p, &in, t->format == FMT_LLVM, err,
			                     errlen);
		if (!rc) {
			if (t->format == FMT_LLVM)
				afdo_write_llvm(t->out, &p);
			else
				afdo_write_gcov(t->out, &p, t->gcc_major,
				                t->lines);
			afdo_prof_free(&p);
		}
		lt_dwarf_put(dw);
		lt_symtab_put(syms);
	}
	free(blk);
	free(br);
	free(trap);
	return rc;
}

/* Writes and commits the profile; nothing is left behind on failure or
 * on LT_CLOSE_DISCARD (the session failed to start). */
static int afdo_close(void *state, int incomplete, char *err, size_t errlen)
{
	struct afdo_state *t = state;
	/* incomplete: the formats have no place to say so. */
	int rc;
	if (incomplete == LT_CLOSE_DISCARD) {
		lt_out_abort(t->out);
		afdo_free(t);
		return 0;
	}
	if (t->failed) {
		snprintf(err, errlen, "receiver afdo: out of memory while "
		         "counting");
		rc = LT_ERR_NOMEM;
	} else {
		rc = write_profile(t, err, errlen);
	}
	if (rc)
		lt_out_abort(t->out);
	else
		rc = lt_out_commit(t->out, err, errlen);
	afdo_free(t);
	return rc;
}

const struct lt_receiver_ops lt_receiver_afdo = {
	.abi = LT_RECEIVER_ABI,
	.name = "afdo",
	.help = "AutoFDO / sample profiles with exact counts. format=gcov "
	        "(default): gcc's .afdo for -fauto-profile (version 2 for gcc "
	        ">= 12, 1 for gcc <= 11; gcc=N overrides the version found in "
	        "the program's .comment), OUTDIR/PROG.afdo. format=text: input "
	        "for autofdo's create_gcov --profiler=text, OUTDIR/PROG.afdo.txt. "
	        "format=llvm: LLVM sample-profile text for llvm-profdata and "
	        "clang -fprofile-sample-use, OUTDIR/PROG.llvm.txt. path=FILE "
	        "overrides the output; img=K profiles image K (default 0). "
	        "lines=gcc (default) gives gcc the line counts its annotation "
	        "decides best with (mostly the median over a line's "
	        "instructions; lines with several decisions, but for one && "
	        "chain, left out); "
	        "lines=max the maximum, every line (create_gcov's rule; text and "
	        "llvm always use it). Head counts are calls (linking jumps to a "
	        "function's entry).",
	.open = afdo_open,
	.consume = afdo_consume,
	.close = afdo_close,
};
