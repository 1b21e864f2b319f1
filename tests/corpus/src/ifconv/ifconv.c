/* ifconv: conditions gcc -O1/-O2 turns into straight-line code (if-
 * conversion: `if (a < b) n++` as slt and add, min/max/abs/clamp, a
 * conditional store, sign tests as shifts), bitfield updates under
 * conditions, strlen/memcmp/strcmp of constants expanded or folded,
 * varargs summed with a sentinel, a chain of tail calls, a static
 * function inlined into several callers and kept out of line for its
 * address, qsort and bsearch calling back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 96

static unsigned seed = 777u;
static int v[N];

struct flags {
	unsigned kind : 3;   /* 0..7 */
	unsigned big : 1;    /* value over 50 */
	unsigned neg : 1;    /* value under 0 */
	signed delta : 6;    /* clamped difference to the previous */
	unsigned seen : 5;   /* saturating counter */
};

static struct flags fl[N];
static long tally; /* calls of combo() */

static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 10) & 0xffff;
}

/* Counts of comparisons, no branches left at -O2. */
__attribute__((noinline)) static int count_less(const int *a, int n, int k)
{
	int c = 0;
	for (int i = 0; i < n; i++) {
		if (a[i] < k)
			c++;
		if (a[i] == k)
			c += 100;
	}
	return c;
}

__attribute__((noinline)) static long minmax(const int *a, int n)
{
	int lo = a[0], hi = a[0];
	long s = 0;
	for (int i = 1; i < n; i++) {
		lo = a[i] < lo ? a[i] : lo;
		if (a[i] > hi)
			hi = a[i];
		int m = a[i] < 0 ? -a[i] : a[i];
		s += m > 40 ? 40 : m;
	}
	return (long)lo * 1000 + hi + s;
}

static int clampi(int x, int lo, int hi)
{
	if (x < lo)
		return lo;
	if (x > hi)
		return hi;
	return x;
}

/* Inlined here and in bitfields(), and kept for its address. */
static int sign3(int x)
{
	return (x > 0) - (x < 0);
}

static int (*const sign_ptr)(int) = sign3;

__attribute__((noinline)) static int conds(int n)
{
	int t = 0;
	for (int i = 0; i < n; i++) {
		int x = v[i];
		t += sign3(x);
		t += clampi(x, -10, 10);
		if (x & 4)
			t ^= 1;
		if (x > 20 && x < 60)
			v[i] = x - 1; /* a conditional store */
	}
	return t;
}

__attribute__((noinline)) static int bitfields(int n)
{
	int prev = 0, s = 0;
	for (int i = 0; i < n; i++) {
		struct flags *f = &fl[i];
		f->kind = (unsigned)v[i] & 7;
		f->big = v[i] > 50;
		f->neg = v[i] < 0;
		f->delta = clampi(v[i] - prev, -32, 31);
		if (f->seen < 31)
			f->seen++;
		if (f->big && !f->neg)
			s += f->kind;
		else if (f->neg)
			s -= sign3(f->delta);
		prev = v[i];
	}
	return s;
}

/* Conditions joined by && and || over several lines, each cheap enough
 * for gcc to test the pair with one branch (ifcombine). */
__attribute__((noinline)) static int combo(int x, int y)
{
	int r = 0;
	tally++;
	if (x > 10 &&
	    y < 5)
		r += 3;
	if (x == 3 ||
	    x == 7)
		r += 1;
	if ((x & 1) &&
	    (y & 2))
		r ^= 8;
	if (x < 0 ||
	    y < 0 ||
	    x + y > 60)
		r -= 2;
	return r;
}

/* Sums its int arguments up to a 0. */
__attribute__((noinline)) static int vsum(int first, ...)
{
	va_list ap;
	int s = first, x;
	va_start(ap, first);
	while ((x = va_arg(ap, int)) != 0)
		s += x > 0 ? x : -x * 2;
	va_end(ap);
	return s;
}

/* Constant strings: strlen folded, memcmp/strcmp against a constant. */
__attribute__((noinline)) static int keyword(const char *w)
{
	size_t n = strlen(w);
	if (n == strlen("while") && memcmp(w, "while", 5) == 0)
		return 1;
	if (strcmp(w, "if") == 0)
		return 2;
	if (n >= 3 && memcmp(w, "for", 3) == 0)
		return 3;
	if (strncmp(w, "ret", 3) == 0)
		return 4;
	return 0;
}

/* Tail calls: each step returns the next one's result. */
__attribute__((noinline)) static int step_c(int x, int d);

__attribute__((noinline)) static int step_a(int x, int d)
{
	if (d <= 0)
		return x;
	return step_c(x + 3, d - 1);
}

__attribute__((noinline)) static int step_b(int x, int d)
{
	if (x & 1)
		return step_a(x * 3, d);
	return step_a(x / 2, d - 1);
}

__attribute__((noinline)) static int step_c(int x, int d)
{
	if (x > 1000)
		return step_b(x % 997, d);
	return step_b(x + d, d);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmp_abs(const void *a, const void *b)
{
	int x = abs(*(const int *)a), y = abs(*(const int *)b);
	if (x != y)
		return x < y ? -1 : 1;
	return cmp_int(a, b);
}

int main(void)
{
	for (int i = 0; i < N; i++)
		v[i] = (int)(rnd() % 160) - 50;
	long acc = 0;
	for (int k = -40; k < 100; k += 9)
		acc += count_less(v, N, k);
	acc += minmax(v, N) + minmax(v + 10, 20);
	acc += conds(N) + conds(N / 2);
	acc += bitfields(N) + bitfields(N);
	for (int i = 0; i < 8; i++)
		acc += sign_ptr(v[i]) * i;
	for (int k = 0; k < 120; k++)
		acc += combo(v[k % N] / 4, (v[(k * 7) % N] & 31) - 3);
	acc += vsum(1, 2, -3, 4, 0) + vsum(5, 0) + vsum(-1, -2, -3, -4, -5, 9, 0);
	static const char *const words[] = {
		"while", "if", "format", "return", "x", "for", "whale", "iff",
		"retry", "fo",
	};
	for (int r = 0; r < 3; r++)
		for (unsigned i = 0; i < sizeof words / sizeof *words; i++)
			acc += keyword(words[i]) * (int)(i + 1);
	for (int k = 0; k < 20; k++)
		acc += step_c(k * 37, k % 9);
	int sorted[N];
	memcpy(sorted, v, sizeof sorted);
	qsort(sorted, N, sizeof *sorted, cmp_int);
	int found = 0;
	for (int k = -60; k < 120; k += 7)
		found += bsearch(&k, sorted, N, sizeof *sorted, cmp_int) != NULL;
	qsort(sorted, N, sizeof *sorted, cmp_abs);
	printf("tally %ld acc %ld found %d first %d %d last %d\n", tally, acc, found, sorted[0],
	       sorted[1], sorted[N - 1]);
	return 0;
}
