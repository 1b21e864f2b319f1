/* Word frequencies: open-addressing hash map, qsort by count and by name, trie prefix queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static const char *const corpus[] = {
	"The quick brown fox jumps over the lazy dog while the dog sleeps.",
	"A trace encoder emits one packet per taken branch; the decoder walks the program.",
	"Every branch the core takes is a packet, every packet a branch, and so on and on.",
	"Counting words is easy; counting them quickly with a hash table is easier still.",
	"Foxes and dogs, dogs and foxes: the fox, the dog, the trace, the packet.",
	"Tries share prefixes: trace, tracer, traces, tracing, track, trade, trap, trapdoor.",
};

#define CAP 512
struct entry { char word[24]; int count; int first; };
static struct entry table[CAP];
static int used, probes_total, max_probe;

static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct entry *find_or_add(const char *w, int order)
{
	unsigned i = hash_str(w) & (CAP - 1);
	int probes = 1;
	while (table[i].word[0]) {
		if (!strcmp(table[i].word, w))
			break;
		i = (i + 1) & (CAP - 1);
		probes++;
	}
	probes_total += probes;
	if (probes > max_probe)
		max_probe = probes;
	if (!table[i].word[0]) {
		if (used >= CAP - 1)
			return NULL;
		strcpy(table[i].word, w);
		table[i].first = order;
		used++;
	}
	return &table[i];
}

/* trie over lowercase letters */
struct tnode { int child[26]; int count; int words; };
static struct tnode trie[2048];
static int trie_n = 1;

static void trie_add(const char *w)
{
	int n = 0;
	for (; *w; w++) {
		int c = *w - 'a', *slot;
		if (c < 0 || c >= 26)
			return;
		slot = &trie[n].child[c];
		if (!*slot) {
			if (trie_n == 2048)
				return;
			*slot = trie_n++;
		}
		n = *slot;
		trie[n].count++;
	}
	trie[n].words++;
}

static int trie_prefix(const char *p, int *distinct)
{
	int n = 0;
	for (; *p; p++) {
		n = trie[n].child[*p - 'a'];
		if (!n) {
			*distinct = 0;
			return 0;
		}
	}
	*distinct = 0;
	{
		int stack[256], sp = 0;
		stack[sp++] = n;
		while (sp) {
			int m = stack[--sp];
			if (trie[m].words)
				++*distinct;
			for (int c = 25; c >= 0; c--)
				if (trie[m].child[c] && sp < 256)
					stack[sp++] = trie[m].child[c];
		}
	}
	return trie[n].count;
}

static int by_count(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
	if (x->count != y->count)
		return y->count - x->count;
	return x->first - y->first;
}

static int by_name(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
	return strcmp(x->word, y->word);
}

static int split(const char *s, int order, int rep)
{
	char w[24];
	int k = 0, words = 0;
	for (;; s++) {
		if (isalpha((unsigned char)*s)) {
			if (k < 23)
				w[k++] = (char)tolower((unsigned char)*s);
			continue;
		}
		if (k) {
			struct entry *e;
			w[k] = 0;
			e = find_or_add(w, order + words);
			if (e)
				e->count++;
			if (rep == 0)
				trie_add(w);
			words++;
			k = 0;
		}
		if (!*s)
			break;
	}
	return words;
}

int main(void)
{
	struct entry *list[CAP];
	int n = 0, total = 0, i, rep;
	static const char *const prefixes[] = { "tra", "trac", "the", "do", "packet", "zz", "f", "e" };
	for (rep = 0; rep < 25; rep++)
		for (i = 0; i < (int)(sizeof corpus / sizeof corpus[0]); i++)
			total += split(corpus[(i * 5 + rep) % 6], i * 100, rep);
	for (i = 0; i < CAP; i++)
		if (table[i].word[0])
			list[n++] = &table[i];
	printf("words=%d distinct=%d probes=%d max_probe=%d trie=%d\n", total, n, probes_total, max_probe, trie_n);
	qsort(list, n, sizeof list[0], by_count);
	for (i = 0; i < 8 && i < n; i++)
		printf("%2d %-10s %d\n", i + 1, list[i]->word, list[i]->count);
	qsort(list, n, sizeof list[0], by_name);
	{
		unsigned long h = 0;
		for (i = 0; i < n; i++)
			h = h * 131 + hash_str(list[i]->word) + (unsigned)list[i]->count;
		printf("first=%s last=%s hash=%08lx\n", list[0]->word, list[n - 1]->word, h & 0xffffffffUL);
	}
	for (i = 0; i < (int)(sizeof prefixes / sizeof prefixes[0]); i++) {
		int d, c = trie_prefix(prefixes[i], &d);
		struct entry key, *kp = &key, **hit;
		strcpy(key.word, prefixes[i]);
		hit = bsearch(&kp, list, n, sizeof list[0], by_name);
		printf("prefix %-7s uses=%d words=%d exact=%d\n", prefixes[i], c, d, hit ? (*hit)->count : -1);
	}
	return 0;
}
