/* threaded: tests gcc -O1/-O2 resolves on some paths into them (jump
 * threading, loop header copying, the first iteration of a loop over a
 * constant start): a `found` flag tested after a search loop left by
 * `break`, the same variable tested twice, bool helpers inlined into
 * callers that test their result again, `i == 0` in a loop body, noreturn
 * error paths in inlined helpers, a switch falling through into a goto
 * chain, search loops with `break` and `continue`, loops over a constant
 * start calling inlined digit counters (the first round's test gone),
 * a flag set before `break` or `goto` out of nested loops. loops.c:
 * loops unrolled completely, setjmp/longjmp through inlined helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threaded.h"

#define N 64

/* Calls of the functions below: each stores, so none is pure. */
static long calls;
static unsigned seed = 12345u;
static int tab[N];
static int hits[8];

static unsigned rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 8;
}

/* Inlined into every caller, with a noreturn path no run takes. */
static inline int checked(int v)
{
	if (__builtin_expect(v < -1000000, 0)) {
		fprintf(stderr, "bad value %d\n", v);
		exit(3);
	}
	return v;
}

/* A flag set before `break`: the path that breaks already knows it. */
__attribute__((noinline)) static int find_flag(int key, int lim)
{
	calls++;
	int found = 0, at = -1;
	for (int i = 0; i < lim; i++) {
		if (tab[i] == key) {
			found = 1;
			at = i;
			break;
		}
	}
	if (found)
		hits[0]++;
	else
		hits[1]++;
	return found ? at : -1;
}

/* The same variable tested twice, with work between. */
__attribute__((noinline)) static int twice(int x, int y)
{
	calls++;
	int r = 0;
	if (x > 10)
		r += y * 3;
	r ^= y;
	if (x > 10)
		r -= 7;
	else
		r += x;
	return checked(r);
}

static inline int is_small(int v)
{
	return v >= 0 && v < 16;
}

static inline int is_even(int v)
{
	return (v & 1) == 0;
}

/* Bool helpers whose results the caller tests again. */
__attribute__((noinline)) static int classify(int v)
{
	calls++;
	int s = is_small(v), e = is_even(v);
	if (s && e)
		return 1;
	if (s)
		return 2;
	if (e && v > 100)
		return 3;
	return is_small(v - 16) ? 4 : 0;
}

/* `i == 0` in a loop over a constant start: the first iteration's
 * test is known. */
__attribute__((noinline)) static long firsts(int n)
{
	calls++;
	long s = 0;
	for (int i = 0; i < n; i++) {
		if (i == 0)
			s += 100;
		else if (i == 1)
			s += tab[i] * 2;
		else
			s += tab[i] - tab[i - 1];
	}
	return s;
}

/* Search with `continue` past some entries and `break` at a bound. */
__attribute__((noinline)) static int scan(int lo, int hi)
{
	calls++;
	int n = 0, last = -1;
	for (int i = 0; i < N; i++) {
		if (tab[i] < lo)
			continue;
		if (tab[i] > hi)
			break;
		if (tab[i] == last)
			continue;
		last = tab[i];
		n++;
	}
	return n * 100 + (last & 63);
}

/* A state variable the loop tests every round: threading turns the
 * transitions into direct jumps. */
__attribute__((noinline)) static int machine(const char *s)
{
	calls++;
	int state = 0, words = 0, digits = 0;
	for (; *s; s++) {
		int c = (unsigned char)*s;
		if (state == 0) {
			if (c >= '0' && c <= '9') {
				state = 2;
				digits++;
			} else if (c != ' ') {
				state = 1;
				words++;
			}
		} else if (state == 1) {
			if (c == ' ')
				state = 0;
		} else {
			if (c == ' ')
				state = 0;
			else if (c < '0' || c > '9')
				state = 1;
		}
	}
	return words * 100 + digits * 10 + state;
}

/* Fallthrough into a goto chain. */
__attribute__((noinline)) static int ladder(int k)
{
	calls++;
	int r = 0;
	switch (k & 7) {
	case 0:
		r += 1;
		/* fall through */
	case 1:
		r += 2;
		goto mid;
	case 2:
	case 3:
		r += 4;
		/* fall through */
	case 4:
		r *= 3;
		goto tail;
	case 5:
		break;
	default:
		r = k;
		goto done;
	}
	r += 5;
mid:
	r <<= 1;
tail:
	r ^= k;
done:
	return r;
}

/* Two conditions sharing a variable (`a == b && b == c` after a test
 * that decided `a != c`). */
__attribute__((noinline)) static int triple(int a, int b, int c)
{
	calls++;
	if (a != c && (a & 3) == 0)
		return -1;
	if (a == b && b == c)
		return 3;
	if (a == b || b == c)
		return 2;
	return a == c;
}

