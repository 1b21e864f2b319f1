/* Function shapes gcc -O2 clones or rewrites: ipa-cp specialisations
 * (`.constprop.N`) of functions called with constant arguments, ipa-sra
 * (`.isra.N`) of functions reading a few fields of a struct or ignoring a
 * parameter, a function whose only caller passes a constant, `flatten`, `noipa`,
 * hot and cold callees, mutual tail recursion gcc turns into jumps, an
 * always_inline chain five deep from a header (chain.h) in two units, and
 * pure functions called with loop-invariant arguments. */
#include <stdio.h>
#include <string.h>
#include "chain.h"

struct rec {
	int id;		/* record number */
	int kind;	/* 0..3 */
	long weight;	/* summed by weigh */
	int pad[6];	/* never read */
	char tag[8];	/* name, read by first letter only */
};

static struct rec recs[64];
static int data[256];

/* Scales and sums v; called with factor 3 twice and once with a variable factor,
 * so gcc -O2 makes a .constprop clone for factor 3. */
static __attribute__((noinline)) long scale(const int *v, int n, int factor)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] % factor == 0)
			s += v[i] / factor;
		else if (factor > 4)
			s -= factor;
		else
			s += v[i] & factor;
	}
	return s;
}

/* Reads two fields of the record through a pointer and ignores its third
 * parameter: gcc -O2 passes the fields by value (.isra). */
static __attribute__((noinline)) long weigh(const struct rec *r, int unused, int bias)
{
	(void)unused;
	if (r->kind == 2)
		return r->weight * 2 + bias;
	return r->weight - bias;
}

/* Reads the first letter of a tag only. */
static __attribute__((noinline)) int tag_class(const struct rec *r)
{
	switch (r->tag[0]) {
	case 'a': return 1;
	case 'b': return 2;
	case 'z': return 26;
	default: return 0;
	}
}

/* Only caller passes 40: ipa-cp propagates it into the body. */
static __attribute__((noinline)) int limit(int n)
{
	int c = 0;
	for (int i = 0; i < 256; i++)
		if (data[i] % n == 7)
			c++;
	return c;
}

/* Never inlined nor analysed across calls. */
static __attribute__((noipa)) int opaque(int x)
{
	return x * 7 + (x >> 3);
}

/* A rarely taken path, placed in .text.unlikely. */
static __attribute__((cold, noinline)) int slow_path(int x)
{
	int s = 0;
	for (int i = 0; i < (x & 15); i++)
		s += i * x;
	return s;
}

/* A hot callee. */
static __attribute__((hot, noinline)) int fast_path(int x)
{
	return (x ^ (x >> 4)) & 1023;
}

/* Helpers inlined into `flattened` (flatten inlines the whole call tree). */
static int step_a(int x) { return x + (x & 3); }
static int step_b(int x)
{
	if (x > 100)
		return x - 100;
	return step_a(x) * 2;
}
static int step_c(int x) { int s = 0; while (x > 1) { s++; x = (x & 1) ? 3 * x + 1 : x / 2; if (s > 40) break; } return s; }

/* Everything it calls inlined into it. */
static __attribute__((flatten, noinline)) int flattened(int x)
{
	int r = step_b(x) + step_c(x & 127);
	if (r & 1)
		r += step_a(r);
	return r;
}

static int odd_st(const char *s, int n);
static int sep_st(const char *s, int n);

/* Three-state scanner by mutual tail calls: gcc -O2 turns them into jumps. */
static __attribute__((noinline)) int even_st(const char *s, int n)
{
	if (*s == 0)
		return n;
	if (*s == ',')
		return sep_st(s + 1, n);
	return odd_st(s + 1, n + 1);
}

static __attribute__((noinline)) int odd_st(const char *s, int n)
{
	if (*s == 0)
		return -n;
	if (*s == ',')
		return sep_st(s + 1, n);
	return even_st(s + 1, n + 2);
}

static __attribute__((noinline)) int sep_st(const char *s, int n)
{
	if (*s == ',')
		return sep_st(s + 1, n + 10);
	return even_st(s, n);
}

/* Sums the first k values: no stores, so gcc finds it pure and may hoist
 * a call with loop-invariant arguments out of the loop (the
 * instrumented build's counter updates keep it impure there). */
static __attribute__((noinline)) int head_sum(const int *v, int k)
{
	int s = 0;
	for (int i = 0; i < k; i++)
		s += v[i];
	return s;
}

/* Reads a table entry and tests it: pure as well. */
static __attribute__((noinline)) int big_at(int i)
{
	if (data[i & 255] > 2000)
		return data[i & 255] >> 4;
	return 0;
}

/* Picks a path by the value's bits; the cold one seldom. */
static int dispatch(int x)
{
	if (__builtin_expect(x % 97 == 0, 0))
		return slow_path(x);
	return fast_path(x) + opaque(x & 31);
}

int main(void)
{
	unsigned seed = 12345;
	long total = 0;
	int i;

	for (i = 0; i < 256; i++) {
		seed = seed * 1664525u + 1013904223u;
		data[i] = (int)(seed >> 20);
	}
	for (i = 0; i < 64; i++) {
		recs[i].id = i;
		recs[i].kind = data[i] & 3;
		recs[i].weight = data[i + 64];
		memset(recs[i].pad, 0, sizeof recs[i].pad);
		recs[i].tag[0] = "abzq"[data[i + 128] & 3];
		recs[i].tag[1] = 0;
	}

	total += scale(data, 256, 3);
	total += scale(data + 10, 100, 3);
	total += scale(data, 64, (data[5] & 7) + 1);
	total += scale(data + 30, 200, 3);
	printf("scale %ld\n", total);

	long w = 0;
	int tc = 0;
	for (int round = 0; round < 4; round++)
		for (i = 0; i < 64; i++) {
			w += weigh(&recs[i], i, round);
			tc += tag_class(&recs[i]);
		}
	printf("weigh %ld tags %d\n", w, tc);
	printf("limit %d\n", limit(40));

	long d = 0, f = 0, m = 0;
	for (i = 0; i < 1500; i++) {
		d += dispatch(i * 13 + 1);
		f += flattened(i & 511);
	}
	for (i = 0; i < 250; i++)
		m += ch1(i & 127) + ext_mix(i, data[i & 255]);
	printf("dispatch %ld flat %ld chain %ld\n", d, f, m);

	static const char *texts[] = { "abc,de,,f", "", ",,,", "xyzzy", "a,b,c,d,e,f,g",
				       "hello,,world,", "q" };
	int st = 0;
	for (int r = 0; r < 30; r++)
		for (i = 0; i < 7; i++)
			st += even_st(texts[i], r);
	printf("states %d\n", st);

	/* Calls with loop-invariant arguments: hoisted out of the loop, or
	 * the loop folded away around a single call. */
	long h = 0;
	int last = 0;
	for (i = 0; i < 40; i++) {
		h += head_sum(data, 16) + i;
		if (big_at(7) > 100)
			h++;
	}
	for (i = 0; i < 25; i++)
		last = head_sum(data + 3, 5);
	printf("hoisted %ld %d\n", h, last);
	printf("walk %d %d %d\n", ext_walk(data, 256, 0), ext_walk(data, 200, 1),
	       ext_walk(data + 3, 150, 2));
	return 0;
}
