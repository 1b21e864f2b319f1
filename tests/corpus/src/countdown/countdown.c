/* countdown: `do { ... } while (--n)` countdown loops, loops with two
 * induction variables leaving on `i != j`, a two-pointer scan from both
 * ends, memoized recursion with several early outs, and a loop left by
 * `break` from a nested `if` deep in its body. */
#include <stdio.h>

static long sink;
static unsigned seed = 4242u;

static unsigned rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* Sums n bytes from p backwards; n > 0. */
__attribute__((noinline)) static unsigned sum_down(const unsigned char *p, unsigned n)
{
	unsigned s = 0;
	do {
		s += p[n - 1];
		if (p[n - 1] == 0)
			sink++;
	} while (--n);
	return s;
}

/* Reverses a[0..n) in place with i rising and j falling until they meet. */
__attribute__((noinline)) static void reverse(int *a, int n)
{
	int i = 0, j = n - 1;
	while (i < j) {
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
		i++;
		j--;
	}
	sink += n;
}

/* Walks i up by 1 and j up by 2 modulo m until they meet. */
__attribute__((noinline)) static int meet(int m, int j0)
{
	int i = 0, j = j0 % m, steps = 0;
	while (i != j) {
		i = (i + 1) % m;
		j = (j + 2) % m;
		steps++;
		if (steps > 3 * m) {
			sink--;
			return -1;
		}
	}
	return steps;
}

/* Two-pointer search for a pair summing to target in sorted a. */
__attribute__((noinline)) static int pair_sum(const int *a, int n, int target)
{
	int i = 0, j = n - 1;
	while (i != j) {
		int s = a[i] + a[j];
		if (s == target)
			return i * 1000 + j;
		if (s < target)
			i++;
		else
			j--;
	}
	sink++;
	return -1;
}

static long memo[64];
static unsigned char known[64];

/* Number of ways to climb n steps by 1, 2 or 5, with early outs. */
__attribute__((noinline)) static long ways(int n)
{
	if (n < 0)
		return 0;
	if (n == 0)
		return 1;
	if (known[n])
		return memo[n];
	long w = ways(n - 1) + ways(n - 2);
	if (n >= 5)
		w += ways(n - 5);
	memo[n] = w % 1000000007;
	known[n] = 1;
	sink++;
	return memo[n];
}

/* Counts down k from n, stopping when a hit is found deep in the body. */
__attribute__((noinline)) static int find_down(const int *a, int n, int lim)
{
	int k = n;
	int hits = 0;
	do {
		k--;
		if (a[k] > lim) {
			hits++;
			if (a[k] > 2 * lim) {
				if ((a[k] & 3) == 0)
					break;
				sink += a[k];
			}
		}
	} while (k > 0);
	return hits * 100 + k;
}

int main(void)
{
	unsigned char buf[256];
	unsigned s = 0;
	for (int i = 0; i < 256; i++)
		buf[i] = (unsigned char)(rnd() % 5 == 0 ? 0 : rnd());
	for (unsigned n = 1; n <= 256; n += 5)
		s += sum_down(buf, n);
	printf("sum_down %u\n", s);

	int a[100];
	for (int i = 0; i < 100; i++)
		a[i] = i * 3 + (int)(rnd() % 3);
	for (int n = 0; n < 100; n += 7)
		reverse(a, n);
	unsigned long chk = 0;
	for (int i = 0; i < 100; i++)
		chk = chk * 31 + a[i];
	printf("reverse %lu\n", chk);

	int ms = 0;
	for (int m = 1; m < 40; m++)
		for (int j = 0; j < 5; j++)
			ms += meet(m, j * 7 + 1);
	printf("meet %d\n", ms);

	int b[60];
	int v = 0;
	for (int i = 0; i < 60; i++) {
		v += 1 + (int)(rnd() % 9);
		b[i] = v;
	}
	int ps = 0;
	for (int t = 0; t < 600; t += 13)
		ps += pair_sum(b, 60, t);
	printf("pair %d\n", ps);

	long w = 0;
	for (int n = 60; n >= 0; n -= 3) {
		if (n % 9 == 0)
			for (int k = 0; k < 64; k++)
				known[k] = 0;
		w += ways(n);
	}
	printf("ways %ld\n", w);

	int c[80];
	int fd = 0;
	for (int r = 0; r < 30; r++) {
		for (int i = 0; i < 80; i++)
			c[i] = (int)(rnd() % 100);
		fd += find_down(c, 80, 30 + r);
	}
	printf("find %d sink %ld\n", fd, sink);
	return 0;
}
