/* ELF facts for the afdo receiver (afdo_elf.c). */
#ifndef LTPIPE_RECEIVERS_AFDO_ELF_H
#define LTPIPE_RECEIVERS_AFDO_ELF_H

#include <stdint.h>

#include "ltpipe/image.h"

/* Stores the vaddr of the first PT_LOAD program header (file order, as
 * autofdo's VaddrOfFirstLoadSegment) in *vaddr. Returns 0, or -1 when the
 * image holds no readable little-endian ELF with a PT_LOAD. */
int afdo_first_load(const struct lt_image *img, uint64_t *vaddr);

/* Returns the major version in the first "GCC: (...) X.Y.Z" .comment
 * string of the image's ELF, or 0 when there is none. */
int afdo_gcc_major(const struct lt_image *img);

#endif
