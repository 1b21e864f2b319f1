/* Shared by image.c and image_code.c: the per-halfword step tables. */
#ifndef LTPIPE_DECODER_IMAGE_TABLES_H
#define LTPIPE_DECODER_IMAGE_TABLES_H

#include "ltpipe/image.h"

/* Allocates and fills r->hw and r->info for r's bytes [base, end).
 * Returns 0 or LT_ERR_NOMEM. */
int lt_region_build_tables(struct lt_region *r, int xlen);

#endif
