/* Read-only data derived from a program image (symbol table, DWARF line
 * and inline tables...), built once per image contents and shared by every
 * receiver thread and session that asks, reference-counted. Keyed by a hash
 * of the ELF bytes, so two loads of the same file share one build. */
#ifndef LTPIPE_IMAGE_DERIVED_H
#define LTPIPE_IMAGE_DERIVED_H

#include <stddef.h>

#include "ltpipe/image.h"

/* One kind of derived data and how to make and free it. */
struct lt_image_derived {
	const char *name; /* for messages */
	/* Builds the data for img (called under the cache lock, once per
	 * contents). Returns a malloc'd object, or NULL with a message. */
	void *(*build)(const struct lt_image *img, char *err, size_t errlen);
	/* Frees what build returned. */
	void (*destroy)(void *obj);
};

/* Returns the shared `kind` object for img, building it on first use.
 * Takes a reference (release with lt_derived_put). NULL with a
 * message in err on failure. Thread-safe. */
const void *lt_derived_get(const struct lt_image_derived *kind,
                               const struct lt_image *img, char *err,
                               size_t errlen);

/* Releases a reference; the object is freed with the last one. NULL is
 * fine. */
void lt_derived_put(const struct lt_image_derived *kind, const void *obj);

#endif
