/* The bundled demo program: a word-frequency count over a fixed text with a
 * hash table, an insertion sort and a switch, small enough that its trace is
 * a few kilobytes. */
#include <stdio.h>
#include <string.h>

#define NBUCKET 64

struct word {
	const char *s; /* start in the text */
	int len;       /* length */
	int count;     /* occurrences */
};

static struct word words[128];
static int nwords;
static int bucket[NBUCKET];

static unsigned hash(const char *s, int len)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void add(const char *s, int len)
{
	unsigned b = hash(s, len) % NBUCKET;
	for (;;) {
		int w = bucket[b];
		if (w == 0) {
			words[nwords] = (struct word){s, len, 1};
			bucket[b] = ++nwords;
			return;
		}
		if (words[w - 1].len == len && !memcmp(words[w - 1].s, s, len)) {
			words[w - 1].count++;
			return;
		}
		b = (b + 1) % NBUCKET;
	}
}

static int kind(char c)
{
	switch (c) {
	case 'a' ... 'z':
		return 1;
	case 'A' ... 'Z':
		return 2;
	case '\'':
		return 3;
	default:
		return 0;
	}
}

int main(void)
{
	static const char text[] =
		"the quick brown fox jumps over the lazy dog and the dog "
		"sleeps while the fox runs over the hill and the dog wakes";
	const char *p = text;
	while (*p) {
		while (*p && !kind(*p))
			p++;
		const char *s = p;
		while (*p && kind(*p))
			p++;
		if (p > s)
			add(s, (int)(p - s));
	}
	for (int i = 1; i < nwords; i++) {
		struct word w = words[i];
		int j = i - 1;
		while (j >= 0 && words[j].count < w.count) {
			words[j + 1] = words[j];
			j--;
		}
		words[j + 1] = w;
	}
	for (int i = 0; i < 3; i++)
		printf("%.*s %d\n", words[i].len, words[i].s, words[i].count);
	return 0;
}
