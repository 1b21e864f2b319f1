/* `?:`s whose two ways the lines cannot tell apart at -O1/-O2: arms that
 * are PHI arguments (one way an edge copy, an li or a mv on the test's
 * line, the other none) or arms that both compute on the test's line.
 * The source can: a literal arm whose constant a way loads, an equality
 * test the branch tests as equality too, or a relational test whose
 * operands' registers tell which side they hold; the gcno block's first
 * arc is the true way of the test as the front end folded it
 * (`c ? 40u : y` becomes `!c ? y : 40u`). */
#include <stdio.h>

static unsigned g_seen;
static unsigned long long g_rs = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

/* x kept in the result's register, 12 loaded on the other way. */
static unsigned lit(unsigned x)
{
	return ((x & 15u) < 3u ? x : 12u) ^ g_seen;
}

/* A constant then-arm: folded into `x % 8u != 5u ? y : 40u`. */
static unsigned swapped(unsigned x, unsigned y)
{
	return (x % 8u == 5u ? 40u : y) + y;
}

/* Two variables: the arm block keeps the line (a PHI argument's
 * statement), the branch tests the residue against zero. */
static unsigned eqtest(unsigned x)
{
	if ((x >> 3) & 1u)
		x = (x % 10u == 0u ? x : g_seen);
	return x + 1u;
}

/* Both arms on the test's line, the test relational: its operands'
 * registers are told by the immediates computing them (andi 63, srli 5).
 * The return folds the first arm's value away (p ^ q ^ q is p), so that
 * arm's way is a bare return with the closing brace's line. */
static __attribute__((noinline)) unsigned rel(unsigned v, unsigned p,
                                              unsigned q)
{
	unsigned x = (v & 63u) > (q >> 5) ? (p ^ q) : (q % 13u);
	return x ^ q;
}

static __attribute__((noinline)) unsigned f(unsigned a, unsigned b)
{
	unsigned s = 0;

	for (unsigned i = 0; i < 8u; i++) {
		s += lit(a + i);
		s ^= swapped(b + i, a);
		s += eqtest(a * 7u + i);
		s ^= rel(a + i * 5u, s, b);
	}
	return s;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = rnd(), b = rnd();

		sum = sum * 33u + f(a, b);
		g_seen += sum & 3u;
	}
	printf("%u %u\n", sum, g_seen);
	return 0;
}