/* Digits of v, tail-recursive (a loop once inlined). */
static inline int ndig_rec(unsigned long v, int acc)
{
	if (v < 10)
		return acc + 1;
	return ndig_rec(v / 10, acc + 1);
}

static inline int ndig(unsigned long v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Loops over a constant start calling the inlined digit counters: the
 * first round's count is known, its test gone, its way copied. */
__attribute__((noinline)) static long peel_for(unsigned long stop)
{
	long s = 0;
	calls++;
	for (unsigned long v = 1; v < stop; v = v * 3 + 7)
		s += ndig_rec(v, 0);
	return s;
}

__attribute__((noinline)) static long peel_do(unsigned long stop)
{
	long s = 0;
	unsigned long v = 2;
	calls++;
	do {
		s += ndig(v);
		v = v * 5 + 1;
	} while (v < stop);
	return s;
}

__attribute__((noinline)) static long peel_if(int n)
{
	long s = 0;
	calls++;
	for (int i = 0; i < n; i++) {
		int d = ndig_rec((unsigned)i * 37u, 0);
		if (d > 2)
			s += d;
		else
			s -= d;
	}
	return s;
}

__attribute__((noinline)) static long peel_break(unsigned long stop)
{
	long s = 0;
	calls++;
	for (unsigned long v = 3;; v = v * 7 + 2) {
		s += ndig_rec(v, 0);
		if (v > stop)
			break;
		hits[7]++;
	}
	return s;
}

/* A search loop with three exits, the first two setting a flag that
 * is tested again after the loop. */
__attribute__((noinline)) static int multi_exit(int key, int n)
{
	int i, r = 0;
	calls++;
	for (i = 0; i < n; i++) {
		if (tab[i] == key) {
			r = 1;
			break;
		}
		if (tab[i] > key + 150) {
			r = 2;
			break;
		}
		if (tab[i] < -19)
			return -i;
	}
	if (r == 1)
		hits[3]++;
	else if (r == 2)
		hits[4]++;
	return r * 100 + i;
}

/* A switch on a state each case sets for the next character. */
__attribute__((noinline)) static int sw_state(const char *s)
{
	int st = 0, n = 0;
	calls++;
	for (; *s; s++) {
		switch (st) {
		case 0:
			if (*s == 'a')
				st = 1;
			else
				n++;
			break;
		case 1:
			if (*s == 'b')
				st = 2;
			else
				st = 0;
			break;
		default:
			n += 10;
			st = 0;
			break;
		}
	}
	return n + st;
}

/* `goto` out of two loops, then a test of the flag it set. */
__attribute__((noinline)) static int nested_goto(int lim)
{
	int found = 0, i, j;
	calls++;
	for (i = 1; i < 20; i++)
		for (j = 1; j < 20; j++)
			if (i * j == lim) {
				found = 1;
				goto out;
			}
out:
	if (found)
		return i * 100 + j;
	return -1;
}

int main(void)
{
	for (int i = 0; i < N; i++)
		tab[i] = (int)(rnd() % 200) - 20;
	long acc = 0;
	for (int k = 0; k < 40; k++)
		acc += find_flag((int)(rnd() % 220) - 20, N - k);
	for (int k = 0; k < 50; k++)
		acc += twice(k % 23, k * 5 - 60);
	for (int v = -4; v < 130; v++)
		hits[2 + classify(v) % 6]++;
	acc += firsts(N) + firsts(1) + firsts(0) + firsts(2);
	for (int k = 0; k < 12; k++)
		acc += scan(k * 7 - 20, 60 + k * 11);
	acc += machine("abc 12 x9 9x  77 q  ");
	acc += machine("1 22 333 a bb 4444 c5 ");
	for (int k = 0; k < 30; k++)
		acc += ladder(k * 3 + (k >> 2));
	for (int k = 0; k < 64; k++)
		acc += triple(k & 3, (k >> 2) & 3, (k >> 4) & 3);
	acc += peel_for(4000000000000ul) + peel_for(2) + peel_do(900000000ul);
	acc += peel_if(40) + peel_break(10000000000ul) + peel_break(1);
	for (int k = 0; k < 30; k++)
		acc += multi_exit((int)(rnd() % 200) - 20, N - k);
	acc += sw_state("abxaabab ba aab") + sw_state("bbbb") + sw_state("ab");
	for (int k = 1; k < 400; k += 17)
		acc += nested_goto(k);
	printf("calls %ld acc %ld hits", calls, acc);
	for (int i = 0; i < 8; i++)
		printf(" %d", hits[i]);
	printf("\n");
	run_loops();
	return 0;
}
