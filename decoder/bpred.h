/* Branch predictor replay for BP-mode traces (private to the frontend). */
#ifndef LT_BPRED_H
#define LT_BPRED_H

#include <stdint.h>

/* A table of two-bit saturating counters. */
struct lt_bpred {
	uint8_t *ctr;  /* counters, 0 = strong NT ... 3 = strong T */
	uint32_t mask; /* entries - 1 (entries is a power of two) */
};

/* Allocates `entries` counters (a power of two) set to 1. Returns 0,
 * LT_ERR_INVAL or LT_ERR_NOMEM. */
int lt_bpred_init(struct lt_bpred *bp, uint32_t entries);
/* Sets every counter back to 1. */
void lt_bpred_reset(struct lt_bpred *bp);
/* Frees the table. */
void lt_bpred_fini(struct lt_bpred *bp);

/* Returns the prediction for the branch at pc: 1 = taken. */
static inline int lt_bpred_predict(const struct lt_bpred *bp, uint64_t pc)
{
	return bp->ctr[(pc >> 1) & bp->mask] >= 2;
}

/* Trains the counter of the branch at pc with its actual outcome. */
static inline void lt_bpred_update(struct lt_bpred *bp, uint64_t pc,
                                   int taken)
{
	uint8_t *c = &bp->ctr[(pc >> 1) & bp->mask];
	if (taken) {
		if (*c < 3)
			(*c)++;
	} else if (*c > 0) {
		(*c)--;
	}
}

#endif
