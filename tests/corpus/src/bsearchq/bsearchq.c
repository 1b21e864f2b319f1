/* bsearchq: libc calling back into the program (qsort with three comparators, bsearch),
 * a hand-rolled generic sort through function pointers with a void* context,
 * strtol/strchr/memchr/strspn, snprintf into buffers. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int key; short grp; char name[12]; double score; };

#define N 160
static struct rec recs[N];
static unsigned seed = 99991;
static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

static long ncmp;

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	ncmp++;
	return (x->key > y->key) - (x->key < y->key);
}

static int by_grp_then_name(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	ncmp++;
	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return by_key(a, b);
}

static int by_score_desc(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	ncmp++;
	if (x->score < y->score)
		return 1;
	if (x->score > y->score)
		return -1;
	return 0;
}

/* Generic sort with a context argument (like qsort_r), insertion + shell gaps. */
typedef int (*cmp_ctx)(const void *, const void *, void *);

static void gsort(void *base, size_t n, size_t sz, cmp_ctx cmp, void *ctx)
{
	static const size_t gaps[] = { 57, 23, 10, 4, 1 };
	char *b = base;
	char tmp[64];
	if (sz > sizeof tmp)
		return;
	for (unsigned g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
		size_t gap = gaps[g];
		if (gap >= n)
			continue;
		for (size_t i = gap; i < n; i++) {
			memcpy(tmp, b + i * sz, sz);
			size_t j = i;
			while (j >= gap && cmp(b + (j - gap) * sz, tmp, ctx) > 0) {
				memcpy(b + j * sz, b + (j - gap) * sz, sz);
				j -= gap;
			}
			if (j != i)
				memcpy(b + j * sz, tmp, sz);
		}
	}
}

struct modctx { int mod; int calls; int reverse; };

static int cmp_mod(const void *a, const void *b, void *c)
{
	struct modctx *m = c;
	int x = *(const int *)a % m->mod, y = *(const int *)b % m->mod;
	m->calls++;
	int r = (x > y) - (x < y);
	return m->reverse ? -r : r;
}

static int cmp_rec_field(const void *a, const void *b, void *c)
{
	size_t off = *(size_t *)c;
	int x, y;
	memcpy(&x, (const char *)a + off, sizeof x);
	memcpy(&y, (const char *)b + off, sizeof y);
	return x < y ? -1 : x > y;
}

static int is_sorted(const void *base, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
	const char *b = base;
	for (size_t i = 1; i < n; i++)
		if (cmp(b + (i - 1) * sz, b + i * sz) > 0)
			return 0;
	return 1;
}

static const char *const words[] = { "alpha", "bravo", "charlie", "delta", "echo",
	"foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima" };

static void make_recs(void)
{
	for (int i = 0; i < N; i++) {
		recs[i].key = (int)(rnd() % 5000);
		recs[i].grp = (short)(rnd() % 7);
		snprintf(recs[i].name, sizeof recs[i].name, "%s%u", words[rnd() % 12], rnd() % 100);
		recs[i].score = (rnd() % 1000) / 8.0;
	}
}

/* Parse "k=v;k=v;..." with strchr/strspn/strtol, returning a checksum. */
static long parse_kv(const char *s, int *bad)
{
	long sum = 0;
	while (*s) {
		s += strspn(s, " ;");
		if (!*s)
			break;
		const char *eq = strchr(s, '=');
		const char *semi = strchr(s, ';');
		if (!eq || (semi && semi < eq)) {
			(*bad)++;
			if (!semi)
				break;
			s = semi + 1;
			continue;
		}
		size_t klen = (size_t)(eq - s);
		char *end;
		long v = strtol(eq + 1, &end, 0);
		if (end == eq + 1) {
			(*bad)++;
		} else {
			sum += v * (long)klen;
			if (*end && *end != ';')
				(*bad)++;
		}
		s = semi ? semi + 1 : s + strlen(s);
	}
	return sum;
}

static int count_byte(const char *buf, size_t n, int c)
{
	int k = 0;
	const char *p = buf, *e = buf + n;
	while ((p = memchr(p, c, (size_t)(e - p))) != NULL) {
		k++;
		p++;
	}
	return k;
}

int main(int argc, char **argv)
{
	unsigned long check = 0;
	long argsum = 0;
	int argbad = 0;
	for (int i = 1; i < argc; i++) {
		char *end;
		long v = strtol(argv[i], &end, 0);
		if (*end)
			argbad++;
		argsum += v;
	}
	printf("args %d sum %ld bad %d\n", argc - 1, argsum, argbad);

	make_recs();
	qsort(recs, N, sizeof recs[0], by_key);
	printf("by_key sorted=%d first=%d last=%d cmp=%ld\n", is_sorted(recs, N, sizeof recs[0], by_key),
	       recs[0].key, recs[N - 1].key, ncmp);
	int found = 0, missed = 0;
	for (int k = 0; k < 5000; k += 17) {
		struct rec probe = { .key = k };
		struct rec *r = bsearch(&probe, recs, N, sizeof recs[0], by_key);
		if (r) {
			found++;
			check += (unsigned long)(r - recs);
		} else {
			missed++;
		}
	}
	printf("bsearch found %d missed %d\n", found, missed);

	qsort(recs, N, sizeof recs[0], by_grp_then_name);
	printf("grp sorted=%d %s/%d .. %s/%d\n", is_sorted(recs, N, sizeof recs[0], by_grp_then_name),
	       recs[0].name, recs[0].grp, recs[N - 1].name, recs[N - 1].grp);
	qsort(recs, N, sizeof recs[0], by_score_desc);
	printf("score top %.3f bottom %.3f\n", recs[0].score, recs[N - 1].score);

	int ints[200];
	for (int i = 0; i < 200; i++)
		ints[i] = (int)(rnd() % 10000);
	struct modctx mc = { 97, 0, 0 };
	gsort(ints, 200, sizeof ints[0], cmp_mod, &mc);
	mc.reverse = 1;
	mc.mod = 13;
	gsort(ints, 200, sizeof ints[0], cmp_mod, &mc);
	printf("gsort calls %d first %d last %d\n", mc.calls, ints[0], ints[199]);
	size_t off = offsetof(struct rec, key);
	gsort(recs, N, sizeof recs[0], cmp_rec_field, &off);
	printf("gsort recs sorted=%d\n", is_sorted(recs, N, sizeof recs[0], by_key));
	gsort(recs, N, 100, cmp_rec_field, &off); /* too large: refused */

	char buf[256];
	int bad = 0;
	long kv = 0;
	for (int i = 0; i < 60; i++) {
		int n = snprintf(buf, sizeof buf, "a=%u; bb=0x%x;ccc=%d;%s;dd=-%u%s;e=;f=07%u",
				 rnd() % 100, rnd() % 4096, (int)(rnd() % 50) - 25,
				 i % 5 == 0 ? "broken" : "x=1", rnd() % 9, i % 3 ? "" : "z", rnd() % 8);
		kv += parse_kv(buf, &bad);
		check += (unsigned long)count_byte(buf, (size_t)n, ';') + (unsigned long)count_byte(buf, (size_t)n, 'a');
	}
	char small[10];
	int need = snprintf(small, sizeof small, "%s-%s-%s", words[argc % 12], words[(argc + 1) % 12], words[(argc * 5) % 12]);
	printf("kv %ld bad %d need %d small '%s'\n", kv, bad, need, small);

	for (int i = 0; i < N; i++)
		check = check * 131 + (unsigned long)recs[i].key + (unsigned long)recs[i].grp;
	printf("check %lu cmp %ld\n", check, ncmp);
	return 0;
}
