/* A one-line helper `t[x & 15] > x ? 100u : t[x & 15]` inlined early twice
 * on one line, `clamp(clamp(10u))`: each copy's `?:` has one empty arm
 * block (no line) and a direct arc into its join, and out of SSA the
 * constant 100 is loaded on the direct arc's way (`li a4,100`), which
 * then falls into the next copy's code just as the other way does. The
 * rule for copies side by side (gcda_siblings.c) took the way that stays
 * in the copy for the arm block and the other for the arc into the next
 * copy: the two arcs' counts were swapped and claimed (progen.py seed 801
 * at -O2: 56 against the twin's 0; here every tab[] entry is above 15, so
 * the inner test always takes the constant). blend's store keeps gcc
 * from hoisting the copies out of the loop. A way of only edge copies
 * into the other way's landing tells no arc (copies_then). */
#include <stdio.h>

static unsigned tab[16];
static unsigned long long seed = 0x4f1bbcdcbfa53e0bull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned clamp(unsigned x) { return tab[x & 15u] > x ? 100u : tab[x & 15u]; }

static __attribute__((noinline)) unsigned blend(unsigned a, unsigned b)
{
	tab[(a ^ b) & 7u] += b & 1u;
	return (a ^ (b << 3)) + (a >> 2);
}

static __attribute__((noinline)) unsigned walk(unsigned n, unsigned x)
{
	unsigned y = x;
	if (n == 0u)
		return tab[1];
	y += blend(tab[y & 15u] > x ? tab[y & 3u] : y, x + 1u);
	for (unsigned i = 0; i < 7u; i++) {
		y -= clamp(clamp(10u));
		y += blend(n > 2u || tab[y & 15u] > i ? i : x, x);
	}
	return y + walk(n - 1u, 10u >> (tab[x & 15u] & 7u));
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next() | 16u;
	for (unsigned it = 0; it < 24u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + walk(a & 3u, b);
	}
	printf("sum=%u\n", sum);
	return 0;
}
