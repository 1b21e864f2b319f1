/* A three-test helper inlined early twice, on two lines of one loop:
 * `fits(p, lo, hi)` is `p->w >= lo && (p->w <= hi || p->tag == 7)`,
 * three conditions on one line, and pick() calls it for two slots, so
 * its gcno lists six condition blocks on that line, three per copy. The
 * lines of a test's ways cannot tell the copy's three blocks apart (they
 * list only the helper's line, the arms' code sunk below the tests), but
 * the way the copy's tests run into each other does (gcda_copychain.c):
 * the test no other test of the copy runs into is its first block's.
 * gcc -O2 threads the second copy's chain twice (after the first copy's
 * true way and after its false way): two chains of three tests for one
 * copy's three blocks, each pairing alone. */
#include <stdio.h>

struct item {
	int w, tag;
};

static struct item items[64];
static unsigned rng = 12345u;

static unsigned roll(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 16;
}

static int fits(const struct item *p, int lo, int hi)
{
	return p->w >= lo && (p->w <= hi || p->tag == 7);
}

static __attribute__((noinline)) int pick(int n, int lo, int hi)
{
	int got = 0;
	for (int i = 0; i + 1 < n; i += 2) {
		int best = -1;
		if (fits(&items[i], lo, hi))
			best = i;
		if (fits(&items[i + 1], lo + 3, hi - 2))
			best = i + 1;
		if (best >= 0)
			got += (best & 3) + 1;
	}
	return got;
}

int main(void)
{
	long total = 0;
	for (int i = 0; i < 64; i++) {
		items[i].w = (int)(roll() % 100u);
		items[i].tag = (int)(roll() % 9u);
	}
	for (int r = 0; r < 40; r++)
		total += pick(64 - r, r, 60 + r / 2);
	printf("total %ld\n", total);
	return 0;
}
