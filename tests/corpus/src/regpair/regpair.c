/* regpair: helpers calling each other, copied early into main on lines
 * of their own, one copy keeping a call the IPA inliner inlined late:
 * the late copy's `n == 0` test and the early copy's land on the same
 * line, and a branch of the outer copy matches both gcno conditions one
 * way round each. Copies of one condition compare the same registers:
 * the condition whose own branches compare another pair is not this
 * branch's (gcda_pin.c: other_regs_block). */
#include <stdio.h>

static unsigned pong(unsigned n);

static unsigned ping(unsigned n)
{
	return n < 3 ? n * 2 + 1 : pong(n - 3);
}

static unsigned pong(unsigned n)
{
	return n == 0 ? 11 : ping(n - 1);
}

int main(void)
{
	unsigned acc = 7;

	for (unsigned i = 0; i < 60; i++) {
		acc = acc * 5 + ping(i * 7 + 2);
		acc ^= pong(i * 3) << 2;
	}
	printf("%u\n", acc);
	return 0;
}
