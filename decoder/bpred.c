/* The encoder's branch predictor, replayed bit for bit (LTRACE-FORMAT.md
 * section 6.1): n two-bit saturating counters, all starting at 1 (weak
 * not-taken), indexed by (pc >> 1) mod n, updated with every outcome. */
#include "bpred.h"

#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"

int lt_bpred_init(struct lt_bpred *bp, uint32_t entries)
{
	if (entries == 0 || (entries & (entries - 1)) != 0)
		return LT_ERR_INVAL;
	bp->ctr = malloc(entries);
	if (!bp->ctr)
		return LT_ERR_NOMEM;
	bp->mask = entries - 1;
	lt_bpred_reset(bp);
	return 0;
}

void lt_bpred_reset(struct lt_bpred *bp)
{
	memset(bp->ctr, 1, (size_t)bp->mask + 1);
}

void lt_bpred_fini(struct lt_bpred *bp)
{
	free(bp->ctr);
	bp->ctr = NULL;
}
