/* Condition chains on one line mixing `||` and `&&`: an insertion sort's
 * `while (j > 0 && (r[j - 1].pri < v.pri || (r[j - 1].pri == v.pri &&
 * r[j - 1].id > v.id)))`, whose tests leave the chain to two places (the
 * loop body and the exit), the loop's own `j > 0` test rotated to the
 * bottom, and a plain `if` of the same mix. The run of the line's
 * branches in source order pairs with the chain's blocks; the last test's
 * ways land where earlier tests leave to (gcda_chain.c: mixed_last). */
#include <stdio.h>

struct rec {
	int pri;
	int id;
};

static unsigned long long seed = 0x2545f4914f6cdd1dull;

static unsigned pick(unsigned n)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(seed >> 33) % n;
}

/* By priority, highest first; equal priorities by id, lowest first. */
static void order(struct rec *r, int n)
{
	for (int i = 1; i < n; i++) {
		struct rec v = r[i];
		int j = i;
		while (j > 0 && (r[j - 1].pri < v.pri || (r[j - 1].pri == v.pri && r[j - 1].id > v.id)))
			r[j] = r[j - 1], j--;
		r[j] = v;
	}
}

/* Counts records before (lo, hi) in the same order. */
static int before(const struct rec *r, int n, int lo, int hi)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		if (r[i].pri > lo || (r[i].pri == lo && r[i].id < hi))
			c++;
	return c;
}

int main(void)
{
	static struct rec r[300];
	long sum = 0;
	for (int round = 0; round < 4; round++) {
		int n = 120 + 60 * round;
		for (int i = 0; i < n; i++) {
			r[i].pri = (int)pick(6u);
			r[i].id = (int)pick(1000u);
		}
		order(r, n);
		for (int i = 0; i < n; i += 7)
			sum += (long)r[i].pri * 1000 + r[i].id;
		sum += before(r, n, 3, 500);
	}
	printf("%ld %d %d\n", sum, r[0].pri, r[299].id);
	return 0;
}
