/* invexit: tests gcc moves out of the loop they are written in (an exit
 * test of values the loop does not change, evaluated once per entry of
 * the loop), and switch cases whose statements leave no code (a dead
 * store), whose jump-table entry lands on code partial redundancy
 * elimination put there with another case's line, and a `a || b ? v : w`
 * whose arms are register copies on the way to the join. */
#include <stdio.h>

static unsigned g[8];
static unsigned long sink;
static unsigned tab[32];

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 3u + 1u;
}

/* `(q + 3) & 3` does not change in the do-while: gcc tests it once
 * before the loop, which it then runs to the end. */
__attribute__((noinline)) static unsigned hoisted(const unsigned *a, unsigned n,
                                                  unsigned p, unsigned q)
{
	unsigned x = p, y = q;
	unsigned i1 = n;
	do {
		for (unsigned i2 = 0; i2 < 3u; i2++) {
			g[7]++;
			x = (p & 15u);
		}
		if (((x % 13u) & 2u) == 0) {
			x = (g[1] % 13u);
		}
		if (((q + 3u) & 3u) == 0)
			return (x ^ y);
	} while (--i1);
	return x + a[y & 31];
}

/* Case 4 only stores to x, which nothing reads after the switch. */
__attribute__((noinline)) static unsigned deadcase(const unsigned *a, unsigned p,
                                                   unsigned q, unsigned x,
                                                   unsigned y)
{
	switch ((x >> 1) % 6u) {
	case 0:
		y += h((a[(x + y) & 31] % 13u));
		y += h((a[(x + y) & 31]));
		return (p % 13u);
	case 1:
		sink += (p ^ y);
		__attribute__((fallthrough));
	case 2:
		y += h((g[1] + 3u));
		break;
	case 3:
		y += h((g[1]));
		x = (q % 13u);
		break;
	case 4:
		x = (y % 13u);
		break;
	default:
		sink += (g[1] >> 1);
		break;
	}
	unsigned i1 = 5u;
	do {
		sink += (a[p & 31] + 3u);
		g[3]++;
	} while (--i1);
	return y;
}

/* `x = A || B ? p * 7 : p`: p * 7 is in a register already (the
 * switch's), so the arm of the second test's fallthrough is one copy
 * and both ways of that test reach the join. */
__attribute__((noinline)) static unsigned orpick(const unsigned *a, unsigned p,
                                                 unsigned y)
{
	unsigned x = y;
	switch ((p * 7u) % 5u) {
	case 0:
		x = (g[1] + 3u < a[p & 31] >> 1) || ((g[1] + 3u) & 3u) == 0 ? p * 7u : p;
		if ((p) < (p * 7u)) {
			y += h((p ^ y));
			x = (a[p & 31] ^ y);
		} else if ((y + 3u) < (p * 7u)) {
			sink += (p ^ y);
		} else {
			sink += (x);
			g[7]++;
		}
		break;
	case 1:
		g[2]++;
		break;
	case 2:
		x = h(p);
		break;
	default:
		sink += p;
		break;
	}
	return x ^ y;
}

/* `if (A || B) x = q >> 1; else x = p % 13;` in a loop: both values are
 * in registers before the tests, so each arm is one copy on the way to
 * the join, and the last test's ways both reach it. */
__attribute__((noinline)) static unsigned orcopy(const unsigned *a, unsigned n,
                                                 unsigned p, unsigned q)
{
	unsigned x = p, y = q, i1 = 0;
	while (i1 < n && a[i1 & 31] != 7u) {
		i1++;
		x = (g[1] * 7u);
		if (((x & 15u) & 4u) == 0)
			y += h((a[p & 31] & 15u));
		if (((p * 7u) < (g[1] & 15u)) || (((x >> 1) & 1u) == 0)) {
			x = (p);
			x = (q >> 1);
		} else {
			x = (p * 7u);
			x = (p % 13u);
		}
		sink += x;
	}
	return x + y + i1;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 32; i++)
		tab[i] = i * 2654435761u >> 7;
	g[1] = 5;
	for (unsigned i = 0; i < 20; i++)
		r += hoisted(tab, 1 + i % 7, i * 3u, i);
	for (unsigned i = 0; i < 12; i++)
		r += deadcase(tab, i, i * 5u, i % 3 ? 8u + 12u * i : i * 2u, i);
	for (unsigned i = 0; i < 15; i++) {
		g[1] = i % 3 ? 0xfffffff0u : 0xfffffff9u;
		r += orpick(tab, i % 5 ? i : 5u * i, i * 3u);
	}
	for (unsigned i = 0; i < 12; i++) {
		g[1] = i * 3u + 1u;
		r += orcopy(tab, 5u + i % 4u, i, i * 11u);
	}
	printf("%u %lu %u %u\n", r, sink, g[7], g[3]);
	return 0;
}
