/* threaded, second unit: loops gcc -O2 unrolls completely or whose
 * first rounds it resolves: small constant trip counts with a condition
 * inside (every copy its own test), a switch on the induction variable,
 * loops over a constant start calling inlined helpers with loops of
 * their own, list searches whose test gcc copies above the loop,
 * do-while loops, and longjmp out of helpers inlined into the function
 * that called setjmp. */
#include <setjmp.h>
#include <stdio.h>

#include "threaded.h"

/* Calls of the functions below: each stores, so none is pure. */
static long calls;
static unsigned seed = 4242u;
static int a[64];

struct node {
	int key;            /* search key */
	int val;            /* payload */
	struct node *next;  /* next in the list */
};

static struct node pool[40];
static struct node *head;

static jmp_buf env;
static int errors;

static unsigned rnd(void)
{
	seed = seed * 69069u + 1u;
	return seed >> 12;
}

/* Four copies of the test after complete unrolling. */
__attribute__((noinline)) static int max4(const int *p)
{
	calls++;
	int m = p[0];
	for (int k = 1; k < 4; k++)
		if (p[k] > m)
			m = p[k];
	return m;
}

/* A switch on the induction variable of a constant loop: each copy's
 * switch is resolved. */
__attribute__((noinline)) static int phases(int x)
{
	calls++;
	int r = 0;
	for (int i = 0; i < 4; i++) {
		switch (i) {
		case 0:
			r += x;
			break;
		case 1:
			if (x & 1)
				r *= 3;
			break;
		case 2:
			r -= x >> 1;
			break;
		default:
			if (r < 0)
				r = -r;
		}
	}
	return r;
}

/* A loop of its own, inlined into a loop over a constant start. */
static inline int bits_of(unsigned long v)
{
	int n = 0;
	while (v) {
		n += v & 1;
		v >>= 1;
	}
	return n;
}

static inline int log10i(unsigned long v)
{
	int n = 0;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

__attribute__((noinline)) static long sweep(unsigned long stop)
{
	calls++;
	long s = 0;
	for (unsigned long v = 1; v < stop; v = v * 2 + 3)
		s += bits_of(v) * 10 + log10i(v);
	for (unsigned long v = 0; v < 40; v += 7)
		s += log10i(v * v) + (v == 0 ? 5 : 1);
	return s;
}

/* `while (p && p->key != k)`: the test copied above the loop. */
__attribute__((noinline)) static int lookup(int k)
{
	calls++;
	struct node *p = head;
	while (p && p->key != k)
		p = p->next;
	return p ? p->val : -1;
}

/* do-while with an early `continue` to the test. */
__attribute__((noinline)) static int collatz(unsigned x)
{
	calls++;
	int n = 0;
	do {
		n++;
		if (x & 1) {
			x = 3 * x + 1;
			continue;
		}
		x >>= 1;
	} while (x > 1 && n < 200);
	return n;
}

static inline int need(int v, int lim)
{
	if (v > lim) {
		errors++;
		longjmp(env, v);
	}
	return v;
}

static inline int parse_digit(char c)
{
	return need(c - '0', 9);
}

/* Sums the digits of s; a non-digit unwinds to the setjmp here. */
__attribute__((noinline)) static int digits_sum(const char *s)
{
	volatile int sum = 0;
	int code = setjmp(env);
	if (code)
		return -code;
	for (const char *volatile p = s; *p; p++)
		sum += parse_digit(*p);
	return sum;
}

void run_loops(void)
{
	for (int i = 0; i < 64; i++)
		a[i] = (int)(rnd() % 1000) - 300;
	for (int i = 0; i < 40; i++) {
		pool[i].key = (i * 17) % 53;
		pool[i].val = i;
		pool[i].next = i + 1 < 40 ? &pool[i + 1] : NULL;
	}
	head = &pool[0];
	long acc = 0;
	for (int i = 0; i + 4 <= 64; i += 3)
		acc += max4(a + i);
	for (int i = 0; i < 64; i += 5)
		acc += phases(a[i]);
	acc += sweep(1000000000ul) + sweep(50);
	for (int k = 0; k < 60; k += 4)
		acc += lookup(k);
	for (unsigned x = 1; x < 30; x += 2)
		acc += collatz(x);
	static const char *const in[] = { "12345", "99a1", "", "7", "0:5", "4444" };
	for (unsigned i = 0; i < sizeof in / sizeof *in; i++)
		acc += digits_sum(in[i]);
	printf("loops: calls %ld acc %ld errors %d\n", calls, acc, errors);
}
