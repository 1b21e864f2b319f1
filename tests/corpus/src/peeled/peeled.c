/* peeled: loops gcc likes to peel, unswitch or version at -O2. */
#include <stdio.h>

#define N 200

static unsigned long seed = 987654321;
static int data[N];
static int out[N];

static unsigned lcg(void)
{
	seed = seed * 1103515245UL + 12345UL;
	return (unsigned)(seed >> 16) & 0x7fffffff;
}

/* Loop-invariant condition inside the loop: unswitching. */
__attribute__((noinline)) static long scale(int mode, int k)
{
	long s = 0;
	for (int i = 0; i < N; i++) {
		int v;
		if (mode)
			v = data[i] * k;
		else
			v = data[i] + k;
		out[i] = v;
		s += v;
	}
	return s;
}

/* Two invariant conditions, one of them nested. */
__attribute__((noinline)) static long filter(int mode, int neg, int lim)
{
	long s = 0;
	for (int i = 0; i < lim; i++) {
		if (mode == 2) {
			if (neg) s -= data[i];
			else s += data[i];
		} else if (data[i] & 1) {
			s += i;
		}
	}
	return s;
}

/* Tiny constant trip counts: complete peeling. */
__attribute__((noinline)) static int powers3(int x)
{
	int acc = 0;
	for (int v = 1; v < 100; v *= 3)
		acc += (x % v == 0) ? v : 1;
	return acc;
}

__attribute__((noinline)) static int small4(int x)
{
	int acc = x;
	for (int i = 0; i < 4; i++) {
		if (acc & 1) acc = acc * 3 + 1;
		else acc >>= 1;
	}
	return acc;
}

/* Tail-recursive helpers turned into loops. */
static int gcd(int a, int b)
{
	if (b == 0) return a;
	return gcd(b, a % b);
}

static int digsum(int n, int acc)
{
	if (n < 10) return acc + n;
	return digsum(n / 10, acc + n % 10);
}

__attribute__((noinline)) static int collatz_len(unsigned n, int steps)
{
	if (n <= 1) return steps;
	if (n & 1) return collatz_len(3 * n + 1, steps + 1);
	return collatz_len(n / 2, steps + 1);
}

/* Exit test resolved on the first iteration for most inputs. */
__attribute__((noinline)) static int first_nonzero(const int *a, int n)
{
	int i = 0;
	while (i < n && a[i] == 0)
		i++;
	return i;
}

__attribute__((noinline)) static int count_once(int x)
{
	int n = 0;
	do {
		n++;
		x >>= 4;
	} while (x > 1000000);
	return n;
}

/* Loop with a peelable first iteration (i == 0 special). */
__attribute__((noinline)) static long diffs(int n)
{
	long s = 0;
	int prev = 0;
	for (int i = 0; i < n; i++) {
		if (i == 0) {
			prev = data[0];
			continue;
		}
		int d = data[i] - prev;
		s += d < 0 ? -d : d;
		prev = data[i];
	}
	return s;
}

/* Versioning on stride. */
__attribute__((noinline)) static long strided(int stride, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += data[(i * stride) % N];
	return s;
}

/* Loop whose bound depends on a flag known only at run time. */
__attribute__((noinline)) static int search(int key, int backwards)
{
	for (int i = 0; i < N; i++) {
		int j = backwards ? N - 1 - i : i;
		if (data[j] == key) return j;
	}
	return -1;
}

int main(void)
{
	for (int i = 0; i < N; i++)
		data[i] = (int)(lcg() % 1000) - 300;
	long t = 0;
	for (int r = 0; r < 30; r++) {
		t += scale(r & 1, r);
		t += filter(r % 3, (r >> 2) & 1, N - r);
	}
	printf("scale/filter %ld\n", t);

	int p = 0;
	for (int x = 0; x < 400; x++)
		p += powers3(x) + small4(x);
	printf("powers %d\n", p);

	int g = 0, ds = 0, cl = 0;
	int x = 1000;
	while (x > 0) {
		g += gcd(x, 360);
		ds += digsum(x * 37, 0);
		x -= 7;
	}
	unsigned n = 1;
	while (n < 600) {
		cl += collatz_len(n, 0);
		n += 3;
	}
	printf("gcd %d digsum %d collatz %d\n", g, ds, cl);

	int zeros[8] = { 0, 0, 0, 5, 0, 0, 0, 0 };
	int fz = 0, co = 0;
	for (int r = 0; r < 300; r++) {
		fz += first_nonzero(data + (r % 100), 50);
		fz += first_nonzero(zeros, (r % 9));
		co += count_once((int)lcg());
	}
	printf("firstnz %d count %d\n", fz, co);

	long d = 0, st = 0;
	for (int r = 1; r < 40; r++) {
		d += diffs(r * 5);
		st += strided(r % 5 + 1, 100);
	}
	printf("diffs %ld strided %ld\n", d, st);

	int found = 0;
	for (int k = -300; k < 700; k += 37) {
		found += search(k, k & 1);
		found += search(data[(k + 300) % N], 0);
	}
	printf("search %d\n", found);
	return 0;
}
