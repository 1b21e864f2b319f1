/* qsort with comparators: records sorted by several keys, strings by strcmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	int key;	/* primary sort key, may repeat */
	int id;		/* unique tie-breaker, keeps the order total */
	char name[8];	/* derived text key */
};

static unsigned int seed = 12345u;

/* Returns the next value of a fixed linear congruential sequence. */
static unsigned int next_rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* Orders records by key, then by id, so the result does not depend on qsort's algorithm. */
static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id - y->id;
}

/* Orders records by name, descending, then by id. */
static int by_name_desc(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(y->name, x->name);

	return c ? c : x->id - y->id;
}

/* Orders C strings held through pointers. */
static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

#define N 600

int main(void)
{
	static struct rec r[N];
	static const char *words[] = { "pear", "apple", "fig", "kiwi", "banana", "date",
		"cherry", "grape", "lemon", "mango", "apricot", "lime" };
	size_t nw = sizeof(words) / sizeof(words[0]);
	unsigned long sum = 0;
	int i;

	for (i = 0; i < N; i++) {
		unsigned int v = next_rand();
		r[i].key = (int)(v % 97);
		r[i].id = i;
		snprintf(r[i].name, sizeof(r[i].name), "n%04u", v % 5000);
	}
	qsort(r, N, sizeof(r[0]), by_key);
	for (i = 1; i < N; i++)
		if (by_key(&r[i - 1], &r[i]) > 0)
			return 1;
	for (i = 0; i < N; i += 50)
		printf("key[%d]=%d id=%d\n", i, r[i].key, r[i].id);
	qsort(r, N, sizeof(r[0]), by_name_desc);
	for (i = 0; i < N; i++)
		sum = sum * 31 + (unsigned long)r[i].id;
	printf("first=%s last=%s sum=%lu\n", r[0].name, r[N - 1].name, sum);
	qsort(words, nw, sizeof(words[0]), by_str);
	for (i = 0; i < (int)nw; i++)
		printf("%s%c", words[i], i + 1 < (int)nw ? ' ' : '\n');
	return 0;
}
