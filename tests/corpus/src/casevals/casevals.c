/* casevals: a switch gcc compiles as a tree of equality tests (no jump
 * table) inside a loop, its case constants loaded once before the loop,
 * one case only falling through to the next and one case with no code of
 * its own: which case a test's equal way runs, the value it compares
 * tells (`case K:` read from the source), not the lines (gcda_caseval.c).
 * A statement of a case whose invariant part gcc moves before the loop:
 * that code is no entry of its line (gcda_invariant.c). A helper inlined
 * early, `if (v < 40u) return 77u; return bias;`: the return of the
 * constant became a PHI argument on the direct arc, its `li` on the way
 * keeps the return's line, which no gcno block lists
 * (gm_gone_stmt_arms). */
#include <stdio.h>

static unsigned bias;
static unsigned tab[8];
static unsigned long long st = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	st ^= st << 7;
	st ^= st >> 9;
	return (unsigned)(st >> 13);
}

static unsigned clampv(unsigned v)
{
	if (v < 40u)
		return 77u;
	return bias;
}

static __attribute__((noinline)) unsigned walk(unsigned a, unsigned n)
{
	unsigned acc = a, k = n >> 3, m = 0;
	for (unsigned i = 0; i < n; i++) {
		switch ((tab[i & 7u] + bias + a) % 4u) {
		case 0u:
			m += 9u;
			__attribute__((fallthrough));
		case 1u:
			acc = bias;
			break;
		case 2u:
			acc ^= tab[(acc + i) & 7u] * 3u;
			tab[i & 7u] += acc >> 5;
			break;
		case 3u:
			tab[k & 7u] += (acc & 31u) < 12u ? k ^ 5u : m;
			break;
		}
		a = a * 5u + 1u;
	}
	return acc + m;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 8u; i++)
		tab[i] = rnd() % 1000u;
	for (unsigned r = 0; r < 120u; r++) {
		unsigned v = rnd() % 1000u;
		bias += v & 3u;
		sum = sum * 33u + walk(v, 20u + (v & 15u));
		sum += clampv(v % 400u) + clampv(r);
	}
	printf("sum=%u bias=%u\n", sum, bias);
	return 0;
}
