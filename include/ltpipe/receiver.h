/* The receiver API: what turns block events into an output.
 *
 * A receiver is a set of callbacks (struct lt_receiver_ops). Built-in ones
 * are registered statically; users load their own from a shared object
 * (`-r ./my_receiver.so:key=val`) that exports
 *     const struct lt_receiver_ops *lt_receiver_plugin_v1(void);
 * returning ops whose `abi` is LT_RECEIVER_ABI. Each receiver instance runs
 * on its own consumer thread and sees every event, in order. */
#ifndef LTPIPE_RECEIVER_H
#define LTPIPE_RECEIVER_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/event.h"
#include "ltpipe/frontend.h"

#define LT_RECEIVER_ABI 1
#define LT_RECEIVER_PLUGIN_SYMBOL "lt_receiver_plugin_v1"
#define LT_MAX_OPTS 16

/* Values of close()'s `incomplete` argument. */
#define LT_CLOSE_COMPLETE 0
#define LT_CLOSE_INCOMPLETE 1
#define LT_CLOSE_DISCARD 2

/* Options given as NAME:key=val,key=val (values may not contain ','). */
struct lt_opts {
	size_t n;                   /* number of pairs */
	const char *key[LT_MAX_OPTS]; /* keys */
	const char *val[LT_MAX_OPTS]; /* values ("" when given as a bare key) */
};

/* What a receiver is told about its session. Everything is read-only and
 * outlives the receiver. */
struct lt_session_info {
	const struct lt_image_set *images;  /* the programs (event.img indexes) */
	const char *outdir;                 /* output directory */
	const char *name;                   /* session name (for messages) */
	const struct lt_decode_stats *stats; /* decode totals: final when
	                                        close() is called */
	int same_run;                       /* nonzero: the trace is one more
	                                       hart of a run another session
	                                       decodes hart 0 of (a daemon
	                                       session whose hello says
	                                       hart=N > 0): profiles merged
	                                       across sessions add its counts
	                                       but count no run for it */
};

/* Receiver callbacks. Return 0 on success, negative lt_error on failure with
 * a one-line message in err[errlen]. */
struct lt_receiver_ops {
	int abi;            /* LT_RECEIVER_ABI */
	const char *name;   /* -r NAME */
	const char *help;   /* one paragraph: what it writes and its options */
	/* Opens an instance; *state is passed to the other calls. */
	int (*open)(void **state, const struct lt_session_info *s,
	            const struct lt_opts *opts, char *err, size_t errlen);
	/* Consumes a batch of events. A non-zero return stops this receiver
	 * (its error is reported at close). */
	int (*consume)(void *state, const struct lt_event *ev, size_t n);
	/* Flushes and closes; `incomplete` is LT_CLOSE_INCOMPLETE when the
	 * stream was cut short (outputs should say so), LT_CLOSE_DISCARD when
	 * the session failed to start (write nothing, remove temp files).
	 * Frees the state. */
	int (*close)(void *state, int incomplete, char *err, size_t errlen);
};

/* Returns the value of `key`, or NULL when absent. */
const char *lt_opts_get(const struct lt_opts *o, const char *key);

/* Checks that every key is in the NULL-terminated `allowed` list; else
 * LT_ERR_INVAL with a message naming the receiver and the key. */
int lt_opts_check(const struct lt_opts *o, const char *receiver,
                  const char *const *allowed, char *err, size_t errlen);

/* Parses "key=val,key2=val2" in place (the string is modified and must
 * outlive opts). Returns 0 or LT_ERR_INVAL (too many options). */
int lt_opts_parse(char *s, struct lt_opts *o);

/* Finds a built-in receiver by name, or NULL. */
const struct lt_receiver_ops *lt_receiver_find(const char *name);

/* Returns the NULL-terminated list of built-in receivers. */
const struct lt_receiver_ops *const *lt_receiver_list(void);

/* Loads a receiver plugin from a shared object path. Returns NULL with a
 * message on failure (missing file, no entry point, wrong ABI). */
const struct lt_receiver_ops *lt_receiver_load(const char *path, char *err,
                                               size_t errlen);

#endif
