/* The daemon's program images: loaded once, shared read-only by every
 * session of the same ELF. Keyed by path and file identity (device,
 * inode, size, mtime), checked against the build-id a sink expects.
 * Reference-counted: an image no session uses stays loaded while it is
 * among the LT_IMAGE_CACHE_IDLE most recently used idle ones and its file
 * is unchanged; older idle ones and those whose file was rebuilt are
 * freed, so a long-running daemon does not grow with every ELF it saw. */
#ifndef LT_DAEMON_IMAGES_H
#define LT_DAEMON_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"

struct lt_image_cache;

/* Idle images kept loaded for later sessions. */
#define LT_IMAGE_CACHE_IDLE 4

/* Creates an empty cache, or NULL when out of memory. */
struct lt_image_cache *lt_image_cache_new(void);

/* Frees the cache and every image in it (no session may use them). */
void lt_image_cache_free(struct lt_image_cache *c);

/* Finds or loads the image for (path, build-id); either may be absent
 * (NULL / len 0), not both. A path is loaded on first use (again when its
 * file changed); a build-id alone must match an image still loaded.
 * Returns 0 and *img with a reference taken (valid until
 * lt_image_cache_put; an image never put stays loaded: the daemon's --elf
 * programs), or a negative lt_error with a one-line message. Thread-safe. */
int lt_image_cache_get(struct lt_image_cache *c, const char *path,
                       const uint8_t *build_id, size_t build_id_len,
                       const struct lt_image **img, char *err, size_t errlen);

/* Releases a reference from lt_image_cache_get; img may be NULL. Frees
 * idle images beyond the policy above. Thread-safe. */
void lt_image_cache_put(struct lt_image_cache *c, const struct lt_image *img);

/* Number of images loaded now (for tests and the log). */
size_t lt_image_cache_count(struct lt_image_cache *c);

#endif
