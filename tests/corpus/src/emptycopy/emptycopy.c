/* A helper inlined late at several calls, one of them with a constant
 * argument for which both ways of its second test give the same result:
 * bucket(3) reads slot[3] whether or not `x = 10 - x` runs (7 & 3 == 3),
 * so gcc deletes the test there and the copy keeps no code at all (its
 * inline record's range is empty, the one load is the caller's line).
 * The twin still counts that test's ways at the call; the other copies'
 * branches alone were claimed as the counts (tests/gcda/hunt/progen.py
 * seed 704 at -O2: 140 against the twin's 142). A late copy that left no
 * code makes the helper's counters inferred (gcda.c: other_copies). */
#include <stdio.h>

struct pair {
	unsigned a, b;
};

static unsigned tab[16];
static struct pair slot[4];
static unsigned long long seed = 0x2545f4914f6cdd1dull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 24) % 100u;
}

static unsigned bucket(unsigned x)
{
	if (x % 10u == 1u)
		return x % (x | 1u);
	if (tab[x & 15u] > x)
		x = 10u - x;
	return slot[x & 3u].b;
}

static unsigned mix(unsigned a, unsigned b)
{
	unsigned r = a ^ b, k = 3u;
	if ((a & 7u) < 5u) {
		r += bucket(a + k);
		slot[r & 3u].a = bucket(b | 10u);
	} else if (tab[b & 15u] > a) {
		tab[a & 15u] ^= bucket(b + b);
	} else {
		/* k is 3: bucket(3) folds to slot[3].b */
		slot[b & 3u].a = (1u ^ a) & bucket(k);
	}
	return r + bucket(r ^ b);
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++) {
		tab[i] = next();
		slot[i & 3u].b = next();
	}
	for (unsigned it = 0; it < 150u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + mix(a, b);
		if (it % 16u == 5u)
			tab[it & 15u] = next();
		if (it % 8u == 3u)
			slot[it & 3u].b = next();
	}
	printf("sum=%u\n", sum);
	return 0;
}
