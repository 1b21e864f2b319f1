/* memo: memoized recursion (edit distance, LCS, knapsack), tail recursion gcc turns
 * into loops at -O2, mutual recursion across two units, computed static indices. */
#include <stdio.h>
#include <string.h>
#include "memo.h"

static unsigned lcg_state = 2463534242u;
static unsigned lcg(void)
{
	lcg_state = lcg_state * 1664525u + 1013904223u;
	return lcg_state >> 8;
}

#define MAXS 40
static char sa[MAXS + 1], sb[MAXS + 1];
static int la, lb;
static int ed_memo[MAXS + 1][MAXS + 1];
static long ed_calls;

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

static int edit(int i, int j)
{
	ed_calls++;
	if (i == la)
		return lb - j;
	if (j == lb)
		return la - i;
	int *m = &ed_memo[i][j];
	if (*m >= 0)
		return *m;
	int r;
	if (sa[i] == sb[j])
		r = edit(i + 1, j + 1);
	else
		r = 1 + min3(edit(i + 1, j), edit(i, j + 1), edit(i + 1, j + 1));
	return *m = r;
}

static short lcs_memo[MAXS + 1][MAXS + 1];
static int lcs(int i, int j)
{
	if (i == 0 || j == 0)
		return 0;
	short *m = &lcs_memo[i][j];
	if (*m != -1)
		return *m;
	int r;
	if (sa[i - 1] == sb[j - 1]) {
		r = lcs(i - 1, j - 1) + 1;
	} else {
		int x = lcs(i - 1, j), y = lcs(i, j - 1);
		r = x > y ? x : y;
	}
	*m = (short)r;
	return r;
}

/* Reconstruct the LCS string iteratively from the memo table. */
static int lcs_string(char *out)
{
	int i = la, j = lb, k = lcs(la, lb);
	out[k] = 0;
	while (i > 0 && j > 0) {
		if (sa[i - 1] == sb[j - 1]) {
			out[--k] = sa[i - 1];
			i--, j--;
		} else if (lcs(i - 1, j) >= lcs(i, j - 1)) {
			i--;
		} else {
			j--;
		}
	}
	return k;
}

#define NITEMS 18
#define CAP 160
static int wt[NITEMS], val[NITEMS];
static int ks_memo[NITEMS + 1][CAP + 1];
static unsigned char ks_seen[NITEMS + 1][CAP + 1];
static int ks_hits;

static int knap(int i, int cap)
{
	if (i == NITEMS || cap == 0)
		return 0;
	if (ks_seen[i][cap]) {
		ks_hits++;
		return ks_memo[i][cap];
	}
	int best = knap(i + 1, cap);
	if (wt[i] <= cap) {
		int with = val[i] + knap(i + 1, cap - wt[i]);
		if (with > best)
			best = with;
	}
	ks_seen[i][cap] = 1;
	ks_memo[i][cap] = best;
	return best;
}

/* Tail recursive: gcc -O2 makes these loops. */
static int count_digits(unsigned long v, int acc)
{
	if (v < 10)
		return acc + 1;
	return count_digits(v / 10, acc + 1);
}

static unsigned long powmod(unsigned long b, unsigned e, unsigned long m, unsigned long acc)
{
	if (e == 0)
		return acc;
	if (e & 1)
		return powmod(b * b % m, e >> 1, m, acc * b % m);
	return powmod(b * b % m, e >> 1, m, acc);
}

/* Computed indices into static arrays. */
static unsigned histo[64];
static unsigned char perm[256];

static void fill_perm(void)
{
	for (int i = 0; i < 256; i++)
		perm[i] = (unsigned char)i;
	for (int i = 255; i > 0; i--) {
		int j = lcg() % (i + 1);
		unsigned char t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

static unsigned chase(unsigned start, int steps)
{
	unsigned x = start & 255;
	while (steps-- > 0) {
		x = perm[(x * 7 + perm[x]) & 255];
		histo[(x ^ (x >> 3)) & 63]++;
	}
	return x;
}

static void random_str(char *s, int *len, int alpha)
{
	int n = 8 + lcg() % (MAXS - 8);
	for (int i = 0; i < n; i++)
		s[i] = (char)('a' + lcg() % alpha);
	s[n] = 0;
	*len = n;
}

int main(void)
{
	unsigned long check = 0;
	char buf[MAXS + 1];

	for (int round = 0; round < 8; round++) {
		random_str(sa, &la, 3 + round % 5);
		random_str(sb, &lb, 3 + round % 5);
		if (round % 4 == 3) { /* near-identical strings */
			memcpy(sb, sa, la + 1);
			lb = la;
			sb[lcg() % lb] = 'z';
		}
		memset(ed_memo, -1, sizeof ed_memo);
		memset(lcs_memo, -1, sizeof lcs_memo);
		int d = edit(0, 0);
		int l = lcs(la, lb);
		int k = lcs_string(buf);
		check = check * 31 + (unsigned)(d * 1000 + l);
		if (round < 5)
			printf("ed(%d,%d)=%d lcs=%d k=%d %s\n", la, lb, d, l, k, buf);
	}
	printf("edit calls %ld\n", ed_calls);

	for (int t = 0; t < 3; t++) {
		for (int i = 0; i < NITEMS; i++) {
			wt[i] = 3 + lcg() % (20 + t * 15);
			val[i] = 1 + lcg() % 60;
		}
		memset(ks_seen, 0, sizeof ks_seen);
		int best = knap(0, CAP - t * 40);
		printf("knap %d: best=%d hits=%d\n", t, best, ks_hits);
		check = check * 31 + (unsigned)best;
	}

	long dsum = 0;
	for (unsigned long v = 1; v < 4000000000000ul; v = v * 3 + 7)
		dsum += count_digits(v, 0);
	unsigned long pm = 0;
	for (unsigned e = 0; e < 300; e += 7)
		pm ^= powmod(3 + e, e * 13 + 1, 1000000007ul, 1);
	printf("digits %ld powmod %lu\n", dsum, pm);

	unsigned g = 0;
	for (unsigned a = 1; a < 400; a += 13)
		for (unsigned b = 1; b < 300; b += 11)
			g += gcd_tail(a * 7, b * 5);
	int calls = 0, tr = 0;
	for (int n = 0; n < 15; n++)
		tr += tree_a(n, &calls);
	long eo = 0;
	for (unsigned n = 0; n < 200; n += 3)
		eo += is_even_depth(n, 0) - is_odd_depth(n + 1, 0);
	int vec[100];
	for (int i = 0; i < 100; i++)
		vec[i] = (int)(lcg() % 1000) - 500;
	long st = sum_tail(vec, 100, 0);
	printf("gcd %u tree %d calls %d evenodd %ld sum %ld\n", g, tr, calls, eo, st);

	fill_perm();
	unsigned x = 0;
	for (int s = 0; s < 20; s++)
		x = chase(x + s, 500);
	unsigned hmax = 0, hidx = 0;
	for (unsigned i = 0; i < 64; i++)
		if (histo[i] > hmax)
			hmax = histo[i], hidx = i;
	printf("chase %u hmax %u at %u\n", x, hmax, hidx);
	check = check * 31 + g + (unsigned)tr + (unsigned long)eo + (unsigned long)st + x;
	printf("check %lu\n", check);
	return 0;
}
