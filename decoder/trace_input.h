/* Trace input: a file or stdin read as a sequence of chunks, raw or
 * zstd-compressed (recognised by the zstd frame magic, not by the name).
 * Private to the decoder. */
#ifndef LTPIPE_TRACE_INPUT_H
#define LTPIPE_TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Size of the raw read buffer and of the decompressed chunks. */
#define LT_INPUT_CHUNK (1u << 20)

struct lt_input;

/* Opens `path` ("-" = stdin) and reads its first bytes to tell zstd from
 * raw input. Returns 0 and sets *in, or a negative lt_error (LT_ERR_IO,
 * LT_ERR_NOMEM) with a one-line message naming the file in err[errlen]
 * (err may be NULL). */
int lt_input_open(struct lt_input **in, const char *path, char *err,
		  size_t errlen);

/* Returns the next chunk of trace bytes in *chunk: the byte count (> 0),
 * 0 at the end of the input, or a negative lt_error (LT_ERR_IO, or
 * LT_ERR_ZSTD for a corrupt or truncated zstd stream) whose message is in
 * lt_input_error(). The chunk stays valid until the next call; it is at
 * most LT_INPUT_CHUNK bytes. A pipe's chunk may be short: data is handed
 * on as soon as it arrives. After an error or the end, every later call
 * returns the same. */
ssize_t lt_input_read(struct lt_input *in, const uint8_t **chunk);

/* Returns the one-line message of the last error ("" if none), naming the
 * file and the byte offset. */
const char *lt_input_error(const struct lt_input *in);

/* Returns the input's size in bytes if it is a regular file (compressed
 * size for zstd input), else 0; compare with lt_input_consumed() for a
 * progress line. */
uint64_t lt_input_size(const struct lt_input *in);

/* Returns the bytes read from the file so far (compressed bytes for zstd
 * input, including read-ahead not yet handed out). */
uint64_t lt_input_consumed(const struct lt_input *in);

/* Returns the trace bytes handed out so far (decompressed for zstd). */
uint64_t lt_input_produced(const struct lt_input *in);

/* Returns 1 if the input is zstd-compressed, else 0. */
int lt_input_is_zstd(const struct lt_input *in);

/* Closes the file (not stdin) and frees everything; in may be NULL. */
void lt_input_close(struct lt_input *in);

#endif
