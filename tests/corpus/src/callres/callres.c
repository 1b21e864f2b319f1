/* A loop test of what a call returned, after a test of the same line:
 * `while (*t && ok(t, *t)) t++;` in span(), inlined late into main. ok()
 * has a side effect, so gcc ends a gcno block at its call (a fake arc)
 * and the result's test is the block the call's block falls into. The
 * machine code tests `bnez a0` right after `jal ok` and its taken way
 * starts with the next `*t` load (the loop's first test, rotated) before
 * t++: by its lines alone it passed for the `*t` test's copy
 * (gcda_callres.c). */
#include <stdio.h>

static const char *const words[] = {
	"alpha", "be-ta", "gamma", "x", "", "delta-epsilon", "zeta", "-eta",
	"theta", "io-ta", "kappa", "lambda-", "mu", "nu", "xi-omicron", "pi",
};

static unsigned looked;

static __attribute__((noinline)) int ok(const char *at, char c)
{
	looked++;
	return c != '-' && at[1] != '-';
}

static unsigned span(const char *s, unsigned *calls)
{
	const char *t = s;
	while (*t && ok(t, *t))
		t++;
	++*calls;
	return (unsigned)(t - s);
}

int main(void)
{
	unsigned total = 0, calls = 0;
	for (unsigned r = 0; r < 25; r++)
		for (unsigned k = 0; k < sizeof(words) / sizeof(words[0]); k++)
			total += span(words[(k + r) % 16], &calls) * (k + 1);
	printf("total %u calls %u looked %u\n", total, calls, looked);
	return 0;
}
