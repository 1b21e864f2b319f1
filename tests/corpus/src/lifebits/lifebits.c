/* A bit-board game of life, qsort + bsearch, snprintf string building,
 * recursion through function pointers, long long arithmetic, unsigned
 * wraparound loops and bit builtins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16
typedef unsigned short row_t;

static row_t board[N], next[N];

/* Called once: gcc inlines it. */
static void seed(unsigned s)
{
	for (int y = 0; y < N; y++) {
		s = s * 1103515245u + 12345u;
		board[y] = (row_t)(s >> 8);
	}
}

/* Called for every cell: counts the live neighbours on a torus. */
static int neigh(int y, int x)
{
	int c = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			if (!dy && !dx)
				continue;
			int yy = (y + dy + N) % N, xx = (x + dx + N) % N;
			c += (board[yy] >> xx) & 1;
		}
	return c;
}

static void step(void)
{
	for (int y = 0; y < N; y++) {
		row_t r = 0;
		for (int x = 0; x < N; x++) {
			int n = neigh(y, x), alive = (board[y] >> x) & 1;
			int v = n == 3 ? 1 : n == 2 ? alive : n > 3 ? 0 : 0;
			r |= (row_t)(v << x);
		}
		next[y] = r;
	}
	memcpy(board, next, sizeof board);
}

static int population(void)
{
	int p = 0;
	for (unsigned y = N - 1; y < N; y--)    /* wraps to UINT_MAX to stop */
		p += __builtin_popcount(board[y]);
	return p;
}

/* Index of the first live cell, scanning rows; early return from the nest. */
static int first_live(int *fy, int *fx)
{
	for (int y = 0; y < N; y++)
		for (row_t r = board[y]; r; r &= (row_t)(r - 1)) {
			*fy = y;
			*fx = __builtin_ctz(r);
			return 1;
		}
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Recursion through function pointers: even/odd walk a tree of calls. */
typedef long long (*walk_fn)(int, long long);
static long long walk_even(int n, long long acc);
static long long walk_odd(int n, long long acc);
static const walk_fn walkers[2] = { walk_even, walk_odd };

static long long walk_even(int n, long long acc)
{
	if (n <= 0)
		return acc;
	return walkers[(n - 1) & 1](n - 1, acc * 3 + n);
}

static long long walk_odd(int n, long long acc)
{
	if (n <= 0)
		return acc;
	return walkers[(n - 1) & 1](n - 1, acc / 7 - n) + 1;
}

/* Appends with snprintf, stopping cleanly when the buffer is full. */
static size_t append(char *buf, size_t len, size_t cap, const char *fmt, int v)
{
	if (len >= cap)
		return len;
	int k = snprintf(buf + len, cap - len, fmt, v);
	return k < 0 ? len : len + (size_t)k >= cap ? cap : len + (size_t)k;
}

int main(void)
{
	int pops[40], fy = -1, fx = -1;
	char line[96];
	size_t len = 0;

	seed(7);
	for (int g = 0; g < 40; g++) {
		pops[g] = population();
		step();
	}
	printf("final population %d\n", population());
	if (first_live(&fy, &fx))
		printf("first live %d,%d\n", fy, fx);
	for (int y = 0; y < 4; y++) {
		char rowtxt[N + 1];
		for (int x = 0; x < N; x++)
			rowtxt[x] = (board[y] >> x) & 1 ? '#' : '.';
		rowtxt[N] = 0;
		printf("%s\n", rowtxt);
	}

	qsort(pops, 40, sizeof pops[0], cmp_int);
	for (int g = 0; g < 40; g++)
		len = append(line, len, sizeof line, g ? ",%d" : "%d", pops[g]);
	printf("sorted %s (%zu)\n", line, len);
	int hits = 0;
	for (int key = 0; key < 120; key += 5)
		hits += bsearch(&key, pops, 40, sizeof pops[0], cmp_int) != NULL;
	printf("bsearch hits %d\n", hits);

	long long big = 1;
	unsigned long long u = 0;
	for (int i = 1; i <= 25; i++) {
		big = big * 31 + walkers[i & 1](i, i * 1000003LL);
		u += (unsigned long long)big / (unsigned long long)(i * 7 + 1);
		big %= 1000000007LL * 1000003LL;
	}
	printf("walk %lld %llu %lld\n", big, u, big / -12345LL);

	unsigned bits = 0;
	for (unsigned v = 0xfffu; v != 0xfffu - 42u; v -= 3u)
		bits += (unsigned)__builtin_popcount(v) ^ (unsigned)__builtin_ctz(v | 0x100u);
	printf("bits %u\n", bits);
	return 0;
}
