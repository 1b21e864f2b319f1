/* Selects on a residue that gcc -O2 computes without a branch
 * (`i % 7 == 0 ? 2 : 1`: rem by a constant, seqz, add): no trace can tell
 * how often each way of the gcno condition ran, only their sum. The equal
 * way runs about once in K; the -fprofile-use build follows that split. */
#include <stdio.h>

static unsigned seed = 12345u;

static unsigned next(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* Every fifth step weighs two. */
static long weigh(int n)
{
	long w = 0;
	for (int i = 0; i < n; i++) w += i % 5 == 0 ? 2 : 1;
	return w;
}

/* A residue compared with a value other than zero, on unsigned data. */
static unsigned mark(const unsigned *v, int n)
{
	unsigned m = 0;
	for (int i = 0; i < n; i++) m += v[i] % 9u == 4u ? 17u : 16u;
	return m;
}

/* The unequal way written first. */
static long skip3(int n)
{
	long s = 0;
	for (int i = 1; i <= n; i++) s += i % 3 != 0 ? 6 : 5;
	return s;
}

int main(void)
{
	static unsigned v[600];
	for (int i = 0; i < 600; i++) v[i] = next();
	long t = 0;
	for (int r = 0; r < 6; r++) t += weigh(700 + r * 50);
	printf("weigh %ld\n", t);
	printf("mark %u\n", mark(v, 600));
	printf("skip3 %ld\n", skip3(900));
	int hist[4] = { 0 };
	for (int i = 0; i < 400; i++) { unsigned x = next(); hist[x & 3] += x % 11u == 7u ? 0 : (int)(x & 7); }
	printf("hist %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
	return 0;
}
