/* `if ((A && B) || C)` where most paths into the test know B false (a
 * mode that sets B's operand): jump threading sends those paths past A
 * and B straight to C, so only one copy of A keeps its branch, while the
 * instrumented run counts A on every path. The executions no branch saw
 * keep A's odds (gcda_skipped.c), not all go A's false way. */
#include <stdio.h>

static unsigned level[32];
static unsigned tally[4];
static unsigned long long state = 0x9e3779b97f4a7c15ull;

static unsigned draw(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state >> 17);
}

__attribute__((noinline)) static unsigned grade(unsigned v, unsigned mode, unsigned lim)
{
	unsigned cap = lim, r = v & 255u;

	switch (mode) {
	case 0u:
		cap = 0u;
		tally[0]++;
		break;
	case 1u:
		cap = r;
		tally[1]++;
		break;
	case 2u:
		cap = lim + (v >> 20);
		break;
	default:
		cap = r >> 1;
		tally[3] += v & 1u;
		break;
	}
	if ((level[v & 31u] > 40u && cap > r) || (v & 7u) == 3u)
		r = level[(v >> 5) & 31u] * 3u + 1u;
	else if (r > 200u)
		r -= cap;
	return r ^ cap;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 32u; i++)
		level[i] = draw() % 50u;
	for (unsigned it = 0; it < 2000u; it++) {
		unsigned v = draw();
		sum = sum * 33u + grade(v, (v >> 9) % 4u, 128u);
	}
	printf("%u %u %u %u %u\n", sum, tally[0], tally[1], tally[2], tally[3]);
	return 0;
}
