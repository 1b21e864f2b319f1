/* Shared declarations of the textwrap program. */
#include <stddef.h>

typedef void (*emit_fn)(const char *word, size_t len);

size_t wrap_greedy(const char *text, size_t width, emit_fn emit);
size_t wrap_count_words(const char *text);
size_t util_count_words(const char *text);
unsigned util_checksum(const char *s, size_t n);
unsigned wrap_checksum(const char *s, size_t n);
int util_apply(int which, const char *text, char *out, size_t cap);
