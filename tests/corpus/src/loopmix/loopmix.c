/* Loop shapes: `#pragma GCC unroll 4` and `8` over variable trip counts (an
 * unrolled body plus a remainder), loops with several exits (break, return and
 * goto out of one loop), loops gcc -O2 distributes into memset/memcpy calls next
 * to a remaining loop, a search loop with an early exit in its first iteration,
 * and one long function of well over 100 basic blocks mixing switches, loops and
 * conditions. */
#include <stdio.h>
#include <stdint.h>

#define N 512

static int a[N], b[N], c[N];
static unsigned char bytes[N];
static uint32_t seed = 0xdeadbeefu;

/* Next number of a fixed xorshift generator. */
static uint32_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* Sum of v[0..n) unrolled by four. */
static __attribute__((noinline)) long sum4(const int *v, int n)
{
	long s = 0;
#pragma GCC unroll 4
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* Conditional accumulation unrolled by eight. */
static __attribute__((noinline)) long cond8(const int *v, int n, int lim)
{
	long s = 0;
#pragma GCC unroll 8
	for (int i = 0; i < n; i++)
		if (v[i] < lim)
			s += v[i];
		else
			s -= 1;
	return s;
}

/* Clears one array, copies another and transforms a third in one loop: gcc -O2
 * splits it into a memset, a memcpy and the loop left over. */
static __attribute__((noinline)) void distribute(int *restrict dst0, int *restrict dst1,
						 const int *restrict src, int *restrict acc, int n)
{
	for (int i = 0; i < n; i++) {
		dst0[i] = 0;
		dst1[i] = src[i];
		acc[i] += i * 3;
	}
}

/* Byte fill and byte copy loops gcc turns into library calls. */
static __attribute__((noinline)) void fill_bytes(unsigned char *p, int n, int v)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)v;
}

/* Searches for key with three ways out of the loop: a return when found, a break
 * at a sentinel, a goto when the budget runs out. */
static __attribute__((noinline)) int find3(const int *v, int n, int key, int budget)
{
	int i, steps = 0;
	for (i = 0; i < n; i++) {
		if (v[i] == key)
			return i;
		if (v[i] < 0)
			break;
		if (++steps > budget)
			goto over;
	}
	return -1 - (i & 1);
over:
	return -100 - steps;
}

/* Nested loops left by goto from the inner one, continue in the outer. */
static __attribute__((noinline)) int grid_scan(const int *v, int rows, int cols, int want)
{
	int hits = 0;
	for (int r = 0; r < rows; r++) {
		if ((r & 7) == 3)
			continue;
		for (int k = 0; k < cols; k++) {
			int x = v[r * cols + k];
			if (x == want)
				goto found;
			if (x > want + 900)
				break;
			hits += x & 1;
		}
		continue;
found:
		hits += 1000;
		if (hits > 5000)
			return hits;
	}
	return hits;
}

/* The first element decides: the loop usually exits in its first iteration. */
static __attribute__((noinline)) int first_exit(const int *v, int n)
{
	int i = 0;
	while (i < n) {
		if (v[i] & 1)
			return i;
		i += 2;
	}
	return -1;
}

static long stat[16];	/* counters of the long function */

/* One long function: a record interpreter with many small arms. */
static __attribute__((noinline)) long process(const int *v, int n, int mode)
{
	long r = 0;
	int i, state = 0, run = 0;

	if (n <= 0)
		return 0;
	if (mode < 0 || mode > 3)
		return -1;
	for (i = 0; i < n; i++) {
		int x = v[i];
		int op = x & 15;

		switch (op) {
		case 0:
			r += x;
			stat[0]++;
			break;
		case 1:
			if (x & 16)
				r -= x >> 5;
			else
				r += x >> 6;
			stat[1]++;
			break;
		case 2:
			if (state == 0)
				state = 1;
			else if (state == 1)
				state = 2;
			else
				state = 0;
			stat[2]++;
			break;
		case 3:
			for (int k = 0; k < (x & 7); k++)
				r += k * mode;
			stat[3]++;
			break;
		case 4:
			if (mode == 0)
				r ^= x;
			else if (mode == 1)
				r |= x & 0xff;
			else if (mode == 2)
				r &= ~(long)(x & 0xf0);
			else
				r += 4;
			stat[4]++;
			break;
		case 5:
			run++;
			if (run > 3) {
				run = 0;
				stat[5]++;
				continue;
			}
			break;
		case 6:
			r = r > 100000 ? r / 2 : r + 6;
			stat[6]++;
			break;
		case 7:
			if (x > 1000000 && state == 2)
				goto done;
			stat[7]++;
			break;
		case 8:
		case 9:
			r += op == 8 ? 8 : -9;
			stat[8]++;
			break;
		case 10:
			do {
				x >>= 3;
				r++;
			} while (x & 1);
			stat[10]++;
			break;
		case 11:
			if ((x & 0x30) == 0x10)
				r += 11;
			if ((x & 0x300) == 0x200)
				r -= 11;
			if ((x & 0x3000) == 0x1000)
				r += r / 4;
			stat[11]++;
			break;
		case 12:
			switch ((x >> 4) & 3) {
			case 0: r += 1; break;
			case 1: r += 2; break;
			case 2: r += 4; break;
			default: r += 8; break;
			}
			stat[12]++;
			break;
		case 13:
			if (state == 2 && mode == 3)
				return r + 13;
			stat[13]++;
			break;
		case 14:
			while (x > 0 && (x & 3) != 3) {
				x -= 5;
				r += 2;
			}
			stat[14]++;
			break;
		default:
			r += (x & 1) ? -1 : 1;
			stat[15]++;
			break;
		}
		if (r > 50000000)
			r -= 50000000;
		else if (r < -50000000)
			r += 50000000;
		if (i > 0 && v[i - 1] == x)
			state = 0;
	}
	r += state * 100 + run;
	return r;
done:
	return -r;
}

int main(void)
{
	int i;
	long t = 0;

	for (i = 0; i < N; i++) {
		a[i] = (int)(rnd() % 2000) - 20;
		c[i] = (int)(rnd() & 0x7fffff);
	}
	for (int n = 0; n < 40; n++)
		t += sum4(a, n) + sum4(a + n, 100 + n) + cond8(c, n * 5, 0x400000);
	printf("loops %ld\n", t);

	for (int rep = 0; rep < 6; rep++) {
		distribute(b, b + N / 2, a + rep, c, N / 2 - rep * 7);
		fill_bytes(bytes, N - rep * 50, rep + 'a');
	}
	t = 0;
	for (i = 0; i < N; i++)
		t += b[i] + c[i] + bytes[i];
	printf("distribute %ld\n", t);

	int f = 0;
	for (i = 0; i < 200; i++)
		f += find3(a, N, a[(i * 37) % N] + (i % 3 == 0), i % 50 + 5);
	printf("find3 %d\n", f);

	int g = 0;
	for (i = 0; i < 12; i++)
		g += grid_scan(a, 16, 32, a[i * 40]);
	printf("grid %d\n", g);

	int fe = 0;
	for (i = 0; i < 300; i++)
		fe += first_exit(a + (i % 400), 60);
	printf("first %d\n", fe);

	long p = 0;
	for (int m = -1; m < 5; m++)
		p += process(c, N, m) + process(a, N - m * 3, m);
	p += process(c, 0, 1);
	printf("process %ld\n", p);
	for (i = 0; i < 16; i++)
		printf("%ld%c", stat[i], i == 15 ? '\n' : ' ');
	return 0;
}
