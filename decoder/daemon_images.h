/* The daemon's program images: loaded once, shared read-only by every
 * session of the same ELF. Keyed by path and file identity (device,
 * inode, size, mtime), checked against the build-id a sink expects. */
#ifndef LT_DAEMON_IMAGES_H
#define LT_DAEMON_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"

struct lt_image_cache;

/* Creates an empty cache, or NULL when out of memory. */
struct lt_image_cache *lt_image_cache_new(void);

/* Frees the cache and every image in it (no session may use them). */
void lt_image_cache_free(struct lt_image_cache *c);

/* Finds or loads the image for (path, build-id); either may be absent
 * (NULL / len 0), not both. A path is loaded on first use; a build-id
 * alone must match an image loaded before. Returns 0 and *img (valid until
 * the cache is freed), or a negative lt_error with a one-line message.
 * Thread-safe. */
int lt_image_cache_get(struct lt_image_cache *c, const char *path,
                       const uint8_t *build_id, size_t build_id_len,
                       const struct lt_image **img, char *err, size_t errlen);

/* Number of distinct images loaded so far (for tests and the log). */
size_t lt_image_cache_count(struct lt_image_cache *c);

#endif
