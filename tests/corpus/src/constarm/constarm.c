/* A `?:` whose arms copy values only (hunt seed 1195's shape):
 * `t[x & 15u] > x ? (x - x) : t[x & 15u]` inlined into a loop. The
 * loaded t[..] is already in the join's register for the else arm; the
 * then arm's 0 is a PHI constant, which out of SSA goes on the way of
 * the arc without a block of its own: `li a5,0` under the `?:`'s line,
 * which the condition's block and the else arm's block list alike. Read
 * as the arm block's code, the then and else counts came out swapped
 * (17 claimed for 133). */
#include <stdio.h>
static unsigned t[16];
static unsigned rs = 4242u;

static unsigned rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 17;
	rs ^= rs << 5;
	return rs % 1000u;
}

static unsigned pick(unsigned x) { return t[x & 15u] > x ? (x - x) : (t[x & 15u] > x ? x : t[x & 15u]); }

static __attribute__((noinline)) unsigned fill(unsigned a, unsigned b)
{
	unsigned x1 = b;
	for (unsigned i = 0; i < (b & 3u) + 1u; i++) {
		x1 += 2u;
		t[a & 15u] = pick(b + i * 97u);
	}
	return x1 ^ t[a & 15u];
}

int main(void)
{
	unsigned s = 0;
	for (unsigned k = 0; k < 16u; k++)
		t[k] = rnd();
	for (unsigned k = 0; k < 60u; k++)
		s += fill(rnd(), rnd());
	printf("%u\n", s);
	return 0;
}
