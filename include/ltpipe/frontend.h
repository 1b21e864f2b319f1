/* The frontend: L-trace bytes + program images -> block events.
 * Never aborts on bad input: a packet that does not fit the program or a
 * corrupt byte gives a LOST event and a resynchronisation at the next sync
 * packet or trap packet (whose from-address is absolute); packets outside a
 * segment (a trace cut before its start sync) are lost data too. Errors are
 * counted and the first few kept with their offsets and packet indexes. */
#ifndef LTPIPE_FRONTEND_H
#define LTPIPE_FRONTEND_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/event.h"
#include "ltpipe/image.h"
#include "ltpipe/packet.h"

/* One image of a session and the trace contexts it serves. */
struct lt_image_sel {
	const struct lt_image *img; /* the program */
	int prv;                    /* privilege it runs at, or -1 for any */
	int64_t ctx;                /* context id (ASID), or -1 for any */
};

/* Parses an image selector "PROG[:prv=U|S|M,ctx=N]" (the last colon
 * starts the selector only when it holds prv= or ctx=): PROG into
 * path[cap], the privilege (0, 1, 3) or -1 and the context id or -1.
 * Returns 0, or -1 for a malformed selector, an empty path or one that
 * does not fit. */
int lt_image_spec_parse(const char *spec, char *path, size_t cap, int *prv,
                        int64_t *ctx);

/* The images a trace may run through (kernel, boot ROM, programs...). */
struct lt_image_set {
	struct lt_image_sel *sel;   /* entries, first match wins */
	size_t n;                   /* number of entries */
};

/* Finds the region holding addr among the images serving (prv, ctx); falls
 * back to any image holding addr. Stores the entry index in *which. */
const struct lt_region *lt_image_set_find(const struct lt_image_set *set,
                                          int prv, uint64_t ctx,
                                          uint64_t addr, uint16_t *which);

enum lt_mode {
	LT_MODE_AUTO = -1, /* from the sync's cfg byte (BT if none) */
	LT_MODE_BT = 0,    /* branch target: a packet per branch */
	LT_MODE_BP = 2,    /* branch prediction: hit counts and misses */
};

/* Frontend settings. */
struct lt_frontend_config {
	int format;          /* enum lt_format or LT_FMT_AUTO */
	int mode;            /* enum lt_mode */
	uint32_t bp_entries; /* predictor entries; 0 = from cfg, else 1024 */
	unsigned addr_bits;  /* address width: 64 (default), 40 (Sv39), 32 */
	uint16_t hart;       /* hart id stamped on every event */
	uint64_t max_hits;   /* largest BP hit count accepted in one packet
	                        (0 = 2^32); bounds the work a corrupt count
	                        can cause */
};

/* Called with batches of events, in order. Returns 0, or non-zero to ask
 * the frontend to stop (lt_frontend_feed then returns LT_ERR_INVAL). */
typedef int (*lt_event_sink)(void *user, const struct lt_event *ev,
                             size_t n);

#define LT_MAX_KEPT_ERRORS 32

/* One decode error, kept for the summary. */
struct lt_decode_error {
	uint64_t offset;     /* byte offset in the trace of the packet */
	uint64_t packet;     /* its index among the packets (0 = first) */
	int code;            /* enum lt_error */
	char msg[160];       /* what was expected and what was found */
};

/* Running totals of one decode. */
struct lt_decode_stats {
	uint64_t bytes;          /* trace bytes consumed */
	uint64_t packets;        /* packets parsed */
	uint64_t pkt_type[6];    /* packets by enum lt_packet_type */
	uint64_t pkt_compressed; /* of which one-byte compressed */
	uint64_t blocks;         /* block events emitted (markers excluded) */
	uint64_t insns;          /* instructions in those blocks */
	uint64_t bytes_skipped;  /* bytes dropped while resynchronising */
	uint64_t losses;         /* LOST events */
	uint64_t errors;         /* errors seen (kept: first LT_MAX_KEPT_ERRORS) */
	uint64_t segments;       /* start syncs seen */
	uint64_t syncs_ignored;  /* periodic syncs not anchored on: their
	                            target is no program code (RTL2's
	                            work-in-progress placeholder 0xC0FFEE) */
	uint64_t ignored_target; /* the first such target */
	uint64_t first_time;     /* absolute time of the first sync */
	uint64_t last_time;      /* last absolute time reached */
	int resolved_format;     /* format in use (after auto detection) */
	int resolved_mode;       /* mode in use (after cfg; 1 or 3: the cfg's
	                            undecodable branch mode) */
	uint32_t resolved_bp_entries; /* predictor size in use */
	int ended;               /* 1 if the last segment ended with an end sync */
	int bp_loss;             /* a loss happened in BP mode: the predictor
	                            state after it is unknowable */
	unsigned nkept;          /* entries used in err[] */
	struct lt_decode_error err[LT_MAX_KEPT_ERRORS]; /* first errors */
};

struct lt_frontend;

/* Creates a frontend. The image set must outlive it. Returns NULL on
 * allocation failure or bad config (message in err). */
struct lt_frontend *lt_frontend_new(const struct lt_frontend_config *cfg,
                                    const struct lt_image_set *images,
                                    lt_event_sink sink, void *user,
                                    char *err, size_t errlen);

/* Decodes len bytes (any split of the stream). Events go to the sink in
 * batches; the last batch of a call may be held until the next call or
 * lt_frontend_finish. Returns 0, or LT_ERR_INVAL if the sink asked to stop. */
int lt_frontend_feed(struct lt_frontend *f, const uint8_t *buf, size_t len);

/* Ends the stream: reports a truncated packet or a missing end sync as
 * errors and flushes every held event. Returns 0 or LT_ERR_INVAL. */
int lt_frontend_finish(struct lt_frontend *f);

struct lt_ring;

/* Makes the frontend write its events straight into `ring` (elements of
 * sizeof(struct lt_event)), claiming slots in batches and publishing them at
 * the end of each lt_frontend_feed / lt_frontend_finish call, instead of
 * calling the sink: one copy fewer per event. NULL goes back to the sink.
 * The caller closes the ring after lt_frontend_finish. */
void lt_frontend_set_ring(struct lt_frontend *f, struct lt_ring *ring);

/* Tells the frontend that an image of its set changed between two feeds:
 * code was added (a new lt_image.added snapshot) or it was relocated
 * (bias). Drops what it cached about them. */
void lt_frontend_images_changed(struct lt_frontend *f);

/* Returns the running totals. */
const struct lt_decode_stats *lt_frontend_stats(const struct lt_frontend *f);

/* Frees the frontend. */
void lt_frontend_free(struct lt_frontend *f);

#endif
