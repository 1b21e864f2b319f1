/* `ltpipe serve`: a session's streamed code map (CODE frames, see
 * proto/PROTOCOL.md). The QEMU plugin sends the code that ran outside the
 * program's ELF (loader, shared libraries, the signal trampoline) as it is
 * translated, and where a position-independent program was loaded, ahead
 * of the trace bytes that walk it. Programs are shared between sessions,
 * so the code goes into the session's own copy of the image struct (its
 * ELF sections stay shared); receiver threads read that copy while more
 * code arrives, hence the published snapshots (lt_added_code). */
#ifndef LT_DAEMON_CODE_H
#define LT_DAEMON_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/image.h"
#include "ltpipe/proto.h"

/* Live code regions a session may hold (each a contiguous run of code). */
#define LT_DCODE_MAX_REGIONS 65536u
/* Bytes of regions (re)built in all: code added next to a region rebuilds
 * it, so this bounds what many tiny CODE frames could cost. */
#define LT_DCODE_MAX_BUILT (4ull * LT_PROTO_MAX_CODE_BYTES)

struct lt_dcode;

/* Makes a session's code map over the shared image `img` (which must
 * outlive it), holding at most max_bytes of run bytes received in all
 * (the daemon: LT_PROTO_MAX_CODE_BYTES) and building at most max_built
 * bytes of regions (LT_DCODE_MAX_BUILT). Returns NULL when out of
 * memory. */
struct lt_dcode *lt_dcode_new(const struct lt_image *img, uint64_t max_bytes,
                              uint64_t max_built);

/* The session's copy of the image, to decode with instead of the shared
 * one. Valid until lt_dcode_free. */
const struct lt_image *lt_dcode_image(struct lt_dcode *c);

/* Takes one piece of a CODE frame (offset: the frame's stream offset, for
 * messages; last: the frame's final piece). The frame's lines are applied
 * when its last piece arrives; `data_started` says whether trace bytes
 * came before this frame (a `load` line is refused after them). Returns 1
 * when the image changed (the decoder must drop its caches: see
 * lt_session_images_changed), 0 when not, or a negative lt_error with the
 * ERROR frame's code in *code and a message naming the frame, line and
 * address in err[errlen]. After an error the map must only be freed. */
int lt_dcode_piece(struct lt_dcode *c, uint64_t offset, const uint8_t *p,
                   size_t len, int last, int data_started, int *code,
                   char *err, size_t errlen);

/* Whether a `load` line was applied. */
int lt_dcode_loaded(const struct lt_dcode *c);

/* Code bytes held in regions now, regions, and CODE frames applied (for
 * the log). */
uint64_t lt_dcode_bytes(const struct lt_dcode *c);
size_t lt_dcode_regions(const struct lt_dcode *c);
uint64_t lt_dcode_frames(const struct lt_dcode *c);

/* Frees the map, its image copy and every region and snapshot ever
 * published: only once no decoder or receiver uses them (session closed).
 * NULL is fine. */
void lt_dcode_free(struct lt_dcode *c);

#endif
