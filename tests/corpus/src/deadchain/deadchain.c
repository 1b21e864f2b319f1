/* deadchain: `if (...) continue;` ending a loop body whose condition is a
 * chain of tests on one line, a `?:` inside a comparison inside `&&`/`||`
 * (gcc folds the comparison into the `?:`'s arms). The continue's way and
 * the fallthrough meet at the loop's test, so in the plain build gcc
 * deletes the tests of the chain from the last one back, with the `?:`
 * arms they read, even at -O0; the first tests of the chain may keep
 * their branches (one of their ways goes through the continue's goto
 * location), and the test deleted last keeps the code of its operands
 * without its branch. The instrumented twin keeps every test: the split
 * between the deleted tests' ways is gone from the machine code, every
 * other counter is not (claimed and equal at -O0; `PARTIAL_O0` in
 * tests/gcda/check_gcda.py). From progen.py seeds 2 and 10. */
#include <stdio.h>

static unsigned g[16];
static unsigned long sink;

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 3u + 1u;
}

/* The first two tests keep their branches; the third keeps its operands
 * only; the `?:` after `&&` and the last test leave no code. */
__attribute__((noinline)) static unsigned condq(unsigned a, unsigned b)
{
	unsigned x0 = a, x2 = b ^ 5u, x3 = 0, i = 0;
	do {
		i++;
		if (g[i & 15u] > x0)
			continue;
		x3 = h(g[b & 15u] + i);
		if ((x3 <= x2 || ((b >> 7) & 1u) ? 255u : g[x3 & 15u]) > 7u && x0 > ((x3 & 1u) == 0u ? g[x0 & 15u] : 0u))
			continue;
	} while (i < (a & 7u) + 2u && x0 % 3u != 2u);
	return x3 + i;
}

/* A negated chain: the first test keeps its branch, into the
 * continue's goto location; the second keeps its operands. */
__attribute__((noinline)) static unsigned notq(unsigned a, unsigned b)
{
	unsigned x0 = a, x2 = b, x3 = a + (b & 15u), i = 0, n = 0;
	while (i < 5u && b % 3u != 2u) {
		i++;
		n += h(i);
		if (!(x3 == (x0 + 13u) && i < (!((x2 & 15u) < 9u || x3 % 10u > 1u) ? g[a & 15u] : 5u)))
			continue;
	}
	return n;
}

/* `a && b && c` after other code of the body: the first test keeps its
 * operands, the others leave nothing. */
__attribute__((noinline)) static unsigned andc(unsigned a, unsigned b)
{
	unsigned x0 = a, n = 0;
	for (unsigned i = 0; i < 6u; i++) {
		n += i & a;
		x0 += h(i + (a & 3u));
		if (g[x0 & 15u] > x0 && ((b >> 2) & 1u) && x0 % 10u < 4u)
			continue;
	}
	return n + x0;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 40; i++) {
		g[i & 15u] = i * 11u + 3u;
		r += condq(i * 7u, i * 13u);
		r += notq(i * 3u, i * 7u);
		r += andc(i * 5u, i);
	}
	printf("%u %lu\n", r, sink);
	return 0;
}
