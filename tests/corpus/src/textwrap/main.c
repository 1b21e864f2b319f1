/* Drives the wrapper and the transforms. */
#include <stdio.h>
#include <string.h>
#include "wrap.h"

static const char *const texts[] = {
	"the quick brown fox jumps over the lazy dog",
	"  Lorem ipsum   dolor sit amet,  consectetur adipiscing elit, sed do eiusmod tempor",
	"a\nb c\n\nsupercalifragilisticexpialidocious word 42 x",
	"",
	"one",
};

static size_t longest, total_len;
static unsigned mix;
static void note_word(const char *w, size_t n) { if (n > longest) longest = n; total_len += n; mix = mix * 31 + (unsigned)n + (unsigned char)w[0]; }
static void count_only(const char *w, size_t n) { (void)w; total_len += n; }

static emit_fn emitters[] = { note_word, count_only, NULL };

int main(void)
{
	const size_t nt = sizeof texts / sizeof texts[0];
	static const size_t widths[] = { 10, 16, 30 };
	for (size_t t = 0; t < nt; t++) for (size_t k = 0; k < 3; k++) {
		printf("-- text %zu width %zu\n", t, widths[k]);
		size_t l = wrap_greedy(texts[t], widths[k], emitters[(t + k) % 3]); printf("lines %zu\n", l);
	}
	printf("longest %zu total %zu mix %u\n", longest, total_len, mix);

	size_t a = 0, b = 0; unsigned c1 = 0, c2 = 0;
	for (size_t t = 0; t < nt; t++) a += wrap_count_words(texts[t]);
	for (size_t t = 0; t < nt; t++) b += util_count_words(texts[t]);
	for (size_t t = 0; t < nt; t++) c1 ^= wrap_checksum(texts[t], strlen(texts[t]));
	for (size_t t = 0; t < nt; t++) c2 ^= util_checksum(texts[t], strlen(texts[t]));
	printf("words %zu %zu sums %08x %08x\n", a, b, c1, c2);

	char out[64];
	for (int w = -1; w < 9; w++) {
		int r = util_apply(w, texts[w < 0 ? 0 : (size_t)(w * 3) % nt], out, sizeof out);
		printf("apply %d -> %d [%s]\n", w, r, r < 0 ? "" : out);
	}
	int i = 0, j = 0;
	while (i < 20 && (j < 5 ? i % 2 == 0 || j++ < 3 : i < 12)) { i++; j += i & 1; }
	printf("i %d j %d\n", i, j);
	return 0;
}
