/* A function inlined twice: into main, and into helper o0 inlined into f0
 * where o0's result is unused, so gcc deletes that copy (no code, no
 * inline record) while the instrumented twin's copy counts its arcs. */
#include <stdio.h>

static unsigned long sink;
static unsigned g[4] = {3, 17, 5, 9};
static unsigned tab[32];

__attribute__((noinline)) static unsigned k(unsigned v)
{
	sink += v;
	return v * 3u;
}

static unsigned m1(const unsigned *a, unsigned p, unsigned q)
{
	unsigned x = p;
	if ((q & 15u) < (p + 3u)) {
		x = g[1] >> 1;
		if ((a[q & 31] ^ q) > 2u)
			return q + 3u;
	}
	return x ^ q;
}

static unsigned o0(const unsigned *a, unsigned p, unsigned q)
{
	unsigned x = k(p >> 1);
	if ((a[(x + q) & 31] & 15u) <= 3u)
		return g[1] * 7u;
	x = m1(a, x, q);
	return x ^ q;
}

__attribute__((noinline)) static unsigned f0(const unsigned *a, unsigned p,
                                             unsigned q)
{
	unsigned x = p;
	x ^= o0(a, p % 13u, q + 3u);
	x = g[1] + 3u + (p & 1u);
	return x;
}

int main(void)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < 32; i++)
		tab[i] = i * 2654435761u >> 7;
	for (unsigned r = 0; r < 60; r++) {
		acc += m1(tab, r & 7u, tab[r & 31]);
		acc += f0(tab, r * 5u, r);
	}
	printf("%u %lu\n", acc, sink);
	return 0;
}
