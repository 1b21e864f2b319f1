/* A session: one trace stream + its images + its receivers + its output
 * directory. Batch decode is one session fed from a file; the daemon runs
 * one per connection. */
#ifndef LTPIPE_SESSION_H
#define LTPIPE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/frontend.h"
#include "ltpipe/receiver.h"

#define LT_MAX_RECEIVERS 16

/* What a session is made of. */
struct lt_session_config {
	struct lt_frontend_config fe;   /* decoding settings */
	const struct lt_image_set *images; /* programs (outlive the session) */
	const char *outdir;             /* output directory (must exist) */
	const char *name;               /* session name for messages */
	size_t nrecv;                   /* number of receiver specs */
	const char *recv[LT_MAX_RECEIVERS]; /* "NAME[:key=val,...]" or
	                                       "./plugin.so[:opts]" */
	int same_run;                   /* lt_session_info.same_run */
};

struct lt_session;

/* Opens the receivers and the frontend. Returns NULL with a one-line
 * message (unknown receiver, bad option, unwritable output...) and the
 * lt_error in *code (LT_ERR_IO: an output could not be created;
 * LT_ERR_INVAL: a bad receiver name, plugin or option). */
struct lt_session *lt_session_open(const struct lt_session_config *cfg,
                                   int *code, char *err, size_t errlen);

/* Decodes a chunk of trace bytes. Returns 0 or a negative lt_error when a
 * receiver failed (message via lt_session_close). */
int lt_session_feed(struct lt_session *s, const uint8_t *buf, size_t len);

/* Ends the trace fed so far (as lt_session_close would end it: its end
 * events go to the receivers) and starts another one of the same program,
 * e.g. the trace of another hart: fed next, decoded by a fresh decoder
 * with the same settings but events stamped `hart`, into the same
 * receivers, so that one profile counts every hart's work. The finished
 * trace's totals go to *st when st is not NULL; the receivers see, at
 * close, the totals of every trace (counts summed). Returns 0, a receiver
 * error as lt_session_feed, or LT_ERR_NOMEM (message in err; the session
 * then goes on with the current trace, unfinished). */
int lt_session_next(struct lt_session *s, uint16_t hart,
                    struct lt_decode_stats *st, char *err, size_t errlen);

/* Tells the decoder that one of the session's images changed between two
 * feeds (code added, or relocated): see lt_frontend_images_changed. */
void lt_session_images_changed(struct lt_session *s);

/* Ends the stream (incomplete = 1 when it was cut short), closes every
 * receiver (outputs renamed into place) and frees the session. Returns 0
 * or the first receiver error (message in err). The last trace's stats
 * are copied to *st when st is not NULL. */
int lt_session_close(struct lt_session *s, int incomplete,
                     struct lt_decode_stats *st, char *err, size_t errlen);

/* Live decode totals. */
const struct lt_decode_stats *lt_session_stats(const struct lt_session *s);

#endif
