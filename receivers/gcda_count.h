/* Machine-level execution counts for the gcda receiver: per-halfword
 * arrays of block entries, block exits and taken direct transfers, plus a
 * small table of the other transfers (indirect jumps, returns, traps).
 * Counting is O(1) per event with no hashing except for those other
 * transfers; gc_counts_finish turns the arrays into per-instruction counts
 * once, at the end. Private to receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_COUNT_H
#define LTPIPE_GCDA_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/event.h"
#include "ltpipe/frontend.h"

/* Counters of one executable region, indexed by halfword. */
struct gc_region {
	const struct lt_region *r; /* the region */
	uint64_t *enter;           /* blocks starting here; after finish:
	                              executions of the insn starting here */
	uint64_t *leave;           /* blocks whose last insn starts here */
	uint64_t *taken;           /* taken branches / direct jumps here */
};

/* One non-direct transfer and how often it happened. */
struct gc_xfer {
	uint64_t from;             /* address of the transferring insn */
	uint64_t to;               /* address reached */
	uint64_t n;                /* times (0: free slot before finish) */
};

/* Counters of one image. */
struct gc_image {
	const struct lt_image *img; /* the program */
	struct gc_region *reg;     /* one per region, allocated on first use */
	struct gc_xfer *tab;       /* open-addressed table; after finish the
	                              used entries sorted by `to` */
	size_t cap;                /* table slots (power of two) */
	size_t used;               /* entries in use */
	struct gc_xfer *by_from;   /* after finish: copy sorted by `from` */
};

/* Counters of a session. */
struct gc_counts {
	struct gc_image *im;       /* one per image set entry */
	size_t nim;                /* entries */
	int nomem;                 /* an allocation failed while counting */
};

/* Prepares counters for the images of set. Returns 0 or LT_ERR_NOMEM. */
int gc_counts_init(struct gc_counts *c, const struct lt_image_set *set);

/* Counts a batch of events. */
void gc_counts_add(struct gc_counts *c, const struct lt_event *ev,
                   size_t n);

/* Turns entry counts into instruction counts and sorts the transfer
 * tables. Call once, after the last gc_counts_add. Returns 0 or
 * LT_ERR_NOMEM. */
int gc_counts_finish(struct gc_counts *c);

/* Frees everything (the struct itself is the caller's). */
void gc_counts_free(struct gc_counts *c);

/* After finish: executions of the instruction at addr of image im. */
uint64_t gc_insn_count(const struct gc_counts *c, size_t im, uint64_t addr);

/* After finish: times the direct branch/jump at addr was taken. */
uint64_t gc_taken(const struct gc_counts *c, size_t im, uint64_t addr);

/* After finish: the non-direct transfers reaching `to` (*n of them, sorted
 * by nothing in particular), or NULL. */
const struct gc_xfer *gc_xfers_to(const struct gc_counts *c, size_t im,
                                  uint64_t to, size_t *n);

/* After finish: the non-direct transfers leaving `from`, or NULL. */
const struct gc_xfer *gc_xfers_from(const struct gc_counts *c, size_t im,
                                    uint64_t from, size_t *n);

#endif
