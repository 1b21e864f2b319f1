/* Dense and sparse switches, several conditions on one line, tail calls between
 * functions, loops gcc unrolls completely, turns into library calls or rotates. */
#include <stdio.h>
#include <string.h>

/* Dense cases 0..9: a jump table. */
static int dense(int op, int a, int b)
{
	switch (op) {
	case 0: return a + b;
	case 1: return a - b;
	case 2: return a * b;
	case 3: return b ? a / b : 0;
	case 4: return a & b;
	case 5: return a | b;
	case 6: return a ^ b;
	case 7: return a << (b & 7);
	case 8: return a >> (b & 7);
	case 9: return a > b ? a : b;
	default: return -1;
	}
}

/* Sparse cases: a tree of compares. */
static int sparse(unsigned code)
{
	switch (code) {
	case 3: return 1;
	case 70: return 2;
	case 404: return 3;
	case 1000: return 4;
	case 4096: return 5;
	case 65535: return 6;
	case 100000: return 7;
	default: return 0;
	}
}

/* Several conditions on one line each. */
static int pick(int a, int b, int c)
{
	int r = 0;

	if ((a > 0 && b > 0) || c > 0) r += 1;
	if ((a & 1) || ((b & 2) && !(c & 4))) r += 2;
	r += (a < b && b < c) ? 4 : (a == c || b == c) ? 8 : 0;
	return r;
}

static int is_odd(unsigned n);

/* Mutual tail calls: at -O2 each is a jump into the other. */
__attribute__((noinline)) static int is_even(unsigned n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

/* Tail-recursive: a loop after tail recursion elimination. */
static unsigned gcd(unsigned a, unsigned b)
{
	if (b == 0)
		return a;
	return gcd(b, a % b);
}

/* A tail call to one of two functions. */
__attribute__((noinline)) static int parity_of(unsigned n, int want_odd)
{
	if (want_odd)
		return is_odd(n);
	return is_even(n);
}

/* A constant trip count loop: unrolled completely at -O2. */
static unsigned mix4(const unsigned *k)
{
	unsigned h = 2166136261u;

	for (int i = 0; i < 4; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

/* Loops with a variable stride and an early exit. */
static long strided(const int *v, int n, int stride, int stop)
{
	long s = 0;

	for (int i = 0; i < n; i += stride) {
		if (v[i] == stop)
			break;
		if (v[i] < 0)
			continue;
		s += v[i];
	}
	return s;
}

int main(void)
{
	static int v[256];
	unsigned k[4];
	long acc = 0;
	unsigned h = 0;

	for (int i = 0; i < 256; i++)
		v[i] = 0;
	for (int i = 0; i < 256; i++)
		v[i] = (i * 37 + 11) % 101 - 20;
	for (int r = 0; r < 300; r++) {
		int a = (r * 7) % 23 - 5, b = (r * 13) % 17 - 4, c = (r * 5) % 11 - 5;
		acc += dense(r % 12, a, b);
		acc += sparse(r % 5 == 0 ? 404 : r % 7 == 0 ? 65535 : (unsigned)r);
		acc += pick(a, b, c);
		acc += is_even((unsigned)r % 40) + parity_of((unsigned)r % 9, r & 1);
		acc += gcd((unsigned)r + 1, 360);
		k[0] = (unsigned)r;
		k[1] = (unsigned)a;
		k[2] = (unsigned)b;
		k[3] = (unsigned)c;
		h ^= mix4(k);
		acc += strided(v, 256, 1 + r % 4, r % 3 ? 50 : 1000);
	}
	printf("acc=%ld h=%08x\n", acc, h);
	return 0;
}
