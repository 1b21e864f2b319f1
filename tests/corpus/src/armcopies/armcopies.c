/* armcopies: conditions whose arms gcc -O1/-O2 leaves without code of
 * their own: a `?:` whose likely value is computed before the test (the
 * branch then skips the other arm straight to the return, whose code has
 * the closing brace's line), two identical returns after an `&&` test
 * (gcc lays the second one's way out first), and a `?:` choosing between
 * a value already in a register and the old one (out of SSA, the copy
 * lands on the other way of an inverted branch). */
#include <stdio.h>

static unsigned long sink;
static unsigned gate[2];

/* The test is true unless v + 3 wraps. */
__attribute__((noinline)) static unsigned pick_hoisted(const unsigned *a, unsigned p, unsigned q)
{
	unsigned x;
	x = (a[(p + q) & 31] >> 1) < (a[(p + q) & 31] + 3u) ? (p ^ q) : (q % 13u);
	return x ^ q;
}

__attribute__((noinline)) static unsigned same_returns(unsigned p, unsigned q)
{
	unsigned x = p, y = q;
	if ((x < 2u) && ((q % 13u) < (gate[1] % 13u)))
		return (x ^ y);
	return x ^ y;
}

__attribute__((noinline)) static unsigned keep_or_take(const unsigned *a, unsigned p, unsigned q)
{
	unsigned x;
	x = ((a[0] * 7u) < 8u) && (p > 1u) ? q : (a[0] >> 1);
	x = (gate[1] & 4u) == 0 ? (a[0] * 7u) : x;
	return x ^ q;
}

int main(void)
{
	unsigned a[32];
	unsigned s = 12345u, t = 0;
	for (int r = 0; r < 60; r++) {
		for (int i = 0; i < 32; i++) {
			s = s * 1103515245u + 12345u;
			a[i] = (s >> 16) % 23u;
		}
		gate[1] = a[7] + (unsigned)r;
		t += pick_hoisted(a, a[3] + (unsigned)r, a[5]);
		t += same_returns(a[3] + (unsigned)r, a[5]);
		t += keep_or_take(a, (unsigned)r % 4u, a[5]);
		sink += t;
	}
	printf("%u %lu\n", t, sink);
	return 0;
}
