#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>

#define CHECK(cond, code) do { if (!(cond)) { rc = (code); goto fail; } } while (0)
#define PUTC(b, c) do { if ((b)->len + 1 < (b)->cap) (b)->s[(b)->len++] = (char)(c); else (b)->over++; } while (0)

struct buf { char *s; size_t len, cap; int over; };

static const char text[] =
	"The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! "
	"Sphinx of black quartz, judge my vow. Caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac" "5 "
	"\xf0\x9f\x98\x80 smile; bad bytes \xff\xfe here, truncated \xe2\x82 and overlong \xc0\xaf end. "
	"Supercalifragilisticexpialidocious-is-a-very-long-word-that-must-be-split across lines. "
	"How vexingly quick daft zebras jump; the five boxing wizards jump quickly.";

/* returns code point, or -1 on error; *adv = bytes consumed */
static long utf8_next(const unsigned char *p, size_t n, int *adv)
{
	unsigned c = p[0];
	int need;
	long cp;
	*adv = 1;
	if (c < 0x80) return c;
	if ((c & 0xe0) == 0xc0) { need = 1; cp = c & 0x1f; }
	else if ((c & 0xf0) == 0xe0) { need = 2; cp = c & 0x0f; }
	else if ((c & 0xf8) == 0xf0) { need = 3; cp = c & 0x07; }
	else return -1;
	if ((size_t)need >= n) return -1;
	for (int i = 1; i <= need; i++) {
		if ((p[i] & 0xc0) != 0x80) return -1;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000)) return -1;
	*adv = need + 1;
	return cp;
}

static void put_str(struct buf *b, const char *s) { for (; *s; s++) PUTC(b, *s); }
static void put_num(struct buf *b, unsigned long v, int base, int width, char pad, int neg)
{
	char tmp[32];
	int n = 0;
	do { tmp[n++] = "0123456789abcdef"[v % (unsigned)base]; v /= (unsigned)base; } while (v);
	if (neg) tmp[n++] = '-';
	while (n < width--) PUTC(b, pad);
	while (n) { n--; PUTC(b, tmp[n]); }
}

static int mini_fmt(struct buf *b, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int count = 0;
	for (; *f; f++) {
		if (*f != '%') { PUTC(b, *f); continue; }
		f++;
		char pad = ' ';
		int width = 0;
		if (*f == '0') { pad = '0'; f++; }
		while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
		switch (*f) {
		case 'd': { long v = va_arg(ap, int); put_num(b, (unsigned long)(v < 0 ? -v : v), 10, width, pad, v < 0); break; }
		case 'u': put_num(b, va_arg(ap, unsigned), 10, width, pad, 0); break;
		case 'x': put_num(b, va_arg(ap, unsigned), 16, width, pad, 0); break;
		case 's': { const char *s = va_arg(ap, const char *); put_str(b, s ? s : "(null)"); break; }
		case 'c': PUTC(b, va_arg(ap, int)); break;
		case '%': PUTC(b, '%'); break;
		case '\0': f--; break;
		default: PUTC(b, '?');
		}
		count++;
	}
	va_end(ap);
	b->s[b->len < b->cap ? b->len : b->cap - 1] = 0;
	return count;
}

struct word { const char *p; int bytes, cols; };

static int split_words(const char *t, struct word *w, int maxw, int *errors)
{
	int n = 0;
	size_t len = strlen(t);
	size_t i = 0;
	while (i < len) {
		while (i < len && t[i] == ' ') i++;
		if (i >= len) break;
		if (n == maxw) return -1;
		w[n].p = t + i; w[n].bytes = 0; w[n].cols = 0;
		while (i < len && t[i] != ' ') {
			int adv;
			long cp = utf8_next((const unsigned char *)t + i, len - i, &adv);
			if (cp < 0) (*errors)++;
			w[n].cols += cp < 0 ? 1 : (cp >= 0x1f000 ? 2 : 1);
			w[n].bytes += adv; i += (size_t)adv;
		}
		n++;
	}
	return n;
}

/* greedy fill with justification; long words split with '-' */
static int layout(const struct word *w, int n, int width, unsigned *hash, int justify)
{
	int lines = 0, i = 0;
	char line[256];
	while (i < n) {
		int j = i, cols = 0;
		while (j < n && cols + (j > i) + w[j].cols <= width) { cols += (j > i) + w[j].cols; j++; }
		int pos = 0;
		if (j == i) { /* word longer than the line: hard split */
			memcpy(line, w[i].p, (size_t)(width - 1)); pos = width - 1; line[pos++] = '-';
			i++;
		} else {
			int gaps = j - i - 1, extra = width - cols;
			for (int k = i; k < j; k++) {
				memcpy(line + pos, w[k].p, (size_t)w[k].bytes); pos += w[k].bytes;
				if (k + 1 < j) {
					int sp = 1 + (justify && j < n && gaps ? extra / gaps + (k - i < extra % gaps) : 0);
					while (sp--) line[pos++] = ' ';
				}
			}
			i = j;
		}
		line[pos] = 0;
		for (int k = 0; k < pos; k++) *hash = *hash * 16777619u ^ (unsigned char)line[k];
		if (lines < 3 && width == 30) printf("|%s|\n", line);
		lines++;
	}
	return lines;
}

static int process(int width, int justify, unsigned *hash)
{
	int rc = 0, errors = 0;
	struct word *w = malloc(sizeof *w * 128);
	char *scratch = NULL;
	CHECK(w != NULL, -1);
	int n = split_words(text, w, 128, &errors);
	CHECK(n > 0, -2);
	CHECK(width >= 8, -3);
	scratch = malloc((size_t)width + 1);
	CHECK(scratch != NULL, -4);
	rc = layout(w, n, width, hash, justify) * 100 + errors;
fail:
	free(scratch);
	free(w);
	return rc;
}

int main(void)
{
	char out[64];
	struct buf b = { out, 0, sizeof out, 0 };
	unsigned total = 0;
	for (int width = 4; width <= 70; width += 4) {
		for (int j = 0; j < 2; j++) {
			unsigned h = 2166136261u;
			int r = process(width, j, &h);
			b.len = 0; b.over = 0;
			mini_fmt(&b, "w=%02d j=%d r=%5d h=%08x", width, j, r, h);
			puts(out);
			total += h;
		}
	}
	b.len = 0;
	int c = mini_fmt(&b, "%s|%c|%x|%d|%%|%q|%u|%s %s %s", "abc", 'Z', 0xbeefu, -1234, 42u, (char *)NULL, "long", "overflowing text here to fill");
	printf("%s (%d, over=%d)\n", out, c, b.over);
	printf("total=%08x\n", total);
	return 0;
}
