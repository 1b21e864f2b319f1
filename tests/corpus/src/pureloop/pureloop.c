/* A helper that only reads memory (gcc finds it pure) called in a loop
 * with an argument the loop does not change, the loop doing nothing
 * else: gcc computes the loop's outcome and calls the helper once, where
 * the twin calls it on every iteration. The loop is in a function
 * inlined into main, whose own loop runs around it, so the call
 * instruction still lies on a machine cycle and ran more often than
 * main was called (the check for loops gone, calls against the calls of
 * the machine function holding them, missed it): the helper's counters
 * were claimed from its out-of-line body (tests/gcda/hunt/progen.py seed
 * 796 at -O1: 93 against the twin's 109). A call in a gcno loop that
 * control never reaches again without leaving the inlined copy of the
 * loop's function marks the helper's calls as not all shown
 * (gcda_pure.c: loop_gone). */
#include <stdio.h>

static unsigned tab[16];
static unsigned long long seed = 0xda3e39cb94b95bdbull;

static __attribute__((noinline)) unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned odd0(unsigned x)
{
	if ((x & 1u) == 1u)
		return x % 1u;
	if (x < 6u)
		x = tab[x & 15u];
	return x | 4u;
}

static unsigned step(unsigned a, unsigned b)
{
	unsigned k = 3u, i = 0;
	while (i < (a & 3u) && ((b >> 6) & 1u)) {
		i++;
		k = odd0(b | 13u);
	}
	if ((b & 31u) < 14u && k % 10u != 2u)
		return tab[a & 15u] + b;
	return k ^ a;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 80u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + step(a, b);
		sum ^= odd0(a) + odd0(b & 6u);
		sum += sum >> 7;
	}
	printf("sum=%u\n", sum);
	return 0;
}
