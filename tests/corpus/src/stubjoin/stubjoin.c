/* stubjoin: at -O0 gcc lays a block that holds only a goto location (a
 * `nop` with the line of the edge's goto, then a jump) right before the
 * code it goes to, out of gcno block order: the `break` after an
 * `if (c) return` in a switch's case (before the code after the switch),
 * and the empty join of an if-else chain nested in an arm of another
 * `if`, which lists no line at all (its nop has the inner `if`'s line;
 * it sits before the outer join's code). The inner `if` compares a `?:`
 * with a constant, which gcc folds into both arms (each arm computes its
 * own comparison, a join tests the result): the arm taken when b == 15
 * lists the `if`'s line and has one arc to a later block, as a stub's
 * block does, but lands on no code of the stub's. Every counter is exact
 * at -O0 (from progen.py seed 610). */
#include <stdio.h>

static unsigned g[16];
static unsigned long sink;

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 5u + 3u;
}

__attribute__((noinline)) static unsigned pick(unsigned a, unsigned b,
                                               unsigned x)
{
	unsigned r = a ^ 7u;
	if ((b & 1u) || x % 3u == 1u) {
		switch (x % 4u) {
		case 0u:
			r += 3u;
			break;
		case 1u:
			if (a > 50u)
				return r;
			break;
		case 2u:
			if (a < 9u)
				return r + 1u;
			break;
		default:
			r ^= a;
			break;
		}
		if ((b == 15u ? a : x) > 2u) {
			if ((a & 3u) == 1u)
				goto out;
		} else if ((a >> 4) & 1u) {
			a -= x;
		} else if ((x >> 4) & 1u) {
			r = h(b > 1u ? x : r);
		}
	} else if ((a & 3u) == 0u) {
		g[x & 15u] = r;
		if (x > 6u) {
			r -= h(x);
		} else if ((r & 4u) == 0u) {
			r += 2u;
		}
	} else {
		r += g[b & 15u];
		if (r == 5u)
			goto mid;
		r++;
	}
mid:
	r += h(a);
out:
	return r ^ x;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 60; i++) {
		g[i & 15u] = i * 7u + 1u;
		r += pick(i * 13u + 1u, i % 17u, (i * 5u) % 11u);
		r += pick(i, 15u, i & 3u);
	}
	printf("%u %lu\n", r, sink);
	return 0;
}
